'use strict';
// check_layout.js [--max-height PX] [--steps] [--phases-once] [--diag MODEL.json] FILE.html ...
// profreport's pages in headless chromium at 1400 and 1024 px wide (issue 26):
//  - every table fits its card (the run's section) or sits in a scroll box that does;
//  - every page prints its height at each width; --max-height fails a taller one;
//  - no chart restates a GPU table of 4 rows or fewer, no GPU op type row of 0 ops;
//  - --diag MODEL.json (before the next FILE): each diagnostic message of the model is
//    shown whole in the page's diagnostics table (no "..." the message did not have);
//  - --steps (next FILE): one step time per page: the "Step time p50" card is the median
//    of the step breakdown's step rows, the breakdown's average row their mean, the
//    "Steps / s" card 1 / that mean, and the DataLoader finding's share the average row's;
//  - --phases-once (next FILE): each phase duration of the phase table appears in one
//    cell of the page, and no chart, flame graph or top-spans table restates them.
// Exit 0 when every check holds; 1 (each failure printed) otherwise; 77 without chromium.
const fs = require('fs');
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

const WIDTHS = [1400, 1024];

function parseArgs(argv) {
  const files = [];
  let maxHeight = 0, next = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--max-height') maxHeight = +argv[++i];
    else if (a === '--steps') next.steps = true;
    else if (a === '--phases-once') next.phasesOnce = true;
    else if (a === '--diag') next.diag = argv[++i];
    else { files.push({ file: path.resolve(a), ...next }); next = {}; }
  }
  return { files, maxHeight };
}

// "160.409 ms" -> ns
function ns(text) {
  const m = /^(-?[\d.]+)\s*(ns|us|µs|ms|s|min|h)$/.exec(text.trim());
  if (!m) return NaN;
  const k = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, min: 60e9, h: 3600e9 }[m[2]];
  return +m[1] * k;
}

// the precision a shown duration carries: one unit of its last digit
function ulp(text) {
  const m = /^-?\d+(?:\.(\d+))?\s*(ns|us|µs|ms|s|min|h)$/.exec(text.trim());
  if (!m) return NaN;
  return Math.pow(10, -(m[1] ? m[1].length : 0)) * ns('1 ' + m[2]);
}

async function layout(page) {
  return page.evaluate(() => {
    const out = { height: document.documentElement.scrollHeight, wide: [] };
    const scrolls = (el, stop) => {
      for (let d = el.parentElement; d && d !== stop; d = d.parentElement) {
        const ox = getComputedStyle(d).overflowX;
        if (ox === 'auto' || ox === 'scroll') return d;
      }
      return null;
    };
    document.querySelectorAll('table').forEach((t) => {
      if (!t.offsetParent) return; // folded away
      const card = t.closest('section.run, details.run, .rec, main') || document.body;
      const cr = card.getBoundingClientRect();
      const box = scrolls(t, card);
      const r = (box || t).getBoundingClientRect();
      if (r.right > cr.right + 1 || r.left < cr.left - 1) {
        let h = t.previousElementSibling || (t.parentElement && t.parentElement.previousElementSibling);
        while (h && !/^H[2-4]$/.test(h.tagName)) h = h.previousElementSibling;
        out.wide.push(`${h ? h.textContent.slice(0, 50) : 'a table'}: ${Math.round(r.width)} px ` +
          `in a card of ${Math.round(cr.width)} px${box ? ' (its scroll box overflows)' : ''}`);
      }
    });
    // a chart of a table of 4 rows or fewer restates it; an op type with no ops says nothing
    out.restated = [];
    document.querySelectorAll('h4').forEach((h) => {
      if (!/^(GPU op time by type|Top GPU ops by total time)$/.test(h.textContent)) return;
      let fig = false, t = null;
      for (let n = h.nextElementSibling; n && !t; n = n.nextElementSibling) {
        if (/^H[2-4]$/.test(n.tagName)) break;
        if (n.tagName === 'FIGURE') fig = true;
        t = n.matches('table') ? n : n.querySelector('table');
      }
      if (!t) return;
      const rows = Array.from(t.tBodies[0].rows);
      if (fig && rows.length <= 4) out.restated.push(`${h.textContent}: a chart of its ${rows.length} rows`);
      if (h.textContent === 'GPU op time by type' && rows.some((r) => r.cells[1].textContent === '0'))
        out.restated.push('GPU op time by type: a row of 0 ops');
    });
    return out;
  });
}

