fn main() {
    println!("looplab");
}
