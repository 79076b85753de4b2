//! The whole scene on a real adapter (lavapipe in CI), rendered offscreen by the window's own
//! painter: each demonstration keeps to its region and the overlay to its column, at the
//! window's size and at smaller ones; a dart that tunnels is counted and seen; the ship is
//! drawn where the strategy's view puts it. These tests fail, not skip, without an adapter.

use std::time::Duration;

use glam::Vec2;
use looplab::app::compose::{Composer, FrameInputs, Readouts};
use looplab::app::controls::Knobs;
use looplab::app::overlay::WindowFacts;
use looplab::render::gpu::Gpu;
use looplab::render::offscreen::{OffscreenTarget, render};
use looplab::render::painter::Painter;
use looplab::render::scene::{self, DART_THROUGH, SHIP, SceneView};
use looplab::render::shapes::{EXACT, Shape, ShapeInstance, ViewTransform};
use looplab::render::sprites::SpriteFrame;
use looplab::session::Session;
use looplab::world::layout::{LAYOUT, Region};
use looplab::world::{WORLD_SIZE, World, WorldConfig};
use looplab_timing::{FramePlan, LoopSettings, Strategy, View};

const STEP: Duration = Duration::from_nanos(16_666_667);

fn gpu() -> Gpu {
    looplab_headless::private_runtime_dir(
        &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Gpu::headless().unwrap_or_else(|e| panic!("a GPU adapter is required for this test: {e}"))
}

/// A session 20 frames into an interpolated run.
fn session(bullets: usize) -> (Session, FramePlan) {
    let mut s = Session::new(
        Strategy::Interpolated,
        LoopSettings::default(),
        &WorldConfig { seed: 1, bullets },
    );
    let mut plan = s.frame(Duration::ZERO, |_, _| {});
    for i in 1..=20 {
        plan = s.frame(STEP * i, |_, _| {});
    }
    (s, plan)
}

fn showing(view: View) -> SceneView {
    SceneView {
        view,
        step: STEP,
        game_now: Duration::ZERO,
        reference: Duration::ZERO,
        ghosts: false,
    }
}

fn facts() -> WindowFacts {
    WindowFacts {
        cpu_percent: Some(50.0),
        adapter: "llvmpipe (LLVM 15.0.6, 256 bits) (vulkan, CPU)".into(),
        ..WindowFacts::offscreen(wgpu::PresentMode::Fifo)
    }
}

/// Renders `world` as the window would (no overlay) at `width` x `height` and reads it back.
fn render_world(gpu: &Gpu, world: &World, view: View, width: u32, height: u32) -> Vec<u8> {
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let transform = ViewTransform::new(WORLD_SIZE, width, height);
    let mut shapes = Vec::new();
    let frame = scene::sprite_frame(world, &showing(view), None, transform, &mut shapes);
    render(gpu, &mut painter, &target, &frame, None).unwrap();
    assert_eq!(gpu.error_count(), 0, "no GPU validation errors");
    target.read_rgba(gpu).unwrap()
}

/// Renders `shapes` alone (plain, in front of nothing) at `width` x `height` and reads the
/// target back.
fn render_shapes(gpu: &Gpu, shapes: &[ShapeInstance], width: u32, height: u32) -> Vec<u8> {
    let transform = ViewTransform::new(WORLD_SIZE, width, height);
    let frame = SpriteFrame {
        shapes,
        behind: 0,
        plain_from: 0,
        ..SpriteFrame::bullets(&[], &[], &[], transform, View::Latest, STEP)
    };
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, width, height);
    render(gpu, &mut painter, &target, &frame, None).unwrap();
    target.read_rgba(gpu).unwrap()
}

/// A world region in the pixels of a `width` x `height` target.
fn pixels_of(region: Region, width: u32, height: u32) -> Region {
    let t = ViewTransform::new(WORLD_SIZE, width, height);
    let (min, max) = (t.to_pixel(region.min), t.to_pixel(region.max));
    Region::new(min.x, min.y, max.x, max.y)
}

