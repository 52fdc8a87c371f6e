// Scores every pair of the listed files with Dolos (@dodona/dolos-lib) at
// its defaults, the way its pairs.csv reports them.
//
//   node dolos_pairs.mjs NODE_MODULES LANGUAGE FILES.json OUT.csv
//
// FILES.json is a JSON list of paths; OUT.csv gets `a,b,score` with
// Dolos's pair similarity, (covered left + covered right) / (left + right
// k-grams), for every pair Dolos reports.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, language, listing, out] = process.argv.slice(2);
const require = createRequire(join(modules, "resolve.js"));
const { Dolos } = await import(pathToFileURL(require.resolve("@dodona/dolos-lib")).href);

const files = JSON.parse(readFileSync(listing, "utf8"));
const dolos = new Dolos({ language });
const report = await dolos.analyzePaths(files);

const quote = (field) => (/[",\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);
const rows = ["a,b,score"];
for (const pair of report.allPairs()) {
  rows.push([quote(pair.leftFile.path), quote(pair.rightFile.path), String(pair.similarity)].join(","));
}
writeFileSync(out, rows.join("\n") + "\n");
console.error(`dolos: ${files.length} files, ${rows.length - 1} pairs, warnings: ${report.warnings.length}`);
