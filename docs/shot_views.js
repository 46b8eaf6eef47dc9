'use strict';
// shot_views.js PAGE.html OUTDIR - screenshots of a report page's views of where the time goes
// (trace view with a launch selected and a search, operator view, kernel view, flame graph with
// the GPU kernels), for README and docs/report.md. Headless Debian chromium through
// tests/browser's puppeteer-core: node docs/shot_views.js page.html docs/img
const path = require('path');
const { serve, launch } = require('../tests/browser/harness');

async function main() {
  const [file, out] = process.argv.slice(2);
  const abs = path.resolve(file);
  const srv = await serve({ '/r/': path.dirname(abs) });
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1300, height: 900 });
    await page.goto(`${srv.origin}/r/${encodeURIComponent(path.basename(abs))}`, { waitUntil: 'load' });
    // the trace view: a kernel searched, the first match selected (its launch outlined, the arrow drawn)
    await page.evaluate(() => {
      const box = document.querySelector('.trv'), q = box.querySelector('.trv-q');
      q.value = 'ncclKernel';
      q.dispatchEvent(new Event('input'));
      q.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      const v = box.tvView;
      v.setView(v.sel.t - (v.sel.dur * 2.5), v.sel.t + v.sel.dur * 1.6);
    });
    const shot = async (sel, name, pad) => {
      const el = await page.$(sel);
      await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start' }), sel);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await el.screenshot({ path: path.join(out, name) });
      console.log(`docs/shot_views: ${name}`);
    };
    await shot('.trv', 'view-trace.png');
    await shot('div.tv[data-kind="ops"]', 'view-ops.png');
    await shot('div.tv[data-kind="kernels"]', 'view-kernels.png');
    await page.evaluate(() => {
      const b = Array.from(document.querySelectorAll('.flame-view button, .flame-view input[type=checkbox]'))
        .find((x) => /GPU/i.test(x.textContent || x.getAttribute('aria-label') || (x.parentNode && x.parentNode.textContent) || ''));
      if (b) b.click();
    });
    await shot('.flame-view', 'view-flame.png');
  } finally {
    await browser.close();
    srv.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
