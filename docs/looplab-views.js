// The book's live views: each `<div class="looplab-view" data-stop="ID"></div>` in a
// chapter becomes a small window onto one stop of the guided tour, run by the real loop.
//
// One page module serves every view of a chapter (page/looplab.js and its wasm, built by
// `cargo xtask book`): it has one canvas, which this script moves to the view most in
// sight and points at that view's stop (looplabVisit). A canvas out of sight is told so by
// the browser (winit's Occluded), and the loop rests, so one view at most runs at a time.
// Around the picture, each view shows its stop's words, keys and figures as the loop
// reports them (looplabLesson), from the same table and rows the window's panel shows.
// Where a page cannot show a stop (a loop faster than the display), the view says so and
// shows the picture the project made of it natively.
(() => {
  "use strict";
  const views = [...document.querySelectorAll(".looplab-view[data-stop]")];
  if (views.length === 0) return;
  const root = typeof path_to_root === "string" ? path_to_root : "";
  // The figures a view shows, refreshed a few times a second.
  const REFRESH_MS = 250;
  // How much of a view must be in sight for it to take the canvas.
  const IN_SIGHT = 0.35;

  // What the tests read: which view runs, and when each first drew.
  const state = (window.looplabViews = {
    ready: false,
    active: null,
    failed: null,
    // Per stop: performance.now() when it took the canvas, and when its first frame after
    // that was presented.
    shown: {},
    firstPicture: {},
  });

  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // Each view's parts, built now so that the chapter's layout does not jump later.
  for (const view of views) {
    const parts = {
      head: el("div", "lv-head"),
      stage: el("div", "lv-stage"),
      ask: el("div", "lv-ask"),
      keys: el("div", "lv-keys"),
      standing: el("div", "lv-standing", "The loop starts when this view is in sight."),
      rows: el("table", "lv-rows"),
      lanes: el("ol", "lv-lanes"),
      code: el("pre", "lv-code"),
    };
    parts.ask.hidden = true;
    view.replaceChildren(...Object.values(parts));
    view.lv = parts;
  }

  // The one canvas, and the page's two lines (a failure, the GPU taken away), moved as one.
  const live = el("div", "lv-live");
  const canvas = el("canvas");
  canvas.id = "looplab-canvas";
  canvas.tabIndex = 0;
  // The page starts on the first view a page can show (a view whose stop it cannot names
  // the picture that stands in for it, data-still).
  const first = views.find((v) => !v.dataset.still) || views[0];
  canvas.dataset.stop = first.dataset.stop;
  const away = el("p");
  away.id = "looplab-gpu-away";
  const status = el("p", "lv-status");
  status.id = "looplab-status";
  live.append(canvas, away, status);

  let cards = new Map();
  let api = null;

  function card(view) {
    return cards.get(view.dataset.stop);
  }

  // A view's words and buttons, from its stop's card.
  function dress(view) {
    const c = card(view);
    const p = view.lv;
    if (!c) {
      p.standing.textContent = `No stop of the tour is called "${view.dataset.stop}".`;
      view.classList.add("lv-broken");
      return;
    }
    p.head.replaceChildren(el("strong", "lv-title", c.title), el("span", "lv-source", c.source));
    p.stage.style.aspectRatio = String(c.aspect);
    if (!c.in_a_page) {
      const still = el("img", "lv-still");
      if (view.dataset.still) still.src = root + view.dataset.still;
      still.alt = `${c.title}, as the window shows it natively`;
      p.stage.replaceChildren(still);
      p.standing.textContent = `A page cannot show this: ${c.cannot}. Above, the window natively; run it with cargo run --release.`;
      return;
    }
    for (const key of c.keys) {
      const b = el("button", "lv-key", key);
      b.type = "button";
      b.title = `press ${key}`;
      b.addEventListener("click", () => press(view, key));
      p.keys.append(b);
    }
    if (c.keys.length > 0) p.keys.append(el("span", "lv-hint", c.hint));
    if (c.asks) {
      const q = el("span", "lv-question");
      const a = el("button", "lv-key", "A");
      const b = el("button", "lv-key", "B");
      a.addEventListener("click", () => press(view, "A"));
      b.addEventListener("click", () => press(view, "B"));
      p.ask.replaceChildren(q, a, b);
    }
  }

  function press(view, key) {
    if (state.active !== view) take(view);
    const why = api.press(key);
    if (why) console.warn(`looplab view: ${why}`);
    canvas.focus({ preventScroll: true });
  }

  // `view` takes the canvas and its stop starts.
  function take(view) {
    if (!api || state.active === view || !card(view)?.in_a_page) return;
    if (state.active) state.active.classList.remove("lv-running");
    state.active = view;
    view.classList.add("lv-running");
    view.lv.stage.replaceChildren(live);
    const stop = view.dataset.stop;
    state.shown[stop] = performance.now();
    delete state.firstPicture[stop];
    const now = JSON.parse(api.lesson());
    framesBefore = now ? now.presented : 0;
    const why = api.visit(stop);
    if (why) console.warn(`looplab view: ${why}`);
    requestAnimationFrame(awaitPicture);
  }

  // The first picture a view draws after taking the canvas, to the animation frame.
  let framesBefore = 0;
  function awaitPicture() {
    const view = state.active;
    if (!view) return;
    const stop = view.dataset.stop;
    const now = JSON.parse(api.lesson());
    if (now && now.id === stop && now.presented > framesBefore) {
      state.firstPicture[stop] = performance.now();
      refresh();
    } else {
      requestAnimationFrame(awaitPicture);
    }
  }

  // The running view's words and figures as the loop reports them.
  function refresh() {
    const view = state.active;
    if (!view || !api) return;
    const stop = view.dataset.stop;
    const now = JSON.parse(api.lesson());
    if (!now || now.id !== stop) return;
    const p = view.lv;
    p.standing.textContent = now.standing;
    p.standing.dataset.seen = now.seen === null ? "" : String(now.seen);
    p.ask.hidden = !now.asking && !now.felt;
    const q = p.ask.querySelector(".lv-question");
    if (q) q.textContent = now.asking ? `${now.asking} (${now.which_is_which})` : now.felt || "";
    for (const b of p.ask.querySelectorAll("button")) b.hidden = !now.asking;
    // A stop that asked opens out onto its own picture once answered: its shape follows.
    const aspect = String(now.aspect);
    if (p.stage.style.aspectRatio !== aspect) p.stage.style.aspectRatio = aspect;
    p.rows.replaceChildren(
      ...now.rows.map(([label, value]) => {
        const tr = el("tr");
        tr.append(el("th", "", label), el("td", "", value));
        return tr;
      }),
    );
    // The lanes' captions, top first: the picture draws them too small to read here. While
    // the stop asks, they only name the letters, which the question places.
    p.lanes.replaceChildren(
      ...(now.asking ? [] : now.lanes).map((caption) => {
        const [head, ...rest] = caption.split("\n");
        const li = el("li");
        li.append(el("strong", "", head));
        if (rest.length) li.append(el("span", "", rest.join("\n")));
        return li;
      }),
    );
    if (now.code) {
      const running = now.running === now.code.strategy ? "" : `  (running: ${now.running})`;
      p.code.replaceChildren(
        el("span", "lv-code-head", `the loop (${now.code.strategy})${running}\n`),
        ...now.code.lines.map((line, i) => {
          const span = el("span", i === now.code.lit ? "lv-lit" : "", line);
          if (i === now.code.lit && now.code.key) span.append(el("em", "", `  \u2190 ${now.code.key}`));
          span.append("\n");
          return span;
        }),
      );
    } else {
      p.code.replaceChildren();
    }
  }

  // The view most in sight takes the canvas; out of sight, the loop rests by itself. The
  // running view keeps it until another is clearly more in sight (a view's figures change
  // its height, and two views half in sight must not hand the canvas back and forth).
  const seen = new Map();
  const MARGIN = 0.25;
  const watcher = new IntersectionObserver(
    (entries) => {
      for (const e of entries) seen.set(e.target.closest(".looplab-view"), e.intersectionRatio);
      let best = null;
      let most = IN_SIGHT;
      for (const [view, ratio] of seen) {
        if (ratio >= most && card(view)?.in_a_page) {
          best = view;
          most = ratio;
        }
      }
      const held = state.active ? seen.get(state.active) || 0 : 0;
      if (best && (held < IN_SIGHT || most >= held + MARGIN)) take(best);
    },
    { threshold: [0, 0.2, 0.35, 0.5, 0.75, 1] },
  );

  async function start() {
    if (location.protocol === "file:") {
      // A browser runs no module from a file: the chapter reads, the views wait for http.
      for (const view of views) {
        view.lv.standing.textContent =
          "This view runs the loop live when the book is served over http (a browser runs no page module from a file): cargo xtask book serve, then http://127.0.0.1:8000/explore.html.";
        if (view.dataset.still) {
          const still = el("img", "lv-still");
          still.src = root + view.dataset.still;
          still.alt = "the window natively";
          view.lv.stage.replaceChildren(still);
        }
      }
      state.failed = "opened from a file";
      return;
    }
    first.lv.stage.replaceChildren(live);
    try {
      const at = (file) => new URL(root + "page/" + file, document.baseURI).href;
      const page = await import(at("looplab.js"));
      await page.default({ module_or_path: at("looplab_bg.wasm") });
      api = {
        stats: () => JSON.parse(page.looplabStats()),
        lesson: () => page.looplabLesson(),
        visit: (id) => page.looplabVisit(id),
        press: (key) => page.looplabPress(key),
      };
      window.looplab = api;
      cards = new Map(JSON.parse(page.looplabLessons()).map((c) => [c.id, c]));
    } catch (e) {
      state.failed = String(e);
      for (const view of views) {
        view.lv.standing.textContent = `The live view could not start here: ${e}`;
      }
      console.error(e);
      return;
    }
    views.forEach(dress);
    if (!card(first)?.in_a_page) live.remove();
    // The canvas waits, resting out of sight, in the first view it can run, until a view
    // is in sight: that one takes it.
    state.ready = true;
    views.forEach((v) => watcher.observe(v.lv.stage));
    setInterval(refresh, REFRESH_MS);
  }

  // The chapter first, whole: the page's module, its GPU and the loop once it has loaded.
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
})();
