// ---- Header: totals, problems, cap, settings ----

/** How the problems box names each kind of problem. */
const PROBLEM_KINDS = {
  unreadable: "unreadable",
  skipped: "skipped",
  empty: "empty",
  too_short: "too short",
};

function renderHeader() {
  const s = data.summary;
  const p = data.parameters;
  const run = mixed || !commonSymbol
    ? "at least one exact fragment"
    : `at least one exact run of ${p.min_fragment} ${commonSymbol}s or more`;
  byId("summary").append(
    `${plural(s.units, "unit")} in ${plural(s.documents, "file")}: ${count(s.matching_pairs)} pairs share ${run}; `,
    el("span", { id: "at-threshold" }),
    ` Written by ${data.tool.name} ${data.tool.version}.`);
  if (data.problems.length) {
    byId("problems").hidden = false;
    byId("problems-title").textContent =
      `${plural(data.problems.length, "problem")}: these files were left out of the comparison or only partly compared`;
    const list = byId("problem-list");
    for (const problem of data.problems) {
      const kind = el("span", { class: `problem-kind ${problem.kind}` }, PROBLEM_KINDS[problem.kind] || problem.kind);
      list.append(el("li", {}, kind, " ", problem.message));
    }
  }
  const leftOut = [];
  if (pairCount < data.listed_pairs) {
    leftOut.push(
      `This page shows the ${count(pairCount)} most similar of the ${count(data.listed_pairs)} pairs ` +
      `in the report; the histogram counts all of them. To see more, write the page again with ` +
      `a larger --report-pairs (--report-pairs all embeds every pair), or read them all in the ` +
      `JSON (--json) or CSV (--csv) report.`);
  }
  if (s.below_minimum) {
    leftOut.push(
      `${count(s.below_minimum.pairs)} pairs less similar than the minimum similarity of ` +
      `${(s.below_minimum.min_similarity * 100).toFixed(1)}% (--min-similarity) are not listed.`);
  }
  if (data.listed_pairs < s.matching_pairs) {
    leftOut.push(`The report lists ${count(data.listed_pairs)} of the ${count(s.matching_pairs)} pairs found.`);
  }
  leftOut.push(...unlistedNotes(s.unlisted));
  if (leftOut.length) {
    const capped = byId("capped");
    capped.hidden = false;
    capped.textContent = leftOut.join(" ");
  }
  const perLanguage = mixed
    ? [["languages", languages.map((l) =>
      `${l.language} (${plural(l.units, "unit")}; k-gram ${l.k} ${symbolOf(l.language)}s, window ${l.window})`).join(", ")]]
    : [["language", p.language === null ? "per file" : p.language],
      ["k-gram length", `${p.k} ${symbolOf(p.language)}s`], ["window", p.window]];
  const settings = [
    ...perLanguage, ["selector", p.selector], ["seed", p.seed],
    ["max occurrences", p.max_occurrences], ["min shared fingerprints", p.min_shared],
    ["max scored pairs", p.max_pairs], ["base code", p.base.length ? p.base.join(", ") : "none"],
    ...codeSettings(p.code), ["score gap", p.score_gap ? `${p.score_gap} symbols` : "none"],
  ];
  const list = byId("parameters");
  for (const [name, value] of settings) list.append(el("dt", {}, name), el("dd", {}, String(value)));
}

/** How code was read, as settings rows; none for a batch of text. */
function codeSettings(code) {
  if (!code) return [];
  const passes = [
    code.drop_imports && "imports left out",
    code.drop_dead_code && "dead statements left out",
    code.while_loops && "counted loops read as while loops",
    code.canonical_order && "independent statements in one order",
  ].filter(Boolean);
  return [["code level", code.level], ["code statements", passes.length ? passes.join(", ") : "as written"]];
}

/** What the summary says of pairs the comparison did not list: down to
 * what similarity it listed, and which pairs may be missing and how similar
 * they could be. */
function unlistedNotes(unlisted) {
  if (!unlisted) return [];
  const notes = [];
  const lowest = unlisted.lowest_listed_similarity;
  if (lowest !== null && lowest !== undefined) {
    notes.push(
      `Only the most similar pairs are listed, down to ${percent(lowest)}; ` +
      `${plural(unlisted.pairs, "other pair")} found ${unlisted.pairs === 1 ? "is" : "are"} not listed ` +
      `(a larger --max-pairs lists more).`);
  }
  for (const missing of unlisted.possibly_missing || []) {
    const upTo = percent(missing.up_to_similarity);
    notes.push(missing.reason === "scoring_limit"
      ? `Up to ${plural(missing.pairs, "pair")} that could be up to ${upTo} similar ` +
        `${missing.pairs === 1 ? "was" : "were"} not scored: a larger --max-pairs scores more.`
      : `Pairs sharing only fingerprints found in very many units were not looked for, to bound ` +
        `the work; such a pair could be up to ${upTo} similar.`);
  }
  return notes;
}

