//! Integration tests of the HTTP service, in process (`tower::ServiceExt`)
//! and, for the web page, over a loopback listener with headless Chromium.

mod api;
mod browser;
mod concurrency;
mod limits;
mod support;
