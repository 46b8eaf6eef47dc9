'use strict';
// check_flame.js [--screenshot DIR] PAGE.html TERM SHARE STEPS - the interactive flame graph
// (templates/flame.js) of a report of a trace with steps and GPU activity (nccl_data), driven
// in headless chromium:
//   - steps merged by default: one root frame named ProfilerStep* (ProfilerStep#*), and the
//     root frames fill the width;
//   - "split steps" shows the steps as roots: their names, in order, are STEPS (comma-separated,
//     from tests/tools/flame_ref.py over the trace);
//   - a click on a frame zooms: that frame alone on the first row, spanning the width; the
//     breadcrumb and "reset zoom" go back;
//   - the search box: every frame whose name contains TERM is highlighted and no other, and
//     the share it states equals SHARE (Python's, over the trace: the outermost matching
//     paths' time / the total) to 1e-9;
//   - "with GPU kernels": device frames appear (marked), under their ops;
//   - hover shows the name, the total with its share, and self;
//   - in every view (merged, split, GPU, GPU split, zoomed), no label's box passes its
//     frame's rectangle, and every frame lies within a frame of the row above;
//   - no console error, no request off the local server.
// Exit 0 all good, 1 a check failed, 77 prerequisites missing.
const fs = require('fs');
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

// the frames drawn, once the labels were checked (the frame after the drawing)
async function frames(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  return page.evaluate(() => {
    const svg = document.querySelector('div.flame-view svg.fl-svg');
    if (!svg) return null;
    const W = +svg.getAttribute('width');
    const fr = Array.from(svg.querySelectorAll('g.fl-f')).map((g) => {
      const r = g.querySelector('rect'), t = g.querySelector('text');
      const rb = { x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width') };
      let tb = null;
      if (t) {
        const b = t.getBBox();
        tb = { x: b.x, w: b.width, text: t.textContent };
      }
      return { name: g.getAttribute('data-name'), hit: g.classList.contains('fl-hit'),
               dev: g.classList.contains('fl-dev'), ...rb, tb };
    });
    return { W, fr };
  });
}

// labels inside their boxes; each frame under one of the row above
function geometry(v, what, fail) {
  let over = 0, orphans = 0;
  for (const f of v.fr) {
    if (f.tb && (f.tb.x < f.x - 0.01 || f.tb.x + f.tb.w > f.x + f.w + 0.01)) {
      over++;
      if (over <= 3) fail(`${what}: label "${f.tb.text}" (${f.tb.x.toFixed(1)}+${f.tb.w.toFixed(1)}) passes its box (${f.x}+${f.w})`);
    }
    if (f.y > 0 && !v.fr.some((p) => p.y === f.y - 18 && p.x <= f.x + 0.02 && p.x + p.w >= f.x + f.w - 0.02)) orphans++;
  }
  if (over > 3) fail(`${what}: ${over} labels pass their boxes`);
  if (orphans) fail(`${what}: ${orphans} frame(s) not under a frame of the row above`);
  if (!v.fr.some((f) => f.tb)) fail(`${what}: no label at all`);
}

async function main() {
  const args = process.argv.slice(2);
  let shotDir = null;
  if (args[0] === '--screenshot') { shotDir = args[1]; args.splice(0, 2); }
  if (args.length !== 4) { console.error('usage: check_flame.js [--screenshot DIR] PAGE.html TERM SHARE STEPS'); process.exit(2); }
  const why = missingPrerequisites();
  if (why) { console.log(`SKIP: ${why}`); process.exit(77); }
  const file = path.resolve(args[0]), term = args[1], share = +args[2], steps = args[3].split(',');
  const problems = [];
  const fail = (m) => problems.push(m);
  const srv = await serve({ '/r/': path.dirname(file) });
  const browser = await launch();
  try {
    const url = `${srv.origin}/r/${encodeURIComponent(path.basename(file))}`;
    const r = await openWatched(browser, url, (p) => p.evaluate(() => !!document.querySelector('div.flame-view')));
    const page = r.page;
    await page.setViewport({ width: 1280, height: 900 });
    // drawn when it comes into sight
    await page.evaluate(() => document.querySelector('div.flame-view').scrollIntoView());
    await page.waitForSelector('div.flame-view svg.fl-svg', { timeout: 20000 });
    const shot = async (name) => {
      if (!shotDir) return;
      const el = await page.$('div.flame-view');
      await el.screenshot({ path: path.join(shotDir, `flame-${name}.png`) });
    };
    // merged by default
    let v = await frames(page);
    const roots = v.fr.filter((f) => f.y === 0);
    const stepRoots = roots.filter((f) => /^ProfilerStep/.test(f.name));
    if (stepRoots.length !== 1 || stepRoots[0].name !== 'ProfilerStep#*')
      fail(`merged: ${stepRoots.length} ProfilerStep root(s) (${stepRoots.map((f) => f.name).join(', ')}), want one ProfilerStep#*`);
    // the root frames cover the width but for the roots the model left out (under 0.1 %)
    const kept = await page.evaluate((W) => {
      const d = JSON.parse(document.querySelector('div.flame-view script.fl-data').textContent).trees.host;
      return d.nodes.filter((n) => n[1] === 0 && n[2] / d.total * W >= 0.5).reduce((a, n) => a + n[2] / d.total * W, 0);
    }, v.W);
    const top = roots.reduce((a, f) => a + f.w, 0);
    if (Math.abs(top - kept) > 0.5 || kept < 0.99 * v.W)
      fail(`merged: the root frames cover ${top.toFixed(1)} of ${v.W} px, the model's roots ${kept.toFixed(1)}`);
    geometry(v, 'merged', fail);
    await shot('merged');
    // split steps
    await page.click('div.flame-view input.fl-split');
    v = await frames(page);
    const split = v.fr.filter((f) => f.y === 0).map((f) => f.name);
    if (split.join(',') !== steps.join(',')) fail(`split: roots ${split.join(', ')}, want ${steps.join(', ')}`);
    geometry(v, 'split', fail);
    await shot('split');
    await page.click('div.flame-view input.fl-split');
    // zoom into the widest frame of the second row
    v = await frames(page);
    const second = v.fr.filter((f) => f.y === 18).sort((a, b) => b.w - a.w)[0];
    if (!second) fail('merged: no frame on the second row');
    else {
      await page.evaluate((n) => {
        const g = Array.from(document.querySelectorAll('div.flame-view g.fl-f')).find((x) => x.getAttribute('data-name') === n && x.querySelector('rect').getAttribute('y') === '18');
        g.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true }));
      }, second.name);
      v = await frames(page);
      const z = v.fr.filter((f) => f.y === 0);
      if (z.length !== 1 || z[0].name !== second.name || Math.abs(z[0].w - v.W) > 0.5)
        fail(`zoom: row 0 is ${z.map((f) => `${f.name} ${f.w}`).join(', ')}, want ${second.name} over ${v.W} px`);
      const crumbs = await page.evaluate(() => Array.from(document.querySelectorAll('div.flame-view .fl-crumb')).map((b) => b.textContent));
      if (crumbs.length < 2 || crumbs[0] !== 'all' || crumbs[crumbs.length - 1] !== second.name)
        fail(`zoom: breadcrumb ${crumbs.join(' > ')}`);
      geometry(v, 'zoomed', fail);
      await shot('zoomed');
      await page.click('div.flame-view button.fl-reset');
      v = await frames(page);
      if (v.fr.filter((f) => f.y === 0).length !== roots.length) fail('reset: the roots are not back');
    }
    // search
    await page.type('div.flame-view input.fl-search', term);
    v = await frames(page);
    const want = v.fr.filter((f) => f.name.toLowerCase().includes(term.toLowerCase()));
    const hits = v.fr.filter((f) => f.hit);
    if (!want.length) fail(`search: no frame named *${term}*`);
    if (hits.length !== want.length || hits.some((f) => !f.name.toLowerCase().includes(term.toLowerCase())))
      fail(`search: ${hits.length} frames highlighted, ${want.length} match`);
    const got = await page.evaluate(() => {
      const m = document.querySelector('div.flame-view .fl-match');
      return { share: +m.getAttribute('data-share'), text: m.textContent };
    });
    if (!(Math.abs(got.share - share) <= 1e-9)) fail(`search: share ${got.share}, want ${share} (Python)`);
    if (!got.text.includes((100 * share).toFixed(2) + ' %')) fail(`search: the text "${got.text}" does not state ${(100 * share).toFixed(2)} %`);
    await shot('search');
    await page.click('div.flame-view input.fl-search', { clickCount: 3 });
    await page.keyboard.press('Backspace');
    // hover
    const tip = await page.evaluate(() => {
      const g = document.querySelector('div.flame-view g.fl-f rect');
      const b = g.getBoundingClientRect();
      g.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: b.left + 2, clientY: b.top + 2 }));
      const t = document.querySelector('div.flame-view .fl-tip');
      return { hidden: t.hidden, text: t.textContent, name: g.parentNode.getAttribute('data-name') };
    });
    if (tip.hidden || !tip.text.includes(tip.name) || !/%/.test(tip.text) || !/self/.test(tip.text))
      fail(`hover: tip "${tip.text}" (hidden ${tip.hidden}) lacks the name, share or self`);
    // device time
    await page.click('div.flame-view input.fl-gpu');
    v = await frames(page);
    if (!v.fr.some((f) => f.dev)) fail('gpu: no device frame');
    if (v.fr.some((f) => f.dev && f.y === 0)) fail('gpu: a device frame is a root');
    geometry(v, 'gpu', fail);
    await shot('gpu');
    await page.click('div.flame-view input.fl-split');
    v = await frames(page);
    if (!v.fr.some((f) => f.dev)) fail('gpu split: no device frame');
    geometry(v, 'gpu split', fail);
    problems.push(...r.problems);
    await page.close();
  } finally {
    await browser.close();
    srv.close();
  }
  if (problems.length) {
    console.log(`FAIL ${path.basename(file)} (flame):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`ok   ${path.basename(file)}: flame graph merged, split, zoomed, searched (${term}: ${(100 * share).toFixed(2)} %), GPU`);
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
