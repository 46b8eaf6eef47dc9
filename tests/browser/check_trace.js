'use strict';
// check_trace.js - the trace view of a report page (templates/trace.js) driven in headless
// chromium: usage  check_trace.js PAGE.html [FACTS.json]
//
// On every trace view of the page: every slice has a name and the view draws (non-blank
// canvas); hovering a slice shows its name; the wheel and W/S narrow and widen the range, A/D
// move it, a double click restores the window; a search counts its matches and Enter steps
// to one (selected, in view); clicking a launch selects it and names its kernel. FACTS (made
// by trace_facts.py from the trace file itself, not from profreport) adds: the windows' steps,
// the number of slices in the windows, a kernel name whose match count must equal the
// trace's own count, and launch -> kernel pairs by correlation that the click must report.
const fs = require('fs');
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

async function viewState(page, k) {
  return page.evaluate((k) => {
    const box = document.querySelectorAll('.trv')[k];
    return {
      t0: Number(box.getAttribute('data-t0')), t1: Number(box.getAttribute('data-t1')),
      selected: box.getAttribute('data-selected'), partner: box.getAttribute('data-partner'),
      matches: box.getAttribute('data-matches'),
    };
  }, k);
}

// page coordinates of slice i's middle (scrolled into view), or null when it is not drawn
async function slicePoint(page, k, i) {
  const p = await page.evaluate((k, i) => {
    const box = document.querySelectorAll('.trv')[k], v = box.tvView, s = v.sl[i];
    const a = Math.max(v.v0, s.t), b = Math.min(v.v1, s.t + s.dur);
    if (b < a) return null;
    // the slice's row in the middle of the viewport (a lane of deep stacks is taller than it)
    const r0 = v.c.getBoundingClientRect();
    window.scrollBy(0, r0.top + s.row.y - window.innerHeight / 2);
    const r = v.c.getBoundingClientRect();
    return { x: r.left + (v.px(a) + v.px(b)) / 2, y: r.top + s.row.y + 9 };
  }, k, i);
  return p;
}

