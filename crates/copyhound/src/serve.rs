//! `copyhound serve DB`: the HTTP search service over a fingerprint
//! database (API, `OpenAPI` description, web page); see `copyhound-server`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use copyhound_server::launch::{log_to_stderr, read_token, serve_until_signal};
use copyhound_server::{AuditConfig, Limits, ServerConfig};

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The database directory (`copyhound db init`), or a code archive
    /// (`db init --code`): code files and zips are then checked against it.
    db: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// File holding the bearer token of adds and removals (else
    /// `COPYHOUND_TOKEN`; with neither the server is read-only).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Refuse request bodies larger than this many MiB (413).
    #[arg(long, default_value_t = 16, value_name = "MIB")]
    max_upload_mib: usize,
    /// Where texts added over HTTP are kept for the side by side view
    /// [default: DB/texts].
    #[arg(long, value_name = "DIR")]
    texts: Option<PathBuf>,
    /// Keep no texts: matches added over HTTP are listed without fragments.
    #[arg(long, conflicts_with = "texts")]
    no_texts: bool,
    /// Warn when one document matches more searches within the audit
    /// window (someone may be probing its fingerprint).
    #[arg(long, default_value_t = 50)]
    audit_threshold: u32,
    /// The audit window in seconds.
    #[arg(long, default_value_t = 600, value_name = "SECS")]
    audit_window: u64,
    /// Documents (adds, searches) in flight at most; more are answered 429.
    #[arg(long, default_value_t = 16, value_name = "N")]
    max_concurrent: usize,
    /// MiB of documents in flight at most (memory: about 45 times this);
    /// more are answered 429.
    #[arg(long, default_value_t = 32, value_name = "MIB")]
    max_inflight_mib: usize,
    /// Open connections at most; more are answered 503 and closed.
    #[arg(long, default_value_t = 512, value_name = "N")]
    max_connections: usize,
    /// Seconds to send a request's header, or idle between requests.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    header_timeout: u64,
    /// Seconds a client has to send a document once admitted.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    body_timeout: u64,
    /// Over a code archive: ignore fingerprints more units hold than this, as `compare -m`.
    #[arg(short = 'm', long, value_name = "N|SHARE")]
    max_occurrences: Option<copyhound_index::MaxOccurrences>,
    /// Worker threads for HTTP (database work has a pool of its own).
    #[arg(long, default_value_t = 2)]
    workers: usize,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    log_to_stderr();
    let config = ServerConfig {
        token: read_token(args.token_file.as_deref())?,
        max_upload_bytes: args.max_upload_mib.saturating_mul(1 << 20),
        texts_dir: (!args.no_texts).then(|| args.texts.unwrap_or_else(|| args.db.join("texts"))),
        audit: AuditConfig {
            threshold: args.audit_threshold,
            window: Duration::from_secs(args.audit_window),
        },
        isolation: crate::front_end::isolated_extractor(),
        limits: Limits {
            max_connections: args.max_connections,
            header_timeout: Duration::from_secs(args.header_timeout),
            body_timeout: Duration::from_secs(args.body_timeout),
            max_concurrent: args.max_concurrent,
            max_inflight_bytes: args.max_inflight_mib.saturating_mul(1 << 20),
            ..Limits::default()
        },
        archive_max_occurrences: args.max_occurrences.unwrap_or_default(),
    };
    serve_until_signal(&args.db, args.listen, args.workers, config)?;
    Ok(ExitCode::SUCCESS)
}