/// The pixels whose colour is within a few levels of `colour`, as (x, y) centres.
fn pixels_coloured(pixels: &[u8], width: u32, colour: [u8; 4]) -> Vec<Vec2> {
    pixels
        .chunks_exact(4)
        .enumerate()
        .filter(|(_, p)| (0..3).all(|c| (p[c] as i32 - colour[c] as i32).abs() <= 8))
        .map(|(i, _)| {
            let i = i as u32;
            Vec2::new((i % width) as f32 + 0.5, (i / width) as f32 + 0.5)
        })
        .collect()
}

fn centroid(points: &[Vec2]) -> Vec2 {
    points.iter().copied().sum::<Vec2>() / points.len().max(1) as f32
}

#[test]
fn the_overlay_keeps_to_its_column_at_every_window_size() {
    for (width, height) in [(1280, 720), (960, 540), (800, 600)] {
        let (s, plan) = session(200);
        // The full panel (A): every row and the graph, the most words the panel paints.
        let knobs = Knobs {
            everything: true,
            ..Knobs::default()
        };
        let (readouts, facts) = (Readouts::default(), facts());
        let inputs = FrameInputs::new(&s, &knobs, &plan, &readouts, &facts);
        let mut composer = Composer::headless();
        // egui sizes a new window over its first passes: lay it out until it settles.
        let mut panels = Vec::new();
        for _ in 0..4 {
            let words = composer.compose(&inputs, None, (width, height)).words;
            panels = words.expect("words are laid out").paint.panels;
        }
        assert_eq!(panels.len(), 1, "the status panel ({width}x{height})");
        let (min, max) = panels[0];
        let panel = Region::new(min.x, min.y, max.x, max.y);
        let column = pixels_of(LAYOUT.panel, width, height).inset(-1.0, -1.0, -1.0, -1.0);
        assert!(
            column.contains(&panel),
            "{width}x{height}: panel {panel:?} leaves its column {column:?}"
        );
        for (name, region) in LAYOUT.regions().into_iter().skip(1) {
            let region = pixels_of(region, width, height);
            assert!(
                !panel.overlaps(&region),
                "{width}x{height}: the overlay covers the {name}"
            );
        }
    }
}

#[test]
fn the_stream_draws_nothing_outside_its_region() {
    let gpu = gpu();
    for (width, height) in [(1280, 720), (800, 600)] {
        let empty = World::new(&WorldConfig {
            seed: 1,
            bullets: 0,
        });
        let full = World::new(&WorldConfig {
            seed: 1,
            bullets: 4000,
        });
        let a = render_world(&gpu, &empty, View::Latest, width, height);
        let b = render_world(&gpu, &full, View::Latest, width, height);
        let stream = pixels_of(LAYOUT.stream, width, height).inset(-1.0, -1.0, -1.0, -1.0);
        let mut inside = 0;
        for (i, (p, q)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
            if p == q {
                continue;
            }
            let (x, y) = ((i as u32 % width) as f32, (i as u32 / width) as f32);
            let at = Region::new(x, y, x + 1.0, y + 1.0);
            assert!(
                stream.contains(&at),
                "{width}x{height}: a bullet drawn at ({x}, {y}), outside the stream"
            );
            inside += 1;
        }
        assert!(inside > 10_000, "the bullets are drawn: {inside} pixels");
    }
}

#[test]
fn a_dart_that_tunnels_is_counted_and_seen() {
    let gpu = gpu();
    let mut world = World::new(&WorldConfig {
        seed: 1,
        bullets: 0,
    });
    let wall = world.darts.wall;
    // Dart 0 sits just before the wall; a 50 ms step (a variable step on a slow frame) moves
    // it 30 px, clean over the 12 px wall.
    world.darts.pos[0] = Vec2::new(wall.x - 4.0, (wall.top + wall.bottom) * 0.5);
    let before = world.darts.tunnels;
    world.step(Duration::from_millis(50));
    assert_eq!(world.darts.tunnels, before + 1, "counted");
    assert!(scene::dart_through(&world, 0));
    let pixels = render_world(&gpu, &world, View::Latest, 1280, 720);
    let magenta = pixels_coloured(&pixels, 1280, DART_THROUGH);
    assert!(
        magenta.len() > 100,
        "seen: {} magenta pixels",
        magenta.len()
    );
    let at = centroid(&magenta);
    assert!(at.x > wall.x + wall.thickness, "past the wall: {at}");
    assert!((at - world.darts.pos[0]).length() < 2.0, "{at}");
}

