'use strict';
// page_bench.js PAGE.html... - how big and how fast each report page is in headless Chromium
// (Debian's, through tests/browser's puppeteer-core): bytes, first contentful paint, the
// moment every view is built (the "pr-ready" mark html_report.c puts after the page's
// scripts: time to interactive), the load event, one redraw of the trace view and the JS
// heap. Median of PR_BENCH_REPEAT loads (default 3), each in a fresh page.
const fs = require('fs');
const path = require('path');
const { serve, launch } = require('../tests/browser/harness');

async function once(browser, url) {
  const page = await browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  // the first paint may come after the load event: wait two frames
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const r = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0] || performance.getEntriesByName('first-paint')[0];
    const ready = performance.getEntriesByName('pr-ready')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    let draw = NaN;
    const tv = document.querySelector('.trv'); // built once in sight (the first run's usually is)
    if (tv && tv.tvView) {
      const t0 = performance.now();
      tv.tvView.draw();
      draw = performance.now() - t0;
    }
    return { fcp: fcp ? fcp.startTime : NaN, ready: ready ? ready.startTime : NaN, load: nav.loadEventEnd,
      draw, heap: performance.memory ? performance.memory.usedJSHeapSize : NaN };
  });
  await page.close();
  return r;
}

async function main() {
  const files = process.argv.slice(2).map((f) => path.resolve(f));
  const n = Number(process.env.PR_BENCH_REPEAT || 3);
  const browser = await launch();
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  console.log('| page | bytes | first paint ms | interactive ms | load ms | trace redraw ms | JS heap MB |');
  console.log('|---|---|---|---|---|---|---|');
  try {
    for (const f of files) {
      const srv = await serve({ '/r/': path.dirname(f) });
      const runs = [];
      for (let i = 0; i < n; i++) runs.push(await once(browser, `${srv.origin}/r/${encodeURIComponent(path.basename(f))}`));
      srv.close();
      const col = (k, d) => { const v = med(runs.map((r) => (r[k] === null ? NaN : r[k]))); return isNaN(v) ? '-' : v.toFixed(d); };
      console.log(`| ${path.basename(f)} | ${fs.statSync(f).size} | ${col('fcp', 0)} | ${col('ready', 0)} | ${col('load', 0)} | ${col('draw', 1)} | ${(med(runs.map((r) => r.heap)) / 1048576).toFixed(1)} |`);
    }
  } finally {
    await browser.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
