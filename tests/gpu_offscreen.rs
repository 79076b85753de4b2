//! The real sprite pipeline on a real adapter (lavapipe in CI), rendering offscreen: a known
//! bullet is drawn and read back, and it must appear where the strategy's view puts it; the
//! whole scene keeps each demonstration in its region, clear of the overlay; a dart that
//! tunnels is counted and seen; the ship is drawn where the view puts it.
//! These tests fail, not skip, when no adapter is available.

use std::time::Duration;

use glam::Vec2;
use looplab::render::gpu::Gpu;
use looplab::render::offscreen::{OffscreenTarget, render};
use looplab::render::painter::Painter;
use looplab::render::shapes::ViewTransform;
use looplab::render::sprites::SpriteFrame;
use looplab::world::WORLD_SIZE;
use looplab_timing::View;

const STEP: Duration = Duration::from_nanos(16_666_667);
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

fn gpu() -> Gpu {
    looplab_headless::private_runtime_dir(
        &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Gpu::headless().unwrap_or_else(|e| panic!("a GPU adapter is required for this test: {e}"))
}

/// Renders one bullet (`prev`, `pos`, `vel`) with `view` and returns the brightness-weighted
/// centre of what was drawn, in pixels, and how many pixels were lit.
fn drawn_centre(
    gpu: &Gpu,
    prev: Vec2,
    pos: Vec2,
    vel: Vec2,
    view: View,
    ghost_at: Option<Duration>,
) -> (Vec2, usize) {
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, WIDTH, HEIGHT);
    let transform = ViewTransform::new(WORLD_SIZE, WIDTH, HEIGHT);
    let (p, q, v) = ([prev], [pos], [vel]);
    let mut frame = SpriteFrame::bullets(&p, &q, &v, transform, view, STEP);
    if let Some(owed) = ghost_at {
        let mut g = frame.globals;
        g.blend = [0.0, owed.as_secs_f32()];
        frame.ghosts = Some(g);
        // Ghosts only: hide the sprite pass by drawing it off-screen.
        frame.globals.blend = [0.0, -1e6];
    }
    render(gpu, &mut painter, &target, &frame, None).unwrap();
    let pixels = target.read_rgba(gpu).expect("read back");
    assert_eq!(gpu.error_count(), 0, "no GPU validation errors");
    let background = [
        (looplab::render::CLEAR.r * 255.0).round() as i32,
        (looplab::render::CLEAR.g * 255.0).round() as i32,
        (looplab::render::CLEAR.b * 255.0).round() as i32,
    ];
    let (mut sum, mut weight, mut lit) = (Vec2::ZERO, 0.0f32, 0);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let i = ((y * WIDTH + x) * 4) as usize;
            let excess: i32 = (0..3)
                .map(|c| (pixels[i + c] as i32 - background[c]).max(0))
                .sum();
            if excess > 6 {
                let w = excess as f32;
                sum += Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * w;
                weight += w;
                lit += 1;
            }
        }
    }
    assert!(weight > 0.0, "nothing was drawn");
    (sum / weight, lit)
}

#[test]
fn a_bullet_is_drawn_where_each_view_says_within_a_pixel() {
    let gpu = gpu();
    // 40 px per 60 Hz step to the right, on a slight diagonal.
    let prev = Vec2::new(400.0, 300.0);
    let pos = Vec2::new(440.0, 310.0);
    let vel = (pos - prev) / STEP.as_secs_f32();
    // Where each view puts it, worked out by hand: interpolation that share of the way from
    // prev to pos, extrapolation that share of a step (40, 10) past pos.
    for (view, expected) in [
        (View::Latest, Vec2::new(440.0, 310.0)),
        (View::Interpolate { alpha: 0.25 }, Vec2::new(410.0, 302.5)),
        (View::Interpolate { alpha: 0.8 }, Vec2::new(432.0, 308.0)),
        (View::Extrapolate { alpha: 0.25 }, Vec2::new(450.0, 312.5)),
        (View::Extrapolate { alpha: 0.6 }, Vec2::new(464.0, 316.0)),
    ] {
        let (centre, lit) = drawn_centre(&gpu, prev, pos, vel, view, None);
        assert!(
            (centre - expected).length() < 1.0,
            "{view:?}: drawn at {centre}, expected {expected}"
        );
        // An 8x8 sprite: a round blob of a few dozen pixels, not a smear.
        assert!((30..=80).contains(&lit), "{view:?}: {lit} pixels lit");
    }
    // The views really differ: interpolation at 0.25 is 30 px behind extrapolation at 0.25.
    let (behind, _) = drawn_centre(
        &gpu,
        prev,
        pos,
        vel,
        View::Interpolate { alpha: 0.25 },
        None,
    );
    let (ahead, _) = drawn_centre(
        &gpu,
        prev,
        pos,
        vel,
        View::Extrapolate { alpha: 0.25 },
        None,
    );
    assert!((ahead - behind).length() > 40.0);
}

#[test]
fn the_letterbox_keeps_the_world_centred_in_a_square_window() {
    let gpu = gpu();
    let mut painter =
        Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false).unwrap();
    let target = OffscreenTarget::new(&gpu.device, 640, 640);
    let transform = ViewTransform::new(WORLD_SIZE, 640, 640);
    let at = [Vec2::new(640.0, 360.0)];
    let frame = SpriteFrame::bullets(&at, &at, &[Vec2::ZERO], transform, View::Latest, STEP);
    render(&gpu, &mut painter, &target, &frame, None).unwrap();
    let pixels = target.read_rgba(&gpu).unwrap();
    // The world's centre lands on the window's centre; half-size sprite, 4x4 px.
    let centre = ((320 * 640 + 320) * 4) as usize;
    assert!(pixels[centre] > 100, "the bullet is at the centre");
    let corner = ((10 * 640 + 10) * 4) as usize;
    assert!(pixels[corner] < 40, "the letterbox bar is empty");
}

#[test]
fn ghosts_mark_the_true_position() {
    let gpu = gpu();
    let prev = Vec2::new(600.0, 200.0);
    let pos = Vec2::new(610.0, 200.0);
    let vel = Vec2::new(600.0, 0.0);
    // Owed 10 ms: the truth is 6 px ahead of the last state.
    let (centre, _) = drawn_centre(
        &gpu,
        prev,
        pos,
        vel,
        View::Latest,
        Some(Duration::from_millis(10)),
    );
    assert!(
        (centre - Vec2::new(616.0, 200.0)).length() < 1.0,
        "ghost at {centre}"
    );
}
