'use strict';
// check_cards.js PAGE.html [--first TEXT] [--absent NAME]... [--gpu-busy PCT] - the first
// screen of a profreport page in headless chromium: the cards (div.cards > div.card) are
// there; the first card's label starts with TEXT (the primary quantity: the GPU-busy card
// on a GPU page, else the primary memory series' peak under its label); no peak card for
// series NAME (a series that stays at 0 B) and no peak card reading 0 B; every peak card
// keeps the series' raw name in its title; where the page has a GPU section, the first card
// is GPU busy and its value is the section's "GPU busy X%" (one value per quantity), and
// with --gpu-busy it is PCT (derived from the trace without profreport).
const path = require('path');
const { missingPrerequisites, serve, launch, openWatched } = require('./harness');

async function main() {
  const args = process.argv.slice(2);
  if (!args.length) { console.error('usage: check_cards.js PAGE.html [--first TEXT] [--absent NAME]... [--gpu-busy PCT]'); process.exit(2); }
  const why = missingPrerequisites();
  if (why) { console.log(`SKIP: ${why}`); process.exit(77); }
  const file = path.resolve(args.shift());
  let first = null, busy = null;
  const absent = [];
  while (args.length) {
    const k = args.shift(), v = args.shift();
    if (v === undefined) { console.error(`${k} needs a value`); process.exit(2); }
    if (k === '--first') first = v;
    else if (k === '--absent') absent.push(v);
    else if (k === '--gpu-busy') busy = +v;
    else { console.error(`unknown option ${k}`); process.exit(2); }
  }
  const problems = [];
  const fail = (m) => problems.push(`${path.basename(file)}: ${m}`);
  const srv = await serve({ '/r/': path.dirname(file) });
  const browser = await launch();
  try {
    const url = `${srv.origin}/r/${encodeURIComponent(path.basename(file))}`;
    const r = await openWatched(browser, url, (p) => p.evaluate(() => !!document.querySelector('div.cards')));
    for (const p of r.problems || []) fail(p);
    const v = await r.page.evaluate(() => {
      const cards = Array.from(document.querySelectorAll('div.cards')[0].querySelectorAll('div.card'));
      const para = Array.from(document.querySelectorAll('p')).map((p) => p.textContent)
        .find((t) => /GPU busy [0-9.]+% of/.test(t));
      return {
        cards: cards.map((c) => ({ key: c.getAttribute('data-card'), title: c.getAttribute('title'),
          value: c.querySelector('.v').textContent, label: c.querySelector('.l').textContent,
          top: c.getBoundingClientRect().top })),
        section: para ? +para.match(/GPU busy ([0-9.]+)% of/)[1] : null,
        height: window.innerHeight,
      };
    });
    if (!v.cards.length) fail('no cards');
    const c0 = v.cards[0] || { label: '', value: '' };
    if (first !== null && !c0.label.startsWith(first)) fail(`the first card is "${c0.label}", want "${first}..."`);
    if (c0.top > v.height) fail(`the first card is below the first screen (top ${c0.top} px)`);
    for (const c of v.cards.filter((x) => x.key === 'peak' || /^Peak /.test(x.label))) {
      if (/^0 B$/.test(c.value)) fail(`a zero peak card: ${c.label} = ${c.value}`);
      if (!c.title) fail(`peak card "${c.label}" has no raw series name in its title`);
      for (const a of absent) if ((c.title || '').split(/[ ;]/)[0] === a) fail(`a peak card for ${a}: ${c.label} = ${c.value}`);
    }
    const gb = v.cards.filter((x) => x.key === 'gpu-busy');
    if (v.section !== null) {
      if (c0.key !== 'gpu-busy') fail(`a GPU page whose first card is "${c0.label}", not GPU busy`);
      if (gb.length !== 1) fail(`${gb.length} GPU-busy cards`);
      else if (Math.abs(parseFloat(gb[0].value) - v.section) > 1e-9)
        fail(`GPU busy card ${gb[0].value}, the GPU section says ${v.section}%`);
    } else if (gb.length) {
      fail('a GPU-busy card on a page without a GPU section');
    }
    if (busy !== null && !(gb.length === 1 && Math.abs(parseFloat(gb[0].value) - busy) <= 0.005))
      fail(`GPU busy card ${gb.length ? gb[0].value : '(none)'}, want ${busy} %`);
    console.log(`${path.basename(file)}: cards ${v.cards.map((c) => `${c.label}=${c.value}`).join(' | ')}`);
  } finally {
    await browser.close();
    await srv.close();
  }
  if (problems.length) {
    for (const p of problems) console.log(`FAIL ${p}`);
    process.exit(1);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
