'use strict';
// check_views.js - the operator and kernel views of a report page, and the page-wide
// search, CSV download and dark theme, driven in headless chromium.
//   node check_views.js [--screenshot DIR] PAGE.html MODEL.json [PAGE MODEL]...
// For each page (its run 0 in MODEL, the model written with the page):
//   - the op view by name lists every op name of the model's op_view, each once;
//     split by shapes it has one row per model row; the kernel view (GPU runs) by
//     properties has one row per model row and by name one per distinct name;
//   - sorting a numeric column both ways (arrow on the header, values in order);
//   - the search box filters the views and the static tables, the counts shown agree
//     with the rows computed here from the model;
//   - the CSV of the op view (every row, not the page shown) parses back to the model's
//     numbers summed per name here, and a static table's CSV has every row of it;
//   - prefers-color-scheme: dark gives a dark page.
// Exit 0 when all hold, 1 otherwise (each failure printed), 77 without chromium.

const fs = require('fs');
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

function parseCsv(text) { // RFC 4180
  const rows = [];
  let row = [], cell = '', i = 0, q = false;
  while (i < text.length) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i += 2; continue; }
      if (c === '"') { q = false; i++; continue; }
      cell += c; i++; continue;
    }
    if (c === '"') { q = true; i++; continue; }
    if (c === ',') { row.push(cell); cell = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i += 2; continue; }
    cell += c; i++;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function csvOf(page, selector) {
  return page.evaluate(async (sel) => {
    const orig = URL.createObjectURL;
    let blob = null;
    URL.createObjectURL = (b) => { blob = b; return orig.call(URL, b); };
    document.querySelector(sel).click();
    URL.createObjectURL = orig;
    return blob ? { type: blob.type, text: await blob.text() } : null;
  }, selector);
}

async function setQuery(page, q) {
  await page.evaluate((v) => {
    const i = document.getElementById('pr-search');
    i.value = v;
    i.dispatchEvent(new Event('input'));
  }, q);
  await new Promise((r) => setTimeout(r, 400));
}

