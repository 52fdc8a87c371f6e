// ---- Pair list: sortable by any column, filtered, drawn as it scrolls ----
//
// Only the rows in view (and a few around them) exist in the document, so
// a list of tens of thousands of pairs opens, sorts and filters at once.
// Filtering works on units, not on rows' text: the units whose path or
// language holds the text are found first, then the pairs of those units.

const list = {
  /** Pair indices shown, in order. */
  shown: new Uint32Array(0),
  sort: { key: "rank", direction: 1 },
  /** Show only this unit's pairs (a node clicked in the graph), or -1. */
  unit: -1,
  rowHeight: 0,
};
const ROWS_AROUND = 12;

/** Each unit's place among the units sorted by path, so sorting by path compares numbers. */
const unitRank = (() => {
  const collator = new Intl.Collator("en", { numeric: true });
  const order = units.path.map((_, u) => u).sort((x, y) => collator.compare(units.path[x], units.path[y]) || x - y);
  const rank = new Uint32Array(order.length);
  order.forEach((u, r) => { rank[u] = r; });
  return rank;
})();
const unitSearchText = units.path.map((path, u) => `${path}\n${units.language[u] || ""}`.toLowerCase());

const languageRank = (() => {
  const names = [...new Set(units.language.map((l) => l || ""))].sort();
  return new Map(names.map((name, r) => [name, r]));
})();
const REVIEW_ORDER = { confirmed: 0, reviewed: 1, dismissed: 2 };
const SORT_KEYS = {
  rank: (i) => i,
  similarity: (i) => pairs.similarity[i],
  language: (i) => languageRank.get(languageOf(i)),
  a: (i) => unitRank[pairs.a[i]],
  b: (i) => unitRank[pairs.b[i]],
  coverage_a: (i) => pairs.coverage_a[i],
  coverage_b: (i) => pairs.coverage_b[i],
  longest: (i) => pairs.longest[i],
  fragments: (i) => pairs.fragments[i],
  review: (i) => {
    const review = reviewOf(i);
    return review && review.state in REVIEW_ORDER ? REVIEW_ORDER[review.state] : review && review.note ? 3 : 4;
  },
};

/** Recomputes the shown pairs from the filters and the sort, then draws them. */
function updateList() {
  const needle = byId("filter").value.trim().toLowerCase();
  const reviewFilter = byId("review-filter").value;
  const unitMatches = new Uint8Array(units.path.length);
  unitSearchText.forEach((text, u) => { unitMatches[u] = !needle || text.includes(needle) ? 1 : 0; });
  const shown = [];
  for (let i = 0; i < pairCount; i++) {
    const [a, b] = [pairs.a[i], pairs.b[i]];
    if (list.unit >= 0 && a !== list.unit && b !== list.unit) continue;
    if (!unitMatches[a] && !unitMatches[b]) continue;
    if (!reviewMatches(i, reviewFilter)) continue;
    shown.push(i);
  }
  const { key, direction } = list.sort;
  list.shown = key === "rank" && direction === 1 ? Uint32Array.from(shown) : sorted(shown, SORT_KEYS[key], direction);
  byId("shown").textContent = `${count(shown.length)} of ${plural(pairCount, "pair")}`;
  for (const th of byId("pairs").tHead.rows[0].cells) {
    th.classList.toggle("sorted-asc", th.dataset.key === key && direction > 0);
    th.classList.toggle("sorted-desc", th.dataset.key === key && direction < 0);
  }
  drawRows();
}

/** `shown` by `value` (whole numbers, from 0) in `direction`, ties by rank.
 *  Each pair becomes one number, its key then its index, and a typed array
 *  sorts those without calling back into JavaScript. */
function sorted(shown, value, direction) {
  const values = shown.map(value);
  const top = values.reduce((most, v) => (v > most ? v : most), 0);
  if ((top + 1) * pairCount > Number.MAX_SAFE_INTEGER) {
    const order = shown.map((_, k) => k).sort((x, y) => (values[x] - values[y]) * direction || shown[x] - shown[y]);
    return Uint32Array.from(order, (k) => shown[k]);
  }
  const packed = Float64Array.from(shown, (i, k) => (direction > 0 ? values[k] : top - values[k]) * pairCount + i);
  packed.sort();
  return Uint32Array.from(packed, (p) => p % pairCount);
}

function meter(share) {
  const bar = el("span", { class: "meter" }, el("span", { style: `width:${(share * 100).toFixed(1)}%` }));
  return [bar, percent(share)];
}