// the table after the heading whose text starts with title
function tableAfter(title) {
  const h = Array.from(document.querySelectorAll('h3, h4')).find((x) => x.textContent.startsWith(title));
  if (!h) return null;
  for (let n = h.nextElementSibling; n; n = n.nextElementSibling) {
    if (/^H[2-4]$/.test(n.tagName)) return null;
    const t = n.matches('table') ? n : n.querySelector('table');
    if (t) return t;
  }
  return null;
}

async function checkSteps(page, fail) {
  const s = await page.evaluate((tableAfterSrc) => {
    const tableAfter = eval(`(${tableAfterSrc})`);
    const card = (label) => {
      const c = Array.from(document.querySelectorAll('.card')).find((x) => x.querySelector('.l') &&
        x.querySelector('.l').textContent === label);
      return c ? c.querySelector('.v').textContent : null;
    };
    const t = tableAfter('Step breakdown');
    if (!t) return null;
    const heads = Array.from(t.tHead.rows[0].cells).map((c) => c.textContent);
    const rows = Array.from(t.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent));
    const recs = Array.from(document.querySelectorAll('.rec')).map((r) => r.textContent);
    return { p50: card('Step time p50'), perS: card('Steps / s'), heads, rows, recs };
  }, tableAfter.toString());
  if (!s) { fail('no step breakdown table'); return; }
  const di = s.heads.indexOf('Duration'), dl = s.heads.indexOf('DataLoader %');
  const avg = s.rows.find((r) => r[0] === 'average');
  const steps = s.rows.filter((r) => r[0] !== 'average');
  if (!avg || !steps.length || di < 0) { fail('the step breakdown has no average or step rows'); return; }
  const v = steps.map((r) => ns(r[di])).sort((a, b) => a - b);
  const tol = Math.max(...steps.map((r) => ulp(r[di])));
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const med = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  if (!(Math.abs(ns(avg[di]) - mean) <= tol))
    fail(`step breakdown: average ${avg[di]}, its steps' mean ${(mean / 1e6).toFixed(3)} ms`);
  if (s.p50 === null) fail('no "Step time p50" card');
  else if (!(Math.abs(ns(s.p50) - med) <= Math.max(tol, ulp(s.p50))))
    fail(`step time: card p50 ${s.p50}, the breakdown's steps' median ${(med / 1e6).toFixed(3)} ms`);
  if (s.perS !== null && Math.abs(+s.perS - 1e9 / mean) > 0.006)
    fail(`steps/s: card ${s.perS}, 1 / the breakdown's mean step ${(1e9 / mean).toFixed(2)}`);
  const rec = s.recs.map((t) => /DataLoader takes ([\d.]+)% of the step time/.exec(t)).find((m) => m);
  if (dl >= 0 && rec && Math.abs(+rec[1] - +avg[dl]) > 0.051)
    fail(`DataLoader: the finding says ${rec[1]} %, the step breakdown ${avg[dl]} %`);
  console.log(`  steps: p50 ${s.p50}, mean ${avg[di]} over ${steps.length} steps${rec ? `, DataLoader ${rec[1]} %` : ''}`);
}

async function checkPhasesOnce(page, fail) {
  const p = await page.evaluate((tableAfterSrc) => {
    const tableAfter = eval(`(${tableAfterSrc})`);
    const h = Array.from(document.querySelectorAll('h3')).find((x) => x.textContent === 'Phases');
    if (!h) return null;
    let t = null;
    for (let n = h.nextElementSibling; n && !t; n = n.nextElementSibling) {
      if (n.tagName === 'H3') break;
      t = n.matches('table') ? n : n.querySelector('table');
      if (t && !Array.from(t.tHead.rows[0].cells).some((c) => c.textContent === 'Start')) t = null;
    }
    if (!t) return null;
    const heads = Array.from(t.tHead.rows[0].cells).map((c) => c.textContent);
    const di = heads.indexOf('Duration');
    const durs = Array.from(t.tBodies[0].rows).map((r) => r.cells[di].textContent);
    const cells = Array.from(document.querySelectorAll('td')).map((c) => c.textContent);
    return {
      durs,
      count: durs.map((d) => cells.filter((c) => c === d).length),
      charts: Array.from(document.querySelectorAll('figure[id]')).map((f) => f.id.replace(/^r\d+-/, ''))
        .filter((id) => id === 'phases' || id === 'timeline'),
      flame: document.querySelectorAll('div.flame-view').length,
      top: !!tableAfter('Top spans'),
    };
  }, tableAfter.toString());
  if (!p) { fail('no phase table with a Start column'); return; }
  p.durs.forEach((d, i) => { if (p.count[i] !== 1) fail(`phase duration ${d} is in ${p.count[i]} cells`); });
  if (p.charts.length) fail(`charts restate the phases: ${p.charts.join(', ')}`);
  if (p.flame) fail('a flame graph restates the phases');
  if (p.top) fail('a top-spans table restates the phases');
  console.log(`  phases: ${p.durs.length} durations, each in one cell`);
}

