/* Trace view (render/html_trace.c): named slices of the run's chosen windows on a canvas, one
   lane per CPU thread / GPU stream, nested by depth. Wheel or W/S zoom about the pointer, drag
   or A/D pan, double click shows the whole window again; hover says name, start, duration,
   self, kind and args; a click selects a slice, draws the arrow to its launch or kernel and
   lists its details; the search box highlights every slice whose name holds the text and
   Enter / the arrows step through them in time order. The state a test reads is on the
   element: data-t0/data-t1 (the view, ns since run start), data-selected, data-partner,
   data-matches. No network, no library. */
(function () {
  var ROW = 18, GAP = 6, LABEL = 230, AXIS = 26;
  var KIND_COLOR = {
    kernel: "#2E86AB", memcpy: "#3a9d5d", memset: "#8fd19e", runtime: "#8e6bbf",
    gpu_annotation: "#c9b3e6", step: "#9aa3b2", phase: "#b7bfcc", annotation: "#e8a33d",
    python: "#d9c27a", profiler: "#cfd4dc"
  };
  function hash(s) {
    var h = 2166136261;
    for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    return h >>> 0;
  }
  function color(kind, name) {
    if (kind === "kernel" && /nccl|rccl|all_?reduce|allgather|reduce_?scatter|all2all|alltoall|sendrecv/i.test(name))
      return "#f28e2b";
    var h = hash(name);
    if (kind === "python") /* Python frames: one hue, the shade from the name, so neighbours differ */
      return "hsl(" + (40 + h % 14) + "," + (45 + (h >> 8) % 25) + "%," + (62 + (h >> 16) % 14) + "%)";
    if (KIND_COLOR[kind]) return KIND_COLOR[kind];
    /* CPU ops: a teal hue from the name, as Perfetto colours by name */
    return "hsl(" + (170 + h % 50) + "," + (38 + (h >> 8) % 22) + "%," + (60 + (h >> 16) % 14) + "%)";
  }
  function fmtDur(ns) {
    var a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(3) + " s";
    if (a >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
    if (a >= 1e3) return (ns / 1e3).toFixed(3) + " us";
    return Math.round(ns) + " ns";
  }
  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), m = [1, 2, 5, 10];
    for (var i = 0; i < m.length; i++) if (m[i] * p >= raw) return m[i] * p;
    return 10 * p;
  }
  function lower(arr, key, x) { /* first index with key(arr[i]) >= x */
    var lo = 0, hi = arr.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (key(arr[mid]) < x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  /* the columns html_trace.c writes -> [lane, depth, t, dur, name, kind, self, args] */
  function decode(c) {
    var out = [], i = 0, t = 0;
    c.lanes.forEach(function (run) {
      for (var k = 0; k < run[1]; k++, i++) {
        t += c.dt[i];
        out.push([run[0], c.depth[i], t, c.dur[i], c.name[i], c.kind[i], c.ch[i] < 0 ? -1 : c.dur[i] - c.ch[i], c.args[i]]);
      }
    });
    return out;
  }
  function View(box, d) {
    var self = this, i;
    this.box = box; this.d = d;
    this.disp = d.names.map(function (n, k) { return (d.display && d.display[k]) || n; });
    d.slices = decode(d.cols);
    /* rows: one per (lane, depth), slices in start order (one depth of one lane never overlaps) */
    this.rows = []; this.laneTop = [];
    var y = AXIS, laneRow = [];
    d.lanes.forEach(function (ln, li) {
      self.laneTop.push(y);
      laneRow[li] = self.rows.length;
      var depth = Math.max(1, ln.depth | 0);
      for (var k = 0; k < depth; k++) { self.rows.push({ lane: li, depth: k, y: y, s: [] }); y += ROW; }
      y += GAP;
    });
    this.height = y;
    this.sl = d.slices.map(function (s, idx) {
      return { i: idx, lane: s[0], depth: s[1], t: s[2], dur: s[3], name: s[4], kind: s[5], self: s[6], args: s[7] };
    });
    this.sl.forEach(function (s) {
      var r = self.rows[laneRow[s.lane] + Math.min(s.depth, Math.max(1, d.lanes[s.lane].depth | 0) - 1)];
      s.row = r; r.s.push(s);
    });
    this.rows.forEach(function (r) {
      r.s.sort(function (a, b) { return a.t - b.t || a.i - b.i; });
      var m = -Infinity; /* running max of ends: slices of one row may overlap on bad input */
      r.s.forEach(function (s) { m = Math.max(m, s.t + s.dur); s.endmax = m; });
    });
    this.partner = {};
    (d.links || []).forEach(function (l) {
      (self.partner[l[0]] = self.partner[l[0]] || []).push(l[1]);
      (self.partner[l[1]] = self.partner[l[1]] || []).push(l[0]);
    });
    var w0 = d.windows && d.windows.length ? d.windows : [{ label: "run", t0_ns: 0, t1_ns: 1 }];
    this.windows = w0;
    this.win = 0;
    this.matches = []; this.mi = -1; this.sel = null;
    this.build();
    this.show(0);
  }
  View.prototype.build = function () {
    var self = this, box = this.box;
    var bar = document.createElement("div");
    bar.className = "trv-bar";
    this.windows.forEach(function (w, k) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = w.label; b.className = "trv-win";
      b.addEventListener("click", function () { self.show(k); });
      bar.appendChild(b);
    });
    var q = document.createElement("input");
    q.type = "search"; q.placeholder = "search slices (Enter: next)"; q.className = "trv-q";
    q.setAttribute("aria-label", "search the trace view's slices");
    var prev = document.createElement("button"), next = document.createElement("button");
    prev.type = next.type = "button"; prev.textContent = "\u25C0"; next.textContent = "\u25B6";
    prev.title = "previous match"; next.title = "next match";
    var cnt = document.createElement("span");
    cnt.className = "trv-count";
    bar.appendChild(q); bar.appendChild(prev); bar.appendChild(next); bar.appendChild(cnt);
    box.appendChild(bar);
    this.q = q; this.cnt = cnt;
    q.addEventListener("input", function () { self.search(q.value); });
    q.addEventListener("keydown", function (e) {
      if (e.key === "Enter") { self.step(e.shiftKey ? -1 : 1); e.preventDefault(); }
      e.stopPropagation();
    });
    prev.addEventListener("click", function () { self.step(-1); });
    next.addEventListener("click", function () { self.step(1); });
    var wrap = document.createElement("div");
    wrap.className = "trv-wrap";
    var c = document.createElement("canvas");
    c.className = "trv-canvas";
    wrap.appendChild(c);
    var tip = document.createElement("div");
    tip.className = "trv-tip"; tip.hidden = true;
    wrap.appendChild(tip);
    box.appendChild(wrap);
    var info = document.createElement("div");
    info.className = "trv-info";
    info.textContent = "Click a slice to see its details.";
    box.appendChild(info);
    this.c = c; this.tip = tip; this.info = info; this.wrap = wrap;
    c.addEventListener("mousemove", function (e) { self.hover(e); });
    c.addEventListener("mouseleave", function () { tip.hidden = true; self.hot = null; });
    c.addEventListener("wheel", function (e) {
      var p = self.pos(e);
      if (e.shiftKey) self.pan((e.deltaY || e.deltaX) > 0 ? 0.15 : -0.15);
      else self.zoomAt(self.tx(p.x), e.deltaY > 0 ? 1.25 : 0.8);
      e.preventDefault();
    }, { passive: false });
    var drag = null;
    c.addEventListener("mousedown", function (e) {
      drag = { x: e.clientX, v0: self.v0, v1: self.v1, moved: false };
      box.focus({ preventScroll: true });
    });
    window.addEventListener("mousemove", function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (!drag.moved) return;
      var per = (drag.v1 - drag.v0) / self.plotW();
      self.setView(drag.v0 - dx * per, drag.v1 - dx * per);
    });
    window.addEventListener("mouseup", function (e) {
      if (drag && !drag.moved && e.target === c) self.click(e);
      drag = null;
    });
    c.addEventListener("dblclick", function () { self.show(self.win); });
    box.addEventListener("keydown", function (e) {
      var k = e.key.toLowerCase();
      if (k === "w") self.zoomAt(self.hotT(), 0.8);
      else if (k === "s") self.zoomAt(self.hotT(), 1.25);
      else if (k === "a") self.pan(-0.2);
      else if (k === "d") self.pan(0.2);
      else return;
      e.preventDefault();
    });
    window.addEventListener("resize", function () { self.draw(); });
  };
  View.prototype.plotW = function () { return Math.max(50, this.c.clientWidth - LABEL); };
  View.prototype.tx = function (px) { return this.v0 + (px - LABEL) / this.plotW() * (this.v1 - this.v0); };
  View.prototype.px = function (t) { return LABEL + (t - this.v0) / (this.v1 - this.v0) * this.plotW(); };
  View.prototype.pos = function (e) {
    var r = this.c.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  View.prototype.hotT = function () {
    return this.mouseT !== undefined && this.mouseT >= this.v0 && this.mouseT <= this.v1 ? this.mouseT : (this.v0 + this.v1) / 2;
  };
  View.prototype.setView = function (a, b) {
    if (!(b > a)) return;
    if (b - a < 1000) { var m = (a + b) / 2; a = m - 500; b = m + 500; } /* 1 us at most */
    this.v0 = a; this.v1 = b;
    this.box.setAttribute("data-t0", Math.round(a));
    this.box.setAttribute("data-t1", Math.round(b));
    this.draw();
  };
  View.prototype.zoomAt = function (t, f) {
    this.setView(t - (t - this.v0) * f, t + (this.v1 - t) * f);
  };
  View.prototype.pan = function (f) {
    var d = (this.v1 - this.v0) * f;
    this.setView(this.v0 + d, this.v1 + d);
  };
  View.prototype.show = function (k) {
    var w = this.windows[k], pad = (w.t1_ns - w.t0_ns) * 0.01;
    this.win = k;
    this.box.querySelectorAll(".trv-win").forEach(function (b, j) { b.classList.toggle("on", j === k); });
    this.setView(w.t0_ns - pad, w.t1_ns + pad);
  };
  /* the slices of a row that may be visible in [a, b] */
  function visible(r, a, b, fn) {
    var s = r.s, i = lower(s, function (x) { return x.endmax; }, a);
    for (; i < s.length && s[i].t <= b; i++) if (s[i].t + s[i].dur >= a) fn(s[i]);
  }
  View.prototype.draw = function () {
    var self = this, c = this.c, dpr = window.devicePixelRatio || 1;
    var W = c.clientWidth || 900, H = this.height;
    if (c.width !== Math.round(W * dpr) || c.height !== Math.round(H * dpr)) {
      c.width = Math.round(W * dpr); c.height = Math.round(H * dpr); c.style.height = H + "px";
    }
    var g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    var css = getComputedStyle(this.box);
    var fg = css.getPropertyValue("--fg").trim() || "#1d2330";
    var muted = css.getPropertyValue("--muted").trim() || "#5b6475";
    var line = css.getPropertyValue("--line").trim() || "#dfe3ea";
    var bg = css.getPropertyValue("--card").trim() || "#fff";
    g.fillStyle = bg; g.fillRect(0, 0, W, H);
    g.font = "11px 'DejaVu Sans', sans-serif";
    var a = this.v0, b = this.v1, pw = this.plotW();
    /* time axis: ms since the run's start */
    var step = niceStep(b - a, Math.max(2, pw / 110)), t;
    g.strokeStyle = line; g.fillStyle = muted; g.textBaseline = "middle";
    for (t = Math.ceil(a / step) * step; t <= b; t += step) {
      var x = Math.round(this.px(t)) + 0.5;
      g.beginPath(); g.moveTo(x, AXIS - 6); g.lineTo(x, H); g.stroke();
      g.fillText(fmtDur(t), x + 3, AXIS / 2);
    }
    var q = this.qre, hasQ = !!q, d = this.d;
    this.rows.forEach(function (r) {
      var lastPx = -1;
      visible(r, a, b, function (s) {
        var x0 = self.px(s.t), x1 = self.px(s.t + s.dur);
        if (x0 < LABEL) x0 = LABEL;
        if (x1 > W) x1 = W;
        if (x1 - x0 < 1) { /* one pixel per column for slices thinner than a pixel */
          if (Math.floor(x0) === lastPx) return;
          lastPx = Math.floor(x0); x1 = x0 + 1;
        }
        var name = d.names[s.name];
        var on = !hasQ || s.match;
        g.globalAlpha = on ? 1 : 0.22;
        g.fillStyle = color(d.kinds[s.kind], name);
        g.fillRect(x0, r.y + 1, x1 - x0, ROW - 2);
        if (s === self.sel || (self.selPartners && self.selPartners.indexOf(s.i) >= 0)) {
          g.globalAlpha = 1; g.lineWidth = 2; g.strokeStyle = fg;
          g.strokeRect(x0 + 1, r.y + 2, Math.max(1, x1 - x0 - 2), ROW - 4);
        }
        if (x1 - x0 > 24) {
          var label = self.disp[s.name], room = x1 - x0 - 6;
          g.fillStyle = "#111";
          if (g.measureText(label).width > room) {
            var lo = 0, hi = label.length; /* the longest head that fits with an ellipsis */
            while (lo < hi) {
              var mid = (lo + hi + 1) >> 1;
              if (g.measureText(label.slice(0, mid) + "\u2026").width <= room) lo = mid; else hi = mid - 1;
            }
            label = lo ? label.slice(0, lo) + "\u2026" : "";
          }
          if (label) g.fillText(label, x0 + 3, r.y + ROW / 2);
        }
        g.globalAlpha = 1;
      });
    });
    /* arrows from the selection to its partners (launch -> device work) */
    if (this.sel && this.selPartners) {
      g.strokeStyle = fg; g.fillStyle = fg; g.lineWidth = 1.5;
      this.selPartners.forEach(function (pi) {
        var p = self.sl[pi], s = self.sel, from = s, to = p;
        if (d.kinds[p.kind] === "runtime") { from = p; to = s; }
        var xa = self.px(from.t), ya = from.row.y + ROW / 2, xb = self.px(to.t), yb = to.row.y + ROW / 2;
        g.beginPath(); g.moveTo(xa, ya); g.lineTo(xb, yb); g.stroke();
        var ang = Math.atan2(yb - ya, xb - xa);
        g.beginPath(); g.moveTo(xb, yb);
        g.lineTo(xb - 8 * Math.cos(ang - 0.4), yb - 8 * Math.sin(ang - 0.4));
        g.lineTo(xb - 8 * Math.cos(ang + 0.4), yb - 8 * Math.sin(ang + 0.4));
        g.closePath(); g.fill();
      });
    }
    /* lane labels over a plain column */
    g.fillStyle = bg; g.fillRect(0, 0, LABEL, H);
    g.fillStyle = fg; g.font = "12px 'DejaVu Sans', sans-serif";
    d.lanes.forEach(function (ln, li) {
      var y = self.laneTop[li], label = ln.name;
      while (label.length > 4 && g.measureText(label).width > LABEL - 10) label = label.slice(0, -2);
      if (label !== ln.name) label = label.slice(0, -1) + "\u2026";
      g.fillText(label, 4, y + ROW / 2);
      g.strokeStyle = line; g.beginPath(); g.moveTo(0, y - GAP / 2 + 0.5); g.lineTo(W, y - GAP / 2 + 0.5); g.stroke();
    });
  };
  View.prototype.at = function (p) {
    var self = this, hit = null;
    if (p.x < LABEL) return null;
    var t = this.tx(p.x), slack = (this.v1 - this.v0) / this.plotW() * 2;
    this.rows.forEach(function (r) {
      if (hit || p.y < r.y || p.y >= r.y + ROW) return;
      var best = null;
      visible(r, t - slack, t + slack, function (s) {
        var dist = t < s.t ? s.t - t : t > s.t + s.dur ? t - s.t - s.dur : 0;
        if (!best || dist < best.dist) best = { s: s, dist: dist };
      });
      if (best) hit = best.s;
    });
    return hit;
  };
  View.prototype.describe = function (s, html) {
    var d = this.d, lines = [], args = s.args >= 0 ? d.args[s.args] : null;
    lines.push(["", d.names[s.name]]);
    lines.push(["kind", d.kinds[s.kind] + " on " + d.lanes[s.lane].name]);
    lines.push(["start", fmtDur(s.t) + " since the run's start"]);
    lines.push(["duration", fmtDur(s.dur)]);
    if (s.self >= 0) lines.push(["self", fmtDur(s.self)]);
    if (args) Object.keys(args).forEach(function (k) {
      var v = args[k];
      lines.push([k, typeof v === "string" ? v : JSON.stringify(v)]);
    });
    return lines;
  };
  function fill(el, lines) {
    el.textContent = "";
    lines.forEach(function (l, k) {
      var div = document.createElement("div");
      if (!k) { div.className = "trv-name"; div.textContent = l[1]; }
      else {
        var b = document.createElement("span");
        b.className = "trv-k"; b.textContent = l[0] + " ";
        div.appendChild(b); div.appendChild(document.createTextNode(l[1]));
      }
      el.appendChild(div);
    });
  }
  View.prototype.hover = function (e) {
    var p = this.pos(e), s = this.at(p);
    this.mouseT = p.x >= LABEL ? this.tx(p.x) : undefined;
    this.hot = s;
    if (!s) { this.tip.hidden = true; return; }
    fill(this.tip, this.describe(s));
    this.tip.hidden = false;
    var r = this.wrap.getBoundingClientRect(), x = e.clientX - r.left + 14, y = e.clientY - r.top + 14;
    if (x + this.tip.offsetWidth > r.width) x = Math.max(0, e.clientX - r.left - this.tip.offsetWidth - 10);
    this.tip.style.left = x + "px"; this.tip.style.top = y + "px";
  };
  View.prototype.select = function (s) {
    var self = this, d = this.d;
    this.sel = s;
    this.selPartners = s ? this.partner[s.i] || [] : null;
    this.box.setAttribute("data-selected", s ? d.names[s.name] : "");
    this.box.setAttribute("data-partner", s && this.selPartners.length ? d.names[this.sl[this.selPartners[0]].name] : "");
    if (!s) { this.info.textContent = "Click a slice to see its details."; this.draw(); return; }
    fill(this.info, this.describe(s));
    this.selPartners.forEach(function (pi) {
      var p = self.sl[pi], div = document.createElement("div"), a = document.createElement("a");
      var launch = d.kinds[p.kind] === "runtime";
      div.appendChild(document.createTextNode((launch ? "launched by " : "launched ") + d.kinds[p.kind] + " "));
      a.href = "#"; a.className = "trv-jump"; a.textContent = d.names[p.name];
      a.addEventListener("click", function (e) { e.preventDefault(); self.reveal(p); self.select(p); });
      div.appendChild(a);
      div.appendChild(document.createTextNode(" at " + fmtDur(p.t) + " (" + fmtDur(p.dur) + ")"));
      self.info.appendChild(div);
    });
    this.draw();
  };
  View.prototype.click = function (e) { this.select(this.at(this.pos(e))); };
  /* bring s into view with its launch or kernel when both fit, s at least 12 px wide (so
     that it can be pointed at), keeping the zoom when it already shows them */
  View.prototype.reveal = function (s) {
    var w = this.v1 - this.v0, lo = s.t, hi = s.t + s.dur, self = this;
    (this.partner[s.i] || []).forEach(function (pi) {
      lo = Math.min(lo, self.sl[pi].t); hi = Math.max(hi, self.sl[pi].t + self.sl[pi].dur);
    });
    var most = s.dur > 0 ? s.dur * this.plotW() / 12 : w;
    if (hi - lo > w * 0.9) w = (hi - lo) / 0.8;
    if (w > most) { w = most; lo = s.t; hi = s.t + s.dur; }
    if (lo >= this.v0 && hi <= this.v1 && w === this.v1 - this.v0) return;
    this.setView((lo + hi) / 2 - w / 2, (lo + hi) / 2 + w / 2);
  };
  View.prototype.search = function (text) {
    var d = this.d, t = text.trim().toLowerCase(), self = this;
    var hit = d.names.map(function (n, k) {
      return !!t && (n.toLowerCase().indexOf(t) >= 0 || self.disp[k].toLowerCase().indexOf(t) >= 0);
    });
    this.qre = t ? t : null;
    this.matches = [];
    this.sl.forEach(function (s) { s.match = hit[s.name]; if (s.match) self.matches.push(s); });
    this.matches.sort(function (a, b) { return a.t - b.t || a.lane - b.lane || a.depth - b.depth; });
    this.mi = -1;
    this.box.setAttribute("data-matches", this.matches.length);
    this.count();
    this.draw();
  };
  View.prototype.count = function () {
    var n = this.matches.length;
    this.cnt.textContent = !this.qre ? "" : n ? (this.mi >= 0 ? this.mi + 1 + " of " : "") + n + " match" + (n === 1 ? "" : "es") : "no match";
  };
  View.prototype.step = function (dir) {
    var n = this.matches.length;
    if (!n) return;
    this.mi = this.mi < 0 ? (dir > 0 ? 0 : n - 1) : (this.mi + dir + n) % n;
    var s = this.matches[this.mi];
    this.reveal(s);
    this.select(s);
    this.count();
  };

  /* The first three views are built at once, each later one when it first comes into sight (a
     page of many runs would otherwise parse and lay out every run's view before it answers:
     8.7 s for the 79 samples' page). */
  function build(box) {
    var sc = box.nextElementSibling, d;
    if (box.tvView || !sc || !sc.classList.contains("trv-data")) return;
    try { d = JSON.parse(sc.textContent); } catch (e) { return; }
    if (!d.cols || !d.cols.dt.length) return;
    box.tvView = new View(box, d);
  }
  var boxes = Array.prototype.slice.call(document.querySelectorAll("div.trv"));
  /* the first few at once (the page does not move under the reader), the rest when in sight */
  boxes.slice(0, 3).forEach(build);
  boxes = boxes.slice(3);
  if (!("IntersectionObserver" in window)) { boxes.forEach(build); return; }
  var io = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      io.unobserve(e.target);
      build(e.target);
    });
  }, { rootMargin: "200px" });
  boxes.forEach(function (b) { io.observe(b); });
})();
