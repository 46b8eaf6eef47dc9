/* Operator and kernel views (render/html_opkern.c): tables drawn from the rows embedded as
   JSON (div.tv > script.tv-data), every row reachable (paged, never cut), sortable, grouped
   by name or split (shapes; launch properties and op). And for every table of the page:
   one search box (case-insensitive substring of any cell, matches counted per table) and a
   CSV download (every row, full names, raw numbers in the unit of the header, RFC 4180).
   No network, no libraries. */
(function () {
  "use strict";
  var PAGE = 25; /* rows drawn at first and added by "Show more" (every row stays reachable) */
  /* The one place a long C++ name becomes its display form (shortened/demangled names can
     plug in here); the full name stays the cell's title, its search text and its CSV. */
  /* the name as the page shows it: html_opkern.c's display form (render/names.h: demangled,
     no return type or argument list, never two names alike), else cut in the middle */
  var DISPLAY = {};
  function displayName(s) {
    if (Object.prototype.hasOwnProperty.call(DISPLAY, s)) return DISPLAY[s];
    var max = 72, head = 42;
    return s.length <= max ? s : s.slice(0, head) + "..." + s.slice(s.length - (max - head - 3));
  }

  function fmtNs(v) {
    if (v === null || v === undefined || !isFinite(v)) return "-";
    var a = Math.abs(v), t = [[3.6e12, "h"], [6e10, "min"], [1e9, "s"], [1e6, "ms"], [1e3, "us"]];
    for (var i = 0; i < t.length; i++) if (a >= t[i][0]) return (v / t[i][0]).toFixed(3) + " " + t[i][1];
    return v.toFixed(0) + " ns";
  }
  function fmtNum(v, dec) {
    if (v === null || v === undefined || !isFinite(v)) return "-";
    return dec === undefined ? String(v) : v.toFixed(dec);
  }
  function fmtPct(v) { return v === null || v === undefined || !isFinite(v) ? "-" : (v * 100).toFixed(2) + " %"; }
  function text(v) { return v === null || v === undefined ? "" : String(v); }

  function csvCell(v) {
    var s = v === null || v === undefined || (typeof v === "number" && !isFinite(v)) ? "" : String(v);
    return /[",\r\n]/.test(s) ? "\"" + s.replace(/"/g, "\"\"") + "\"" : s;
  }
  function csvText(head, rows) {
    return [head].concat(rows).map(function (r) { return r.map(csvCell).join(","); }).join("\r\n") + "\r\n";
  }
  function download(name, data) {
    var url, a = document.createElement("a");
    try {
      url = URL.createObjectURL(new Blob([data], { type: "text/csv;charset=utf-8" }));
    } catch (e) {
      url = "data:text/csv;charset=utf-8," + encodeURIComponent(data);
    }
    a.href = url;
    a.download = name;
    a.style.display = "none";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () {
      if (url.slice(0, 5) === "blob:") URL.revokeObjectURL(url);
      a.remove();
    }, 1000);
  }
  function button(label, title) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "tv-btn";
    b.textContent = label;
    if (title) b.title = title;
    return b;
  }

  var filters = []; /* per table: function (query) -> nothing; redraws with the query */
  var query = "";

  /* ---- the views' data ---- */
  function sum(rows, k) { return rows.reduce(function (s, r) { return s + (r[k] || 0); }, 0); }

  /* Op rows grouped by name (mode "name") or as kept (mode "shape"). */
  function opRows(d, mode) {
    if (mode === "shape") return d.rows;
    var by = {}, out = [];
    d.rows.forEach(function (r) {
      var g = by[r.name];
      if (!g) {
        g = by[r.name] = { name: r.name, calls: 0, host_self_ns: 0, host_total_ns: 0, device_self_ns: 0, device_total_ns: 0, shapes: 0 };
        out.push(g);
      }
      g.calls += r.calls; g.host_self_ns += r.host_self_ns; g.host_total_ns += r.host_total_ns;
      g.device_self_ns += r.device_self_ns || 0; g.device_total_ns += r.device_total_ns || 0; g.shapes++;
    });
    return out;
  }
  function mean(r, k) { return r.calls ? r[k] / r.calls : null; }

  function opCols(d, mode) {
    var dev = !!d.has_device, hs = d.host_self_ns, ds = d.device_self_ns;
    var c = [{ label: "Name", name: true, get: function (r) { return r.name; } }];
    if (mode === "shape") {
      c.push({ label: "Input Dims", name: true, get: function (r) { return text(r.input_dims); } });
      c.push({ label: "Input type", name: true, get: function (r) { return text(r.input_type); } });
    } else {
      c.push({ label: "Shapes", csv: "Shapes (count)", num: true, get: function (r) { return r.shapes; }, fmt: fmtNum });
    }
    c.push({ label: "Calls", csv: "Calls (count)", num: true, get: function (r) { return r.calls; }, fmt: fmtNum });
    c.push({ label: "Host self", csv: "Host self (ns)", num: true, get: function (r) { return r.host_self_ns; }, fmt: fmtNs });
    c.push({ label: "Host total", csv: "Host total (ns)", num: true, get: function (r) { return r.host_total_ns; }, fmt: fmtNs });
    if (dev) {
      c.push({ label: "Device self", csv: "Device self (ns)", num: true, get: function (r) { return r.device_self_ns; }, fmt: fmtNs });
      c.push({ label: "Device total", csv: "Device total (ns)", num: true, get: function (r) { return r.device_total_ns; }, fmt: fmtNs });
    }
    c.push({ label: "Host self share", csv: "Host self share (fraction)", num: true, get: function (r) { return hs > 0 ? r.host_self_ns / hs : null; }, fmt: fmtPct });
    if (dev) c.push({ label: "Device self share", csv: "Device self share (fraction)", num: true, get: function (r) { return ds > 0 ? r.device_self_ns / ds : null; }, fmt: fmtPct });
    c.push({ label: "Mean host self", csv: "Mean host self (ns)", num: true, get: function (r) { return mean(r, "host_self_ns"); }, fmt: fmtNs });
    c.push({ label: "Mean host total", csv: "Mean host total (ns)", num: true, get: function (r) { return mean(r, "host_total_ns"); }, fmt: fmtNs });
    if (dev) {
      c.push({ label: "Mean device self", csv: "Mean device self (ns)", num: true, get: function (r) { return mean(r, "device_self_ns"); }, fmt: fmtNs });
      c.push({ label: "Mean device total", csv: "Mean device total (ns)", num: true, get: function (r) { return mean(r, "device_total_ns"); }, fmt: fmtNs });
    }
    return c;
  }

  /* Kernel rows grouped by name (the weighted means weighted by the rows' total time) or as kept. */
  function kernRows(d, mode) {
    if (mode === "props") return d.rows;
    var by = {}, out = [];
    d.rows.forEach(function (r) {
      var g = by[r.name];
      if (!g) {
        g = by[r.name] = { name: r.name, calls: 0, total_ns: 0, min_ns: null, max_ns: null, tensor_cores: r.tensor_cores, variants: 0,
          bw: 0, bd: 0, ow: 0, od: 0, sw: 0 };
        out.push(g);
      }
      g.variants++;
      g.calls += r.calls; g.total_ns += r.total_ns;
      if (g.min_ns === null || r.min_ns < g.min_ns) g.min_ns = r.min_ns;
      if (g.max_ns === null || r.max_ns > g.max_ns) g.max_ns = r.max_ns;
      if (r.mean_blocks_per_sm !== null && r.mean_blocks_per_sm !== undefined) { g.bw += r.mean_blocks_per_sm * r.total_ns; g.bd += r.total_ns; }
      if (r.sm_efficiency !== null && r.sm_efficiency !== undefined) g.sw += r.sm_efficiency * r.total_ns;
      if (r.mean_occupancy_pct !== null && r.mean_occupancy_pct !== undefined) { g.ow += r.mean_occupancy_pct * r.total_ns; g.od += r.total_ns; }
    });
    out.forEach(function (g) {
      g.mean_ns = g.calls ? g.total_ns / g.calls : null;
      g.mean_blocks_per_sm = g.bd > 0 ? g.bw / g.bd : null;
      g.sm_efficiency = g.bd > 0 ? g.sw / g.bd : null;
      g.mean_occupancy_pct = g.od > 0 ? g.ow / g.od : null;
    });
    return out;
  }
  function dim3(v) { return v ? v.join(", ") : ""; }
  function kernCols(d, mode) {
    var tot = d.total_ns;
    var c = [{ label: "Name", name: true, get: function (r) { return r.name; } }];
    if (mode === "props") {
      c.push({ label: "Op", name: true, get: function (r) { return text(r.op); } });
      c.push({ label: "Grid", get: function (r) { return dim3(r.grid); } });
      c.push({ label: "Block", get: function (r) { return dim3(r.block); } });
      c.push({ label: "Registers", csv: "Registers per thread", num: true, get: function (r) { return r.registers; }, fmt: fmtNum });
      c.push({ label: "Shared mem", csv: "Shared memory (bytes)", num: true, get: function (r) { return r.shared_memory; }, fmt: fmtNum });
    } else {
      c.push({ label: "Variants", csv: "Variants (count)", num: true, get: function (r) { return r.variants; }, fmt: fmtNum });
    }
    c.push({ label: "Tensor Cores", get: function (r) { return r.tensor_cores === true ? "yes" : r.tensor_cores === false ? "no" : ""; } });
    c.push({ label: "Calls", csv: "Calls (count)", num: true, get: function (r) { return r.calls; }, fmt: fmtNum });
    c.push({ label: "Total", csv: "Total (ns)", num: true, get: function (r) { return r.total_ns; }, fmt: fmtNs });
    c.push({ label: "Share", csv: "Share (fraction)", num: true, get: function (r) { return tot > 0 ? r.total_ns / tot : null; }, fmt: fmtPct });
    c.push({ label: "Mean", csv: "Mean (ns)", num: true, get: function (r) { return r.mean_ns; }, fmt: fmtNs });
    c.push({ label: "Min", csv: "Min (ns)", num: true, get: function (r) { return r.min_ns; }, fmt: fmtNs });
    c.push({ label: "Max", csv: "Max (ns)", num: true, get: function (r) { return r.max_ns; }, fmt: fmtNs });
    c.push({ label: "Blocks/SM", csv: "Mean blocks per SM", num: true, get: function (r) { return r.mean_blocks_per_sm; }, fmt: function (v) { return fmtNum(v, 2); } });
    c.push({ label: "Occupancy", csv: "Mean est. achieved occupancy (%)", num: true, get: function (r) { return r.mean_occupancy_pct; }, fmt: function (v) { return v === null || v === undefined ? "-" : v.toFixed(2) + " %"; } });
    c.push({ label: "SM efficiency", csv: "SM efficiency (fraction)", num: true, get: function (r) { return r.sm_efficiency; }, fmt: fmtPct });
    return c;
  }

  /* ---- a table drawn from rows ---- */
  function View(box, d, spec) {
    var self = this;
    this.box = box; this.d = d; this.spec = spec; this.mode = spec.modes[0][0];
    this.sort = null; this.dir = -1; this.shown = PAGE;
    /* the column sorted at first, largest first (TensorBoard's order: device self time for ops
       with device work, else host self; total time for kernels) */
    this.sortLabel = spec.sortLabel ? spec.sortLabel(d) : null;
    box.textContent = "";
    var bar = document.createElement("div");
    bar.className = "tv-bar";
    this.modeBtns = spec.modes.map(function (m) {
      var b = button(m[1], "Group the rows: " + m[1]);
      b.setAttribute("data-mode", m[0]);
      b.addEventListener("click", function () { self.mode = m[0]; self.shown = PAGE; self.draw(); });
      bar.appendChild(b);
      return b;
    });
    this.count = document.createElement("span");
    this.count.className = "tv-count";
    bar.appendChild(this.count);
    var csv = button("CSV", "Download every row of this table (current grouping) as CSV");
    csv.classList.add("tv-csv");
    csv.addEventListener("click", function () { download(box.id + "-" + self.mode + ".csv", self.csv()); });
    bar.appendChild(csv);
    box.appendChild(bar);
    if (spec.note) {
      var p = document.createElement("p");
      p.className = "capped";
      p.textContent = spec.note;
      box.appendChild(p);
    }
    var wrap = document.createElement("div");
    wrap.className = "scroll";
    this.table = document.createElement("table");
    this.table.className = "tv-table";
    wrap.appendChild(this.table);
    box.appendChild(wrap);
    this.more = document.createElement("div");
    this.more.className = "tv-more";
    box.appendChild(this.more);
    filters.push(function () { self.shown = PAGE; self.draw(); });
    this.draw();
  }
  View.prototype.rows = function () {
    var cols = this.cols, all = this.spec.rows(this.d, this.mode), q = query;
    if (this.sort !== null) {
      var c = cols[this.sort], dir = this.dir;
      all = all.slice().sort(function (a, b) {
        var x = c.get(a), y = c.get(b);
        if (c.num) { x = x === null || x === undefined ? -Infinity : x; y = y === null || y === undefined ? -Infinity : y; }
        else { x = String(x).toLowerCase(); y = String(y).toLowerCase(); }
        return x < y ? -dir : x > y ? dir : 0;
      });
    }
    this.total = all.length;
    if (!q) return all;
    return all.filter(function (r) {
      return cols.some(function (c) {
        var v = c.get(r);
        return String(c.fmt ? c.fmt(v) : text(v)).toLowerCase().indexOf(q) >= 0 ||
          (c.num && String(v).toLowerCase().indexOf(q) >= 0);
      });
    });
  };
  View.prototype.draw = function () {
    var self = this, t = this.table;
    this.cols = this.spec.cols(this.d, this.mode);
    if (this.sortLabel) {
      var want = this.sortLabel;
      this.cols.forEach(function (c, i) { if (c.label === want) self.sort = i; });
      this.sortLabel = null;
    }
    if (this.sort !== null && this.sort >= this.cols.length) this.sort = null;
    var rows = this.rows(), cols = this.cols;
    this.modeBtns.forEach(function (b) { b.setAttribute("aria-pressed", b.getAttribute("data-mode") === self.mode ? "true" : "false"); });
    t.textContent = "";
    var head = t.createTHead().insertRow();
    cols.forEach(function (c, i) {
      var th = document.createElement("th");
      th.textContent = c.label;
      th.title = (c.csv || c.label) + ": click to sort" + (self.sort === i ? (self.dir > 0 ? " (ascending now)" : " (descending now)") : "");
      if (c.num) th.className = "n";
      th.classList.add("tvs");
      if (self.sort === i) th.setAttribute("aria-sort", self.dir > 0 ? "ascending" : "descending");
      th.addEventListener("click", function () {
        if (self.sort === i) self.dir = -self.dir; else { self.sort = i; self.dir = c.num ? -1 : 1; }
        self.draw();
      });
      head.appendChild(th);
    });
    var body = t.createTBody(), n = Math.min(rows.length, this.shown);
    for (var k = 0; k < n; k++) {
      var r = rows[k], tr = body.insertRow();
      if (r.other) tr.className = "tv-other";
      cols.forEach(function (c) {
        var td = tr.insertCell(), v = c.get(r);
        if (c.num) {
          td.className = "n";
          td.setAttribute("data-v", v === null || v === undefined ? "" : v);
          td.textContent = c.fmt ? c.fmt(v) : text(v);
        } else if (c.name) {
          var full = text(v), shown = displayName(full);
          td.className = "name tv-name" + (shown !== full ? " el" : "");
          td.title = full;
          if (shown !== full) td.setAttribute("data-full", full); /* copying the cell copies it (report.js) */
          td.textContent = shown;
        } else {
          td.textContent = text(v);
        }
      });
    }
    this.count.textContent = (query ? rows.length + " of " + this.total + " rows match" : this.total + " rows") +
      (n < rows.length ? ", showing " + n : "");
    this.box.setAttribute("data-rows", String(rows.length));
    this.more.textContent = "";
    if (n < rows.length) {
      var m = button("Show " + Math.min(PAGE, rows.length - n) + " more"), all = button("Show all " + rows.length);
      m.addEventListener("click", function () { self.shown += PAGE; self.draw(); });
      all.addEventListener("click", function () { self.shown = Infinity; self.draw(); });
      this.more.appendChild(m);
      this.more.appendChild(all);
    }
  };
  View.prototype.csv = function () {
    var cols = this.spec.cols(this.d, this.mode), rows = this.spec.rows(this.d, this.mode);
    return csvText(cols.map(function (c) { return c.csv || c.label; }),
      rows.map(function (r) { return cols.map(function (c) { return c.get(r); }); }));
  };

  var SPEC = {
    ops: { modes: [["name", "By name"], ["shape", "By name + input shapes"]], rows: opRows, cols: opCols,
      sortLabel: function (d) { return d.has_device ? "Device self" : "Host self"; },
      note: function (d) {
        return d.calls + " op calls in " + d.distinct + " (name, input shapes) rows" +
          (d.folded ? "; " + d.folded + " rows with the least host time are folded into \"(other ops)\"" : "") +
          (d.has_device ? ". Device times: activities launched by the op (self) or by it and the ops below it (total)." : ". No device activities in this run.");
      } },
    kernels: { modes: [["name", "By name"], ["props", "By properties + op"]], rows: kernRows, cols: kernCols,
      sortLabel: function () { return "Total"; },
      note: function (d) {
        var tc = d.tensor_cores || {};
        return d.kernels + " kernels in " + d.distinct + " (name, op, grid, block, registers, shared memory) rows" +
          (d.folded ? "; " + d.folded + " rows with the least time folded into \"(other kernels)\"" : "") +
          ". Tensor Cores: " + fmtPct(tc.kernel_share) + " of kernel time on Tensor Core kernels; " +
          fmtPct(tc.eligible_op_share) + " of op-launched kernel time is from Tensor-Core-eligible ops, " +
          fmtPct(tc.eligible_on_tc_share) + " of it on Tensor Cores.";
      } }
  };

  document.querySelectorAll("div.tv > script.tv-data").forEach(function (s) {
    var box = s.parentNode, spec = SPEC[box.getAttribute("data-kind")];
    try {
      var d = JSON.parse(s.textContent);
      if (!spec) return;
      if (d.display) Object.keys(d.display).forEach(function (k) { DISPLAY[k] = d.display[k]; });
      new View(box, d, { modes: spec.modes, rows: spec.rows, cols: spec.cols, note: spec.note(d), sortLabel: spec.sortLabel });
    } catch (err) {
      console.error("view " + box.id + ": " + err);
    }
  });

  /* ---- every other table of the page: search and CSV ---- */
  function cellText(td) { return td.getAttribute("data-full") || td.textContent; }
  function staticCsv(table) {
    var head = [], units = [], rows = [];
    var ths = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(ths, function (th) { head.push(th.textContent.trim()); });
    Array.prototype.forEach.call(table.tBodies, function (b) {
      Array.prototype.forEach.call(b.rows, function (tr) {
        rows.push(Array.prototype.map.call(tr.cells, function (td, i) {
          var v = td.getAttribute("data-v"), u = td.getAttribute("data-u");
          if (v !== null && v !== "") {
            if (u && !units[i]) units[i] = u;
            return units[i] === u ? v : cellText(td).trim();
          }
          return cellText(td).trim();
        }));
      });
    });
    head = head.map(function (h, i) { return units[i] ? h + " (" + units[i] + ")" : h; });
    return csvText(head, rows);
  }
  var tables = document.querySelectorAll("main table:not(.tv-table)");
  Array.prototype.forEach.call(tables, function (table, ti) {
    var bar = document.createElement("div"), count = document.createElement("span"), b = button("CSV", "Download every row of this table as CSV");
    var sec = table.closest("section.run, details.run"), name = (sec ? sec.id + "-" : "") + "table-" + (ti + 1) + ".csv";
    bar.className = "tv-bar tv-static";
    count.className = "tv-count";
    b.classList.add("tv-csv");
    b.addEventListener("click", function () { download(name, staticCsv(table)); });
    bar.appendChild(count);
    bar.appendChild(b);
    var at = table.parentNode.classList && table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    at.parentNode.insertBefore(bar, at);
    filters.push(function (q) {
      var n = 0, all = 0;
      Array.prototype.forEach.call(table.tBodies, function (tb) {
        Array.prototype.forEach.call(tb.rows, function (tr) {
          var hit = !q || Array.prototype.some.call(tr.cells, function (td) {
            return cellText(td).toLowerCase().indexOf(q) >= 0 || td.textContent.toLowerCase().indexOf(q) >= 0;
          });
          tr.hidden = !hit;
          all++;
          n += hit ? 1 : 0;
        });
      });
      count.textContent = q ? n + " of " + all + " rows match" : "";
      table.setAttribute("data-rows", String(n));
    });
  });

  /* the search box, at the top of the page */
  var main = document.querySelector("main");
  if (main && (filters.length)) {
    var box = document.createElement("div"), input = document.createElement("input");
    box.className = "tv-search";
    input.type = "search";
    input.id = "pr-search";
    input.placeholder = "Search every table (name, shape, value)";
    input.setAttribute("aria-label", "Search every table of the page");
    box.appendChild(input);
    main.insertBefore(box, main.firstChild);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        query = input.value.trim().toLowerCase();
        filters.forEach(function (f) { f(query); });
      }, 120);
    });
  }
})();
