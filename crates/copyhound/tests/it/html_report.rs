//! The HTML report in a real browser: `copyhound compare --report` on a
//! small batch with one copied passage (one word changed inside it, so two
//! fragments), the page opened in headless Chromium, and the DOM it renders
//! checked — the pair list has its rows, opening a pair (`#pair=1`) shows
//! the passage listed and both fragments highlighted in its colour on both
//! sides with the gap between them, and a page holding fewer pairs than
//! were found says so. A script added to the page clicks in one side and
//! checks that the other side brings the match into view.
//!
//! Skips with a message when `chromium` is not installed, unless
//! `COPYHOUND_REQUIRE_CHROMIUM=1` is set (CI), where that is a failure.

use std::fmt::Write as _;
use std::path::Path;

use crate::support::{browser, copyhound, rendered_dom, temp_dir, write};

const ESSAY: &str = "Glaciers shape the land slowly.\n\
    Ice grinds the rock beneath it, plucks boulders from the valley walls\n\
    and carries them for miles before dropping them as the climate warms.\n\
    Meltwater then sorts the gravel into long ridges that farmers still plough around.\n\
    Café owners in the Alps now watch the ice retreat every summer.\n";
const COPIED: &str = "My own introduction about mountains.\n\
    Ice grinds the rock beneath it, plucks boulders from the valley walls\n\
    and carries them for kilometres before dropping them as the climate warms.\n\
    Meltwater then sorts the gravel into long ridges that farmers still plough around.\n\
    That is all I have to say.\n";
const RIDGES: &str = "Meltwater then sorts the gravel into long ridges that farmers still plough around.\n\
    Nothing else to add.\n";
const UNRELATED: &str = "Bread rises because yeast feeds on sugar and releases gas\n\
    that the gluten network traps while the dough is kneaded.\n";

#[test]
fn the_report_renders_in_headless_chromium() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = temp_dir();
    let submissions = dir.path().join("submissions");
    write(&submissions, "ada.txt", ESSAY);
    write(&submissions, "bob.txt", COPIED);
    write(&submissions, "cy.txt", UNRELATED);
    write(&submissions, "dan.txt", RIDGES);
    let write_report_with = |name: &str, pairs: &str, extra: &[&str]| {
        let report = dir.path().join(name);
        copyhound()
            .args(["compare", "-q", "--report-pairs", pairs])
            .args(extra)
            .arg(&submissions)
            .arg("--report")
            .arg(&report)
            .assert()
            .success();
        format!("file://{}", report.display())
    };
    let write_report = |name: &str, pairs: &str| write_report_with(name, pairs, &[]);
    let url = write_report("report.html", "all");
    let profile = dir.path().join("chromium-profile");

    let overview = rendered_dom(&browser, &url, &profile);
    let rows = overview.matches("<tr data-pair=").count();
    assert!(rows >= 1, "the pair list has no rows:\n{overview}");
    let first_row = &overview[overview.find("<tr data-pair=").unwrap()..];
    let first_row = &first_row[..first_row.find("</tr>").unwrap()];
    assert!(first_row.contains("ada.txt") && first_row.contains("bob.txt"));
    assert!(
        overview.contains("<rect class=\"bar"),
        "the histogram is drawn"
    );

    assert!(
        !overview.contains("<p id=\"capped\" class=\"note\">"),
        "a page with every pair says none is left out"
    );

    let pair = rendered_dom(&browser, &format!("{url}#pair=1"), &profile);
    // The copy is one passage of two fragments, cut by the changed word.
    let passage_row = pair
        .find("<tr data-passage=\"0\">")
        .expect("the passage is listed");
    let passage_row = &pair[passage_row..];
    let passage_row = &passage_row[..passage_row.find("</tr>").unwrap()];
    assert!(
        passage_row.contains("1–2") && passage_row.contains(":2–4"),
        "the passage lists its fragments and lines: {passage_row}"
    );
    assert!(!pair.contains("<tr data-passage=\"1\">"), "one passage");
    let side_a = pair.find("id=\"side-a\"").expect("side A is shown");
    let side_b = pair.find("id=\"side-b\"").expect("side B is shown");
    let (a, b) = (&pair[side_a..side_b], &pair[side_b..]);
    for (name, side, changed) in [("A", a, " mil"), ("B", b, " kilometr")] {
        for fragment in [
            "<mark class=\"f0\" data-fragment=\"0\" data-passage=\"0\"",
            "<mark class=\"f0 alt\" data-fragment=\"1\" data-passage=\"0\"",
        ] {
            assert!(
                side.contains(fragment),
                "side {name} lacks {fragment}:\n{side}"
            );
        }
        assert!(
            side.contains(&format!(
                "class=\"gap f0\" data-passage=\"0\" title=\"Passage 1: a gap between its fragments\">{changed}"
            )),
            "side {name}: the changed word is the passage's gap:\n{side}"
        );
        assert!(side.contains("plucks boulders from the valley walls"));
        assert!(side.contains("<span class=\"ln\">1</span>"), "line numbers");
        assert!(
            side.contains("<span class=\"ln in-passage f0\" data-passage=\"0\">3</span>"),
            "side {name}: the passage's lines are marked"
        );
    }

    let capped = rendered_dom(&browser, &write_report("capped.html", "1"), &profile);
    let note = capped
        .find("<p id=\"capped\" class=\"note\">")
        .map(|at| &capped[at..at + capped[at..].find("</p>").unwrap()])
        .expect("a page with pairs left out says so");
    assert!(
        note.contains("This page shows the 1 most similar of the 3 pairs")
            && note.contains("--report-pairs all"),
        "{note}"
    );

    let unreported = write_report_with("unreported.html", "1", &["--min-passage", "100000"]);
    fragments_of_no_passage_are_grey(&browser, &unreported, &profile);
}