async function checkView(page, k, facts, fail) {
  const info = await page.evaluate((k) => {
    const box = document.querySelectorAll('.trv')[k], v = box.tvView, d = v.d;
    const unnamed = d.slices.filter((s) => !(d.names[s[4]] || '').length).length;
    // two different names never print alike (render/names.h's column rule)
    const alike = v.disp.length - new Set(v.disp).size;
    const c = v.c, g = c.getContext('2d'), img = g.getImageData(0, 0, c.width, c.height).data;
    const colors = new Set();
    for (let i = 0; i < img.length; i += 64) colors.add((img[i] << 16) | (img[i + 1] << 8) | img[i + 2]);
    // the longest slice of the first window, a linked launch, a name to search for
    const w = d.windows[0];
    let big = -1;
    d.slices.forEach((s, i) => {
      if (s[2] < w.t1_ns && s[2] + s[3] > w.t0_ns && (big < 0 || s[3] > d.slices[big][3])) big = i;
    });
    return {
      n: d.slices.length, unnamed, alike, colors: colors.size, big, bigName: big >= 0 ? d.names[d.slices[big][4]] : '',
      windows: d.windows.map((x) => x.label), links: (d.links || []).length, inWindows: d.in_windows,
      shown: d.shown, leftOut: d.left_out,
    };
  }, k);
  if (!info.n) { fail('trace view without slices'); return; }
  if (info.unnamed) fail(`${info.unnamed} of ${info.n} slices have no name`);
  if (info.alike) fail(`${info.alike} different names print alike in the trace view`);
  if (info.colors < 6) fail(`the trace canvas looks blank (${info.colors} colours)`);
  if (info.shown !== info.n) fail(`the view has ${info.n} slices, the model says ${info.shown} are shown`);
  if (info.shown + info.leftOut !== info.inWindows) fail(`shown ${info.shown} + left out ${info.leftOut} != ${info.inWindows} in the windows`);
  // hover: the longest slice's name in the tooltip
  const hp = await slicePoint(page, k, info.big);
  if (!hp) fail('the longest slice of the first window is not in view');
  else {
    await page.mouse.move(hp.x, hp.y);
    const tip = await page.evaluate((k) => {
      const t = document.querySelectorAll('.trv')[k].querySelector('.trv-tip');
      return t.hidden ? '' : t.textContent;
    }, k);
    if (!tip.includes(info.bigName)) fail(`hover on '${info.bigName}' shows '${tip.slice(0, 120)}'`);
  }
  // zoom: wheel and W narrow the range about the pointer, S widens, A/D pan, dblclick resets
  const s0 = await viewState(page, k);
  await page.mouse.wheel({ deltaY: -200 });
  const s1 = await viewState(page, k);
  if (!(s1.t1 - s1.t0 < s0.t1 - s0.t0)) fail(`wheel did not narrow the range (${s0.t0}..${s0.t1} -> ${s1.t0}..${s1.t1})`);
  if (hp && !(s1.t0 >= s0.t0 && s1.t1 <= s0.t1)) fail('wheel zoom left the range it zoomed into');
  await page.focus(`.trv:nth-of-type(1)`).catch(() => {});
  await page.evaluate((k) => document.querySelectorAll('.trv')[k].focus(), k);
  await page.keyboard.press('w');
  const s2 = await viewState(page, k);
  if (!(s2.t1 - s2.t0 < s1.t1 - s1.t0)) fail('W did not zoom in');
  await page.keyboard.press('s');
  await page.keyboard.press('s');
  const s3 = await viewState(page, k);
  if (!(s3.t1 - s3.t0 > s2.t1 - s2.t0)) fail('S did not zoom out');
  await page.keyboard.press('d');
  const s4 = await viewState(page, k);
  if (!(s4.t0 > s3.t0 && Math.abs((s4.t1 - s4.t0) - (s3.t1 - s3.t0)) <= 2)) fail('D did not pan right');
  await page.keyboard.press('a');
  const s5 = await viewState(page, k);
  if (!(s5.t0 < s4.t0)) fail('A did not pan left');
  if (hp) {
    await page.mouse.click(hp.x, hp.y, { clickCount: 2 });
    const s6 = await viewState(page, k);
    if (Math.abs((s6.t1 - s6.t0) - (s0.t1 - s0.t0)) > 2) fail('a double click did not restore the window');
  }
  // search
  const needle = facts && facts.search ? facts.search.text : info.bigName;
  const got = await page.evaluate((k, text) => {
    const box = document.querySelectorAll('.trv')[k], q = box.querySelector('.trv-q');
    q.value = text;
    q.dispatchEvent(new Event('input'));
    q.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    const v = box.tvView;
    return { matches: Number(box.getAttribute('data-matches')), selected: box.getAttribute('data-selected'),
      count: box.querySelector('.trv-count').textContent, inView: v.sel && v.sel.t < v.v1 && v.sel.t + v.sel.dur > v.v0 };
  }, k, needle);
  if (!(got.matches >= 1)) fail(`search for '${needle}' found nothing`);
  if (!got.selected || !got.selected.toLowerCase().includes(needle.toLowerCase())) fail(`Enter did not select a match of '${needle}' (selected '${got.selected}')`);
  if (!got.inView) fail('the selected match is not in view');
  if (!/1 of \d+ match/.test(got.count)) fail(`the match count reads '${got.count}'`);
  if (facts && facts.search && got.matches !== facts.search.count)
    fail(`search '${needle}': ${got.matches} matches, the trace has ${facts.search.count} in the windows`);
  await page.evaluate((k) => {
    const q = document.querySelectorAll('.trv')[k].querySelector('.trv-q');
    q.value = ''; q.dispatchEvent(new Event('input'));
  }, k);
  // click a launch: its kernel is named (and, with facts, is the one of its correlation)
  if (info.links) {
    const pick = await page.evaluate((k, pairs) => {
      const v = document.querySelectorAll('.trv')[k].tvView, d = v.d;
      let l = d.links[0];
      const key = (a, b) => `${a}/${b}`;
      if (pairs && pairs.length) { // a link whose two durations single out one pair of the trace
        const n = new Map();
        pairs.forEach((p) => n.set(key(p.launch_dur, p.kernel_dur), (n.get(key(p.launch_dur, p.kernel_dur)) || 0) + 1));
        const found = d.links.find((x) => n.get(key(d.slices[x[0]][3], d.slices[x[1]][3])) === 1);
        if (found) l = found;
      }
      v.reveal(v.sl[l[0]]);
      return { i: l[0], launch: d.names[d.slices[l[0]][4]], kernel: d.names[d.slices[l[1]][4]],
        key: key(d.slices[l[0]][3], d.slices[l[1]][3]) };
    }, k, facts ? facts.pairs : null);
    const lp = await slicePoint(page, k, pick.i);
    if (!lp) fail('the launch is not in view after reveal');
    else {
      await page.mouse.click(lp.x, lp.y);
      const st = await viewState(page, k);
      if (st.selected !== pick.launch) fail(`click selected '${st.selected}', expected the launch '${pick.launch}'`);
      if (st.partner !== pick.kernel) fail(`the launch's partner is '${st.partner}', expected '${pick.kernel}'`);
      if (facts && facts.pairs) {
        const p = facts.pairs.find((x) => `${x.launch_dur}/${x.kernel_dur}` === pick.key);
        if (!p) fail(`no correlation pair of the trace has the durations ${pick.key} ns`);
        else if (p.kernel !== st.partner || p.launch !== st.selected)
          fail(`click: ${st.selected} -> ${st.partner}; the trace's correlation says ${p.launch} -> ${p.kernel}`);
      }
      const text = await page.evaluate((k) => document.querySelectorAll('.trv')[k].querySelector('.trv-info').textContent, k);
      if (!text.includes(pick.kernel)) fail('the details do not name the kernel');
    }
  }
  if (facts) {
    if (facts.windows && JSON.stringify(facts.windows) !== JSON.stringify(info.windows))
      fail(`windows ${JSON.stringify(info.windows)}, the trace's steps say ${JSON.stringify(facts.windows)}`);
    if (facts.in_windows_x !== undefined && facts.in_windows_x !== info.inWindows)
      fail(`${info.inWindows} slices in the windows, the trace has ${facts.in_windows_x} complete events there`);
  }
  return info;
}

