//! `copyhound serve DB`: the HTTP search service over a fingerprint
//! database (API, `OpenAPI` description, web page); see `copyhound-server`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use copyhound_db::Database;
use copyhound_server::{AuditConfig, Limits, ServerConfig, Token};

/// The environment variable that may hold the write token.
const TOKEN_VARIABLE: &str = "COPYHOUND_TOKEN";

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The database directory (create one with `copyhound db init`).
    db: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// File holding the bearer token that authorises adds and removals
    /// (else the `COPYHOUND_TOKEN` variable; with neither the server is
    /// read-only).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Refuse request bodies larger than this many MiB (413).
    #[arg(long, default_value_t = 16, value_name = "MIB")]
    max_upload_mib: usize,
    /// Folder where the texts of documents added over HTTP are kept for the
    /// side by side view [default: DB/texts].
    #[arg(long, value_name = "DIR")]
    texts: Option<PathBuf>,
    /// Keep no texts: matches added over HTTP are listed without fragments.
    #[arg(long, conflicts_with = "texts")]
    no_texts: bool,
    /// Warn when one document matches more than this many searches within
    /// the audit window (someone may be probing its fingerprint).
    #[arg(long, default_value_t = 50)]
    audit_threshold: u32,
    /// The audit window in seconds.
    #[arg(long, default_value_t = 600, value_name = "SECS")]
    audit_window: u64,
    /// Documents (adds, searches) in flight at most; more are answered 429.
    #[arg(long, default_value_t = 16, value_name = "N")]
    max_concurrent: usize,
    /// MiB of documents in flight at most; more are answered 429. Memory in
    /// use is about 45 times this at worst (see the README, "Reliability").
    #[arg(long, default_value_t = 32, value_name = "MIB")]
    max_inflight_mib: usize,
    /// Open connections at most; more are answered 503 and closed.
    #[arg(long, default_value_t = 512, value_name = "N")]
    max_connections: usize,
    /// Seconds a client has to send a request's header, and a kept-alive
    /// connection may stay idle.
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    header_timeout: u64,
    /// Seconds a client has to send a document once admitted.
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    body_timeout: u64,
    /// Worker threads for the HTTP side (database work runs on a separate
    /// blocking pool).
    #[arg(long, default_value_t = 2)]
    workers: usize,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let ServeArgs {
        db: db_dir,
        listen,
        token_file,
        max_upload_mib,
        texts,
        no_texts,
        audit_threshold,
        audit_window,
        max_concurrent,
        max_inflight_mib,
        max_connections,
        header_timeout,
        body_timeout,
        workers,
    } = args;
    let limits = Limits {
        max_connections,
        header_timeout: Duration::from_secs(header_timeout),
        body_timeout: Duration::from_secs(body_timeout),
        max_concurrent,
        max_inflight_bytes: max_inflight_mib.saturating_mul(1 << 20),
        ..Limits::default()
    };
    let token = read_token(token_file.as_ref())?;
    if token.is_none() {
        tracing::warn!(
            "no write token (--token-file or {TOKEN_VARIABLE}): the server is read-only; adds and removals are refused"
        );
    }
    let db = Arc::new(Database::open(&db_dir)?);
    let texts_dir = (!no_texts).then(|| texts.unwrap_or_else(|| db_dir.join("texts")));
    let config = ServerConfig {
        token,
        max_upload_bytes: max_upload_mib.saturating_mul(1 << 20),
        texts_dir,
        audit: AuditConfig {
            threshold: audit_threshold,
            window: Duration::from_secs(audit_window),
        },
        isolation: crate::front_end::isolated_extractor(),
        limits: limits.clone(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers.max(1))
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let app = copyhound_server::router(db, config)?;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("listening on {listen}"))?;
        tracing::info!(
            "serving {} on http://{}/ (API description at /api/openapi.json)",
            db_dir.display(),
            listener.local_addr()?
        );
        copyhound_server::serve(listener, app, limits, shutdown_signal()).await?;
        tracing::info!("stopped");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The token from `--token-file`, else from the environment.
fn read_token(file: Option<&PathBuf>) -> Result<Option<Token>> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the token file {}", path.display()))?;
        let token = Token::new(&text)
            .with_context(|| format!("the token file {} is empty", path.display()))?;
        return Ok(Some(token));
    }
    Ok(std::env::var(TOKEN_VARIABLE)
        .ok()
        .and_then(|text| Token::new(&text)))
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}
