//! A page's address as the window's options: `?strategy=fixed-sleep&cap=40&bullets=2000`
//! means what `looplab --strategy fixed-sleep --cap 40 --bullets 2000` means, checked by the
//! same parser, so a page and the native window take the same options with the same
//! messages. What a page cannot do (write or read files, quit by itself, the lab, the bench
//! and `motion`) is refused in one line that says where to do it instead.
//!
//! Three names are the page's own: `backend=webgl` draws with WebGL2 even where the browser
//! offers WebGPU, `tour=off` opens the page without the guided tour, and `embed=STOP` makes
//! it one of the book's embedded views, the tour's stop `STOP` (its id) framed alone. A page with
//! nothing of the window's in its address opens on the tour's first stop, since no README
//! is beside it; one set up by its address (`?strategy=fixed-sleep`) opens as it says,
//! unless it asks for the tour too (`?tour`).

use clap::Parser;

use crate::app::AppOptions;
use crate::cli::{Cli, one_line};
use crate::failure::Failure;
use crate::tour::stops;

/// The page's options: the window's, and whether to draw with WebGL2 alone.
#[derive(Clone, Debug)]
pub struct PageOptions {
    pub app: AppOptions,
    pub webgl_only: bool,
}

/// Options that read or write files, or end the run: not for a page.
const NATIVE_ONLY: [&str; 9] = [
    "stats",
    "frame-log",
    "record",
    "trace",
    "replay",
    "exit-after",
    "key-script",
    "surface-faults",
    "bare-renderer",
];

/// The page's options from its address's query (`?a=1&b`, or without the `?`).
pub fn page_options(query: &str) -> Result<PageOptions, Failure> {
    let mut args = vec!["looplab".to_string()];
    let mut webgl_only = false;
    let mut tour = None;
    let mut embed = None;
    for pair in query.trim_start_matches('?').split('&') {
        let (name, value) = match pair.split_once('=') {
            Some((n, v)) => (decode(n), Some(decode(v))),
            None => (decode(pair), None),
        };
        match name.as_str() {
            "" => {}
            "backend" => {
                webgl_only = match value.as_deref() {
                    Some("webgl") => true,
                    Some("auto") | None => false,
                    Some(other) => {
                        return Err(Failure::usage(format!(
                            "backend={other:?}: a page draws with webgl or auto (WebGPU where the browser has it)"
                        )));
                    }
                }
            }
            "tour" => {
                tour = match value.as_deref() {
                    Some("on") | None => Some(true),
                    Some("off") => Some(false),
                    Some(other) => {
                        return Err(Failure::usage(format!(
                            "tour={other:?}: the tour is on or off"
                        )));
                    }
                }
            }
            "embed" => embed = Some(embedded_stop(value.as_deref().unwrap_or_default())?),
            "lab" | "bench" | "motion" => {
                return Err(Failure::usage(format!(
                    "{name} runs outside a browser: install Looplab and run `looplab {name}`"
                )));
            }
            n if NATIVE_ONLY.contains(&n) => {
                return Err(Failure::usage(format!(
                    "--{n} is for the native window: a page reads and writes no files and runs until its tab is closed"
                )));
            }
            n => {
                args.push(format!("--{n}"));
                args.extend(value);
            }
        }
    }
    let cli = Cli::try_parse_from(&args)
        .map_err(|e| Failure::usage(one_line(&e.render().to_string())))?;
    if !cli.app.lanes.is_empty() && !(2..=6).contains(&cli.app.lanes.len()) {
        return Err(Failure::usage(format!(
            "compare mode takes 2 to 6 lanes, not {}",
            cli.app.lanes.len()
        )));
    }
    let set_up_by_address = args.len() > 1;
    let mut app = cli.app.options()?;
    app.tour = tour.unwrap_or(!set_up_by_address);
    if let Some(stop) = embed {
        // The book around the view says the stop's words and shows its rows.
        app.embedded = Some(stop);
        app.knobs.overlay = false;
    }
    Ok(PageOptions { app, webgl_only })
}

