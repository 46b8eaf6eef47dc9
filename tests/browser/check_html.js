'use strict';
// check_html.js FILE.html... - checks profreport's HTML reports in headless
// chromium: the page loads with no console errors and no network requests
// (every request outside the local server is blocked and fails the check),
// a screenshot is not blank, every panel is an inline <svg>, a trace string
// with markup stays text (no element injected), and the tables sort when a
// header is clicked. `--gpu FILE` also requires the GPU section with its five
// panels (temporal breakdown, overlap, top kernels, queue, steps; op time by
// type only past 4 types, so not for nccl_data's 3), each drawn with a real size, placed inside the section, and its
// tables (GPU kernels, temporal breakdown, top ops, queue, steps, collectives);
// `--no-gpu FILE` requires that the page has no GPU section and no GPU panel.
// Every page: each in-page link names an element, a link to a folded run opens
// and shows it, the navigation numbers each run as its heading does and names
// no two alike (checkNav); panels with data respond to hover (the value of a
// known point of the embedded data, in its unit), the wheel (a narrower view,
// tick labels inside it), a drag (the selected range) and a double click (the
// full view again) (checkPanels).
const fs = require('fs');
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

const GPU_PANELS = ['gpu_temporal', 'gpu_overlap', 'gpu_top_kernels', 'gpu_queue', 'gpu_steps'];
// drawn only for more than 4 GPU op types: nccl_data has 3, which its table says (issue 26)
const GPU_PANELS_ABSENT = ['gpu_kernel_types'];
const GPU_TABLES = ['GPU kernels (busy time over the active range)', 'Temporal breakdown (HTA)', 'GPU op time by type',
  'Top GPU ops by total time', 'Queue length per stream', 'Step breakdown (TensorBoard)',
  'Collectives (bandwidth includes waiting for the other ranks)'];

async function checkGpu(page, want, fail) {
  const g = await page.evaluate((names) => {
    const figs = Array.from(document.querySelectorAll('figure[id*="-gpu_"]'));
    const h3 = Array.from(document.querySelectorAll('h3')).find((h) => /^GPU/.test(h.textContent));
    const h4 = Array.from(document.querySelectorAll('h4')).map((h) => h.textContent);
    const sectionTop = h3 ? h3.getBoundingClientRect().top + window.scrollY : null;
    return {
      section: !!h3,
      h4,
      figs: figs.map((f) => {
        const svg = f.querySelector('svg');
        const r = svg ? svg.getBoundingClientRect() : { width: 0, height: 0, top: 0 };
        // the panel's table follows it: the next sibling elements include a table
        let n = f.nextElementSibling, table = false;
        for (let k = 0; n && k < 3 && !table; k++, n = n.nextElementSibling) table = n.matches('table') || !!n.querySelector('table');
        return { id: f.id, name: f.id.replace(/^r\d+-/, ''), w: r.width, h: r.height,
          top: r.top + window.scrollY, table, label: f.getAttribute('aria-label') };
      }),
      sectionTop,
      names,
    };
  }, GPU_PANELS);
  if (!want) {
    if (g.section) fail('a CPU-only page has a GPU section');
    if (g.figs.length) fail(`a CPU-only page has GPU panels: ${g.figs.map((f) => f.id).join(', ')}`);
    return 0;
  }
  if (!g.section) fail('no GPU section');
  for (const name of GPU_PANELS) {
    const f = g.figs.find((x) => x.name === name);
    if (!f) { fail(`no GPU panel ${name}`); continue; }
    if (f.w < 300 || f.h < 150) fail(`GPU panel ${name} is drawn ${f.w}x${f.h}`);
    if (g.sectionTop === null || f.top < g.sectionTop) fail(`GPU panel ${name} is not in the GPU section`);
    if (!f.table) fail(`GPU panel ${name} has no table right after it`);
  }
  for (const name of GPU_PANELS_ABSENT)
    if (g.figs.some((x) => x.name === name)) fail(`GPU panel ${name} restates its table of a few rows`);
  for (const t of GPU_TABLES) if (!g.h4.includes(t)) fail(`no GPU table "${t}"`);
  return g.figs.length;
}