/** "M at or above X %", exact when every such pair is embedded. */
function renderAtThreshold(threshold) {
  let above = 0;
  while (above < pairCount && similarityOf(above) * 100 >= threshold) above++;
  const every = above < pairCount || pairCount === data.listed_pairs;
  byId("at-threshold").textContent =
    `${every ? "" : "at least "}${count(above)} at or above ${threshold}% similarity.`;
}

// ---- Histogram of similarity (all listed pairs) ----

/** Pixels a label of `text` takes at the charts' 11px type. */
const labelWidth = (text) => text.length * 6.2;

function renderHistogram(threshold) {
  const chart = byId("histogram");
  const log = byId("log-scale").checked;
  const bins = data.histogram;
  const most = Math.max(1, ...bins);
  // A log scale shows the few similar pairs next to thousands of
  // dissimilar ones; a count of one still gets a bar.
  const scale = log ? (n) => Math.log10(1 + n) / Math.log10(1 + most) : (n) => n / most;
  const ticks = log
    ? [1, 10, 100, 1000, 10000, 100000, 1000000].filter((t) => t < most)
    : [0];
  const [width, height, top, bottom, right] = [420, 210, 14, 24, 18];
  const left = 10 + labelWidth(count(most));
  const y = (n) => height - bottom - (height - top - bottom) * scale(n);
  const step = (width - left - right) / bins.length;
  const parts = [];
  bins.forEach((n, i) => {
    const from = i * 5;
    parts.push(svgEl("rect", {
      class: from >= threshold ? "bar above" : "bar",
      x: left + i * step + 1, y: y(n), width: step - 2, height: height - bottom - y(n),
    }, `${from}–${from + 5}%: ${plural(n, "pair")}`));
    // Counts are written over the bars where they fit; the axis and
    // each bar's tooltip give the rest.
    if (n > 0 && labelWidth(count(n)) * 0.8 <= step) {
      const label = svgEl("text", { class: "bar-count", x: left + (i + 0.5) * step, y: y(n) - 3, "text-anchor": "middle" });
      label.textContent = count(n);
      parts.push(label);
    }
  });
  parts.push(svgEl("line", { class: "axis", x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }));
  parts.push(svgEl("line", { class: "axis", x1: left, y1: top, x2: left, y2: height - bottom }));
  for (const tick of [0, 25, 50, 75, 100]) {
    const label = svgEl("text", { x: left + (tick / 5) * step, y: height - 6, "text-anchor": "middle" });
    label.textContent = `${tick}%`;
    parts.push(label);
  }
  // The largest count always; smaller ticks where they keep clear of it.
  for (const tick of [...ticks.filter((t) => y(t) - y(most) > 12), most]) {
    const label = svgEl("text", { class: "tick", x: left - 5, y: y(tick) + 4, "text-anchor": "end" });
    label.textContent = count(tick);
    parts.push(label);
  }
  const cut = left + (threshold / 5) * step;
  parts.push(svgEl("line", { class: "cut", x1: cut, y1: top, x2: cut, y2: height - bottom }));
  chart.replaceChildren(...parts);
}

// ---- Graph of units linked at or above the threshold ----

const MAX_EDGES = 400;
const GRAPH = { width: 420, height: 300, margin: 12 };

/** Connected components of the linked units, largest first. */
function clusters(nodes, edges) {
  const parent = nodes.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const edge of edges) parent[find(edge.source)] = find(edge.target);
  const groups = new Map();
  nodes.forEach((_, i) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).push(i);
  });
  return [...groups.values()].sort((x, y) => y.length - x.length || x[0] - y[0]);
}