#[test]
fn the_ship_is_drawn_where_the_view_puts_it() {
    let gpu = gpu();
    let mut world = World::new(&WorldConfig {
        seed: 1,
        bullets: 0,
    });
    let (prev, pos) = (Vec2::new(600.0, 200.0), Vec2::new(640.0, 200.0));
    world.ship.prev = prev;
    world.ship.pos = pos;
    world.ship.vel = (pos - prev) / STEP.as_secs_f32();
    // Half a step (20 px) behind pos, at it, and ahead of it: worked out by hand.
    for (view, expected) in [
        (View::Latest, Vec2::new(640.0, 200.0)),
        (View::Interpolate { alpha: 0.5 }, Vec2::new(620.0, 200.0)),
        (View::Extrapolate { alpha: 0.5 }, Vec2::new(660.0, 200.0)),
    ] {
        let pixels = render_world(&gpu, &world, view, 1280, 720);
        let ship = pixels_coloured(&pixels, 1280, SHIP);
        assert!(ship.len() > 100, "{view:?}: {} ship pixels", ship.len());
        let drawn = centroid(&ship);
        // A triangle pointing up: centred across, its centroid a little below its centre.
        assert!(
            (drawn.x - expected.x).abs() < 1.0,
            "{view:?}: {drawn} vs {expected}"
        );
        assert!(
            (drawn.y - expected.y).abs() < 6.0,
            "{view:?}: {drawn} vs {expected}"
        );
    }
}

#[test]
fn captions_and_overlay_words_are_painted() {
    let gpu = gpu();
    let (width, height) = (1280, 720);
    let (s, plan) = session(0);
    // The full panel (A): every row and the graph, the most words the panel paints.
    let knobs = Knobs {
        everything: true,
        ..Knobs::default()
    };
    let (readouts, facts) = (Readouts::default(), facts());
    let inputs = FrameInputs::new(&s, &knobs, &plan, &readouts, &facts);
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let mut composer = Composer::headless();
    // Every pass is painted: the font atlas arrives with the first one only. egui sizes a new
    // window over its first passes.
    for _ in 0..6 {
        let frame = composer.compose(&inputs, None, (width, height));
        let words = frame.words.map(|w| w.paint);
        render(&gpu, &mut painter, &target, &frame.sprites, words).unwrap();
    }
    assert_eq!(gpu.error_count(), 0, "no GPU validation errors");
    let pixels = target.read_rgba(&gpu).unwrap();
    // egui's labels are light grey (about 140), the captions near white.
    let lit_in = |r: Region, level: u8| {
        let r = pixels_of(r, width, height);
        let (xs, ys) = (
            r.min.x as usize..r.max.x as usize,
            r.min.y as usize..r.max.y as usize,
        );
        ys.flat_map(|y| xs.clone().map(move |x| (y * width as usize + x) * 4))
            .filter(|&i| pixels[i..i + 3].iter().all(|&v| v > level))
            .count()
    };
    let band = |r: Region| Region::new(r.min.x, r.min.y, r.max.x, r.min.y + 18.0);
    for (name, region) in [
        ("metronome", LAYOUT.metronome),
        ("balls", LAYOUT.balls),
        ("wall", LAYOUT.wall),
    ] {
        let lit = lit_in(band(region), 180);
        assert!(
            lit > 100,
            "the {name} caption is written: {lit} bright pixels"
        );
    }
    let panel = lit_in(LAYOUT.panel, 100);
    assert!(
        panel > 2000,
        "the overlay's words are written: {panel} bright pixels"
    );
}