// Navigation: every in-page link names an element; following one (the first, a middle
// and the last link) opens the folded run it leads to and scrolls it into view. The link
// texts are distinct (runs sharing a label are told apart by their directory).
async function checkNav(page, fail) {
  const nav = await page.evaluate(() => {
    const links = Array.from(document.querySelectorAll('a[href^="#"]'));
    const navTexts = Array.from(document.querySelectorAll('nav.toc a')).map((a) => a.textContent);
    return {
      hrefs: links.map((a) => a.getAttribute('href')),
      missing: links.filter((a) => !document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1))))
        .map((a) => a.getAttribute('href')),
      navTexts,
      // the number a link shows is the number of the run its section's heading shows
      misnumbered: Array.from(document.querySelectorAll('nav.toc a')).filter((a) => {
        const t = document.getElementById(a.getAttribute('href').slice(1));
        const h = t && t.querySelector('h2');
        const m = h && /^Run (\d+):/.exec(h.textContent);
        return !m || a.querySelector('.no').textContent !== m[1] || a.getAttribute('href') !== `#run-${m[1]}`;
      }).map((a) => a.getAttribute('href')),
    };
  });
  for (const h of nav.missing) fail(`the link ${h} names no element`);
  for (const h of nav.misnumbered) fail(`the link ${h} is not numbered as its run`);
  if (new Set(nav.navTexts).size !== nav.navTexts.length) fail('two runs have the same name in the navigation');
  const navHrefs = nav.hrefs.filter((h) => /^#run-/.test(h));
  const pick = [...new Set([0, navHrefs.length >> 1, navHrefs.length - 1])].filter((i) => i >= 0 && i < navHrefs.length);
  for (const i of pick) {
    const r = await page.evaluate(async (href) => {
      const a = document.querySelector(`nav.toc a[href="${href}"]`);
      a.click();
      await new Promise((res) => setTimeout(res, 50));
      const t = document.getElementById(href.slice(1)), box = t.getBoundingClientRect();
      return { open: t.tagName !== 'DETAILS' || t.open, h: box.height, top: box.top, vh: window.innerHeight };
    }, navHrefs[i]);
    if (!r.open) fail(`following ${navHrefs[i]} does not open the run`);
    if (r.h < 50 || r.top < -1 || r.top > r.vh) fail(`following ${navHrefs[i]} does not show the run (top ${r.top}, height ${r.h})`);
  }
  return navHrefs.length;
}