async function main() {
  const [file, factsFile] = process.argv.slice(2);
  const why = missingPrerequisites();
  if (why) { console.log(`SKIP: ${why}`); process.exit(77); }
  if (!file) { console.error('usage: check_trace.js PAGE.html [FACTS.json]'); process.exit(2); }
  const facts = factsFile ? JSON.parse(fs.readFileSync(factsFile, 'utf8')) : null;
  const abs = path.resolve(file);
  const srv = await serve({ '/r/': path.dirname(abs) });
  const browser = await launch();
  let bad = false;
  try {
    const { problems, page } = await openWatched(browser, `${srv.origin}/r/${encodeURIComponent(path.basename(abs))}`,
      async (p) => p.evaluate(() => document.readyState === 'complete'));
    const fail = (m) => problems.push(m);
    const n = await page.evaluate(() => document.querySelectorAll('.trv').length);
    if (!n) fail('no trace view on the page');
    const done = [];
    for (let k = 0; k < n; k++) {
      // a view is built when it comes into sight
      await page.evaluate((k) => document.querySelectorAll('.trv')[k].scrollIntoView({ block: 'start' }), k);
      await page.waitForFunction((k) => !!document.querySelectorAll('.trv')[k].tvView, { timeout: 10000 }, k);
      done.push(await checkView(page, k, k === 0 ? facts : null, fail));
    }
    if (problems.length) { bad = true; console.log(`FAIL ${path.basename(abs)}:\n  ${problems.join('\n  ')}`); }
    else console.log(`ok   ${path.basename(abs)}: ${n} trace view(s), ${done.map((d) => d && `${d.n} slices, ${d.links} links`).join('; ')}`);
  } finally {
    await browser.close();
    srv.close();
  }
  process.exit(bad ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
