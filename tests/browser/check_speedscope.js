#!/usr/bin/env node
'use strict';
// check_speedscope.js - checks speedscope files the way speedscope 1.25.0 reads them.
//
// usage: node check_speedscope.js [--no-browser] [--screenshot DIR] FILE...
//
// For every FILE:
//  1. validates it against the JSON Schema that speedscope ships
//     (node_modules/speedscope/dist/release/file-format-schema.json, draft-07) with ajv;
//  2. checks the import rules the schema cannot express (src/lib/file-format.ts,
//     src/lib/profile.ts): at least one profile, activeProfileIndex in range, frame
//     indices in range, evented events balanced with each close naming the frame on
//     top of the stack and `at` never decreasing, startValue <= endValue,
//     samples.length === weights.length, weights >= 0;
//  3. serves speedscope's dist/release and the file on 127.0.0.1 (random port), opens
//     index.html#profileURL=<file> in headless chromium and waits until the import
//     finished (the title becomes "<name> - speedscope") and the flame chart canvas
//     is drawn; then steps through every profile (speedscope's "n" key) to render
//     each one. Any console error, page error, dialog ("Unrecognized format",
//     "... but it's empty!"), "Something went wrong" screen, import failure message,
//     failed request or request to anything but the local server fails the file.
// Exit status: 0 all files pass, 1 some file failed, 2 usage, 77 prerequisites
// missing (no chromium or node_modules), so that ctest reports a skip.

const fs = require('fs');
const path = require('path');

const HERE = __dirname;

