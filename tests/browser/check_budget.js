'use strict';
// check_budget.js [--runs N] PAGE.html... - the page budget (docs/report.md, "Page budget"):
// each page is at most PR_PAGE_MAX_MB (default 10) MB, loads in headless Chromium without a
// console error, page error or failed request and reaches its pr-ready mark. With --runs N
// before a page, that page is an archive's index: a note says it is one, its table has N rows
// and every row links to a page that exists. The time to pr-ready is printed, not asserted
// (time limits belong in the benchmark: bench/page_budget.sh).
const fs = require('fs');
const path = require('path');
const { serve, launch, openWatched, missingPrerequisites } = require('./harness');

const MAX = Number(process.env.PR_PAGE_MAX_MB || 10) * 1048576;

async function main() {
  const why = missingPrerequisites();
  if (why) {
    console.log(`browser/budget: SKIP: ${why}`);
    process.exit(77);
  }
  const jobs = [];
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') jobs.push({ runs: Number(args[++i]), file: path.resolve(args[++i]) });
    else jobs.push({ runs: 0, file: path.resolve(args[i]) });
  }
  const failures = [];
  const browser = await launch();
  try {
    for (const j of jobs) {
      const size = fs.statSync(j.file).size;
      const name = path.basename(j.file);
      if (size > MAX) failures.push(`${name}: ${size} bytes, over the budget of ${MAX}`);
      const srv = await serve({ '/r/': path.dirname(j.file) });
      const url = `${srv.origin}/r/${encodeURIComponent(name)}`;
      const { problems, page } = await openWatched(browser, url,
        (p) => p.evaluate(() => performance.getEntriesByName('pr-ready').length > 0), { timeoutMs: 60000 });
      const facts = await page.evaluate(() => {
        const m = performance.getEntriesByName('pr-ready')[0];
        const rows = Array.from(document.querySelectorAll('tr[id^="row-"] td.name a'));
        const note = document.querySelector('p.archive-note');
        return { ready: m ? m.startTime : NaN, hrefs: rows.map((a) => a.getAttribute('href')),
          note: note ? note.textContent : '' };
      });
      await page.close();
      srv.close();
      for (const p of problems) failures.push(`${name}: ${p}`);
      if (j.runs) {
        if (facts.hrefs.length !== j.runs) failures.push(`${name}: ${facts.hrefs.length} index rows, want ${j.runs}`);
        if (!/one page per run/.test(facts.note)) failures.push(`${name}: no archive note above the table`);
        for (const h of facts.hrefs) {
          if (!fs.existsSync(path.join(path.dirname(j.file), h))) failures.push(`${name}: row links to missing ${h}`);
        }
      }
      console.log(`browser/budget: ${name}: ${(size / 1048576).toFixed(2)} MB, pr-ready ${facts.ready.toFixed(0)} ms` +
        (j.runs ? `, ${facts.hrefs.length} index rows` : ''));
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    for (const f of failures) console.error(`browser/budget: FAIL: ${f}`);
    process.exit(1);
  }
  console.log(`browser/budget: ok (${jobs.length} pages)`);
}
main().catch((e) => { console.error(e); process.exit(1); });
