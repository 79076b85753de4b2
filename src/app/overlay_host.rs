//! egui for the overlay, run by the application as eframe does: window input in, layout of
//! [`overlay::ui`], tessellation, and out come the finished paint jobs for the renderer.

use std::time::Duration;

use glam::Vec2;
use winit::event::WindowEvent;
use winit::window::Window;

use super::overlay::{self, OverlayModel, PlacedText, ViewFigures};
use crate::app::keys::Action;
use crate::platform::clock::Stopwatch;
use crate::render::{OverlayPaint, TextureChanges};

/// The overlay's egui context and, in a window, its input state.
pub struct OverlayHost {
    ctx: egui::Context,
    window_input: Option<egui_winit::State>,
    /// egui's clock starts here.
    started: Stopwatch,
    /// Say where every text landed (tests of the layout).
    audit: bool,
}

/// One laid-out overlay frame.
pub struct OverlayFrame {
    /// What to paint.
    pub paint: OverlayPaint,
    /// Buttons clicked in it.
    pub actions: Vec<Action>,
    /// Time spent laying it out and tessellating.
    pub took: Duration,
    /// Where every text landed, from a host that audits; empty otherwise.
    pub texts: Vec<PlacedText>,
    /// In the book's embedded view, what it hands to the book
    /// ([`overlay::LayoutOutcome::figures`]).
    pub figures: ViewFigures,
}

impl OverlayHost {
    /// For a window: egui reads the window's input (clicks on the overlay's buttons).
    pub fn for_window(window: &Window, max_texture_side: usize) -> Self {
        let ctx = dark_context();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(max_texture_side),
        );
        Self {
            ctx,
            window_input: Some(state),
            started: Stopwatch::start(),
            audit: false,
        }
    }

    /// With no window and no input (offscreen benchmarks).
    pub fn headless() -> Self {
        Self {
            ctx: dark_context(),
            window_input: None,
            started: Stopwatch::start(),
            audit: false,
        }
    }

    /// The same host, saying where every text lands (tests of the layout).
    #[must_use]
    pub fn audited(mut self) -> Self {
        self.audit = true;
        self
    }

    /// Passes a window event to egui; true when egui used it (a click on a button), so it
    /// should not also act as a game key.
    pub fn on_window_event(&mut self, window: &Window, event: &WindowEvent) -> bool {
        self.window_input
            .as_mut()
            .is_some_and(|s| s.on_window_event(window, event).consumed)
    }

    /// Lays out the overlay for a target of `size` pixels and tessellates it. Its panel
    /// rectangles come back in the target's pixels.
    pub fn run(
        &mut self,
        window: Option<&Window>,
        size: (u32, u32),
        model: &OverlayModel,
    ) -> OverlayFrame {
        let t = Stopwatch::start();
        // One point is one world pixel: the words scale with the window as the scene does.
        let native = window.map_or(1.0, |w| w.scale_factor() as f32);
        let zoom = model.transform.zoom / native;
        if (self.ctx.zoom_factor() - zoom).abs() > 1e-4 {
            self.ctx.set_zoom_factor(zoom);
        }
        let screen = egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(size.0 as f32, size.1 as f32) / model.transform.zoom,
        );
        let input = match &mut self.window_input {
            // Not `take_egui_input`: it asks the window for its size, a round trip to the
            // X server that waits behind the last present (0.9 ms a frame under Xvfb); the
            // caller knows the size.
            Some(state) => {
                let input = state.egui_input_mut();
                input.time = Some(self.started.elapsed().as_secs_f64());
                input.screen_rect = Some(screen);
                input.viewport_id = egui::ViewportId::ROOT;
                input
                    .viewports
                    .entry(egui::ViewportId::ROOT)
                    .or_default()
                    .native_pixels_per_point = Some(native);
                input.take()
            }
            None => egui::RawInput {
                screen_rect: Some(screen),
                ..Default::default()
            },
        };
        let mut laid = overlay::LayoutOutcome::default();
        let mut output = self.ctx.run_pass(input, |ctx| {
            laid = overlay::ui(ctx, model, self.audit);
        });
        if let (Some(state), Some(window)) = (&mut self.window_input, window) {
            state.handle_platform_output(window, std::mem::take(&mut output.platform_output));
        }
        let ppp = output.pixels_per_point;
        let panels = laid
            .panels
            .iter()
            .map(|r| {
                (
                    Vec2::new(r.min.x, r.min.y) * ppp,
                    Vec2::new(r.max.x, r.max.y) * ppp,
                )
            })
            .collect();
        let primitives = self.ctx.tessellate(std::mem::take(&mut output.shapes), ppp);
        OverlayFrame {
            paint: OverlayPaint {
                primitives,
                textures: TextureChanges::take(&mut output.textures_delta),
                pixels_per_point: ppp,
                panels,
            },
            actions: laid.actions,
            took: t.elapsed(),
            texts: laid.texts,
            figures: laid.figures,
        }
    }
}

/// An egui context in its dark theme whatever the system prefers: the scene is dark, and a
/// browser that prefers light (headless Chromium does) would otherwise turn the overlay's
/// text grey on grey.
fn dark_context() -> egui::Context {
    let ctx = egui::Context::default();
    ctx.set_theme(egui::ThemePreference::Dark);
    ctx
}
