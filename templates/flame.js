/* flame.js - the flame graph of a run's page (render/html_flame.c writes its data): an
   icicle drawn as SVG from the embedded trees, full width, one row per level (the figure
   grows with depth). Click a frame to zoom into it (its subtree fills the width; the
   breadcrumb or "reset zoom" goes back), type in the search box to highlight the frames whose
   name contains the text (the matched share counts a frame inside another match once),
   hover for name, total, share and self. Toggles: steps merged (one ProfilerStep#* root)
   or split (the slowest steps, each its own root), host time or device time (each GPU
   kernel, memcpy and memset under the op that launched it). Labels are cut to fit their
   box. No network, no libraries. */
(function () {
  "use strict";
  var ROW = 18, PAD = 3, MIN_W = 0.5;
  var FONT = '11px "DejaVu Sans Mono", monospace';
  var SVGNS = "http://www.w3.org/2000/svg";

  /* The name a frame shows (box and hover): the one place that formats names. */
  /* a frame's name as the page shows it: html_flame.c's display form (render/names.h:
     demangled, no return type or argument list, never two names alike), else the name */
  var DISPLAY = {};
  function displayName(name) {
    return Object.prototype.hasOwnProperty.call(DISPLAY, name) ? DISPLAY[name] : name;
  }

  function fmtVal(v, unit) {
    var a = Math.abs(v);
    if (unit === "ns") {
      if (a >= 1e9) return (v / 1e9).toFixed(3) + " s";
      if (a >= 1e6) return (v / 1e6).toFixed(3) + " ms";
      if (a >= 1e3) return (v / 1e3).toFixed(3) + " us";
      return v.toFixed(0) + " ns";
    }
    if (unit === "bytes") {
      var u = ["B", "KiB", "MiB", "GiB", "TiB"], k = 0;
      while (a >= 1024 && k < u.length - 1) { a /= 1024; v /= 1024; k++; }
      return (k ? v.toFixed(2) : v.toFixed(0)) + " " + u[k];
    }
    return (Math.round(v * 1000) / 1000) + " " + unit;
  }

  function pct(x) {
    return (100 * x).toFixed(2) + " %";
  }

  var ctx2d = null;
  function textWidth(s) {
    if (!ctx2d) {
      ctx2d = document.createElement("canvas").getContext("2d");
      ctx2d.font = FONT;
    }
    return ctx2d.measureText(s).width;
  }

  /* The longest start of s (with an ellipsis when cut) that fits w px; "" when not 2 chars. */
  function fit(s, w) {
    if (w <= 0) return "";
    if (textWidth(s) <= w) return s;
    var lo = 0, hi = s.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (textWidth(s.slice(0, mid) + "\u2026") <= w) lo = mid;
      else hi = mid - 1;
    }
    return lo >= 2 ? s.slice(0, lo) + "\u2026" : "";
  }

  function hue(name, dev) {
    var h = 2166136261;
    for (var i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
    if (name.charAt(0) === "(") return "hsl(0,0%,78%)";
    if (dev) return "hsl(" + (185 + h % 45) + "," + (50 + (h >>> 8) % 25) + "%," + (60 + (h >>> 16) % 12) + "%)";
    return "hsl(" + (10 + h % 40) + "," + (70 + (h >>> 8) % 25) + "%," + (55 + (h >>> 16) % 15) + "%)";
  }

  /* The tree of a data block: nodes [name, depth, total, self, device], depth-first. */
  function build(t) {
    var root = { name: "all", total: t.total, self: 0, dev: false, depth: -1, kids: [], parent: null };
    var stack = [root], all = [];
    t.nodes.forEach(function (a) {
      var d = Math.max(0, Math.min(a[1] | 0, stack.length - 1));
      stack.length = d + 1;
      var p = stack[d];
      var n = { name: String(a[0]), depth: d, total: +a[2] || 0, self: +a[3] || 0, dev: !!a[4],
                kids: [], parent: p, i: all.length };
      p.kids.push(n);
      stack.push(n);
      all.push(n);
    });
    root.all = all;
    return root;
  }

  function init(view) {
    var data;
    try {
      data = JSON.parse(view.querySelector("script.fl-data").textContent);
      if (data.display) Object.keys(data.display).forEach(function (k) { DISPLAY[k] = data.display[k]; });
    } catch (e) {
      return null;
    }
    var trees = data.trees || {}, unit = data.unit || "ns";
    var bar = view.querySelector(".fl-bar"), chart = view.querySelector(".fl-chart");
    var tip = view.querySelector(".fl-tip");
    var crumbs = view.querySelector(".fl-crumbs"), note = view.querySelector(".fl-note");
    var split, gpu, search, match, reset;
    var built = {}, cur = null, zoom = null, frames = [], query = "", drawnW = 0;

    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text) e.textContent = text;
      return e;
    }
    function option(cls, text, off) {
      var l = el("label", "fl-opt"), c = el("input", cls);
      c.type = "checkbox";
      l.appendChild(c);
      l.appendChild(document.createTextNode(" " + text));
      if (off) {
        c.disabled = true;
        l.classList.add("fl-off");
        l.title = off;
      }
      bar.appendChild(l);
      return c;
    }
    /* The controls, made when the view is first drawn: form fields cost Chromium a scan of
       the page each (its form handling), seconds on a page of 60 runs if all made at once. */
    function controls() {
      split = option("fl-split", "split steps", trees.split ? "" : "the run has no steps");
      if (trees.split)
        split.parentNode.title = "the " + data.steps + " slowest of " + data.of_steps + " steps, each its own root";
      gpu = option("fl-gpu", "with GPU kernels (device time)", trees.gpu ? "" : "no device activity in this run");
      search = el("input", "fl-search");
      search.type = "search";
      search.placeholder = "search frames";
      search.setAttribute("aria-label", "search frames");
      bar.appendChild(search);
      match = el("span", "fl-match");
      bar.appendChild(match);
      reset = el("button", "fl-reset", "reset zoom");
      reset.type = "button";
      bar.appendChild(reset);
      split.addEventListener("change", function () { select(); });
      gpu.addEventListener("change", function () { select(); });
      reset.addEventListener("click", function () { zoom = cur; draw(); });
      search.addEventListener("input", function () {
        query = search.value.trim().toLowerCase();
        draw();
      });
    }

    function key() {
      if (gpu.checked) return split.checked ? "gpu_split" : "gpu";
      return split.checked ? "split" : "host";
    }

    function select(width) {
      var k = key();
      if (!built[k] && trees[k]) built[k] = build(trees[k]);
      cur = built[k] || null;
      zoom = cur;
      draw(width);
    }

    function noteText() {
      var t = trees[key()], parts = [];
      if (!t) return gpu.checked && split.checked ? "No device activity under the kept steps." : "";
      if (split.checked) parts.push("The " + data.steps + " slowest of the run's " + data.of_steps +
                                    " steps, each its own root, in start order.");
      else if (trees.split) parts.push("Steps merged: every step's stack is one ProfilerStep#* frame.");
      if (gpu.checked) parts.push("Device time: each kernel, memcpy and memset under the op that launched it.");
      if (t.more) parts.push(t.more + " node(s) under 0.1 % of the total, deeper than 40 or past the cap are left out.");
      if (t.folded) parts.push(t.folded + " span(s) on paths past the tree's bound are in \"(other paths)\".");
      return parts.join(" ");
    }

    function drawCrumbs() {
      crumbs.textContent = "";
      if (!cur) return;
      var path = [];
      for (var n = zoom; n; n = n.parent) path.unshift(n);
      path.forEach(function (n, k) {
        if (k) crumbs.appendChild(document.createTextNode(" \u203a "));
        var b = document.createElement("button");
        b.type = "button";
        b.className = "fl-crumb";
        b.textContent = k ? displayName(n.name) : "all";
        b.title = k ? n.name : "the whole tree";
        if (n === zoom) b.disabled = true;
        b.addEventListener("click", function () { zoom = n; draw(); });
        crumbs.appendChild(b);
      });
    }

    /* Frames of the view: the zoom root on row 0 (unless it is the whole tree), its subtree
       below; each child starts where its previous sibling ended, within its parent. */
    function layout(W) {
      var out = [], base = zoom.total > 0 ? zoom.total : 1;
      function place(n, x, w, row) {
        out.push({ n: n, x: x, w: w, row: row });
        kids(n, x, w, row + 1);
      }
      function kids(n, x, w, row) {
        var off = x, end = x + w;
        n.kids.forEach(function (c) {
          var cw = c.total / base * W;
          if (off + cw > end) cw = Math.max(0, end - off);
          if (cw >= MIN_W) place(c, off, cw, row);
          off += cw;
        });
      }
      if (zoom === cur) kids(cur, 0, W, 0);
      else place(zoom, 0, W, 0);
      return out;
    }

    function isMatch(n) {
      return query !== "" && n.name.toLowerCase().indexOf(query) >= 0;
    }

    function draw(width) {
      tip.hidden = true;
      chart.textContent = "";
      frames = [];
      note.textContent = noteText();
      drawCrumbs();
      reset.disabled = !cur || zoom === cur;
      if (!cur) { updateMatch(); return; }
      var cw = typeof width === "number" ? width : chart.clientWidth;
      var W = Math.max(200, cw || 800);
      drawnW = cw;
      frames = layout(W);
      var rows = 0;
      frames.forEach(function (f) { if (f.row + 1 > rows) rows = f.row + 1; });
      var svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("class", "fl-svg");
      svg.setAttribute("width", W);
      svg.setAttribute("height", Math.max(1, rows) * ROW);
      svg.setAttribute("viewBox", "0 0 " + W + " " + Math.max(1, rows) * ROW);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "flame graph");
      var texts = [];
      frames.forEach(function (f, k) {
        var g = document.createElementNS(SVGNS, "g");
        g.setAttribute("class", "fl-f" + (f.n.dev ? " fl-dev" : "") + (isMatch(f.n) ? " fl-hit" : ""));
        g.setAttribute("data-k", k);
        g.setAttribute("data-name", f.n.name);
        var r = document.createElementNS(SVGNS, "rect");
        r.setAttribute("x", f.x.toFixed(2));
        r.setAttribute("y", f.row * ROW);
        r.setAttribute("width", f.w.toFixed(2));
        r.setAttribute("height", ROW - 1);
        r.setAttribute("fill", hue(f.n.name, f.n.dev));
        g.appendChild(r);
        var label = fit(displayName(f.n.name), f.w - 2 * PAD - 1);
        if (label) {
          var t = document.createElementNS(SVGNS, "text");
          t.setAttribute("x", (f.x + PAD).toFixed(2));
          t.setAttribute("y", f.row * ROW + 12.5);
          t.textContent = label;
          g.appendChild(t);
          texts.push({ t: t, f: f });
        }
        svg.appendChild(g);
      });
      if (query) svg.classList.add("fl-searching");
      chart.appendChild(svg);
      texts.forEach(function (x) { x.room = x.f.w - 2 * PAD; });
      checkLabels(texts);
      updateMatch();
    }

    /* The matched share of the whole tree: a match inside a match counts once. */
    function updateMatch() {
      if (!cur || query === "") {
        match.textContent = "";
        match.removeAttribute("data-share");
        return;
      }
      var sum = 0, count = 0;
      cur.all.forEach(function (n) {
        if (!isMatch(n)) return;
        count++;
        for (var p = n.parent; p; p = p.parent) if (isMatch(p)) return;
        sum += n.total;
      });
      var share = cur.total > 0 ? sum / cur.total : 0;
      match.setAttribute("data-share", String(share));
      match.setAttribute("data-count", String(count));
      match.textContent = count ? count + " frame(s) match: " + fmtVal(sum, gpu.checked ? "ns" : unit) +
                                  ", " + pct(share) + " of the total"
                                : "no frame matches";
    }

    function frameAt(target) {
      var g = target && target.closest ? target.closest("g.fl-f") : null;
      return g ? frames[+g.getAttribute("data-k")] : null;
    }

    chart.addEventListener("click", function (e) {
      var f = frameAt(e.target);
      if (!f) return;
      zoom = f.n === zoom && zoom.parent ? zoom.parent : f.n;
      draw();
    });
    chart.addEventListener("mousemove", function (e) {
      var f = frameAt(e.target);
      if (!f) { tip.hidden = true; return; }
      var n = f.n, u = gpu.checked ? "ns" : unit, box = view.getBoundingClientRect();
      tip.textContent = "";
      var b = document.createElement("b");
      b.textContent = displayName(n.name);
      tip.appendChild(b);
      var lines = [(n.dev ? "device time " : "total ") + fmtVal(n.total, u) + " (" + pct(cur.total > 0 ? n.total / cur.total : 0) + " of all" +
                   (zoom !== cur && zoom.total > 0 ? ", " + pct(n.total / zoom.total) + " of the zoomed frame" : "") + ")",
                   "self " + fmtVal(n.self, u)];
      lines.forEach(function (s) {
        var d = document.createElement("div");
        d.textContent = s;
        tip.appendChild(d);
      });
      tip.hidden = false;
      var x = e.clientX - box.left + 12, y = e.clientY - box.top + 14;
      if (x + tip.offsetWidth > box.width) x = Math.max(0, box.width - tip.offsetWidth);
      tip.style.left = x + "px";
      tip.style.top = y + "px";
    });
    chart.addEventListener("mouseleave", function () { tip.hidden = true; });

    /* drawn again when its width changed (a window resized, a folded run opened) */
    function refit() {
      if (!split) return;
      var w = chart.clientWidth;
      if (w && w !== drawnW) draw(w);
    }
    function first(width) {
      if (split) return;
      controls();
      select(width);
    }
    return { chart: chart, first: first, refit: refit };
  }

  /* The font the page got may be wider than the canvas measured: every label is checked
     against its room once the views are drawn, all read first (one layout for the page), then
     the long ones cut (a second look the frame after, at most three). */
  var queue = [], queued = false;
  function checkLabels(texts) {
    Array.prototype.push.apply(queue, texts.map(function (x) { x.pass = 0; return x; }));
    if (!queued) {
      queued = true;
      window.requestAnimationFrame(fixLabels);
    }
  }
  function fixLabels() {
    var q = queue, again = [];
    queue = [];
    queued = false;
    var lens = q.map(function (x) { return x.t.isConnected ? x.t.getComputedTextLength() : 0; });
    q.forEach(function (x, k) {
      var s = x.t.textContent;
      if (!(lens[k] > x.room)) return;
      var n = Math.floor(s.length * x.room / lens[k]) - 2;
      s = n >= 2 ? s.slice(0, n) + "\u2026" : "";
      if (!s) { x.t.parentNode.removeChild(x.t); return; }
      x.t.textContent = s;
      if (++x.pass < 3) again.push(x);
    });
    if (again.length) {
      Array.prototype.push.apply(queue, again);
      queued = true;
      window.requestAnimationFrame(fixLabels);
    }
  }

  /* Each view is drawn when it first comes into sight (its width from the observer: no
     layout forced), so a page of many runs draws only what is looked at; without an
     observer, all at once. */
  var views = [];
  Array.prototype.forEach.call(document.querySelectorAll("div.flame-view"), function (v) {
    var x = init(v);
    if (x) views.push(x);
  });
  if (window.IntersectionObserver) {
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) {
        if (!en.isIntersecting) return;
        io.unobserve(en.target);
        views.forEach(function (x) {
          if (x.chart === en.target) x.first(Math.max(0, en.boundingClientRect.width - 2));
        });
      });
    }, { rootMargin: "200px" });
    views.forEach(function (x) { io.observe(x.chart); });
  } else {
    views.forEach(function (x) { x.first(); });
  }
  var pending = false;
  function refitAll() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      views.forEach(function (x) { x.refit(); });
    });
  }
  window.addEventListener("resize", refitAll);
  document.addEventListener("toggle", refitAll, true);
})();
