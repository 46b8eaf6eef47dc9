#!/usr/bin/env node
// check_scales.js PAGE.html... - one numbering and one unit per page, in headless chromium:
//  - steps: the step numbers a chart shows (the steps panel's title "ProfilerStep #4-#6" for a
//    few steps drawn as bars, the x values of its line for more) are the numbers the page's
//    tables name ("ProfilerStep#4"): every table step number is on the chart, and the title
//    names the step kind without a number glued to it ("ProfilerStep#4: 3 steps" is wrong);
//  - hover: on every interactive panel (templates/report.js) hovering a point (or a busy
//    interval) prints x, and y, in the unit the axis title names (an axis in s hovers
//    "0.262 s", never "262.002 ms"), for time and byte axes.
// Exit 0 when every page holds, 1 with one line per problem, 77 without chromium/puppeteer.
'use strict';
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

async function checkOne(browser, origin, file) {
  const url = `${origin}/r/${encodeURIComponent(path.basename(file))}`;
  const { problems, page } = await openWatched(browser, url, (p) => p.evaluate(() => document.readyState === 'complete'));
  const r = await page.evaluate(async () => {
    const out = [], seen = { steps: 0, hovers: 0 };
    const bad = (m) => out.push(m);
    // ---- step numbers: tables vs the steps chart, per run section
    const figs = Array.from(document.querySelectorAll('figure[id$="-steps"]'));
    for (const fig of figs) {
      const sec = fig.closest('section, details, article') || document.body;
      const nums = new Set();
      let kind = null;
      for (const td of sec.querySelectorAll('td')) {
        const m = /^(\S*?)#(\d+)$/.exec((td.getAttribute('data-full') || td.textContent).trim());
        if (m) { nums.add(Number(m[2])); kind = kind || m[1]; }
      }
      if (!nums.size) continue;
      seen.steps++;
      const title = fig.getAttribute('aria-label') || '';
      if (/[A-Za-z_]#\d+/.test(title)) bad(`${fig.id}: title "${title}" names a step, not the step kind`);
      let onChart;
      const data = fig.querySelector('script.pz-data');
      if (data) {
        const d = JSON.parse(data.textContent);
        onChart = new Set(d.lines.flatMap((l) => l.x).filter((x) => x !== null).map((x) => Math.round(x)));
        const lo = Math.min(...nums), hi = Math.max(...nums);
        if (d.x.lo > lo + 0.5 || d.x.hi < hi - 0.5) bad(`${fig.id}: the x axis ${d.x.lo}..${d.x.hi} does not hold steps #${lo}..#${hi}`);
      } else {
        const m = /#(\d+)-#(\d+)/.exec(title);
        if (!m) { bad(`${fig.id}: "${title}" does not say which steps it draws`); continue; }
        onChart = new Set();
        for (let k = Number(m[1]); k <= Number(m[2]); k++) onChart.add(k);
        if (kind && !title.includes(`${kind} #`)) bad(`${fig.id}: "${title}" does not name the step kind ${kind}`);
      }
      for (const n of nums) {
        if (!onChart.has(n) && n >= Math.min(...onChart) && n <= Math.max(...onChart))
          bad(`${fig.id}: a table names step #${n}, the chart has no step #${n} (${[...onChart].slice(0, 8).join(', ')}...)`);
      }
      const chartMin = Math.min(...onChart);
      if (![...nums].some((n) => onChart.has(n))) bad(`${fig.id}: the chart's steps (#${chartMin}...) are none of the tables' (#${Math.min(...nums)}...)`);
    }
    // ---- hover in the axis' unit
    const unitOf = (text) => { const m = /(-?\d+(?:\.\d+)?)(?: (\S+))?$/.exec(text.trim()); return m ? m[2] || '' : null; };
    for (const fig of document.querySelectorAll('figure.pz')) {
      const data = fig.querySelector('script.pz-data');
      if (!data) continue;
      for (let p = fig; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
      fig.scrollIntoView();
      await new Promise((res) => setTimeout(res, 10));
      const d = JSON.parse(data.textContent), svg = fig.querySelector('svg'), p = d.plot;
      const fire = (x, y) => {
        const q = svg.createSVGPoint();
        q.x = x; q.y = y;
        const c = q.matrixTransform(svg.getScreenCTM());
        svg.dispatchEvent(new MouseEvent('mousemove', { clientX: c.x, clientY: c.y, bubbles: true }));
      };
      const px = (x) => p[0] + (x - d.x.lo) / (d.x.hi - d.x.lo) * p[2];
      const py = (y) => p[1] + p[3] - (y - d.y.lo) / (d.y.hi - d.y.lo) * p[3];
      const l = d.lines.find((ln) => ln.y.some((y) => y !== null));
      if (l) {
        const idx = l.x.map((x, i) => (x !== null && l.y[i] !== null ? i : -1)).filter((i) => i >= 0);
        const k = idx[idx.length >> 1];
        fire(px(l.x[k]), py(l.y[k]));
      } else if (d.rects.length) {
        const g = d.rects[0];
        fire(px((g.x[0] + g.x[1]) / 2), py((g.y0 + g.y1) / 2));
      } else continue;
      const head = fig.querySelector('.pz-tip:not([hidden]) .pz-x');
      const row = fig.querySelector('.pz-tip:not([hidden]) .pz-row b');
      if (!head) { bad(`${fig.id}: hovering shows no x`); continue; }
      seen.hovers++;
      const hx = head.textContent.slice(head.textContent.lastIndexOf(': ') + 2);
      if ((d.x.k === 'time' || d.x.k === 'bytes') && unitOf(hx) !== d.x.name)
        bad(`${fig.id}: hover x "${hx}" is not in the axis' unit ${d.x.name} ("${d.x.label}")`);
      if (row && l && (d.y.k === 'time' || d.y.k === 'bytes') && unitOf(row.textContent) !== d.y.name)
        bad(`${fig.id}: hover y "${row.textContent}" is not in the axis' unit ${d.y.name}`);
      if (row && !l) { /* a busy interval: "start to end (length)" */
        for (const part of row.textContent.split(/ to | \(|\)/).filter((s) => /\d/.test(s)))
          if (d.x.k === 'time' && unitOf(part) !== d.x.name) bad(`${fig.id}: hover "${row.textContent}" is not in ${d.x.name}`);
      }
      svg.dispatchEvent(new MouseEvent('mouseleave', { bubbles: true }));
    }
    return { out, seen };
  });
  await page.close();
  return { problems: problems.concat(r.out), seen: r.seen };
}

async function main() {
  const files = process.argv.slice(2).map((f) => path.resolve(f));
  const why = missingPrerequisites();
  if (why) { console.log(`SKIP: ${why}`); process.exit(77); }
  if (!files.length) { console.error('usage: check_scales.js PAGE.html...'); process.exit(2); }
  const srv = await serve({ '/r/': path.dirname(files[0]) });
  const browser = await launch();
  let bad = 0;
  try {
    for (const f of files) {
      const r = await checkOne(browser, srv.origin, f);
      if (r.problems.length) {
        bad++;
        console.log(`FAIL ${path.basename(f)}:\n  ${r.problems.join('\n  ')}`);
      } else {
        console.log(`ok   ${path.basename(f)}: ${r.seen.steps} step chart(s) match the tables, ${r.seen.hovers} hover(s) in the axis' unit`);
      }
    }
  } finally {
    await browser.close();
    srv.close();
  }
  process.exit(bad ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
