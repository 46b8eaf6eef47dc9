/* Sortable tables: click a header; numeric columns sort by data-v, names by their full text
   (data-full of a name cut in the middle). Copying a cut name copies the full one.
   No network, no libraries. */
(function () {
  function key(td, numeric) {
    if (!td) return numeric ? -Infinity : "";
    if (numeric) {
      var v = parseFloat(td.getAttribute("data-v"));
      return isNaN(v) ? -Infinity : v;
    }
    return (td.getAttribute("data-full") || td.textContent).toLowerCase();
  }
  document.addEventListener("copy", function (e) {
    var sel = window.getSelection(), node = sel && sel.anchorNode;
    var td = node && (node.nodeType === 1 ? node : node.parentElement);
    td = td && td.closest ? td.closest("td.el") : null;
    if (!td || !e.clipboardData || !td.contains(sel.focusNode)) return;
    e.clipboardData.setData("text/plain", td.getAttribute("data-full"));
    e.preventDefault();
  });
  function sort(th) {
    var table = th.closest("table"), tbody = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.classList.contains("n");
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col], numeric), y = key(b.cells[col], numeric);
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable th").forEach(function (th) {
    th.addEventListener("click", function () { sort(th); });
  });
})();

/* Runs folded into <details> (pages of many runs): following a link to a run, or to
   anything inside one, opens it first. */
(function () {
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1)), t = id && document.getElementById(id);
    for (var d = t; d; d = d.parentElement) if (d.tagName === "DETAILS") d.open = true;
    if (t && t.tagName === "DETAILS") t.open = true;
  }
  window.addEventListener("hashchange", reveal);
  reveal();
})();

/* Panels: each line chart's data (a JSON script element of class pz-data after its SVG, see
   render/panel_data.h) gives hover values and zoom on the x axis: the wheel zooms
   about the pointer, shift+wheel pans, a drag selects a range, a double click resets. A zoomed
   view is redrawn over the plot and the x tick labels of the static SVG (same y axis); the
   static SVG stays what is shown without a script and in print. */