async function checkPage(browser, origin, file, model, shotDir, fail) {
  const run = model.runs[0];
  const ov = run.op_view, kv = run.kernel_view;
  const { problems, page } = await openWatched(browser, `${origin}/p/${path.basename(file)}`, async (p) =>
    p.evaluate(() => !!document.querySelector('#pr-search') &&
      (!document.querySelector('div.tv') || !!document.querySelector('div.tv table.tv-table tbody'))));
  const bad = (m) => fail(`${path.basename(file)}: ${m}`);
  problems.forEach(bad);
  if (problems.length) { await page.close(); return; }
  if (!ov) { bad('the model has no op_view'); await page.close(); return; }
  const ops = '#r0-ops';
  const names = [...new Set(ov.rows.map((r) => r.name))];
  // by name: every op name, once (all rows shown)
  await page.click(`${ops} .tv-more button:last-child`).catch(() => {});
  let shown = await page.$$eval(`${ops} tbody tr td:first-child`, (tds) => tds.map((t) => t.title));
  if (shown.length !== names.length || new Set(shown).size !== names.length || names.some((n) => !shown.includes(n)))
    bad(`op view by name: ${shown.length} rows, the model has ${names.length} names`);
  // sorted at first by device self (host self without device work), largest first
  const first = await page.$$eval(`${ops} thead th`, (ths) => ths.filter((t) => t.getAttribute('aria-sort')).map((t) => [t.textContent, t.getAttribute('aria-sort')]));
  const wantFirst = ov.has_device ? 'Device self' : 'Host self';
  if (first.length !== 1 || first[0][0] !== wantFirst || first[0][1] !== 'descending')
    bad(`op view sorted at first by ${JSON.stringify(first)}, want ${wantFirst} descending`);
  // sorting by calls, both ways
  const col = await page.$$eval(`${ops} thead th`, (ths) => ths.findIndex((t) => t.textContent === 'Calls'));
  for (const want of ['descending', 'ascending']) {
    await page.click(`${ops} thead th:nth-child(${col + 1})`);
    const st = await page.$eval(`${ops} thead th:nth-child(${col + 1})`, (t) => [t.getAttribute('aria-sort'), getComputedStyle(t, '::after').content]);
    const vals = await page.$$eval(`${ops} tbody tr td:nth-child(${col + 1})`, (tds) => tds.map((t) => parseFloat(t.getAttribute('data-v'))));
    const sorted = vals.every((v, i) => !i || (want === 'ascending' ? vals[i - 1] <= v : vals[i - 1] >= v));
    if (st[0] !== want || !sorted || !/[\u25B2\u25BC]/.test(st[1])) bad(`sort ${want}: aria-sort ${st[0]}, arrow ${st[1]}, in order ${sorted}`);
  }
  // the CSV by name: every name, host self and calls summed per name here
  const csv = await csvOf(page, `${ops} .tv-csv`);
  if (!csv) bad('no CSV from the op view');
  else {
    const t = parseCsv(csv.text), head = t[0], rows = t.slice(1);
    const hi = head.indexOf('Host self (ns)'), ci = head.indexOf('Calls (count)');
    const want = {};
    ov.rows.forEach((r) => { const w = want[r.name] || (want[r.name] = { s: 0, c: 0 }); w.s += r.host_self_ns; w.c += r.calls; });
    if (rows.length !== names.length || hi < 0 || ci < 0) bad(`op CSV: ${rows.length} rows (want ${names.length}), header ${head}`);
    rows.forEach((r) => {
      const w = want[r[0]];
      if (!w || Number(r[hi]) !== w.s || Number(r[ci]) !== w.c) bad(`op CSV row ${r[0]}: ${r[hi]} ns, ${r[ci]} calls; want ${w && w.s}, ${w && w.c}`);
    });
  }
  // split by shapes: one row per model row
  await page.click(`${ops} button[data-mode="shape"]`);
  await page.click(`${ops} .tv-more button:last-child`).catch(() => {});
  const split = await page.$$eval(`${ops} tbody tr`, (trs) => trs.length);
  if (split !== ov.rows.length) bad(`op view by shapes: ${split} rows, the model ${ov.rows.length}`);
  const hasShapes = ov.rows.some((r) => r.input_dims !== null);
  if (hasShapes && split <= names.length) bad('op view: splitting by shapes adds no rows');
  await page.click(`${ops} button[data-mode="name"]`);
  // the search: the op view's matches counted here from the model (a name's substring)
  const q = names[0].slice(0, Math.max(3, Math.floor(names[0].length / 2))).toLowerCase();
  await setQuery(page, q);
  const wantN = names.filter((n) => n.toLowerCase().includes(q)).length;
  const got = await page.$eval(ops, (b) => [b.getAttribute('data-rows'), b.querySelector('.tv-count').textContent]);
  if (Number(got[0]) !== wantN || !got[1].startsWith(`${wantN} of ${names.length} rows match`))
    bad(`search "${q}": op view ${got[0]} rows "${got[1]}", want ${wantN}`);
  const stat = await page.$$eval('main table:not(.tv-table)', (ts) => ts.map((t) => {
    const q = document.getElementById('pr-search').value.toLowerCase();
    const all = [...t.tBodies].flatMap((b) => [...b.rows]);
    const want = all.filter((tr) => [...tr.cells].some((td) => (td.getAttribute('data-full') || td.textContent).toLowerCase().includes(q))).length;
    return [want, all.filter((tr) => !tr.hidden).length, Number(t.getAttribute('data-rows'))];
  }));
  stat.forEach((s, i) => { if (s[0] !== s[1] || s[1] !== s[2]) bad(`search: static table ${i}: ${s[1]} shown, ${s[2]} counted, ${s[0]} match`); });
  if (!stat.length) bad('no static table on the page');
  await setQuery(page, '');
  // a static table's CSV: every row, header as shown
  if (stat.length) {
    const c2 = await csvOf(page, '.tv-static .tv-csv');
    const n2 = await page.$$eval('main table:not(.tv-table)', (ts) => [...ts[0].tBodies].reduce((s, b) => s + b.rows.length, 0));
    if (!c2 || parseCsv(c2.text).length - 1 !== n2) bad(`static table CSV: ${c2 && parseCsv(c2.text).length - 1} rows, the table ${n2}`);
  }
  // the kernel view
  if (kv) {
    const ks = '#r0-kernels';
    await page.click(`${ks} .tv-more button:last-child`).catch(() => {});
    const kn = await page.$$eval(`${ks} tbody tr`, (trs) => trs.length);
    const knames = new Set(kv.rows.map((r) => r.name)).size;
    if (kn !== knames) bad(`kernel view by name: ${kn} rows, the model ${knames} names`);
    await page.click(`${ks} button[data-mode="props"]`);
    await page.click(`${ks} .tv-more button:last-child`).catch(() => {});
    const kp = await page.$$eval(`${ks} tbody tr`, (trs) => trs.length);
    if (kp !== kv.rows.length) bad(`kernel view by properties: ${kp} rows, the model ${kv.rows.length}`);
  }
  // dark
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const m = /rgb\((\d+), (\d+), (\d+)/.exec(bg);
  if (!m || Number(m[1]) + Number(m[2]) + Number(m[3]) > 150) bad(`dark mode: body background ${bg}`);
  if (shotDir) {
    await page.setViewport({ width: 1400, height: 1000 });
    await page.screenshot({ path: path.join(shotDir, path.basename(file) + '-dark.png'), fullPage: true });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.screenshot({ path: path.join(shotDir, path.basename(file) + '-light.png'), fullPage: true });
  }
  await page.close();
}

(async () => {
  const why = missingPrerequisites();
  if (why) { console.log(`check_views: SKIP: ${why}`); process.exit(77); }
  const args = process.argv.slice(2);
  let shotDir = null;
  if (args[0] === '--screenshot') { shotDir = args[1]; args.splice(0, 2); }
  const pairs = [];
  for (let i = 0; i + 1 < args.length; i += 2) pairs.push([path.resolve(args[i]), JSON.parse(fs.readFileSync(args[i + 1], 'utf8'))]);
  const dir = path.dirname(pairs[0][0]);
  const srv = await serve({ '/p/': dir });
  const browser = await launch();
  const failures = [];
  try {
    for (const [file, model] of pairs) await checkPage(browser, srv.origin, file, model, shotDir, (m) => failures.push(m));
  } finally {
    await browser.close();
    await srv.close();
  }
  failures.forEach((f) => console.log(`check_views: FAIL: ${f}`));
  if (!failures.length) console.log(`check_views: ok (${pairs.length} page(s))`);
  process.exit(failures.length ? 1 : 0);
})();