// Interactive panels (templates/report.js): on up to 3 panels with data (the first, the
// first timeline, the last), hovering a known point shows its value from the embedded
// data, in its unit; the wheel zooms the x axis (the tick labels then lie in the narrower
// view); a drag selects the view; a double click resets.
async function checkPanels(page, fail) {
  const figs = await page.evaluate(() => {
    const data = Array.from(document.querySelectorAll('figure > script.pz-data'));
    const ids = data.map((s) => s.parentNode.id);
    const bad = data.filter((s) => !s.parentNode.classList.contains('pz')).map((s) => s.parentNode.id);
    const tl = ids.findIndex((id) => /timeline/.test(id));
    const pick = [...new Set([0, tl, ids.length - 1])].filter((i) => i >= 0 && i < ids.length);
    return { n: ids.length, bad, pick: pick.map((i) => ids[i]) };
  });
  for (const id of figs.bad) fail(`panel ${id} has data but no interaction (its data did not load)`);
  for (const id of figs.pick) {
    const r = await page.evaluate(async (id) => {
      const fig = document.getElementById(id), svg = fig.querySelector('svg');
      for (let d = fig; d; d = d.parentElement) if (d.tagName === 'DETAILS') d.open = true;
      fig.scrollIntoView();
      await new Promise((res) => setTimeout(res, 20));
      const d = JSON.parse(fig.querySelector('script.pz-data').textContent), p = d.plot;
      const out = { problems: [] };
      const bad = (m) => out.problems.push(`panel ${id}: ${m}`);
      const client = (x, y) => {
        const q = svg.createSVGPoint();
        q.x = x; q.y = y;
        return q.matrixTransform(svg.getScreenCTM());
      };
      const fire = (type, x, y, extra) => {
        const c = client(x, y);
        const Ev = type === 'wheel' ? WheelEvent : MouseEvent;
        (type === 'mouseup' ? window : svg).dispatchEvent(new Ev(type, Object.assign({ clientX: c.x, clientY: c.y,
          bubbles: true, cancelable: true, button: 0 }, extra || {})));
      };
      const view = () => (fig.getAttribute('data-view') || `${d.x.lo} ${d.x.hi}`).split(' ').map(Number);
      const px = (x, v) => p[0] + (x - v[0]) / (v[1] - v[0]) * p[2];
      const py = (y) => p[1] + p[3] - (y - d.y.lo) / (d.y.hi - d.y.lo) * p[3];
      // a value as printed ("1.99 GiB", "3.451 s", "73.7 %", "1.2k W") back to the base unit,
      // with half its last digit as the tolerance
      const MULT = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4, PiB: 1024 ** 5,
        ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1, min: 60, h: 3600, '%': 1 };
      const SI = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 };
      const parse = (text, ax) => {
        const m = /^(-?\d+(?:\.(\d+))?)([kMGTP]?)(?: (\S+))?/.exec(text);
        if (!m) return null;
        const mult = ax.k === 'plain' ? SI[m[3]] : MULT[m[4]];
        if (mult === undefined) return null;
        return { v: parseFloat(m[1]) * mult, tol: 0.5 * Math.pow(10, -(m[2] || '').length) * mult };
      };
      const checkValue = (text, v, ax, what) => {
        const got = parse(text, ax), want = v * ax.f;
        if (!got) bad(`${what}: "${text}" is not a value in the axis's unit`);
        else if (Math.abs(got.v - want) > got.tol * 1.001 + Math.abs(want) * 1e-12)
          bad(`${what}: "${text}" is not ${want} (${ax.k})`);
      };
      // hover a point of the first line, or the first rect. Mouse events land on whole CSS
      // pixels: the point is one whose x is 3 px or more from any other x of its line (a step
      // line repeats each x: the first point of an x is the one shown)
      const l = d.lines.find((ln) => ln.y.some((y) => y !== null));
      const gap = 3 * (d.x.hi - d.x.lo) / p[2];
      let cand = [];
      if (l) {
        const xs = [...new Set(l.x.filter((x, i) => x !== null && l.y[i] !== null))].sort((a, b) => a - b);
        const at = new Map(xs.map((x, i) => [x, i]));
        const alone = (x) => { const i = at.get(x); return (i === 0 || x - xs[i - 1] >= gap) && (i === xs.length - 1 || xs[i + 1] - x >= gap); };
        cand = l.x.map((x, i) => (x !== null && l.y[i] !== null && l.x.indexOf(x) === i && alone(x) ? i : -1))
          .filter((i) => i >= 0);
      }
      if (cand.length) { /* else every point has a neighbour closer than 3 px: not checked here */
        const k = cand[cand.length >> 1];
        fire('mousemove', px(l.x[k], view()), py(l.y[k]));
        const tip = fig.querySelector('.pz-tip');
        const row = tip && Array.from(tip.querySelectorAll('.pz-row'))[d.lines.filter((ln) => ln.y.some((y) => y !== null)).indexOf(l)];
        if (!tip || tip.hidden || !row) bad('hovering a point shows no value');
        else {
          if (Number(row.getAttribute('data-v')) !== l.y[k] || Number(row.getAttribute('data-x')) !== l.x[k])
            bad(`hovering point ${k} shows the point at ${row.getAttribute('data-x')} = ${row.getAttribute('data-v')}, not ${l.x[k]} = ${l.y[k]}`);
          checkValue(row.querySelector('b').textContent, l.y[k], d.y, 'the hovered value');
          if (!row.textContent.startsWith((l.l || d.y.label) + ': ')) bad(`the hovered row does not name its line: "${row.textContent}"`);
          const r = tip.getBoundingClientRect();
          if (r.width < 20 || r.height < 10) bad('the value tooltip is not drawn');
        }
        out.hover = row ? row.textContent : null;
      } else if (d.rects.length) {
        // the widest interval: mouse events land on whole CSS pixels, and the first one may
        // be narrower than a pixel (microsecond ops in a 122 ms step)
        const g = d.rects.reduce((a, b) => (b.x[1] - b.x[0] > a.x[1] - a.x[0] ? b : a)), x0 = g.x[0], x1 = g.x[1];
        fire('mousemove', px((x0 + x1) / 2, view()), py((g.y0 + g.y1) / 2));
        const row = fig.querySelector('.pz-tip:not([hidden]) .pz-row');
        if (!row) bad('hovering a busy interval shows nothing');
        else {
          if (Math.abs(Number(row.getAttribute('data-v')) - (x1 - x0)) > 1e-12 || !row.textContent.startsWith(`${g.l}: `))
            bad(`hovering the widest interval shows "${row.textContent}"`);
          checkValue(row.querySelector('b').textContent, x0, d.x, 'the interval start');
        }
        out.hover = row ? row.textContent : null;
      }
      fire('mouseleave', 0, 0);
      // the wheel zooms in about the plot's centre
      const full = view(), cx = p[0] + p[2] / 2, cy = p[1] + p[3] / 2;
      fire('wheel', cx, cy, { deltaY: -500 });
      fire('wheel', cx, cy, { deltaY: -500 });
      const z = view();
      if (!(z[1] - z[0] < (full[1] - full[0]) * 0.9)) bad(`the wheel did not zoom (view ${z})`);
      const ticks = Array.from(fig.querySelectorAll('text.pz-xt')).map((t) => t.textContent);
      if (ticks.length < 2) bad('a zoomed view has no x tick labels');
      // a UTC clock axis (x.epoch) labels times of day: back to seconds after the epoch
      const clock = (t) => {
        const m = /^(\d\d):(\d\d)(?::(\d\d(?:\.\d+)?))?$/.exec(t);
        if (!m) return NaN;
        const day = Math.floor((d.x.epoch + z[0]) / 86400) * 86400;
        let v = day + Number(m[1]) * 3600 + Number(m[2]) * 60 + (m[3] ? Number(m[3]) : 0) - d.x.epoch;
        if (v < z[0] - 1) v += 86400; /* past midnight */
        return v;
      };
      const vals = ticks.map((t) => (d.x.epoch !== undefined ? clock(t) : parseFloat(t) * d.x.s / d.x.f));
      const eps = (z[1] - z[0]) * 1e-6;
      if (vals.some((v) => !(v >= z[0] - eps - Math.abs(v) * 1e-9 && v <= z[1] + eps + Math.abs(v) * 1e-9)))
        bad(`the zoomed ticks ${ticks.join(' ')} are not in the view ${z}`);
      out.ticks = ticks;
      if (l && !fig.querySelector('polyline.pz-line')) bad('a zoomed view draws no line');
      // a drag from 30 % to 60 % of the plot selects that part of the view
      fire('mousedown', p[0] + p[2] * 0.3, cy);
      fire('mousemove', p[0] + p[2] * 0.45, cy);
      fire('mouseup', p[0] + p[2] * 0.6, cy);
      const s = view(), want = [z[0] + (z[1] - z[0]) * 0.3, z[0] + (z[1] - z[0]) * 0.6];
      const px3 = 3 * (z[1] - z[0]) / p[2]; /* whole CSS pixels again */
      if (Math.abs(s[0] - want[0]) > px3 || Math.abs(s[1] - want[1]) > px3)
        bad(`a drag selected ${s}, not ${want}`);
      // a double click resets: the static SVG shows again
      fire('dblclick', cx, cy);
      if (fig.hasAttribute('data-view') || fig.querySelector('g.pz-zoom').childNodes.length)
        bad('a double click does not reset the view');
      return out;
    }, id);
    for (const m of r.problems) fail(m);
  }
  return figs.n;
}