async function checkDiag(page, model, fail) {
  const want = [];
  for (const r of JSON.parse(fs.readFileSync(model, 'utf8')).runs || [])
    for (const d of r.diagnostics || []) want.push(d.message);
  const shown = await page.evaluate((tableAfterSrc) => {
    const tableAfter = eval(`(${tableAfterSrc})`);
    const t = tableAfter('Ingest diagnostics');
    if (!t) return null;
    const mi = Array.from(t.tHead.rows[0].cells).map((c) => c.textContent).indexOf('Message');
    return Array.from(t.tBodies[0].rows).map((r) => r.cells[mi].textContent);
  }, tableAfter.toString());
  if (!want.length) { fail(`${model} has no diagnostics to check`); return; }
  if (!shown) { fail('no diagnostics table'); return; }
  for (const m of want) if (!shown.includes(m)) fail(`diagnostic not shown whole: "${m.slice(0, 60)}..."`);
  for (const s of shown)
    if (/(\.\.\.|\u2026)$/.test(s) && !want.includes(s)) fail(`diagnostic cut: "${s.slice(-60)}"`);
  console.log(`  diagnostics: ${shown.length} shown whole`);
}

async function main() {
  const missing = missingPrerequisites();
  if (missing) {
    console.log(`check_layout: SKIP: ${missing}`);
    process.exit(77);
  }
  const { files, maxHeight } = parseArgs(process.argv.slice(2));
  if (!files.length) {
    console.error('usage: check_layout.js [--max-height PX] [--steps] [--phases-once] [--diag MODEL] FILE.html...');
    process.exit(2);
  }
  const routes = {};
  files.forEach((f, i) => { routes[`/p${i}/`] = path.dirname(f.file); });
  const srv = await serve(routes);
  const browser = await launch();
  let failures = 0;
  try {
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      const fail = (msg) => { failures++; console.log(`check_layout: FAIL: ${path.basename(f.file)}: ${msg}`); };
      for (const w of WIDTHS) {
        const url = `${srv.origin}/p${i}/${encodeURIComponent(path.basename(f.file))}`;
        const { problems, page } = await openWatched(browser, url, (p) => p.evaluate(() => document.readyState === 'complete'));
        try {
          await page.setViewport({ width: w, height: 900 });
          await new Promise((r) => setTimeout(r, 150));
          problems.forEach((p) => fail(`${w} px: ${p}`));
          const l = await layout(page);
          console.log(`check_layout: ${path.basename(f.file)} at ${w} px: ${l.height} px tall`);
          l.wide.forEach((x) => fail(`${w} px: ${x}`));
          if (w === 1400) l.restated.forEach((x) => fail(x));
          if (maxHeight && w === 1400 && l.height > maxHeight) fail(`${l.height} px tall at ${w} px (over ${maxHeight})`);
          if (w === 1400) {
            if (f.steps) await checkSteps(page, fail);
            if (f.phasesOnce) await checkPhasesOnce(page, fail);
            if (f.diag) await checkDiag(page, f.diag, fail);
          }
        } finally {
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    await srv.close();
  }
  if (failures) {
    console.log(`check_layout: ${failures} failure(s)`);
    process.exit(1);
  }
  console.log(`check_layout: ok (${files.length} page(s) at ${WIDTHS.join(' and ')} px)`);
}

main().catch((e) => {
  console.error(`check_layout: ${e.stack || e}`);
  process.exit(1);
});
