// Times an HTML report of copyhound in headless Chromium, driven by
// playwright-core: the page's size; from navigation, the first paint, the
// first pair row drawn, the charts drawn; a filter keystroke and sorts,
// each until the frame after it is drawn. Prints min/median/max over
// --runs fresh pages, as JSON with --json.
//
//   node bench.mjs REPORT.html [--runs 5] [--chromium /usr/bin/chromium] [--json]

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const runs = Number(option("--runs", "5"));
const executablePath = option("--chromium", "/usr/bin/chromium");
const json = args.includes("--json") ? (args.splice(args.indexOf("--json"), 1), true) : false;
if (args.length !== 1) {
  console.error("usage: node bench.mjs REPORT.html [--runs N] [--chromium PATH] [--json]");
  process.exit(2);
}
const report = resolve(args[0]);

// Before the page's own script: note when the first pair row and the
// charts appear.
function watch() {
  window.__bench = {};
  new MutationObserver(() => {
    const now = performance.now();
    if (!window.__bench.row && document.querySelector("#pairs tbody tr[data-pair]")) window.__bench.row = now;
    if (!window.__bench.charts && document.querySelector("#graph > *") && document.querySelector("#histogram rect")) {
      window.__bench.charts = now;
    }
  }).observe(document, { childList: true, subtree: true });
}

/** Milliseconds from `act` (run in the page) to the frame after it is drawn. */
async function timed(page, act) {
  return page.evaluate(async (source) => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    await frame();
    const start = performance.now();
    new Function(source)();
    await frame();
    return performance.now() - start;
  }, act);
}

const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run"],
});
const samples = {};
const add = (name, value) => (samples[name] ||= []).push(value);
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(watch);
  await page.goto(pathToFileURL(report).href, { waitUntil: "load", timeout: 600000 });
  await page.waitForFunction(() => window.__bench.row && window.__bench.charts, null, { timeout: 600000, polling: 50 });
  const load = await page.evaluate(() => ({
    paint: performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint")?.startTime,
    row: window.__bench.row,
    charts: window.__bench.charts,
    loaded: performance.getEntriesByType("navigation")[0].loadEventEnd,
  }));
  for (const [name, value] of Object.entries(load)) add(`open: ${name}`, value);
  // Typing "05" into the filter one key at a time, then clearing it.
  const input = "const f = document.getElementById('filter'); f.value = ";
  const event = "; f.dispatchEvent(new Event('input', { bubbles: true }));";
  add("filter: first key", await timed(page, `${input}'0'${event}`));
  add("filter: second key", await timed(page, `${input}'05'${event}`));
  add("filter: cleared", await timed(page, `${input}''${event}`));
  for (const key of ["similarity", "a", "longest"]) {
    add(`sort: ${key}`, await timed(page, `document.querySelector('#pairs th[data-key="${key}"]').click();`));
  }
  await context.close();
}
await browser.close();

const summary = Object.fromEntries(Object.entries(samples).map(([name, values]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return [name, { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] }];
}));
const bytes = statSync(report).size;
if (json) {
  console.log(JSON.stringify({ report, bytes, runs, ms: summary }, null, 2));
} else {
  console.log(`${report}: ${(bytes / 1e6).toFixed(1)} MB, ${runs} runs (ms: min / median / max)`);
  for (const [name, { min, median, max }] of Object.entries(summary)) {
    console.log(`  ${name.padEnd(20)} ${min.toFixed(0).padStart(7)} ${median.toFixed(0).padStart(7)} ${max.toFixed(0).padStart(7)}`);
  }
}