/** Fruchterman–Reingold, from a circle, a fixed number of steps: the same layout every time. */
function layout(count, edges, width, height) {
  const n = count;
  const ideal = Math.sqrt((width * height) / Math.max(n, 1)) * 0.8;
  const points = Array.from({ length: n }, (_, i) => ({
    x: width / 2 + (width / 3) * Math.cos((2 * Math.PI * i) / n),
    y: height / 2 + (height / 3) * Math.sin((2 * Math.PI * i) / n),
  }));
  let temperature = width / 8;
  // Fewer steps for large graphs keep the page quick to open.
  const steps = n > 200 ? 60 : 250;
  for (let step = 0; step < steps; step++) {
    const moves = points.map(() => ({ x: 0, y: 0 }));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
        const d = Math.max(Math.hypot(dx, dy), 0.01);
        const push = (ideal * ideal) / d;
        moves[i].x += (dx / d) * push; moves[i].y += (dy / d) * push;
        moves[j].x -= (dx / d) * push; moves[j].y -= (dy / d) * push;
      }
    }
    for (const edge of edges) {
      const s = points[edge.source], t = points[edge.target];
      const dx = s.x - t.x, dy = s.y - t.y;
      const d = Math.max(Math.hypot(dx, dy), 0.01);
      const pull = (d * d) / ideal;
      moves[edge.source].x -= (dx / d) * pull; moves[edge.source].y -= (dy / d) * pull;
      moves[edge.target].x += (dx / d) * pull; moves[edge.target].y += (dy / d) * pull;
    }
    points.forEach((point, i) => {
      const length = Math.max(Math.hypot(moves[i].x, moves[i].y), 0.01);
      const moved = Math.min(length, temperature);
      point.x += (moves[i].x / length) * moved;
      point.y += (moves[i].y / length) * moved;
      // A weak pull to the middle keeps separate clusters on the canvas.
      point.x += (width / 2 - point.x) * 0.02;
      point.y += (height / 2 - point.y) * 0.02;
    });
    temperature *= 0.98;
  }
  // Fit into the canvas, nodes clear of the edges.
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = GRAPH.margin + 8;
  return points.map((p) => ({
    x: maxX > minX ? margin + ((p.x - minX) / (maxX - minX)) * (width - 2 * margin) : width / 2,
    y: maxY > minY ? margin + ((p.y - minY) / (maxY - minY)) * (height - 2 * margin) : height / 2,
  }));
}

/** Label boxes for the nodes, most linked first: each takes the first spot
 *  around its node that stays inside the chart and clear of the nodes and
 *  the labels placed before it; a label with no such spot is shown only
 *  while its node is pointed at. */
function placeLabels(texts, points, degree) {
  const { width, height } = GRAPH;
  const boxes = [];
  const clear = (box) => box.x >= 1 && box.x + box.w <= width - 1 && box.y >= 1 && box.y + box.h <= height - 1 &&
    boxes.every((b) => box.x >= b.x + b.w || b.x >= box.x + box.w || box.y >= b.y + b.h || b.y >= box.y + box.h) &&
    points.every((p) => p.x + 6 < box.x || p.x - 6 > box.x + box.w || p.y + 6 < box.y || p.y - 6 > box.y + box.h);
  const placed = texts.map(() => null);
  const order = texts.map((_, i) => i).sort((x, y) => degree[y] - degree[x] || x - y);
  for (const i of order) {
    const w = texts[i].length * 5.6, h = 11, { x, y } = points[i];
    const spots = [
      { x: x - w / 2, y: y - 8 - h }, { x: x - w / 2, y: y + 8 },
      { x: x + 8, y: y - h / 2 }, { x: x - 8 - w, y: y - h / 2 },
    ];
    const spot = spots.map((s) => ({ ...s, w, h })).find(clear);
    if (spot) { boxes.push(spot); placed[i] = spot; }
  }
  // A label shown on hover is still kept inside the chart.
  return placed.map((box, i) => box || {
    x: Math.min(Math.max(points[i].x - texts[i].length * 2.8, 1), width - 1 - texts[i].length * 5.6),
    y: Math.max(points[i].y - 19, 1), w: texts[i].length * 5.6, h: 11, hover: true,
  });
}

const CLUSTER_COLOURS = ["#c2410c", "#0b5cad", "#2f855a", "#8250df", "#b7791f", "#0f766e", "#be185d", "#4b5563"];

/** The node of `unit`: a circle for a current submission, a square for an earlier one, a diamond for an archive's. */
function nodeShape(unit, point, colour) {
  const origin = units.origin[unit];
  const common = { class: `node node-${origin}`, fill: colour, "data-unit": String(unit) };
  const title = `${pathOf(unit)}${ORIGINS[origin] ? ` (${ORIGINS[origin].title})` : ""}`;
  if (origin === "old") return svgEl("rect", { ...common, x: point.x - 5.5, y: point.y - 5.5, width: 11, height: 11 }, title);
  if (origin === "archive") {
    const d = `M${point.x},${point.y - 7}L${point.x + 7},${point.y}L${point.x},${point.y + 7}L${point.x - 7},${point.y}Z`;
    return svgEl("path", { ...common, d }, title);
  }
  return svgEl("circle", { ...common, cx: point.x, cy: point.y, r: 6 }, title);
}

