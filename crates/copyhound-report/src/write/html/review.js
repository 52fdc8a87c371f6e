// ---- Reviews: what a grader marked, kept in this browser ----
//
// Each pair can be marked reviewed (looked at), confirmed (a copy) or
// dismissed (not one), and given a note. The marks live in localStorage
// under the report's identity (a hash of the units compared: their
// paths, names and sizes), keyed by the pair's unit names: another
// class's report never shows them, and the same files compared again
// find them.

const REVIEW_STATES = {
  reviewed: { label: "Reviewed", key: "r", symbol: "✓" },
  confirmed: { label: "Confirmed copy", key: "c", symbol: "●" },
  dismissed: { label: "Dismissed", key: "d", symbol: "✕" },
};
const REVIEW_STORAGE = `copyhound-reviews:${data.identity}`;

/** localStorage, or null where the browser keeps none (then marks last until the page closes). */
const storage = (() => {
  try {
    const probe = `${REVIEW_STORAGE}:probe`;
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch (error) {
    return null;
  }
})();

const reviews = (() => {
  try {
    return (storage && JSON.parse(storage.getItem(REVIEW_STORAGE))) || {};
  } catch (error) {
    return {};
  }
})();

const reviewKey = (i) => `${pathOf(pairs.a[i])}\n${pathOf(pairs.b[i])}`;
/** Pair `i`'s review: `{ state, note, at }`, or undefined. */
const reviewOf = (i) => reviews[reviewKey(i)];

function saveReviews() {
  if (!storage) return;
  try {
    storage.setItem(REVIEW_STORAGE, JSON.stringify(reviews));
  } catch (error) {
    showStorageNote(`Reviews could not be saved in this browser (${error.message}); export them as CSV before closing the page.`);
  }
}

function showStorageNote(text) {
  const note = byId("storage-note");
  note.hidden = false;
  note.textContent = text;
}

/** Sets pair `i`'s state (null for none) and note; a pair with neither is forgotten. */
function setReview(i, state, note) {
  const key = reviewKey(i);
  if (!state && !note) delete reviews[key];
  else reviews[key] = { state: state || null, note: note || "", at: new Date().toISOString() };
  saveReviews();
}

/** Whether pair `i` passes the review filter `which` (a value of #review-filter). */
function reviewMatches(i, which) {
  if (which === "all") return true;
  const review = reviewOf(i);
  if (which === "open") return !review || !review.state;
  if (which === "noted") return Boolean(review && review.note);
  return Boolean(review && review.state === which);
}

/** A short mark for the pair list: the state's symbol and name, ✎ for a note. */
function reviewBadge(i) {
  const review = reviewOf(i);
  if (!review) return "";
  const state = REVIEW_STATES[review.state];
  const badge = el("span", { class: `review review-${review.state || "none"}` }, state ? `${state.symbol} ${review.state}` : "");
  if (review.note) badge.append(el("span", { class: "note-mark", title: review.note }, " ✎"));
  return badge;
}

/** A CSV field, quoted when it must be. */
function csvField(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every embedded pair with a mark or a note, as CSV. */
function reviewsCsv() {
  const rows = [["rank", "a", "b", "a_origin", "b_origin", "similarity", "review", "note", "marked_at"]];
  for (let i = 0; i < pairCount; i++) {
    const review = reviewOf(i);
    if (!review) continue;
    rows.push([i + 1, pathOf(pairs.a[i]), pathOf(pairs.b[i]), units.origin[pairs.a[i]], units.origin[pairs.b[i]],
      similarityOf(i).toFixed(6), review.state || "", review.note, review.at]);
  }
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

function setUpExport() {
  const link = byId("export-link");
  byId("export").addEventListener("click", () => {
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([reviewsCsv()], { type: "text/csv" }));
    link.download = `copyhound-reviews-${data.identity}.csv`;
    link.click();
  });
  if (!storage) showStorageNote("This browser keeps no local storage for this page: reviews last until it is closed; export them as CSV.");
}

/** The review controls of pair `i`'s view; `changed` runs after each change. */
function reviewControls(i, changed) {
  const review = reviewOf(i) || {};
  const note = el("textarea", { id: "review-note", rows: "2", placeholder: "Note on this pair (kept in this browser)", "aria-label": "Note" });
  note.value = review.note || "";
  const buttons = Object.entries(REVIEW_STATES).map(([state, { label, key }]) => {
    const button = el("button", {
      type: "button", class: `mark-button review-${state}`, "data-state": state,
      "aria-pressed": String(review.state === state), title: `${label} (key ${key})`,
    }, label);
    button.addEventListener("click", () => toggle(state));
    return button;
  });
  const refresh = () => {
    const now = reviewOf(i) || {};
    for (const button of buttons) button.setAttribute("aria-pressed", String(now.state === button.dataset.state));
    changed();
  };
  const toggle = (state) => {
    const now = reviewOf(i) || {};
    setReview(i, now.state === state ? null : state, note.value);
    refresh();
  };
  note.addEventListener("input", () => {
    setReview(i, (reviewOf(i) || {}).state, note.value);
    changed();
  });
  const controls = el("div", { class: "review-controls" }, ...buttons, note);
  return { controls, toggle };
}
