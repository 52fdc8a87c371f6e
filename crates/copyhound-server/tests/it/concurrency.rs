//! Searches keep running while documents are added: every search succeeds
//! and finds a document whose add completed before the search started.

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;

use crate::support::{add, search, server, synthetic_text};

const ADDS: u64 = 40;
const SEARCHES_PER_TASK: usize = 30;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_succeed_while_documents_are_added() {
    let server = server();
    let app = server.app.clone();
    let first = synthetic_text(1000, 250);
    let first_id = add(&app, "doc 1000", &first).await;
    // (id, seed) of every document whose add has returned.
    let added = Arc::new(Mutex::new(vec![(first_id, 1000u64)]));

    let adder = {
        let (app, added) = (app.clone(), Arc::clone(&added));
        tokio::spawn(async move {
            for seed in 1001..1001 + ADDS {
                let id = add(&app, &format!("doc {seed}"), &synthetic_text(seed, 250)).await;
                added.lock().unwrap().push((id, seed));
            }
        })
    };
    let searchers: Vec<_> = (0..3)
        .map(|task| {
            let (app, added) = (app.clone(), Arc::clone(&added));
            tokio::spawn(async move {
                let mut seen_while_adding = 0;
                for round in 0..SEARCHES_PER_TASK {
                    let (known, total) = {
                        let added = added.lock().unwrap();
                        (added[(round * 7 + task) % added.len()], added.len())
                    };
                    let (id, seed) = known;
                    let (status, body) = search(&app, &synthetic_text(seed, 250)).await;
                    assert_eq!(status, StatusCode::OK, "search {task}/{round}: {body}");
                    assert_eq!(
                        body["matches"][0]["id"], id,
                        "search {task}/{round}: {body}"
                    );
                    assert_eq!(body["matches"][0]["ratio"], 1.0, "search {task}/{round}");
                    if (total as u64) < ADDS + 1 {
                        seen_while_adding += 1;
                    }
                    tokio::task::yield_now().await;
                }
                seen_while_adding
            })
        })
        .collect();
    let mut overlapping = 0;
    for searcher in searchers {
        overlapping += searcher.await.unwrap();
    }
    adder.await.unwrap();
    // Not a timing claim: the searches interleave with the adds in any run
    // that did not finish all adds before the first search, which the
    // 40 durable adds make all but certain; report rather than assert.
    eprintln!(
        "{overlapping} of {} searches ran while adds were under way",
        3 * SEARCHES_PER_TASK
    );
    let (_, stats) = crate::support::send(
        &app,
        crate::support::bare_request("GET", "/api/stats", None),
    )
    .await;
    assert_eq!(stats["documents"], ADDS + 1);
    assert!(
        stats["segments"].as_u64().unwrap() >= 1,
        "no segment was flushed: {stats}"
    );
}
