//! Integration tests of the HTTP service, over a text database and over a
//! code archive, in process (`tower::ServiceExt`) and, for the web pages,
//! over a loopback listener with headless Chromium.

mod api;
mod archive;
mod browser;
mod concurrency;
mod limits;
mod support;