function renderGraph(threshold) {
  const chart = byId("graph");
  const list = byId("clusters");
  const linked = [];
  for (let i = 0; i < pairCount && linked.length < MAX_EDGES && similarityOf(i) * 100 >= threshold; i++) linked.push(i);
  const ids = new Map();
  const nodes = [];
  const node = (unit) => {
    if (!ids.has(unit)) { ids.set(unit, nodes.length); nodes.push(unit); }
    return ids.get(unit);
  };
  const edges = linked.map((i) => ({ source: node(pairs.a[i]), target: node(pairs.b[i]), pair: i }));
  if (nodes.length === 0) {
    const text = svgEl("text", { x: 210, y: 150, "text-anchor": "middle" });
    text.textContent = "No pair at or above the threshold.";
    chart.replaceChildren(text);
    list.replaceChildren();
    byId("graph-legend").replaceChildren();
    return;
  }
  const groups = clusters(nodes, edges);
  const colourOf = new Map();
  groups.forEach((group, g) => group.forEach((i) => colourOf.set(i, CLUSTER_COLOURS[g % CLUSTER_COLOURS.length])));
  const points = layout(nodes.length, edges, GRAPH.width, GRAPH.height);
  const parts = [];
  for (const edge of edges) {
    const s = points[edge.source], t = points[edge.target];
    const line = svgEl("line", {
      class: "edge", x1: s.x, y1: s.y, x2: t.x, y2: t.y,
      "stroke-width": (1 + 4 * similarityOf(edge.pair)).toFixed(1),
    }, `${pathOf(pairs.a[edge.pair])} ↔ ${pathOf(pairs.b[edge.pair])}: ${percent(similarityOf(edge.pair))}`);
    line.addEventListener("click", () => { location.hash = `#pair=${edge.pair + 1}`; });
    parts.push(line);
  }
  const degree = nodes.map(() => 0);
  for (const edge of edges) { degree[edge.source]++; degree[edge.target]++; }
  const texts = nodes.map((unit) => (pathOf(unit).length > 24 ? "…" + pathOf(unit).slice(-23) : pathOf(unit)));
  const boxes = placeLabels(texts, points, degree);
  nodes.forEach((unit, i) => {
    const shape = nodeShape(unit, points[i], colourOf.get(i));
    shape.addEventListener("click", () => {
      filterByUnit(unit);
      byId("pairs").scrollIntoView();
    });
    const label = svgEl("text", {
      class: boxes[i].hover ? "node-label on-hover" : "node-label",
      x: boxes[i].x, y: boxes[i].y + boxes[i].h - 2,
    });
    label.textContent = texts[i];
    const group = svgEl("g", { class: "node-group" });
    group.append(shape, label);
    parts.push(group);
  });
  chart.replaceChildren(...parts);
  const legend = [...new Set(nodes.map((unit) => units.origin[unit]))].filter((o) => ORIGINS[o]);
  byId("graph-legend").textContent = legend.length
    ? `● current submission${legend.includes("old") ? " · ■ earlier submission (--old)" : ""}` +
      `${legend.includes("archive") ? " · ◆ archive" : ""}`
    : "";
  const shownClusters = groups.slice(0, 20).map((group, g) => el("li", {},
    el("span", { class: "swatch", style: `background:${CLUSTER_COLOURS[g % CLUSTER_COLOURS.length]}` }),
    ` ${plural(group.length, "unit")}: `,
    ...group.flatMap((i, k) => [...(k ? [", "] : []), ...unitName(nodes[i])])));
  if (groups.length > 20) shownClusters.push(el("li", { class: "empty" }, `and ${groups.length - 20} more clusters`));
  if (linked.length === MAX_EDGES) shownClusters.push(el("li", { class: "empty" }, `only the ${MAX_EDGES} most similar links are drawn`));
  list.replaceChildren(...shownClusters);
}

function setUpCharts() {
  const top = pairCount ? similarityOf(0) * 100 : 50;
  const input = byId("threshold");
  input.value = String(Math.min(50, Math.floor(top)));
  const update = () => {
    const threshold = Number(input.value);
    byId("threshold-value").textContent = `${threshold}%`;
    renderAtThreshold(threshold);
    renderHistogram(threshold);
    renderGraph(threshold);
  };
  input.addEventListener("input", update);
  byId("log-scale").addEventListener("change", () => renderHistogram(Number(input.value)));
  update();
}