async function checkOne(browser, origin, file, shotDir, gpu) {
  const url = `${origin}/r/${encodeURIComponent(path.basename(file))}`;
  const { problems, page } = await openWatched(browser, url, async (p) =>
    p.evaluate(() => document.readyState === 'complete'));
  const fail = (m) => problems.push(m);
  // not blank: a screenshot with many distinct colours
  const png = await page.screenshot({ fullPage: false, encoding: 'binary' });
  const stats = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    let nonWhite = 0;
    for (let i = 0; i < d.length; i += 16) {
      seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) nonWhite++;
    }
    return { colors: seen.size, nonWhite, total: d.length / 16 };
  }, Buffer.from(png).toString('base64'));
  if (stats.colors < 20 || stats.nonWhite < stats.total * 0.05)
    fail(`screenshot looks blank (${stats.colors} colours, ${stats.nonWhite}/${stats.total} non-white)`);
  if (shotDir) fs.writeFileSync(path.join(shotDir, path.basename(file) + '.png'), png);
  const dom = await page.evaluate(() => ({
    figures: document.querySelectorAll('figure').length,
    svgs: document.querySelectorAll('figure > svg').length,
    imgs: document.querySelectorAll('img').length,
    injected: document.querySelectorAll('[data-injected], img[onerror], script[src]').length,
    tables: document.querySelectorAll('table.sortable').length,
    external: Array.from(document.querySelectorAll('[src],[href]')).map((e) => e.getAttribute('src') || e.getAttribute('href'))
      .filter((u) => u && !u.startsWith('#') && !/^[A-Za-z0-9_.-]+\.html$/.test(u)),
  }));
  if (dom.figures !== dom.svgs) fail(`${dom.figures} figures but ${dom.svgs} inline svg panels`);
  if (dom.injected) fail(`${dom.injected} injected element(s): trace text was not escaped`);
  if (dom.external.length) fail(`references outside the page: ${dom.external.join(', ')}`);
  const gpuPanels = gpu === undefined ? 0 : await checkGpu(page, gpu, fail);
  const navLinks = await checkNav(page, fail);
  const interactive = await checkPanels(page, fail);
  // every run unfolded, so that the checks below see every table laid out
  await page.evaluate(() => document.querySelectorAll('details.run').forEach((d) => { d.open = true; }));
  // sorting: click the first numeric header of each table with >= 2 distinct values
  const sortResult = await page.evaluate(() => {
    const out = [];
    document.querySelectorAll('table.sortable').forEach((t, ti) => {
      const ths = Array.from(t.tHead.rows[0].cells);
      const col = ths.findIndex((h) => h.classList.contains('n'));
      if (col < 0 || t.tBodies[0].rows.length < 2) return;
      const vals = () => Array.from(t.tBodies[0].rows).map((r) => parseFloat(r.cells[col].getAttribute('data-v')))
        .filter((v) => !isNaN(v));
      if (new Set(vals()).size < 2) return;
      ths[col].click();
      const a = vals();
      ths[col].click();
      const d = vals();
      const asc = a.every((v, i) => i === 0 || a[i - 1] <= v);
      const desc = d.every((v, i) => i === 0 || d[i - 1] >= v);
      out.push({ ti, asc, desc, sort: ths[col].getAttribute('aria-sort') });
    });
    return out;
  });
  for (const r of sortResult) {
    if (!r.asc || !r.desc || r.sort !== 'descending') fail(`table ${r.ti} does not sort (asc ${r.asc}, desc ${r.desc})`);
  }
  // names: no cell breaks inside a word ("runti me"): every word of a cell lies on one line
  // (a word's text range has one client rect); a name cut in the middle keeps its full name
  // as title and data-full, and copying the cell gives the full name
  const names = await page.evaluate(() => {
    const out = { broken: [], cut: 0, badCut: [], cells: 0 };
    document.querySelectorAll('td').forEach((td) => {
      const ws = getComputedStyle(td).wordBreak;
      if (ws === 'break-all') out.broken.push(`word-break: break-all on "${td.textContent.slice(0, 40)}"`);
      const node = td.firstChild;
      if (!node || node.nodeType !== 3 || td.offsetParent === null) return;
      out.cells++;
      const text = node.textContent, re = /[^\s\/-]+/g; // a break after - or / is a legal one
      let m;
      while ((m = re.exec(text)) && out.broken.length < 5) {
        if (m[0].length < 2) continue;
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const rects = Array.from(r.getClientRects()).filter((x) => x.width > 0);
        if (new Set(rects.map((x) => Math.round(x.top))).size > 1) out.broken.push(`"${m[0].slice(0, 40)}" breaks across lines`);
      }
    });
    document.querySelectorAll('td.el').forEach((td) => {
      out.cut++;
      const full = td.getAttribute('data-full') || '';
      // shown shorter (render/names.h: demangled, no return type or arguments) or cut with "..."
      if (td.title !== full || full === td.textContent || !full) {
        out.badCut.push(td.textContent.slice(0, 40));
      }
    });
    return out;
  });
  // phases: grouped by name first (when a name repeats); the occurrence timeline is folded
  // past 20 occurrences
  const occ = await page.evaluate(() => Array.from(document.querySelectorAll('details.occ')).map((d) => {
    const m = /(\d+) occurrence/.exec(d.querySelector('summary').textContent);
    let h = d.previousElementSibling;
    while (h && h.tagName !== 'H4' && h.tagName !== 'H3') h = h.previousElementSibling;
    return { n: m ? +m[1] : -1, open: d.open, byName: !!h && /^By name/.test(h.textContent),
             once: !!h && /each name once$/.test(h.textContent),
             rows: d.querySelectorAll('tbody tr').length };
  }));
  for (const o of occ) {
    if (o.n < 0) fail('a phase timeline fold does not say how many occurrences');
    // by name only where a name repeats (issue 26: a table of count 1 rows restates the timeline)
    if (!o.byName && !o.once) fail('a phase timeline is not preceded by its table by name');
    if ((o.n > 20) === o.open) fail(`a phase timeline of ${o.n} occurrences is ${o.open ? 'open' : 'folded'}`);
    if (o.rows !== Math.min(o.n, 200)) fail(`a phase timeline of ${o.n} occurrences lists ${o.rows} rows`);
  }
  // the flame graph (templates/flame.js draws it): its root frames span the width the
  // model's kept roots take; every frame sits inside a frame of the row above; every label
  // stays inside its box; every frame carries its name
  // each view is drawn when it comes into sight: open its run, scroll to it, wait for it
  const nflame = await page.evaluate(() => document.querySelectorAll('div.flame-view').length);
  for (let k = 0; k < nflame; k++) {
    await page.evaluate((i) => {
      const v = document.querySelectorAll('div.flame-view')[i];
      for (let d = v.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
      v.scrollIntoView();
    }, k);
    await page.waitForFunction((i) => !!document.querySelectorAll('div.flame-view')[i].querySelector('svg.fl-svg'),
      { timeout: 20000 }, k).catch(() => {});
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  const flame = await page.evaluate(() => Array.from(document.querySelectorAll('div.flame-view')).map((view) => {
    const svg = view.querySelector('svg.fl-svg');
    if (!svg) return { missing: true };
    const W = +svg.getAttribute('width');
    const d = JSON.parse(view.querySelector('script.fl-data').textContent).trees.host;
    const kept = d.nodes.filter((n) => n[1] === 0 && n[2] / d.total * W >= 0.5).reduce((a, n) => a + n[2] / d.total * W, 0);
    const fr = Array.from(svg.querySelectorAll('g.fl-f')).map((g) => {
      const r = g.querySelector('rect'), t = g.querySelector('text'), b = t ? t.getBBox() : null;
      return { x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width'),
               name: g.getAttribute('data-name'), over: !!b && (b.x < +r.getAttribute('x') - 0.01 ||
               b.x + b.width > +r.getAttribute('x') + +r.getAttribute('width') + 0.01) };
    });
    const top = fr.filter((r) => r.y === 0).reduce((a, r) => a + r.w, 0);
    let orphans = 0;
    for (const r of fr) {
      if (r.y === 0) continue;
      if (!fr.some((p) => p.y === r.y - 18 && p.x <= r.x + 0.02 && p.x + p.w >= r.x + r.w - 0.02)) orphans++;
    }
    return { W, top, kept, boxes: fr.length, orphans, over: fr.filter((r) => r.over).length,
             named: fr.filter((r) => r.name !== null).length };
  }));
  for (const f of flame) {
    if (f.missing) { fail('a flame graph was not drawn'); continue; }
    if (Math.abs(f.top - f.kept) > 0.5)
      fail(`the flame graph's root frames cover ${f.top.toFixed(1)} of ${f.W}, the model's roots ${f.kept.toFixed(1)}`);
    if (f.orphans) fail(`${f.orphans} flame frame(s) outside their parent`);
    if (f.over) fail(`${f.over} flame label(s) pass their box`);
    if (f.named !== f.boxes) fail('a flame frame has no name');
  }
  for (const b of names.broken) fail(`a table cell breaks inside a word: ${b}`);
  for (const b of names.badCut) fail(`a cut name lacks its full name: ${b}`);
  if (names.cut) {
    const copied = await page.evaluate(() => {
      const td = document.querySelector('td.el');
      const sel = window.getSelection(), r = document.createRange();
      r.selectNodeContents(td);
      sel.removeAllRanges();
      sel.addRange(r);
      let got = null;
      const dt = new DataTransfer();
      const ev = new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true });
      document.dispatchEvent(ev);
      got = dt.getData('text/plain');
      return { got, full: td.getAttribute('data-full') };
    });
    if (copied.got !== copied.full) fail(`copying a cut name gives "${(copied.got || '').slice(0, 40)}", not the full name`);
  }
  await page.close();
  return { problems, sorted: sortResult.length, panels: dom.svgs, tables: dom.tables, gpuPanels, navLinks, interactive };
}

