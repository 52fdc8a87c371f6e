// The copyhound HTML report renders the JSON in #copyhound-data. Plain
// JavaScript, no network; every text from the data goes in with
// textContent, never as markup. The scripts under html/ run in order
// inside one function: this one reads the data and holds the helpers.

const data = JSON.parse(document.getElementById("copyhound-data").textContent);
const COLOURS = 10;
const SVG = "http://www.w3.org/2000/svg";
const byId = (id) => document.getElementById(id);
const numbers = new Intl.NumberFormat("en");
/** A count with thousands separators: 12,863. */
const count = (n) => numbers.format(n);
const percent = (x) => (x * 100).toFixed(1) + "%";
const plural = (n, word) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;
// A batch of several languages was compared one language at a time.
const languages = data.parameters.languages || [];
const mixed = languages.length > 1;

// ---- Units and pairs: columns of the data, by index ----

const units = data.units;
const pairs = data.pairs;
const pairCount = pairs.a.length;
const similarityOf = (i) => pairs.similarity[i] / 1e6;
const pathOf = (unit) => units.path[unit];
/** The pair's language, when known (both units have it). */
const languageOf = (i) => units.language[pairs.a[i]] || "";

const ORIGINS = {
  old: { label: "old", title: "an earlier submission (--old)" },
  archive: { label: "archive", title: "a document from an archive of earlier work" },
};

/** A unit's name, and a badge when it is not a current submission. */
function unitName(unit) {
  const origin = ORIGINS[units.origin[unit]];
  const name = el("span", { class: "unit-name" }, pathOf(unit));
  if (!origin) return [name];
  return [el("span", { class: `origin origin-${units.origin[unit]}`, title: origin.title }, origin.label), " ", name];
}

/** What one symbol of `language` is: `token`, `character`… (`symbol` when not known). */
function symbolOf(language) {
  const entry = languages.find((l) => l.language === language);
  return (entry && entry.symbol) || data.parameters.symbol || "symbol";
}
const symbolOfPair = (i) => symbolOf(languageOf(i));
/** The symbol of every pair when they all count in one, else null. */
const commonSymbol = (() => {
  const kinds = new Set(mixed ? languages.map((l) => symbolOf(l.language)) : [symbolOf(data.parameters.language)]);
  return kinds.size === 1 ? [...kinds][0] : null;
})();

/** An element with attributes and children (strings become text). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function svgEl(tag, attributes, title) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (title !== undefined) {
    const tooltip = document.createElementNS(SVG, "title");
    tooltip.textContent = title;
    node.append(tooltip);
  }
  return node;
}

// ---- Compressed blocks: pair details and texts, inflated when needed ----

const inflated = new Map();

/** The JSON of a raw-DEFLATE block in base64, inflated once and kept. */
function block(kind, index) {
  const key = `${kind}:${index}`;
  if (!inflated.has(key)) {
    const base64 = data[kind][index];
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    inflated.set(key, new Response(stream).text().then(JSON.parse));
  }
  return inflated.get(key);
}

const FRAGMENT_FIELDS = 11;
const PASSAGE_FIELDS = 13;
const CELL_FIELDS = 8;

/** A side of a fragment or passage from its five integers at `at`. */
function span(values, at) {
  const [doc, start, end, first, last] = values.slice(at, at + 5);
  return { doc, start, end, lines: first > 0 ? [first, last] : null };
}

/** Adds to each side of `entries` (fragments, then passages) its notebook
 *  cells from `flatCells`: `cells` is `{ first: [cell, line], last: [cell, line] }`,
 *  lines counted within their cells, or null outside notebooks. */
function addCells(entries, flatCells) {
  entries.flatMap((entry) => [entry.a, entry.b]).forEach((side, k) => {
    const [firstCell, firstLine, lastCell, lastLine] = flatCells.slice(k * CELL_FIELDS / 2, (k + 1) * CELL_FIELDS / 2);
    side.cells = firstCell > 0 ? { first: [firstCell, firstLine], last: [lastCell, lastLine] } : null;
  });
}

/** Pair `i`'s fragments and passages. */
async function pairDetails(i) {
  const details = await block("detail_blocks", Math.floor(i / data.pairs_per_block));
  const [flatFragments, flatPassages, flatCells] = details[i % data.pairs_per_block];
  const fragments = [];
  for (let at = 0; at < flatFragments.length; at += FRAGMENT_FIELDS) {
    fragments.push({ symbols: flatFragments[at], a: span(flatFragments, at + 1), b: span(flatFragments, at + 6) });
  }
  const passages = [];
  for (let at = 0; at < flatPassages.length; at += PASSAGE_FIELDS) {
    passages.push({
      fragments: [flatPassages[at], flatPassages[at + 1]], matched_symbols: flatPassages[at + 2],
      a: span(flatPassages, at + 3), b: span(flatPassages, at + 8),
    });
  }
  if (flatCells) addCells(fragments.concat(passages), flatCells);
  return { fragments, passages };
}

/** The text of embedded document `doc`, or null when it was left out. */
async function documentText(doc) {
  const at = data.documents.text_block[doc];
  if (at === null) return null;
  return (await block("text_blocks", at))[data.documents.text_index[doc]];
}