#[test]
fn a_segment_is_drawn_along_its_line() {
    let gpu = gpu();
    let (width, height) = (1280, 720);
    let line = ShapeInstance {
        prev: [400.0, 100.0],
        pos: [600.0, 300.0],
        vel: [0.0, 0.0],
        size: [3.0, 0.0],
        color: [255, 0, 255, 255],
        shape: Shape::Segment as u32 | EXACT,
    };
    let pixels = render_shapes(&gpu, &[line], width, height);
    let lit = pixels_coloured(&pixels, width, [255, 0, 255, 255]);
    // 283 px long and 3 wide: 200 rows of four or five pixels, each within 2 px of the line.
    assert!((800..=1050).contains(&lit.len()), "{} pixels", lit.len());
    let (a, b) = (Vec2::new(400.0, 100.0), Vec2::new(600.0, 300.0));
    for p in &lit {
        let t = ((*p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        let off = (*p - a.lerp(b, t)).length();
        assert!(off < 2.5, "{p} is {off} px off the line");
    }
}

#[test]
fn compare_mode_draws_each_lane_in_its_tile() {
    use looplab::lab::compare::{Compare, Preset};
    use looplab::render::lanes::{self, LanePicture, LaneView, LanesScratch};
    let gpu = gpu();
    let (width, height) = (1280, 720);
    let mut compare = Compare::new(
        Preset::EveryStrategy,
        &LoopSettings::default(),
        &WorldConfig {
            seed: 1,
            bullets: 300,
        },
        Duration::ZERO,
    );
    // Advanced as the window does, a frame at a time (a lane left behind waits instead).
    for ms in (0..=500).step_by(16) {
        compare.advance_to(Duration::from_millis(ms));
    }
    let tiles = lanes::tiles(compare.lanes.len(), lanes::LANES_AREA);
    let pictures: Vec<LanePicture> = compare
        .lanes
        .iter()
        .zip(&tiles)
        .map(|(lane, &tile)| {
            let plan = lane.picture().expect("a picture by 0.5 s").plan;
            LanePicture {
                world: lane.session().world(),
                showing: SceneView {
                    view: plan.view,
                    step: plan.step,
                    game_now: plan.game_now,
                    reference: lane.session().reference(),
                    ghosts: false,
                },
                view: LaneView::new(tile),
                selected: false,
            }
        })
        .collect();
    let transform = ViewTransform::new(WORLD_SIZE, width, height);
    let mut scratch = LanesScratch::default();
    let frame = lanes::lanes_frame(&pictures, transform, STEP, &mut scratch);
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, width, height);
    render(&gpu, &mut painter, &target, &frame, None).unwrap();
    assert_eq!(gpu.error_count(), 0, "no GPU validation errors");
    let pixels = target.read_rgba(&gpu).unwrap();
    let ships = pixels_coloured(&pixels, width, SHIP);
    for (i, tile) in tiles.iter().enumerate() {
        let inside = ships
            .iter()
            .filter(|p| tile.contains(&Region::new(p.x, p.y, p.x, p.y)));
        let n = inside.count();
        // Eight lanes draw the ship at about a third of its size: some ten pixels.
        assert!(n > 4, "lane {i} draws its ship: {n} pixels in {tile:?}");
    }
    // Nothing of any lane outside the lanes' area: the overlay column stays empty.
    let column = pixels_of(LAYOUT.panel, width, height);
    let lit = (column.min.y as usize..column.max.y as usize)
        .flat_map(|y| (column.min.x as usize..column.max.x as usize).map(move |x| (y, x)))
        .filter(|&(y, x)| {
            let i = (y * width as usize + x) * 4;
            pixels[i..i + 3].iter().any(|&v| v > 60)
        })
        .count();
    assert_eq!(lit, 0, "lanes stay out of the overlay's column");
}

#[test]
fn a_red_shape_reads_back_red_whatever_the_target_byte_order() {
    // The target is BGRA, as the window's surface is on lavapipe; the read-back swaps to RGBA
    // so that every test names colours one way. A red bar read back blue would mean it did not.
    let gpu = gpu();
    let (width, height) = (320, 180);
    let bar = ShapeInstance {
        prev: [300.0, 400.0],
        pos: [700.0, 400.0],
        vel: [0.0, 0.0],
        size: [60.0, 0.0],
        color: [255, 0, 0, 255],
        shape: Shape::Segment as u32 | EXACT,
    };
    let pixels = render_shapes(&gpu, &[bar], width, height);
    let red = pixels
        .chunks_exact(4)
        .filter(|p| *p == [255, 0, 0, 255])
        .count();
    let blue = pixels_coloured(&pixels, width, [0, 0, 255, 255]).len();
    // The bar is 400 by 60 world units: about 100 by 15 pixels of this target.
    assert!(red > 1000, "{red} pure red pixels, {blue} blue ones");
    assert_eq!(blue, 0, "red read back as blue");
}