async function main() {
  const args = process.argv.slice(2);
  let shotDir = null;
  const files = [];
  const gpu = new Map(); // file -> true (--gpu) / false (--no-gpu)
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--screenshot') shotDir = args[++i];
    else if (args[i] === '--gpu' || args[i] === '--no-gpu') {
      const f = path.resolve(args[++i]);
      gpu.set(f, args[i - 1] === '--gpu');
      files.push(f);
    } else files.push(path.resolve(args[i]));
  }
  const why = missingPrerequisites();
  if (why) { console.log(`SKIP: ${why}`); process.exit(77); }
  if (!files.length) { console.error('usage: check_html.js [--screenshot DIR] [--gpu|--no-gpu] FILE.html...'); process.exit(2); }
  if (shotDir) fs.mkdirSync(shotDir, { recursive: true });
  const dirs = new Set(files.map((f) => path.dirname(f)));
  if (dirs.size !== 1) { console.error('check_html.js: give files of one directory'); process.exit(2); }
  const srv = await serve({ '/r/': [...dirs][0] });
  const browser = await launch();
  let bad = 0;
  try {
    for (const f of files) {
      const r = await checkOne(browser, srv.origin, f, shotDir, gpu.get(f));
      if (r.problems.length) {
        bad++;
        console.log(`FAIL ${path.basename(f)}:\n  ${r.problems.join('\n  ')}`);
      } else {
        console.log(`ok   ${path.basename(f)}: ${r.panels} panels${gpu.get(f) ? ` (${r.gpuPanels} GPU)` : ''} (${r.interactive} with hover and zoom), ${r.tables} tables (${r.sorted} sorted both ways)${r.navLinks ? `, ${r.navLinks} runs in the navigation` : ''}`);
      }
    }
  } finally {
    await browser.close();
    srv.close();
  }
  process.exit(bad ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
