// The copyhound HTML report: renders the JSON in #copyhound-data. Plain
// JavaScript, no network; every text from the data goes in with
// textContent, never as markup.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("copyhound-data").textContent);
  const COLOURS = 10;
  const SVG = "http://www.w3.org/2000/svg";
  const byId = (id) => document.getElementById(id);
  const percent = (x) => (x * 100).toFixed(1) + "%";
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  // A batch of several languages was compared one language at a time.
  const languages = data.parameters.languages || [];
  const mixed = languages.length > 1;

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

  // ---- Header: totals, cap, settings, problems ----

  function renderHeader() {
    const s = data.summary;
    byId("summary").textContent =
      `${s.units} units in ${s.documents} files; ${s.matching_pairs} similar pairs ` +
      `out of ${s.candidate_pairs} candidates. Written by ${data.tool.name} ${data.tool.version}.`;
    const leftOut = [];
    if (data.pairs.length < data.listed_pairs) {
      leftOut.push(
        `This page shows the ${data.pairs.length} most similar of the ${data.listed_pairs} pairs ` +
        `in the report; the histogram counts all of them. To see more, write the page again with ` +
        `a larger --report-pairs (--report-pairs all embeds every pair), or read them all in the ` +
        `JSON (--json) or CSV (--csv) report.`);
    }
    if (data.listed_pairs < s.matching_pairs) {
      leftOut.push(`The report lists ${data.listed_pairs} of the ${s.matching_pairs} similar pairs found.`);
    }
    if (s.scored_pairs < s.candidate_pairs) {
      leftOut.push(
        `Only the ${s.scored_pairs} of the ${s.candidate_pairs} candidate pairs sharing most ` +
        `fingerprints were scored; a larger --max-pairs scores more.`);
    }
    if (leftOut.length) {
      const capped = byId("capped");
      capped.hidden = false;
      capped.textContent = leftOut.join(" ");
    }
    const p = data.parameters;
    const perLanguage = mixed
      ? [["languages", languages.map((l) =>
        `${l.language} (${plural(l.units, "unit")}; k-gram ${l.k}, window ${l.window})`).join(", ")]]
      : [["language", p.language === null ? "per file" : p.language], ["k-gram length", p.k], ["window", p.window]];
    const settings = [
      ...perLanguage, ["selector", p.selector], ["seed", p.seed],
      ["max occurrences", p.max_occurrences], ["min shared fingerprints", p.min_shared],
      ["max scored pairs", p.max_pairs], ["base code", p.base.length ? p.base.join(", ") : "none"],
    ];
    const list = byId("parameters");
    for (const [name, value] of settings) list.append(el("dt", {}, name), el("dd", {}, String(value)));
    const problems = byId("problems");
    if (data.problems.length === 0) problems.append(el("li", { class: "empty" }, "No problems: every file was compared."));
    for (const problem of data.problems) problems.append(el("li", {}, problem.message));
  }

  // ---- Pair list: sortable by any column, filtered by path ----

  const rows = data.pairs.map((pair, index) => ({
    index,
    rank: index + 1,
    similarity: pair.similarity,
    language: pair.language || "",
    a: pair.a.path,
    b: pair.b.path,
    coverage_a: pair.a.coverage,
    coverage_b: pair.b.coverage,
    longest: pair.longest_fragment,
    fragments: pair.fragments.length,
  }));
  const sort = { key: "rank", direction: 1 };

  function meter(share) {
    const bar = el("span", { class: "meter" }, el("span", { style: `width:${(share * 100).toFixed(1)}%` }));
    return [bar, percent(share)];
  }

  function renderTable() {
    const needle = byId("filter").value.trim().toLowerCase();
    const shown = rows
      .filter((row) => !needle || [row.a, row.b, row.language].some((text) => text.toLowerCase().includes(needle)))
      .sort((x, y) => {
        const a = x[sort.key], b = y[sort.key];
        const order = typeof a === "string" ? a.localeCompare(b) : a - b;
        return order * sort.direction || x.index - y.index;
      });
    const body = byId("pairs").tBodies[0];
    body.replaceChildren(...shown.map((row) => {
      const link = el("a", { href: `#pair=${row.index}` }, String(row.rank));
      const tr = el("tr", { "data-pair": String(row.index) },
        el("td", { class: "num" }, link),
        el("td", { class: "num" }, ...meter(row.similarity)),
        ...(mixed ? [el("td", {}, row.language)] : []),
        el("td", { class: "path" }, row.a),
        el("td", { class: "path" }, row.b),
        el("td", { class: "num" }, percent(row.coverage_a)),
        el("td", { class: "num" }, percent(row.coverage_b)),
        el("td", { class: "num" }, String(row.longest)),
        el("td", { class: "num" }, String(row.fragments)));
      tr.addEventListener("click", () => { location.hash = `#pair=${row.index}`; });
      return tr;
    }));
    byId("shown").textContent = `${shown.length} of ${rows.length} pairs`;
    for (const th of byId("pairs").tHead.rows[0].cells) {
      th.classList.toggle("sorted-asc", th.dataset.key === sort.key && sort.direction > 0);
      th.classList.toggle("sorted-desc", th.dataset.key === sort.key && sort.direction < 0);
    }
  }

  function setUpTable() {
    for (const th of byId("pairs").tHead.rows[0].cells) {
      if (th.dataset.key === "language") th.hidden = !mixed;
      th.addEventListener("click", () => {
        const key = th.dataset.key;
        // Numbers other than the rank read best largest first.
        const firstDirection = ["rank", "language", "a", "b"].includes(key) ? 1 : -1;
        sort.direction = sort.key === key ? -sort.direction : firstDirection;
        sort.key = key;
        renderTable();
      });
    }
    byId("filter").addEventListener("input", renderTable);
    renderTable();
  }

  // ---- Histogram of similarity (all listed pairs) ----

  function renderHistogram(threshold) {
    const chart = byId("histogram");
    const [width, height, left, right, top, bottom] = [420, 210, 34, 18, 12, 24];
    const bins = data.histogram;
    const most = Math.max(1, ...bins);
    const step = (width - left - right) / bins.length;
    const y = (count) => height - bottom - (count / most) * (height - top - bottom);
    const parts = [];
    bins.forEach((count, i) => {
      const from = i * 5;
      const bar = svgEl("rect", {
        class: from >= threshold ? "bar above" : "bar",
        x: left + i * step + 1, y: y(count), width: step - 2, height: height - bottom - y(count),
      }, `${from}–${from + 5}%: ${plural(count, "pair")}`);
      parts.push(bar);
    });
    parts.push(svgEl("line", { class: "axis", x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }));
    parts.push(svgEl("line", { class: "axis", x1: left, y1: top, x2: left, y2: height - bottom }));
    for (const tick of [0, 25, 50, 75, 100]) {
      const label = svgEl("text", { x: left + (tick / 5) * step, y: height - 6, "text-anchor": "middle" });
      label.textContent = `${tick}%`;
      parts.push(label);
    }
    for (const count of [0, most]) {
      const label = svgEl("text", { x: left - 5, y: y(count) + 4, "text-anchor": "end" });
      label.textContent = String(count);
      parts.push(label);
    }
    const cut = left + (threshold / 5) * step;
    parts.push(svgEl("line", { class: "cut", x1: cut, y1: top, x2: cut, y2: height - bottom }));
    chart.replaceChildren(...parts);
  }

  // ---- Graph of units linked at or above the threshold ----

  const MAX_EDGES = 400;

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
  function layout(nodes, edges, width, height) {
    const n = nodes.length;
    const ideal = Math.sqrt((width * height) / Math.max(n, 1)) * 0.8;
    const points = nodes.map((_, i) => ({
      x: width / 2 + (width / 3) * Math.cos((2 * Math.PI * i) / n),
      y: height / 2 + (height / 3) * Math.sin((2 * Math.PI * i) / n),
    }));
    let temperature = width / 8;
    for (let step = 0; step < 250; step++) {
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
    // Fit into the canvas with a margin for labels.
    const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const margin = 30;
    return points.map((p) => ({
      x: maxX > minX ? margin + ((p.x - minX) / (maxX - minX)) * (width - 2 * margin) : width / 2,
      y: maxY > minY ? margin + ((p.y - minY) / (maxY - minY)) * (height - 2 * margin) : height / 2,
    }));
  }

  const CLUSTER_COLOURS = ["#c2410c", "#0b5cad", "#2f855a", "#8250df", "#b7791f", "#0f766e", "#be185d", "#4b5563"];

  function renderGraph(threshold) {
    const chart = byId("graph");
    const list = byId("clusters");
    const linked = data.pairs
      .map((pair, index) => ({ pair, index }))
      .filter(({ pair }) => pair.similarity * 100 >= threshold)
      .slice(0, MAX_EDGES);
    const ids = new Map();
    const nodes = [];
    const node = (side) => {
      if (!ids.has(side.unit)) { ids.set(side.unit, nodes.length); nodes.push(side); }
      return ids.get(side.unit);
    };
    const edges = linked.map(({ pair, index }) => ({ source: node(pair.a), target: node(pair.b), pair, index }));
    if (nodes.length === 0) {
      const text = svgEl("text", { x: 210, y: 150, "text-anchor": "middle" });
      text.textContent = "No pair at or above the threshold.";
      chart.replaceChildren(text);
      list.replaceChildren();
      return;
    }
    const groups = clusters(nodes, edges);
    const colourOf = new Map();
    groups.forEach((group, g) => group.forEach((i) => colourOf.set(i, CLUSTER_COLOURS[g % CLUSTER_COLOURS.length])));
    const points = layout(nodes, edges, 420, 300);
    const parts = [];
    for (const edge of edges) {
      const s = points[edge.source], t = points[edge.target];
      const line = svgEl("line", {
        class: "edge", x1: s.x, y1: s.y, x2: t.x, y2: t.y,
        "stroke-width": (1 + 4 * edge.pair.similarity).toFixed(1),
      }, `${edge.pair.a.path} ↔ ${edge.pair.b.path}: ${percent(edge.pair.similarity)}`);
      line.addEventListener("click", () => { location.hash = `#pair=${edge.index}`; });
      parts.push(line);
    }
    nodes.forEach((side, i) => {
      const circle = svgEl("circle", { class: "node", cx: points[i].x, cy: points[i].y, r: 6, fill: colourOf.get(i) }, side.path);
      circle.addEventListener("click", () => {
        byId("filter").value = side.path;
        renderTable();
        byId("pairs").scrollIntoView();
      });
      parts.push(circle);
      if (nodes.length <= 40) {
        const label = svgEl("text", { class: "node-label", x: points[i].x, y: points[i].y - 9, "text-anchor": "middle" });
        label.textContent = side.path.length > 24 ? "…" + side.path.slice(-23) : side.path;
        parts.push(label);
      }
    });
    chart.replaceChildren(...parts);
    const shownClusters = groups.slice(0, 20).map((group, g) => el("li", {},
      el("span", { class: "swatch", style: `background:${CLUSTER_COLOURS[g % CLUSTER_COLOURS.length]}` }),
      ` ${plural(group.length, "unit")}: ${group.map((i) => nodes[i].path).join(", ")}`));
    if (groups.length > 20) shownClusters.push(el("li", { class: "empty" }, `and ${groups.length - 20} more clusters`));
    if (linked.length === MAX_EDGES) shownClusters.push(el("li", { class: "empty" }, `only the ${MAX_EDGES} most similar links are drawn`));
    list.replaceChildren(...shownClusters);
  }

  function setUpCharts() {
    const top = data.pairs.length ? data.pairs[0].similarity * 100 : 50;
    const input = byId("threshold");
    input.value = String(Math.min(50, Math.floor(top)));
    const update = () => {
      const threshold = Number(input.value);
      byId("threshold-value").textContent = `${threshold}%`;
      renderHistogram(threshold);
      renderGraph(threshold);
    };
    input.addEventListener("input", update);
    update();
  }

  // ---- Side-by-side view of one pair ----
  //
  // Fragments are the exact matches; a passage is a chain of fragments
  // that follow each other on both sides, one copied stretch cut up by
  // small edits. Each fragment is filled with its passage's colour (every
  // second fragment of a passage also underlined, so exact bounds stay
  // visible), the gaps inside a passage are only dotted, and the line
  // numbers of a passage's lines carry a bar of its colour. Fragments of
  // no reported passage (short runs, below compare's --min-passage) are
  // shown grey: they count in the similarity, but are not reported.

  /** The pair's passages; a report without them gets one per fragment. */
  function passagesOf(pair) {
    if (pair.passages) return pair.passages;
    return pair.fragments.map((f, i) => ({ fragments: [i, i + 1], matched_symbols: f.symbols, a: f.a, b: f.b }));
  }

  /** Lines of `text` with line numbers; fragments as coloured <mark>s, gaps of passages as dotted spans. */
  function renderText(text, fragments, passages) {
    const file = document.createDocumentFragment();
    const cuts = new Set([0, text.length]);
    for (const range of fragments.concat(passages)) {
      cuts.add(Math.min(range.start, text.length));
      cuts.add(Math.min(range.end, text.length));
    }
    const bounds = [...cuts].sort((x, y) => x - y);
    let number = 0;
    let gutter = null;
    let source = null;
    const newLine = () => {
      number += 1;
      gutter = el("span", { class: "ln" }, String(number));
      source = el("span", { class: "src" });
      file.append(el("div", { class: "line" }, gutter, source));
    };
    const markLine = (passage) => {
      if (gutter.dataset.passage !== undefined) return;
      gutter.classList.add("in-passage", `f${passage % COLOURS}`);
      gutter.dataset.passage = String(passage);
    };
    newLine();
    for (let k = 0; k + 1 < bounds.length; k++) {
      const [from, to] = [bounds[k], bounds[k + 1]];
      // Fragments may overlap on one side; the first one colours the stretch.
      const fragment = fragments
        .filter((r) => r.start <= from && from < r.end)
        .reduce((first, r) => (first === null || r.fragment < first.fragment ? r : first), null);
      const around = passages.find((r) => r.start <= from && from < r.end);
      const passage = fragment ? fragment.passage : around ? around.passage : -1;
      const parts = text.slice(from, to).split("\n");
      parts.forEach((part, j) => {
        if (j > 0) newLine();
        part = part.replace(/\r$/, "");
        // A stretch that ends with a newline does not reach into the next line.
        if (passage >= 0 && (part || (j > 0 && j < parts.length - 1))) markLine(passage);
        if (!part) return;
        if (fragment && fragment.passage < 0) {
          source.append(el("mark", {
            class: "stray", "data-fragment": String(fragment.fragment),
            title: `Fragment ${fragment.fragment + 1}: too short to report as a passage`,
          }, part));
        } else if (fragment) {
          source.append(el("mark", {
            class: `f${passage % COLOURS}${fragment.alternate ? " alt" : ""}`,
            "data-fragment": String(fragment.fragment), "data-passage": String(passage),
            title: `Passage ${passage + 1}, fragment ${fragment.fragment + 1}`,
          }, part));
        } else if (passage >= 0) {
          source.append(el("span", {
            class: `gap f${passage % COLOURS}`, "data-passage": String(passage),
            title: `Passage ${passage + 1}: a gap between its fragments`,
          }, part));
        } else {
          source.append(part);
        }
      });
    }
    // A final newline ends the last line; it does not start another.
    if (text.endsWith("\n")) file.lastChild.remove();
    return file;
  }

  function lines(span) {
    return span.lines ? `${span.lines[0]}–${span.lines[1]}` : "?";
  }

  function renderSide(pair, passages, which) {
    const code = el("div", { class: "code", id: `side-${which}` });
    const byDocument = new Map();
    const ofDocument = (doc) => {
      if (!byDocument.has(doc)) byDocument.set(doc, { fragments: [], passages: [] });
      return byDocument.get(doc);
    };
    const passageOf = passageOfFragments(pair, passages);
    passages.forEach((passage, p) => {
      const span = passage[which];
      ofDocument(span.doc).passages.push({ start: span.start, end: span.end, lines: span.lines, passage: p });
    });
    pair.fragments.forEach((fragments, f) => {
      const fragment = fragments[which];
      const p = passageOf[f];
      ofDocument(fragment.doc).fragments.push({
        start: fragment.start, end: fragment.end, fragment: f, passage: p,
        alternate: p >= 0 && (f - passages[p].fragments[0]) % 2 === 1,
      });
    });
    for (const doc of [...byDocument.keys()].sort((x, y) => x - y)) {
      const documentData = data.documents[doc];
      const ranges = byDocument.get(doc);
      const file = el("div", { class: "file" }, el("h4", {}, documentData.path));
      if (documentData.text === null) {
        file.append(el("p", { class: "missing" }, `${documentData.missing}; passages at lines ` +
          ranges.passages.map((r) => lines(r)).join(", ") + "."));
      } else {
        file.append(renderText(documentData.text, ranges.fragments, ranges.passages));
      }
      code.append(file);
    }
    return el("div", { class: "side" }, el("h3", {}, `${which.toUpperCase()}: ${pair[which].path}`), code);
  }

  /** Scrolls a side so the first element matching `selector` sits near the top third. */
  function reveal(code, selector) {
    const target = code.querySelector(selector);
    if (!target) return;
    const offset = target.getBoundingClientRect().top - code.getBoundingClientRect().top + code.scrollTop;
    code.scrollTop = Math.max(0, offset - code.clientHeight / 3);
  }

  function flash(selector) {
    for (const node of document.querySelectorAll("#pair .flash")) node.classList.remove("flash");
    for (const node of document.querySelectorAll(`#pair ${selector}`)) node.classList.add("flash");
  }

  const fragmentSelector = (f) => `mark[data-fragment="${f}"]`;
  const passageSelector = (p) => `[data-passage="${p}"]`;
  /** A passage's fragments and gaps in the text (not its line numbers). */
  const passageTextSelector = (p) => `mark${passageSelector(p)}, .gap${passageSelector(p)}`;

  /** Scrolls `sides` to the first match of `selector`; outlines every match of `outlined`. */
  function show(sides, selector, outlined) {
    for (const side of sides) reveal(byId(`side-${side}`), selector);
    flash(outlined);
  }

  /** Both sides scrolled to a fragment, outlined. */
  const showFragment = (f, sides = ["a", "b"]) => show(sides, fragmentSelector(f), fragmentSelector(f));

  /** Both sides scrolled to a passage, its fragments and gaps outlined. */
  const showPassage = (p, sides = ["a", "b"]) => show(sides, passageSelector(p), passageTextSelector(p));

  function passageTable(pair, passages) {
    const rows = passages.map((passage, p) => {
      const [first, end] = passage.fragments;
      const row = el("tr", { "data-passage": String(p) },
        el("td", {}, el("span", { class: `swatch f${p % COLOURS}` })),
        el("td", { class: "num" }, String(p + 1)),
        el("td", { class: "num" }, end - first === 1 ? String(first + 1) : `${first + 1}–${end}`),
        el("td", { class: "num" }, String(passage.matched_symbols)),
        el("td", { class: "path" }, `${data.documents[passage.a.doc].path}:${lines(passage.a)}`),
        el("td", { class: "path" }, `${data.documents[passage.b.doc].path}:${lines(passage.b)}`));
      row.addEventListener("click", () => showPassage(p));
      return row;
    });
    return el("details", { class: "passage-list", open: "" },
      el("summary", {}, `${plural(passages.length, "passage")}: click one to show it on both sides`),
      el("table", {}, el("thead", {}, el("tr", {},
        el("th", {}, ""), el("th", { class: "num" }, "Passage"), el("th", { class: "num" }, "Fragments"),
        el("th", { class: "num" }, "Matched symbols"), el("th", {}, "Lines in A"), el("th", {}, "Lines in B"))),
      el("tbody", {}, ...rows)));
  }

  /** The passage of each fragment, -1 for a fragment of no reported passage. */
  function passageOfFragments(pair, passages) {
    const passageOf = pair.fragments.map(() => -1);
    passages.forEach((passage, p) => {
      for (let f = passage.fragments[0]; f < passage.fragments[1]; f++) passageOf[f] = p;
    });
    return passageOf;
  }

  function fragmentTable(pair, passages) {
    const passageOf = passageOfFragments(pair, passages);
    const rows = pair.fragments.map((fragment, f) => {
      const p = passageOf[f];
      const row = el("tr", {},
        el("td", {}, el("span", { class: p < 0 ? "swatch stray" : `swatch f${p % COLOURS}` })),
        el("td", { class: "num" }, String(f + 1)),
        el("td", { class: "num" }, p < 0 ? "–" : String(p + 1)),
        el("td", { class: "num" }, String(fragment.symbols)),
        el("td", { class: "path" }, `${data.documents[fragment.a.doc].path}:${lines(fragment.a)}`),
        el("td", { class: "path" }, `${data.documents[fragment.b.doc].path}:${lines(fragment.b)}`));
      row.addEventListener("click", () => showFragment(f));
      return row;
    });
    return el("details", { class: "fragment-list" },
      el("summary", {}, `${plural(pair.fragments.length, "exact fragment")}`),
      el("table", {}, el("thead", {}, el("tr", {},
        el("th", {}, ""), el("th", { class: "num" }, "Fragment"), el("th", { class: "num" }, "Passage"),
        el("th", { class: "num" }, "Symbols"), el("th", {}, "Lines in A"), el("th", {}, "Lines in B"))),
      el("tbody", {}, ...rows)));
  }

  function renderPair(index) {
    const pair = data.pairs[index];
    const passages = passagesOf(pair);
    const section = byId("pair");
    const navigation = el("p", { class: "pair-nav" }, el("a", { href: "#" }, "← All pairs"));
    if (index > 0) navigation.append(el("a", { href: `#pair=${index - 1}` }, "‹ Previous"));
    if (index + 1 < data.pairs.length) navigation.append(el("a", { href: `#pair=${index + 1}` }, "Next ›"));
    const metrics = el("p", { class: "metrics" },
      (pair.language ? `${pair.language} · ` : "") + `Similarity ${percent(pair.similarity)} · covered A ${percent(pair.a.coverage)} · covered B ${percent(pair.b.coverage)} · ` +
      `longest fragment ${plural(pair.longest_fragment, "symbol")} · ${plural(passages.length, "passage")} of ` +
      `${plural(pair.fragments.length, "fragment")} · ${plural(pair.shared_fingerprints, "shared fingerprint")}`);
    const sides = el("div", { class: "sides" }, renderSide(pair, passages, "a"), renderSide(pair, passages, "b"));
    section.replaceChildren(navigation,
      el("h2", {}, `Pair ${index + 1}: ${pair.a.path} ↔ ${pair.b.path}`), metrics,
      passageTable(pair, passages), fragmentTable(pair, passages), sides);
    // Clicking a fragment on one side brings its match on the other into
    // view; clicking a gap, its passage.
    for (const [here, there] of [["a", "b"], ["b", "a"]]) {
      byId(`side-${here}`).addEventListener("click", (event) => {
        const hit = event.target.closest("mark, .gap");
        if (!hit) return;
        if (hit.dataset.fragment === undefined) showPassage(hit.dataset.passage, [there]);
        else showFragment(hit.dataset.fragment, [there]);
      });
    }
  }

  // ---- Routing: #pair=N shows a pair, anything else the overview ----

  function route() {
    const match = /^#pair=(\d+)$/.exec(location.hash);
    const index = match ? Number(match[1]) : -1;
    const showPair = index >= 0 && index < data.pairs.length;
    byId("overview").hidden = showPair;
    byId("pair").hidden = !showPair;
    if (showPair) {
      renderPair(index);
      window.scrollTo(0, 0);
      reveal(byId("side-a"), passageSelector(0));
      reveal(byId("side-b"), passageSelector(0));
    }
  }

  renderHeader();
  setUpTable();
  setUpCharts();
  window.addEventListener("hashchange", route);
  route();
})();