/** The longest fragment, with its unit when pairs count in different ones. */
const longestText = (i) => (commonSymbol ? count(pairs.longest[i]) : plural(pairs.longest[i], symbolOfPair(i)));

function pairRow(i) {
  const [a, b] = [pairs.a[i], pairs.b[i]];
  return el("tr", { "data-pair": String(i + 1) },
    el("td", { class: "num" }, el("a", { href: `#pair=${i + 1}` }, String(i + 1))),
    el("td", { class: "num" }, ...meter(similarityOf(i))),
    ...(mixed ? [el("td", {}, languageOf(i))] : []),
    el("td", { class: "path", title: pathOf(a) }, ...unitName(a)),
    el("td", { class: "path", title: pathOf(b) }, ...unitName(b)),
    el("td", { class: "num" }, percent(pairs.coverage_a[i] / 1e6)),
    el("td", { class: "num" }, percent(pairs.coverage_b[i] / 1e6)),
    el("td", { class: "num" }, longestText(i)),
    el("td", { class: "num" }, count(pairs.fragments[i])),
    el("td", { class: "review-cell" }, reviewBadge(i)));
}

/** Draws the rows in view of the scrolled list, with spacers for the rest. */
function drawRows() {
  const scroller = byId("pair-scroll");
  const body = byId("pairs").tBodies[0];
  const total = list.shown.length;
  const height = list.rowHeight || 30;
  const first = Math.max(0, Math.floor(scroller.scrollTop / height) - ROWS_AROUND);
  const end = Math.min(total, Math.ceil((scroller.scrollTop + scroller.clientHeight) / height) + ROWS_AROUND);
  const columns = byId("pairs").tHead.rows[0].cells.length - (mixed ? 0 : 1);
  const spacer = (rows) => el("tr", { class: "spacer", "aria-hidden": "true" },
    el("td", { colspan: String(columns), style: `height:${rows * height}px` }));
  const rows = [];
  for (let k = first; k < end; k++) rows.push(pairRow(list.shown[k]));
  body.replaceChildren(...(first > 0 ? [spacer(first)] : []), ...rows, ...(end < total ? [spacer(total - end)] : []));
  if (!list.rowHeight && rows.length) {
    list.rowHeight = rows[0].getBoundingClientRect().height || 30;
    if (list.rowHeight !== height) drawRows();
  }
}

/** Shows only the pairs of `unit` (-1: every unit's). */
function filterByUnit(unit) {
  list.unit = unit;
  const chip = byId("unit-filter");
  chip.hidden = unit < 0;
  byId("unit-filter-name").replaceChildren(...(unit < 0 ? [] : ["pairs of ", ...unitName(unit)]));
  byId("pair-scroll").scrollTop = 0;
  updateList();
}

function setUpList() {
  const header = byId("pairs").tHead.rows[0];
  for (const th of header.cells) {
    if (th.dataset.key === "language") th.hidden = !mixed;
    th.addEventListener("click", () => {
      const key = th.dataset.key;
      // Numbers other than the rank read best largest first.
      const firstDirection = ["rank", "language", "a", "b", "review"].includes(key) ? 1 : -1;
      list.sort.direction = list.sort.key === key ? -list.sort.direction : firstDirection;
      list.sort.key = key;
      updateList();
    });
  }
  const symbol = commonSymbol ? ` (${commonSymbol}s)` : "";
  byId("longest-header").textContent = `Longest${symbol}`;
  byId("columns-legend").textContent =
    `Similarity: the share of both units' ${commonSymbol || "symbol"}s inside shared fragments. ` +
    `Covered A, B: the share of each unit. Longest: the longest exact fragment, in ` +
    `${commonSymbol ? `${commonSymbol}s` : "symbols (tokens for code; characters, words or consonants for text)"} ` +
    `after normalisation. Fragments: exact shared runs.`;
  byId("filter").addEventListener("input", () => { byId("pair-scroll").scrollTop = 0; updateList(); });
  byId("review-filter").addEventListener("change", updateList);
  byId("unit-filter-clear").addEventListener("click", () => filterByUnit(-1));
  // One redraw a frame, however many scroll events it had.
  let drawing = false;
  byId("pair-scroll").addEventListener("scroll", () => {
    if (drawing) return;
    drawing = true;
    window.requestAnimationFrame(() => { drawing = false; drawRows(); });
  }, { passive: true });
  byId("pairs").tBodies[0].addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-pair]");
    if (row && !event.target.closest("a")) location.hash = `#pair=${row.dataset.pair}`;
  });
  updateList();
}