/// Fragments of no reported passage are still shown, in grey.
fn fragments_of_no_passage_are_grey(browser: &Path, url: &str, profile: &Path) {
    let pair = rendered_dom(browser, &format!("{url}#pair=1"), profile);
    assert!(
        !pair.contains("<tr data-passage="),
        "no passage is reported"
    );
    let side_a = &pair[pair.find("id=\"side-a\"").expect("side A is shown")..];
    assert!(
        side_a.contains("<mark class=\"stray\" data-fragment=\"0\""),
        "the fragments are marked as unreported:\n{side_a}"
    );
}

/// Clicks in the pair view, done by a script added to the page: the
/// result is written into `<pre id="test-result">` for the DOM dump.
const CLICK_SCRIPT: &str = r##"<script>
const until = (ready) => new Promise((resolve) => {
  const poll = () => (ready() ? resolve() : setTimeout(poll, 20));
  poll();
});
const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
// A fragment over several lines is one <mark> per line: each named once.
const flashed = () => [...new Set([...document.querySelectorAll("#pair .flash")]
  .map((n) => `${n.closest(".code").id}:${n.dataset.fragment ?? "gap"}`))].sort().join(" ");
const inView = (code, selector) => {
  const box = code.getBoundingClientRect();
  const target = code.querySelector(selector).getBoundingClientRect();
  return target.top >= box.top && target.bottom <= box.bottom;
};
(async () => {
  await until(() => document.querySelector('#side-a mark[data-fragment="1"]'));
  const [a, b] = [document.getElementById("side-a"), document.getElementById("side-b")];
  const result = {};
  b.scrollTop = 0;
  a.scrollTop = 40;
  result.hiddenBefore = !inView(b, 'mark[data-fragment="1"]');
  click(a.querySelector('mark[data-fragment="1"]'));
  result.fragment = { shownInB: inView(b, 'mark[data-fragment="1"]'), aScroll: a.scrollTop, flashed: flashed() };
  b.scrollTop = 0;
  click(a.querySelector(".gap"));
  result.gap = { shownInB: inView(b, '.gap[data-passage="0"]'), aScroll: a.scrollTop, flashed: flashed() };
  const pre = document.createElement("pre");
  pre.id = "test-result";
  pre.textContent = JSON.stringify(result);
  document.body.append(pre);
})();
</script>
"##;

/// `count` lines of a side's own text, sharing nothing with the other's.
fn own_lines(who: &str, unit: &str, count: usize) -> String {
    (1..=count).fold(String::new(), |mut text, n| {
        writeln!(text, "{who} noted {n} {unit} on day {n} of the survey.").unwrap();
        text
    })
}

#[test]
fn a_click_in_one_side_brings_its_match_into_view_on_the_other() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = temp_dir();
    let submissions = dir.path().join("submissions");
    // The copy sits far down in bob.txt: side B must scroll to show it.
    // Side A is long too, so that a scroll of it would show.
    write(
        &submissions,
        "ada.txt",
        format!("{ESSAY}{}", own_lines("Ada", "swallows", 150)),
    );
    let copied = format!("{}{COPIED}", own_lines("Bob", "herons", 150));
    write(&submissions, "bob.txt", copied);
    let report = dir.path().join("report.html");
    copyhound()
        .args(["compare", "-q"])
        .arg(&submissions)
        .arg("--report")
        .arg(&report)
        .assert()
        .success();
    let page = std::fs::read_to_string(&report).unwrap();
    let end = page.rfind("</body>").unwrap();
    std::fs::write(
        &report,
        format!("{}{CLICK_SCRIPT}{}", &page[..end], &page[end..]),
    )
    .unwrap();
    let url = format!("file://{}#pair=1", report.display());
    let dom = rendered_dom(&browser, &url, &dir.path().join("chromium-profile"));
    let start = dom
        .find("<pre id=\"test-result\">")
        .unwrap_or_else(|| panic!("the click script wrote no result:\n{dom}"))
        + "<pre id=\"test-result\">".len();
    let json = dom[start..start + dom[start..].find("</pre>").unwrap()].replace("&quot;", "\"");
    let result: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(result["hiddenBefore"], true, "{result}");
    // A fragment: its match on B comes into view, side A stays where it
    // was, and the fragment is outlined on both sides.
    let fragment = &result["fragment"];
    assert_eq!(fragment["shownInB"], true, "{result}");
    assert_eq!(fragment["aScroll"], 40, "{result}");
    assert_eq!(fragment["flashed"], "side-a:1 side-b:1", "{result}");
    // A gap: its passage comes into view on B, and every fragment and gap
    // of the passage is outlined.
    let gap = &result["gap"];
    assert_eq!(gap["shownInB"], true, "{result}");
    assert_eq!(gap["aScroll"], 40, "{result}");
    assert_eq!(
        gap["flashed"], "side-a:0 side-a:1 side-a:gap side-b:0 side-b:1 side-b:gap",
        "{result}"
    );
}