/// The index among a page's stops of the stop `id` names, or why a view cannot show it.
fn embedded_stop(id: &str) -> Result<usize, Failure> {
    if let Some(at) = stops::for_a_page().iter().position(|s| s.id == id) {
        return Ok(at);
    }
    let every = stops::stops();
    Err(Failure::usage(match every.iter().find(|s| s.id == id) {
        Some(stop) => format!(
            "embed={id}: a page cannot show this stop: {}",
            stop.may_differ
        ),
        None => format!(
            "embed={id:?}: no stop of the tour has that id (they are {})",
            every.iter().map(|s| s.id).collect::<Vec<_>>().join(", ")
        ),
    }))
}

/// A query component with its `%XX` escapes and `+` (a space) decoded; an escape that is
/// not one is kept as written.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::{Rate, Strategy};

    #[test]
    fn the_query_takes_the_windows_options() {
        let o = page_options("?strategy=fixed-sleep&cap=40&bullets=2000&hide-overlay").unwrap();
        assert_eq!(o.app.strategy, Strategy::FixedSleep);
        assert_eq!(o.app.settings.frame_cap, Some(Rate::hz(40.0).unwrap()));
        assert_eq!(o.app.world.bullets, 2000);
        assert!(!o.app.knobs.overlay);
        assert!(!o.webgl_only);
        let plain = page_options("").unwrap();
        assert_eq!(plain.app.strategy, Strategy::Interpolated);
        assert!(plain.app.knobs.overlay);
        assert!(page_options("backend=webgl&strategy=4").unwrap().webgl_only);
        let lanes = page_options("lane=fast%2Fvariable&lane=weak-gpu/variable").unwrap();
        assert_eq!(lanes.app.lanes.len(), 2);
    }

    #[test]
    fn a_bare_page_opens_on_the_tour_and_one_set_up_by_its_address_as_it_says() {
        assert!(page_options("").unwrap().app.tour);
        assert!(page_options("backend=webgl").unwrap().app.tour);
        assert!(!page_options("tour=off").unwrap().app.tour);
        assert!(!page_options("strategy=fixed-sleep").unwrap().app.tour);
        assert!(page_options("strategy=fixed-sleep&tour").unwrap().app.tour);
        assert!(page_options("tour=on&cap=30").unwrap().app.tour);
        let e = page_options("tour=maybe").unwrap_err();
        assert!(e.message.contains("on or off"), "{e}");
    }

    #[test]
    fn what_a_page_cannot_do_is_refused_in_one_line() {
        let e = page_options("stats=run.json").unwrap_err();
        assert!(
            e.message.contains("--stats is for the native window"),
            "{e}"
        );
        let e = page_options("lab").unwrap_err();
        assert!(e.message.contains("looplab lab"), "{e}");
        let e = page_options("strategy=sideways").unwrap_err();
        assert!(
            e.message.contains("sideways") && !e.message.contains('\n'),
            "{e}"
        );
        let e = page_options("backend=vulkan").unwrap_err();
        assert!(e.message.contains("webgl or auto"), "{e}");
        assert!(page_options("lane=fast/variable").is_err());
    }

    #[test]
    fn an_embedded_view_opens_on_its_stop_framed_and_refuses_what_it_cannot_show() {
        let o = page_options("embed=a-nap-on-a-weak-gpu").unwrap();
        let at = o.app.embedded.expect("an embedded view");
        assert_eq!(stops::for_a_page()[at].id, "a-nap-on-a-weak-gpu");
        assert!(!o.app.knobs.overlay, "the book shows the stop's words");
        assert!(
            page_options("backend=webgl&embed=a-little-nap")
                .unwrap()
                .webgl_only
        );
        assert_eq!(page_options("").unwrap().app.embedded, None);
        let e = page_options("embed=as-fast-as-you-can").unwrap_err();
        assert!(e.message.contains("never draws faster"), "{e}");
        let e = page_options("embed=sideways").unwrap_err();
        assert!(
            e.message.contains("a-little-nap") && !e.message.contains('\n'),
            "{e}"
        );
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(decode("a%2Fb+c"), "a/b c");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%é"), "%é");
    }
}
