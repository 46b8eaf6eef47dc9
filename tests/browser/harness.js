'use strict';
// harness.js - shared pieces of the headless-browser checks (speedscope files
// now, the HTML report later):
//   serve(routes)            a static HTTP server on 127.0.0.1 (random port)
//   launch()                 headless Debian chromium via puppeteer-core
//   openWatched(browser, url, ready, opts)
//                            opens url and waits for ready(page); returns the
//                            problems seen: console errors, page errors,
//                            failed requests, dialogs, and any request to a
//                            host other than the local server (blocked)
//   missingPrerequisites()   why the checks cannot run here (or null)
// Nothing here reaches the network: the page may load only what serve() serves.

const fs = require('fs');
const http = require('http');
const path = require('path');

const CHROMIUM = process.env.PR_CHROMIUM || '/usr/bin/chromium';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function missingPrerequisites() {
  if (!fs.existsSync(CHROMIUM)) return `no chromium at ${CHROMIUM} (apt-get install chromium)`;
  try {
    require.resolve('puppeteer-core');
    require.resolve('ajv');
  } catch (e) {
    return `node_modules is missing (cd tests/browser && npm ci): ${e.message.split('\n')[0]}`;
  }
  return null;
}

// routes: { '/prefix/': '/abs/dir' or '/exact/path': '/abs/file' }.
// Resolves to { server, origin, close() }.
function serve(routes) {
  const server = http.createServer((req, res) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch (e) {
      res.writeHead(400);
      res.end();
      return;
    }
    let file = null;
    for (const [prefix, target] of Object.entries(routes)) {
      if (prefix.endsWith('/') && urlPath.startsWith(prefix)) {
        const rel = urlPath.slice(prefix.length) || 'index.html';
        const full = path.resolve(target, rel);
        if (full === target || full.startsWith(target + path.sep)) file = full;
        break;
      }
      if (urlPath === prefix) {
        file = target;
        break;
      }
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
      'Cache-Control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      const close = () =>
        new Promise((r) => {
          server.close(r);
          // the browser keeps connections alive: end them instead of waiting
          if (server.closeAllConnections) server.closeAllConnections();
        });
      resolve({ server, origin, close });
    });
  });
}

async function launch() {
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // WebGL (speedscope draws with it) through SwiftShader: no GPU here.
    args: [
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      '--window-size=1280,800',
    ],
    defaultViewport: { width: 1280, height: 800 },
  });
}

// Opens url in a new page of browser and waits until ready(page) resolves
// truthy (polled), up to opts.timeoutMs. Every request must go to origin.
// Returns { problems: [...strings], page } (the caller closes the page).
async function openWatched(browser, url, ready, opts = {}) {
  const origin = new URL(url).origin;
  const timeoutMs = opts.timeoutMs || 60000;
  const problems = [];
  const page = await browser.newPage();
  const badText = opts.badConsoleText || [];
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' || msg.type() === 'assert') {
      problems.push(`console ${msg.type()}: ${text}`);
    } else if (badText.some((re) => re.test(text))) {
      problems.push(`console ${msg.type()}: ${text}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message || e}`));
  page.on('dialog', async (d) => {
    problems.push(`dialog (${d.type()}): ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  page.on('requestfailed', (r) => {
    const f = r.failure();
    if (!r.url().startsWith(origin) && !/^(data|blob):/.test(r.url())) return; // reported below
    problems.push(`request failed: ${r.url()} (${f ? f.errorText : '?'})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith(origin + '/') || u === origin || /^(data|blob):/.test(u)) {
      r.continue();
    } else {
      problems.push(`request outside ${origin}: ${u}`);
      r.abort('blockedbyclient');
    }
  });
  await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  let ok = false;
  while (Date.now() < deadline) {
    if (await ready(page).catch(() => false)) {
      ok = true;
      break;
    }
    if (problems.length && opts.stopOnProblem !== false) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!ok && !problems.length) problems.push(`page not ready after ${timeoutMs} ms`);
  return { problems, page, ready: ok };
}

module.exports = { CHROMIUM, missingPrerequisites, serve, launch, openWatched };