function usage(msg) {
  if (msg) console.error(`check_speedscope: ${msg}`);
  console.error('usage: node check_speedscope.js [--no-browser] [--screenshot DIR] FILE...');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { browser: true, screenshot: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-browser') o.browser = false;
    else if (a === '--screenshot') {
      if (++i >= argv.length) usage('--screenshot needs a directory');
      o.screenshot = argv[i];
    } else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option '${a}'`);
    else o.files.push(a);
  }
  if (!o.files.length) usage('no files given');
  return o;
}

// ---- 1 and 2: schema and import rules ----

function structuralProblems(doc) {
  const p = [];
  const frames = doc.shared.frames;
  const nf = frames.length;
  if (!doc.profiles.length) p.push('no profiles (speedscope: "Successfully imported profile, but it\'s empty!")');
  if (doc.activeProfileIndex !== undefined &&
      !(Number.isInteger(doc.activeProfileIndex) && doc.activeProfileIndex >= 0 &&
        doc.activeProfileIndex < Math.max(1, doc.profiles.length)))
    p.push(`activeProfileIndex ${doc.activeProfileIndex} out of range`);
  doc.profiles.forEach((prof, k) => {
    const where = `profiles[${k}] '${prof.name}'`;
    if (!(prof.startValue <= prof.endValue)) p.push(`${where}: startValue > endValue`);
    if (prof.type === 'evented') {
      const stack = [];
      let last = -Infinity;
      for (let i = 0; i < prof.events.length && p.length < 20; i++) {
        const e = prof.events[i];
        if (!(Number.isInteger(e.frame) && e.frame >= 0 && e.frame < nf))
          p.push(`${where}: events[${i}] frame ${e.frame} out of range`);
        if (e.at < last) p.push(`${where}: events[${i}] at ${e.at} < ${last} (must not decrease)`);
        last = e.at;
        if (e.type === 'O') stack.push(e.frame);
        else if (!stack.length) p.push(`${where}: events[${i}] closes frame ${e.frame} with nothing open`);
        else if (stack[stack.length - 1] !== e.frame)
          p.push(`${where}: events[${i}] closes frame ${e.frame} while ${stack[stack.length - 1]} is on top`);
        else stack.pop();
      }
      if (stack.length) p.push(`${where}: ${stack.length} frames never closed`);
    } else {
      if (prof.samples.length !== prof.weights.length)
        p.push(`${where}: ${prof.samples.length} samples but ${prof.weights.length} weights`);
      prof.samples.forEach((s, i) => {
        if (p.length >= 20) return;
        for (const f of s)
          if (!(Number.isInteger(f) && f >= 0 && f < nf)) p.push(`${where}: samples[${i}] frame ${f} out of range`);
      });
      prof.weights.forEach((w, i) => {
        if (p.length < 20 && !(w >= 0)) p.push(`${where}: weights[${i}] = ${w}`);
      });
    }
  });
  return p;
}

function loadValidator() {
  const Ajv = require('ajv');
  const schemaPath = path.join(HERE, 'node_modules/speedscope/dist/release/file-format-schema.json');
  const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

function checkFile(validate, file) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return { doc: null, problems: [`not JSON: ${e.message}`] };
  }
  if (!validate(doc)) {
    const errs = validate.errors.slice(0, 10).map((e) => `schema: ${e.instancePath || '/'} ${e.message}`);
    return { doc, problems: errs };
  }
  return { doc, problems: structuralProblems(doc) };
}

// ---- 3: speedscope in chromium ----

const BAD_TEXT = [
  /Failed to load format/i,
  /Unrecognized format/i,
  /Something went wrong/i,
  /Samples must be provided/i,
  /Tried to leave frame/i,
  /Failed to create WebGL/i,
];

async function checkInBrowser(h, browser, release, file, doc, screenshotDir) {
  const base = path.basename(file);
  const srv = await h.serve({ '/profile/': path.dirname(path.resolve(file)), '/': release });
  const profileURL = `${srv.origin}/profile/${encodeURIComponent(base)}`;
  const url = `${srv.origin}/index.html#profileURL=${encodeURIComponent(profileURL)}`;
  const title = `${doc.name !== undefined ? doc.name : base} - speedscope`;
  let watched;
  try {
    watched = await h.openWatched(browser, url, async (page) => {
      return page.evaluate((want) => {
        if (document.title !== want) return false;
        const c = Array.from(document.querySelectorAll('canvas'));
        return c.some((x) => x.width > 0 && x.height > 0);
      }, title);
    }, { badConsoleText: BAD_TEXT, timeoutMs: 60000 });
    const { page, problems } = watched;
    if (watched.ready) {
      const n = doc.profiles.length;
      const first = doc.profiles[doc.activeProfileIndex || 0].name;
      const text = () => page.evaluate(() => document.body.innerText);
      if (!(await text()).includes(first)) problems.push(`the first profile's name '${first}' is not shown`);
      if (screenshotDir) {
        fs.mkdirSync(screenshotDir, { recursive: true });
        await page.screenshot({ path: path.join(screenshotDir, base.replace(/\.json$/, '') + '.png') });
      }
      // render every profile: speedscope's "n" key selects the next one; the
      // toolbar then says "(n/n)", so speedscope imported all of them
      for (let i = 1; i < n && !problems.length; i++) {
        await page.keyboard.press('n');
        await new Promise((r) => setTimeout(r, 30));
      }
      await new Promise((r) => setTimeout(r, 300));
      const body = await text();
      if (/Something went wrong/.test(body)) problems.push('speedscope shows "Something went wrong"');
      if (n > 1 && !body.includes(`(${n}/${n})`))
        problems.push(`after stepping through the profiles the toolbar does not show (${n}/${n})`);
    }
    return problems;
  } finally {
    if (watched && watched.page) await watched.page.close().catch(() => {});
    await srv.close();
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const h = require('./harness');
  const missing = h.missingPrerequisites();
  if (missing && (o.browser || /node_modules/.test(missing))) {
    console.log(`check_speedscope: SKIP: ${missing}`);
    process.exit(77);
  }
  const release = path.join(HERE, 'node_modules/speedscope/dist/release');
  const validate = loadValidator();
  let browser = null;
  let failed = 0;
  try {
    for (const file of o.files) {
      const { doc, problems } = checkFile(validate, file);
      if (!problems.length && o.browser) {
        if (!browser) browser = await h.launch();
        problems.push(...(await checkInBrowser(h, browser, release, file, doc, o.screenshot)));
      }
      if (problems.length) {
        failed++;
        console.log(`FAIL ${file}`);
        for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
      } else {
        const n = doc.profiles.length;
        console.log(`ok ${file} (${n} profile${n === 1 ? '' : 's'}, ${doc.shared.frames.length} frames` +
                    `${o.browser ? ', loaded in speedscope' : ''})`);
      }
    }
  } finally {
    if (browser) await browser.close();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`check_speedscope: ${e.stack || e}`);
  process.exit(1);
});