(function () {
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function trim(s) { return s.indexOf(".") < 0 ? s : s.replace(/\.?0+$/, ""); }
  /* A value in its axis' unit (the unit the axis title names, ax.name at scale ax.s): 0.262 s on
     an axis in s, not 262.002 ms; 1.23 GiB, 73.7 %, 1.2k W. 4 significant digits at least. */
  function fmt(v, ax, span) { /* span: v is a length of x, not a point on a clock */
    if (ax.epoch !== undefined && !span) return clockText(v, ax, 0) + " UTC";
    if (v === null || !isFinite(v)) return "-";
    var b = v * ax.f, a = Math.abs(b), i;
    if ((ax.k === "time" || ax.k === "bytes") && ax.name && ax.s > 0) {
      var shown = b / ax.s, mag = shown ? Math.floor(Math.log10(Math.abs(shown))) : 0;
      return trim(shown.toFixed(Math.max(0, Math.min(12, 3 - mag)))) + " " + ax.name;
    }
    if (ax.k === "bytes") {
      var units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
      for (i = 0; a >= 1024 && i < units.length - 1; i++) { a /= 1024; b /= 1024; }
      return (i ? b.toFixed(2) : b.toFixed(0)) + " " + units[i];
    }
    if (ax.k === "time") {
      var t = [[3600, "h"], [60, "min"], [1, "s"], [1e-3, "ms"], [1e-6, "us"]];
      for (i = 0; i < t.length; i++) if (a >= t[i][0]) return (b / t[i][0]).toFixed(3) + " " + t[i][1];
      return (b * 1e9).toFixed(0) + " ns";
    }
    if (ax.k === "percent") return b.toFixed(1) + " %";
    var si = ["", "k", "M", "G", "T", "P"];
    for (i = 0; a >= 1000 && i < si.length - 1; i++) { a /= 1000; b /= 1000; }
    return trim(b.toPrecision(4)) + si[i] + (ax.unit ? " " + ax.unit : "");
  }
  /* 1-2-5 ticks in [lo, hi], at most n intervals (render/layout.c's rule). */
  function ticks(lo, hi, n) {
    var raw = (hi - lo) / n, p = Math.pow(10, Math.floor(Math.log10(raw))), step = 10 * p;
    [1, 2, 5].some(function (m) { if (m * p >= raw * (1 - 1e-9)) { step = m * p; return true; } return false; });
    var out = [], first = Math.ceil(lo / step - 1e-9) * step;
    for (var v = first; v <= hi + step * 1e-9 && out.length < 100; v += step) out.push(v);
    return { v: out, step: step };
  }
  /* A UTC clock axis (x.epoch: x is seconds after it): ticks on clock steps, labels as times. */
  var CLOCK = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900,
    1800, 3600, 7200, 10800, 21600, 43200, 86400];
  function clockTicks(lo, hi, n) {
    var raw = (hi - lo) / n, step = CLOCK[CLOCK.length - 1];
    CLOCK.some(function (c) { if (c >= raw * (1 - 1e-9)) { step = c; return true; } return false; });
    var out = [], first = Math.ceil(lo / step - 1e-9) * step;
    for (var v = first; v <= hi + step * 1e-9 && out.length < 100; v += step) out.push(v);
    return { v: out, step: step };
  }
  function clockText(v, ax, step) {
    var iso = new Date(Math.round((ax.epoch + v) * 1000)).toISOString(); /* YYYY-MM-DDTHH:MM:SS.sssZ */
    return step >= 60 ? iso.slice(11, 16) : step >= 1 ? iso.slice(11, 19) : iso.slice(11, 23);
  }
  function tickText(v, ax, step) {
    if (ax.epoch !== undefined) return clockText(v, ax, step);
    var shown = step * ax.f / ax.s, dec = Math.max(0, Math.min(12, -Math.floor(Math.log10(shown) + 1e-9)));
    var s = (v * ax.f / ax.s).toFixed(dec);
    return (/^-0(\.0*)?$/.test(s) ? s.slice(1) : s) + ax.sfx;
  }

  function Panel(fig, d) {
    var svg = fig.querySelector("svg"), p = d.plot, self = this;
    this.fig = fig; this.svg = svg; this.d = d;
    this.view = [d.x.lo, d.x.hi];
    this.layer = el("g", { "class": "pz-zoom" }, svg);
    this.hover = el("g", { "class": "pz-hover", "pointer-events": "none" }, svg);
    this.sel = el("rect", { "class": "pz-sel", y: p[1], height: p[3], width: 0, fill: "#2E86AB",
      "fill-opacity": 0.15, visibility: "hidden" }, svg);
    this.tip = document.createElement("div");
    this.tip.className = "pz-tip";
    this.tip.hidden = true;
    fig.appendChild(this.tip);
    var hint = document.createElement("figcaption");
    hint.className = "pz-hint";
    hint.textContent = "Hover for values; wheel or drag to zoom the x axis, shift+wheel to pan, double-click to reset.";
    fig.appendChild(hint);
    fig.classList.add("pz");
    svg.addEventListener("mousemove", function (e) { self.move(e); });
    svg.addEventListener("mouseleave", function () { self.hideHover(); });
    svg.addEventListener("mousedown", function (e) {
      var q = self.pt(e);
      if (e.button !== 0 || !self.inside(q)) return;
      self.drag = q.x;
      e.preventDefault();
    });
    window.addEventListener("mouseup", function (e) {
      if (self.drag === undefined) return;
      var a = self.drag, b = self.pt(e).x;
      self.drag = undefined;
      self.sel.setAttribute("visibility", "hidden");
      if (Math.abs(b - a) >= 4) self.zoom(self.dx(Math.min(a, b)), self.dx(Math.max(a, b)));
    });
    svg.addEventListener("wheel", function (e) {
      var q = self.pt(e);
      if (!self.inside(q)) return;
      e.preventDefault();
      var v = self.view, w = v[1] - v[0], delta = e.deltaY || e.deltaX;
      if (!delta) return;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        var s = (delta > 0 ? 0.1 : -0.1) * w;
        self.zoom(v[0] + s, v[1] + s);
      } else {
        var x = self.dx(q.x), k = delta < 0 ? 0.8 : 1.25;
        self.zoom(x - (x - v[0]) * k, x + (v[1] - x) * k);
      }
    }, { passive: false });
    svg.addEventListener("dblclick", function () { self.zoom(d.x.lo, d.x.hi); });
  }
  Panel.prototype.pt = function (e) { /* client px -> SVG px */
    var m = this.svg.getScreenCTM(), q = this.svg.createSVGPoint();
    q.x = e.clientX; q.y = e.clientY;
    return m ? q.matrixTransform(m.inverse()) : q;
  };
  Panel.prototype.inside = function (q) {
    var p = this.d.plot;
    return q.x >= p[0] && q.x <= p[0] + p[2] && q.y >= p[1] && q.y <= p[1] + p[3];
  };
  Panel.prototype.px = function (x) { var p = this.d.plot, v = this.view; return p[0] + (x - v[0]) / (v[1] - v[0]) * p[2]; };
  Panel.prototype.dx = function (px) { var p = this.d.plot, v = this.view; return v[0] + (px - p[0]) / p[2] * (v[1] - v[0]); };
  Panel.prototype.py = function (y) { var p = this.d.plot, a = this.d.y; return p[1] + p[3] - (y - a.lo) / (a.hi - a.lo) * p[3]; };
  Panel.prototype.dy = function (py) { var p = this.d.plot, a = this.d.y; return a.lo + (p[1] + p[3] - py) / p[3] * (a.hi - a.lo); };

  /* Shows [a, b] of the x axis (clamped to the data range); the whole range shows the static SVG. */
  Panel.prototype.zoom = function (a, b) {
    var lo = this.d.x.lo, hi = this.d.x.hi, w = Math.max(b - a, (hi - lo) * 1e-6);
    if (w >= hi - lo) { a = lo; b = hi; } else {
      if (a < lo) a = lo;
      if (a + w > hi) a = hi - w;
      b = a + w;
    }
    this.view = [a, b];
    this.fig.setAttribute("data-view", a + " " + b);
    this.draw();
    this.hideHover();
  };

  Panel.prototype.draw = function () {
    var d = this.d, p = d.plot, g = this.layer, self = this, a = this.view[0], b = this.view[1];
    while (g.firstChild) g.removeChild(g.firstChild);
    if (a <= d.x.lo && b >= d.x.hi) { this.fig.removeAttribute("data-view"); return; }
    var bottom = p[1] + p[3], base = Math.min(bottom, Math.max(p[1], this.py(0)));
    /* the static tick marks and labels (down to the labels' descent), then the plot */
    el("rect", { x: d.xt.l - 1, y: bottom + 1, width: d.xt.r - d.xt.l + 2, height: d.xt.y + d.xt.size * 0.24 - bottom, fill: "#fff" }, g);
    el("rect", { x: p[0], y: p[1], width: p[2], height: p[3], fill: "#fff" }, g);
    var c = el("svg", { x: p[0], y: p[1], width: p[2], height: p[3], viewBox: p.join(" "), overflow: "hidden" }, g);
    d.zones.forEach(function (z) {
      var y0 = self.py(z[1]), y1 = self.py(z[0]);
      el("rect", { x: p[0], y: y0, width: p[2], height: Math.max(0, y1 - y0), fill: z[2], "fill-opacity": z[3] }, c);
    });
    d.bands.forEach(function (z) {
      var x0 = self.px(z[0]), x1 = self.px(z[1]);
      if (x1 > p[0] && x0 < p[0] + p[2]) el("rect", { x: x0, y: p[1], width: x1 - x0, height: p[3], fill: z[2], "fill-opacity": z[3] }, c);
    });
    var t = (d.x.epoch !== undefined ? clockTicks : ticks)(a, b, Math.max(2, Math.floor(p[2] / 100)));
    d.yt.forEach(function (y) { el("line", { x1: p[0], x2: p[0] + p[2], y1: y, y2: y, stroke: "#e6e6e6" }, c); });
    t.v.forEach(function (x) {
      var X = self.px(x);
      el("line", { x1: X, x2: X, y1: p[1], y2: bottom, stroke: "#e6e6e6" }, c);
      el("line", { x1: X, x2: X, y1: bottom, y2: bottom + 5, stroke: "#555" }, g);
      var s = el("text", { "class": "pz-xt", x: X, y: d.xt.y, "text-anchor": "middle", "font-size": d.xt.size,
        "font-family": "DejaVu Sans, sans-serif", fill: "#444" }, g);
      s.textContent = tickText(x, d.x, t.step);
    });
    d.rects.forEach(function (r) {
      var y0 = self.py(r.y1), h = self.py(r.y0) - y0;
      for (var i = 0; i + 1 < r.x.length; i += 2) {
        if (r.x[i + 1] < a || r.x[i] > b) continue;
        var x0 = self.px(r.x[i]);
        el("rect", { x: x0, y: y0, width: Math.max(self.px(r.x[i + 1]) - x0, 0.75), height: h, fill: r.c, "fill-opacity": 0.85 }, c);
      }
    });
    var segs = d.lines.map(function (l) { return self.segments(l); });
    segs.forEach(function (ss, k) { /* a step line holds each value until the next point */
      if (d.lines[k].step) segs[k] = ss.map(function (s) {
        var o = [];
        s.forEach(function (q, i) { if (i) o.push([q[0], s[i - 1][1]]); o.push(q); });
        return o;
      });
    });
    d.lines.forEach(function (l, k) { /* fills first, as the static chart does */
      if (l.fill > 0) segs[k].forEach(function (s) {
        el("polygon", { points: pts([[s[0][0], base]].concat(s, [[s[s.length - 1][0], base]])),
          fill: l.c, "fill-opacity": l.fill, stroke: "none" }, c);
      });
    });
    d.lines.forEach(function (l, k) {
      segs[k].forEach(function (s) {
        var e = el("polyline", { "class": "pz-line", points: pts(s), fill: "none", stroke: l.c, "stroke-width": l.w,
          "stroke-linejoin": "round", "stroke-linecap": "round" }, c);
        if (l.dash) e.setAttribute("stroke-dasharray", "6 4");
      });
    });
    d.vlines.forEach(function (v) {
      var X = self.px(v[0]);
      var e = el("line", { x1: X, x2: X, y1: p[1], y2: bottom, stroke: v[1], "stroke-opacity": 0.7, "stroke-width": 1.5 }, c);
      if (v[2]) e.setAttribute("stroke-dasharray", "6 4");
    });
    d.hlines.forEach(function (v) {
      var Y = self.py(v[0]);
      var e = el("line", { x1: p[0], x2: p[0] + p[2], y1: Y, y2: Y, stroke: v[1], "stroke-width": 1.5 }, c);
      if (v[2]) e.setAttribute("stroke-dasharray", "6 4");
    });
    d.marks.forEach(function (m) {
      if (m[0] >= a && m[0] <= b) el("circle", { cx: self.px(m[0]), cy: self.py(m[1]), r: 5, fill: m[2], stroke: "#fff", "stroke-width": 1.5 }, c);
    });
    el("rect", { x: p[0], y: p[1], width: p[2], height: p[3], fill: "none", stroke: "#b3b3b3" }, g);
    el("path", { d: "M" + p[0] + " " + p[1] + "V" + bottom + "H" + (p[0] + p[2]), fill: "none", stroke: "#555" }, g);
  };

  /* A line's points in the view, and the neighbours that carry it to the edges, as
     segments of [X, Y] px split at gaps (null) and where the line leaves the view. */
  Panel.prototype.segments = function (l) {
    var out = [], cur = [], a = this.view[0], b = this.view[1], n = l.x.length;
    function ok(j) { return j >= 0 && j < n && l.x[j] !== null && l.y[j] !== null; }
    function inView(j) { return ok(j) && l.x[j] >= a && l.x[j] <= b; }
    function across(j, k) { return ok(j) && ok(k) && Math.min(l.x[j], l.x[k]) < a && Math.max(l.x[j], l.x[k]) > b; }
    for (var i = 0; i < n; i++) {
      var keep = ok(i) && (inView(i) || inView(i - 1) || inView(i + 1) || across(i - 1, i) || across(i, i + 1));
      if (keep) cur.push([this.px(l.x[i]), this.py(l.y[i])]);
      if ((!keep || !ok(i + 1)) && cur.length) { out.push(cur); cur = []; }
    }
    if (cur.length) out.push(cur);
    return out;
  };
  function pts(s) { return s.map(function (q) { return q[0].toFixed(2) + "," + q[1].toFixed(2); }).join(" "); }

  /* The nearest point of a line to x within the view: its index, or -1. */
  /* For a step line, the value shown is the one holding at x: the last point at or before it. */
  function nearest(l, x, a, b, tol) { /* tol: a pixel in x, as the pointer lands on whole pixels */
    var best = -1, bd = Infinity;
    for (var i = 0; i < l.x.length; i++) {
      var v = l.x[i];
      if (v === null || l.y[i] === null || v < a || v > b) continue;
      if (l.step ? v <= x + tol && Math.abs(x - v) < bd : Math.abs(v - x) < bd) { bd = Math.abs(v - x); best = i; }
    }
    return best;
  }

  Panel.prototype.hideHover = function () {
    while (this.hover.firstChild) this.hover.removeChild(this.hover.firstChild);
    this.tip.hidden = true;
  };

  Panel.prototype.move = function (e) {
    var q = this.pt(e), d = this.d, p = d.plot, self = this;
    if (this.drag !== undefined) {
      var x0 = Math.max(p[0], Math.min(this.drag, q.x)), x1 = Math.min(p[0] + p[2], Math.max(this.drag, q.x));
      this.sel.setAttribute("x", x0);
      this.sel.setAttribute("width", x1 - x0);
      this.sel.setAttribute("visibility", "visible");
    }
    this.hideHover();
    if (!this.inside(q)) return;
    var x = this.dx(q.x), y = this.dy(q.y), rows = [], head = null;
    d.lines.forEach(function (l) {
      var i = nearest(l, x, self.view[0], self.view[1], (self.view[1] - self.view[0]) / self.d.plot[2]);
      if (i < 0) return;
      if (head === null) head = l.x[i];
      el("circle", { cx: self.px(l.x[i]), cy: self.py(l.y[i]), r: 4, fill: l.c, stroke: "#fff", "stroke-width": 1.5 }, self.hover);
      rows.push({ c: l.c, l: l.l, v: l.y[i], x: l.x[i], text: fmt(l.y[i], d.y) });
    });
    d.rects.forEach(function (r) {
      if (y < Math.min(r.y0, r.y1) || y > Math.max(r.y0, r.y1)) return;
      for (var i = 0; i + 1 < r.x.length; i += 2) {
        if (x < r.x[i] || x > r.x[i + 1]) continue;
        rows.push({ c: r.c, l: r.l, v: r.x[i + 1] - r.x[i], x: r.x[i],
          text: fmt(r.x[i], d.x) + " to " + fmt(r.x[i + 1], d.x) + " (" + fmt(r.x[i + 1] - r.x[i], d.x, true) + ")" });
        return;
      }
    });
    if (!rows.length) return;
    var gx = head !== null ? this.px(head) : q.x;
    el("line", { x1: gx, x2: gx, y1: p[1], y2: p[1] + p[3], stroke: "#1d2330", "stroke-dasharray": "3 3" }, this.hover);
    var tip = this.tip;
    tip.textContent = "";
    var h = document.createElement("div");
    h.className = "pz-x";
    h.textContent = (d.x.label || "x") + ": " + fmt(head !== null ? head : x, d.x);
    tip.appendChild(h);
    rows.forEach(function (r) {
      var row = document.createElement("div"), sw = document.createElement("span"), v = document.createElement("b");
      row.className = "pz-row";
      row.setAttribute("data-v", r.v);
      row.setAttribute("data-x", r.x);
      sw.className = "pz-sw";
      sw.style.background = r.c;
      v.textContent = r.text;
      row.appendChild(sw);
      row.appendChild(document.createTextNode((r.l || d.y.label) + ": "));
      row.appendChild(v);
      tip.appendChild(row);
    });
    tip.hidden = false;
    var fr = this.fig.getBoundingClientRect(), left = e.clientX - fr.left + 14;
    if (left + tip.offsetWidth > fr.width) left = Math.max(0, e.clientX - fr.left - 14 - tip.offsetWidth);
    tip.style.left = left + "px";
    tip.style.top = (e.clientY - fr.top + 14) + "px";
  };

  document.querySelectorAll("figure > script.pz-data").forEach(function (s) {
    try {
      new Panel(s.parentNode, JSON.parse(s.textContent));
    } catch (err) { /* the panel stays the static SVG; say why (the browser test fails on it) */
      console.error("panel " + s.parentNode.id + ": " + err);
    }
  });
})();
