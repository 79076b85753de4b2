//! `looplab`: the window by default, `looplab lab` for the headless lab; in a browser, the
//! page (`cargo xtask web`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("info,wgpu_core=warn,wgpu_hal=warn,naga=warn"),
    )
    .init();
    looplab::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    looplab::web::entry::start();
}
