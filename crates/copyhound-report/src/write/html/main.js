// ---- Start: the list first, then the charts; keys for the pair view ----

document.addEventListener("keydown", (event) => {
  if (!pairKeys || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("textarea, input, select")) return;
  pairKeys(event.key);
});

renderHeader();
setUpExport();
setUpList();
const routeOrSayWhy = () => route().catch((error) => {
  byId("pair").replaceChildren(el("p", { class: "note" },
    `This browser could not open the pair (${error.message}); it needs DecompressionStream ` +
    "(Chrome 103, Firefox 113, Safari 16.4 or later)."));
});
window.addEventListener("hashchange", routeOrSayWhy);
routeOrSayWhy();
// The charts take longest to draw: after the list, so it shows first.
window.setTimeout(setUpCharts, 0);
