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

const documentPath = (doc) => data.documents.path[doc];

/** Lines of `text` with line numbers; fragments as coloured <mark>s, gaps
 *  of passages as dotted spans, code coloured by `tokens`. */
function renderText(text, fragments, passages, tokens) {
  const file = document.createDocumentFragment();
  const cuts = new Set([0, text.length]);
  for (const range of fragments.concat(passages, tokens)) {
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
  let token = 0;
  newLine();
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [from, to] = [bounds[k], bounds[k + 1]];
    // Fragments may overlap on one side; the first one colours the stretch.
    const fragment = fragments
      .filter((r) => r.start <= from && from < r.end)
      .reduce((first, r) => (first === null || r.fragment < first.fragment ? r : first), null);
    const around = passages.find((r) => r.start <= from && from < r.end);
    const passage = fragment ? fragment.passage : around ? around.passage : -1;
    while (token < tokens.length && tokens[token].end <= from) token++;
    const kind = token < tokens.length && tokens[token].start <= from ? tokens[token].kind : null;
    const piece = (part) => (kind ? el("span", { class: `tk-${kind}` }, part) : part);
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
        }, piece(part)));
      } else if (fragment) {
        source.append(el("mark", {
          class: `f${passage % COLOURS}${fragment.alternate ? " alt" : ""}`,
          "data-fragment": String(fragment.fragment), "data-passage": String(passage),
          title: `Passage ${passage + 1}, fragment ${fragment.fragment + 1}`,
        }, piece(part)));
      } else if (passage >= 0) {
        source.append(el("span", {
          class: `gap f${passage % COLOURS}`, "data-passage": String(passage),
          title: `Passage ${passage + 1}: a gap between its fragments`,
        }, piece(part)));
      } else {
        source.append(piece(part));
      }
    });
  }
  // A final newline ends the last line; it does not start another.
  if (text.endsWith("\n")) file.lastChild.remove();
  return file;
}

/** The lines of `span`; in a notebook, its cells and the lines within them. */
function lines(span) {
  if (span.cells) {
    const [[firstCell, firstLine], [lastCell, lastLine]] = [span.cells.first, span.cells.last];
    if (firstCell !== lastCell) return `cell ${firstCell}, line ${firstLine} – cell ${lastCell}, line ${lastLine}`;
    return `cell ${firstCell}, ` + (firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}–${lastLine}`);
  }
  return span.lines ? `${span.lines[0]}–${span.lines[1]}` : "?";
}

/** The file of `span` and where in it `span` is. */
const place = (span) => `${documentPath(span.doc)}${span.cells ? ", " : ":"}${lines(span)}`;

function renderSide(i, details, passages, which, texts) {
  const code = el("div", { class: "code", id: `side-${which}` });
  const byDocument = new Map();
  const ofDocument = (doc) => {
    if (!byDocument.has(doc)) byDocument.set(doc, { fragments: [], passages: [] });
    return byDocument.get(doc);
  };
  const passageOf = passageOfFragments(details, passages);
  passages.forEach((passage, p) => {
    const span = passage[which];
    ofDocument(span.doc).passages.push({
      start: span.start, end: span.end, lines: span.lines, cells: span.cells, passage: p,
    });
  });
  details.fragments.forEach((fragments, f) => {
    const fragment = fragments[which];
    const p = passageOf[f];
    ofDocument(fragment.doc).fragments.push({
      start: fragment.start, end: fragment.end, fragment: f, passage: p,
      alternate: p >= 0 && (f - passages[p].fragments[0]) % 2 === 1,
    });
  });
  const language = languageOf(i);
  for (const doc of [...byDocument.keys()].sort((x, y) => x - y)) {
    const ranges = byDocument.get(doc);
    const file = el("div", { class: "file" }, el("h4", {}, documentPath(doc)));
    const text = texts.get(doc);
    if (text === null) {
      const inCells = ranges.passages.some((r) => r.cells);
      file.append(el("p", { class: "missing" }, `${data.documents.missing[doc]}; passages at ${inCells ? "" : "lines "}` +
        ranges.passages.map((r) => lines(r)).join(inCells ? "; " : ", ") + "."));
    } else {
      file.append(renderText(text, ranges.fragments, ranges.passages, codeTokens(text, language)));
    }
    code.append(file);
  }
  const unit = pairs[which][i];
  const origin = ORIGINS[units.origin[unit]];
  const heading = el("h3", {}, `${which.toUpperCase()}: `, ...unitName(unit),
    ...(origin ? [el("span", { class: "origin-note" }, ` — ${origin.title}`)] : []));
  return el("div", { class: "side" }, heading, code);
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

// Clicking a fragment on one side brings its match on the other into
// view; clicking a gap, its passage. Called once the sides are drawn.
function linkSides() {
  for (const [here, there] of [["a", "b"], ["b", "a"]]) {
    byId(`side-${here}`).addEventListener("click", (event) => {
      const hit = event.target.closest("mark, .gap");
      if (!hit) return;
      if (hit.dataset.fragment === undefined) showPassage(hit.dataset.passage, [there]);
      else showFragment(hit.dataset.fragment, [there]);
    });
  }
}

function passageTable(passages, symbol) {
  const rows = passages.map((passage, p) => {
    const [first, end] = passage.fragments;
    const row = el("tr", { "data-passage": String(p) },
      el("td", {}, el("span", { class: `swatch f${p % COLOURS}` })),
      el("td", { class: "num" }, String(p + 1)),
      el("td", { class: "num" }, end - first === 1 ? String(first + 1) : `${first + 1}–${end}`),
      el("td", { class: "num" }, String(passage.matched_symbols)),
      el("td", { class: "path" }, place(passage.a)),
      el("td", { class: "path" }, place(passage.b)));
    row.addEventListener("click", () => showPassage(p));
    return row;
  });
  return el("details", { class: "passage-list", open: "" },
    el("summary", {}, `${plural(passages.length, "passage")}: click one to show it on both sides`),
    el("table", {}, el("thead", {}, el("tr", {},
      el("th", {}, ""), el("th", { class: "num" }, "Passage"), el("th", { class: "num" }, "Fragments"),
      el("th", { class: "num" }, `Matched ${symbol}s`), el("th", {}, "Lines in A"), el("th", {}, "Lines in B"))),
    el("tbody", {}, ...rows)));
}

/** The passage of each fragment, -1 for a fragment of no reported passage. */
function passageOfFragments(details, passages) {
  const passageOf = details.fragments.map(() => -1);
  passages.forEach((passage, p) => {
    for (let f = passage.fragments[0]; f < passage.fragments[1]; f++) passageOf[f] = p;
  });
  return passageOf;
}

function fragmentTable(details, passages, symbol) {
  const passageOf = passageOfFragments(details, passages);
  const rows = details.fragments.map((fragment, f) => {
    const p = passageOf[f];
    const row = el("tr", {},
      el("td", {}, el("span", { class: p < 0 ? "swatch stray" : `swatch f${p % COLOURS}` })),
      el("td", { class: "num" }, String(f + 1)),
      el("td", { class: "num" }, p < 0 ? "–" : String(p + 1)),
      el("td", { class: "num" }, String(fragment.symbols)),
      el("td", { class: "path" }, place(fragment.a)),
      el("td", { class: "path" }, place(fragment.b)));
    row.addEventListener("click", () => showFragment(f));
    return row;
  });
  return el("details", { class: "fragment-list" },
    el("summary", {}, `${plural(details.fragments.length, "exact fragment")}`),
    el("table", {}, el("thead", {}, el("tr", {},
      el("th", {}, ""), el("th", { class: "num" }, "Fragment"), el("th", { class: "num" }, "Passage"),
      el("th", { class: "num" }, `${symbol[0].toUpperCase()}${symbol.slice(1)}s`),
      el("th", {}, "Lines in A"), el("th", {}, "Lines in B"))),
    el("tbody", {}, ...rows)));
}

/** The first pair after `i` (by rank, wrapping round) not marked yet, or -1. */
function nextToReview(i) {
  for (let k = 1; k < pairCount; k++) {
    const j = (i + k) % pairCount;
    if (reviewMatches(j, "open")) return j;
  }
  return -1;
}

/** What the open pair's keys do; replaced with each pair shown. */
let pairKeys = null;

/** Shows pair `i`, unless `stale()` says another route came meanwhile. */
async function renderPair(i, stale) {
  const section = byId("pair");
  section.replaceChildren(el("p", { class: "loading" }, `Opening pair ${i + 1}…`));
  const details = await pairDetails(i);
  const docs = new Set(details.fragments.flatMap((f) => [f.a.doc, f.b.doc]));
  for (const p of details.passages) { docs.add(p.a.doc); docs.add(p.b.doc); }
  const texts = new Map(await Promise.all([...docs].map(async (doc) => [doc, await documentText(doc)])));
  if (stale()) return false;
  const passages = details.passages;
  const symbol = symbolOfPair(i);
  const navigation = el("p", { class: "pair-nav" }, el("a", { href: "#" }, "← All pairs"));
  if (i > 0) navigation.append(el("a", { href: `#pair=${i}`, id: "previous-pair" }, "‹ Previous"));
  if (i + 1 < pairCount) navigation.append(el("a", { href: `#pair=${i + 2}`, id: "next-pair" }, "Next ›"));
  const next = el("a", { id: "next-open" }, "Next not reviewed »");
  const updateNext = () => {
    const j = nextToReview(i);
    next.hidden = j < 0;
    if (j >= 0) next.setAttribute("href", `#pair=${j + 1}`);
  };
  navigation.append(next, el("span", { class: "keys" }, "keys: r, c, d mark · n, p next, previous"));
  const { controls, toggle } = reviewControls(i, updateNext);
  updateNext();
  const metrics = el("p", { class: "metrics" },
    (languageOf(i) ? `${languageOf(i)} · ` : "") + `Similarity ${percent(similarityOf(i))} · ` +
    `covered A ${percent(pairs.coverage_a[i] / 1e6)} · covered B ${percent(pairs.coverage_b[i] / 1e6)} · ` +
    `longest fragment ${plural(pairs.longest[i], symbol)} · ${plural(passages.length, "passage")} of ` +
    `${plural(details.fragments.length, "fragment")} · ${plural(pairs.shared[i], "shared fingerprint")}`);
  const sides = el("div", { class: "sides" },
    renderSide(i, details, passages, "a", texts), renderSide(i, details, passages, "b", texts));
  section.replaceChildren(navigation,
    el("h2", {}, `Pair ${i + 1}: `, ...unitName(pairs.a[i]), " ↔ ", ...unitName(pairs.b[i])), metrics,
    controls, passageTable(passages, symbol), fragmentTable(details, passages, symbol), sides);
  linkSides();
  pairKeys = (key) => {
    const state = Object.keys(REVIEW_STATES).find((s) => REVIEW_STATES[s].key === key);
    if (state) toggle(state);
    else if (key === "n" && i + 1 < pairCount) location.hash = `#pair=${i + 2}`;
    else if (key === "p" && i > 0) location.hash = `#pair=${i}`;
  };
  return true;
}

// ---- Syntax colouring: a small tokenizer, enough to read code by ----

const KEYWORDS = new Set((
  "abstract and as assert async await bool boolean break byte case catch char class const continue def default " +
  "del do double elif else enum except extends false final finally float fn for from func function global go if " +
  "impl implements import in instanceof int interface is lambda let long match mod mut namespace new nil None " +
  "nonlocal not null or package pass private protected pub public raise return self short signed sizeof static " +
  "struct super switch this throw throws trait true True False try typedef typeof union unsigned use var void " +
  "volatile while with yield").split(" "));
/** Languages whose comments start with `#`; the others' with `//` or `/*`. */
const HASH_COMMENTS = new Set(["python", "ruby", "r", "perl", "bash", "shell", "julia", "elixir", "nim", "coffeescript"]);

/** Comments, strings, numbers and keywords of code, as UTF-16 ranges; none for text. */
function codeTokens(text, language) {
  if (!language || language === "text") return [];
  const comment = HASH_COMMENTS.has(language) ? String.raw`#[^\n]*` : String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`;
  const strings = String.raw`"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|` + "`[^`]*`?";
  const pattern = new RegExp(`(${comment})|(${strings})|\\b(\\d[\\w.]*)|([A-Za-z_]\\w*)`, "g");
  const tokens = [];
  for (const match of text.matchAll(pattern)) {
    const kind = match[1] ? "c" : match[2] ? "s" : match[3] ? "n" : KEYWORDS.has(match[4]) ? "k" : null;
    if (kind) tokens.push({ start: match.index, end: match.index + match[0].length, kind });
  }
  return tokens;
}

// ---- Routing: #pair=N shows pair N (1-based, as listed), anything else the overview ----

let routed = 0;

async function route() {
  const match = /^#pair=(\d+)$/.exec(location.hash);
  const i = match ? Number(match[1]) - 1 : -1;
  const showPair = i >= 0 && i < pairCount;
  byId("overview").hidden = showPair;
  byId("pair").hidden = !showPair;
  pairKeys = null;
  const current = ++routed;
  delete document.body.dataset.shownPair;
  if (!showPair) {
    // Marks made in pair views change what the review filter shows.
    updateList();
    return;
  }
  // A later route (a quick click) wins over this one.
  if (!(await renderPair(i, () => current !== routed))) return;
  window.scrollTo(0, 0);
  reveal(byId("side-a"), passageSelector(0));
  reveal(byId("side-b"), passageSelector(0));
  document.body.dataset.shownPair = String(i + 1);
}
