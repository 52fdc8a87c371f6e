//! The server as a program runs it: the database opened, a runtime of its
//! own, the listener bound, requests served until Ctrl-C or SIGTERM; and
//! the write token read from a file or the environment; its log on
//! standard error.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use copyhound_db::Database;
use copyhound_pipeline::MaxOccurrences;
use copyhound_pipeline::code_archive::is_archive;

use crate::{ServerConfig, ServerError, Token};

/// The environment variable that may hold the write token.
pub const TOKEN_VARIABLE: &str = "COPYHOUND_TOKEN";

/// The write token in the file `file`, else in [`TOKEN_VARIABLE`]; `None`
/// with neither. An empty file is an error: it was meant to hold one.
pub fn read_token(file: Option<&Path>) -> Result<Option<Token>, ServerError> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|source| ServerError::TokenFile {
            path: path.to_owned(),
            source,
        })?;
        let token = Token::new(&text).ok_or_else(|| ServerError::EmptyToken(path.to_owned()))?;
        return Ok(Some(token));
    }
    Ok(std::env::var(TOKEN_VARIABLE)
        .ok()
        .and_then(|text| Token::new(&text)))
}

/// Sends the server's log to standard error, coloured on a terminal.
pub fn log_to_stderr() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

/// Serves the database (or code archive) at `db_dir` on `listen` with
/// `config`, on `workers` threads (database work runs on a separate
/// blocking pool), until Ctrl-C or SIGTERM; logs through `tracing`. Over
/// a code archive the token and the kept texts are not used: nothing is
/// written.
pub fn serve_until_signal(
    db_dir: &Path,
    listen: SocketAddr,
    workers: usize,
    config: ServerConfig,
) -> Result<(), ServerError> {
    let archive = is_archive(db_dir);
    if !archive && config.archive_max_occurrences != MaxOccurrences::Unlimited {
        return Err(ServerError::LimitWithoutArchive(db_dir.to_owned()));
    }
    if config.token.is_none() && !archive {
        tracing::warn!(
            "no write token (--token-file or {TOKEN_VARIABLE}): the server is read-only; adds and removals are refused"
        );
    }
    // A code archive is opened by each check; a database once, here.
    let db = if archive {
        None
    } else {
        Some(Arc::new(Database::open(db_dir)?))
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers.max(1))
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    runtime.block_on(async {
        let limits = config.limits.clone();
        let app = match db {
            Some(db) => crate::router(db, config)?,
            None => crate::archive::router(db_dir, &config)?,
        };
        let bound = |source| ServerError::Listen {
            address: listen,
            source,
        };
        let listener = tokio::net::TcpListener::bind(listen).await.map_err(bound)?;
        tracing::info!(
            "serving {} on http://{}/ (API description at /api/openapi.json)",
            db_dir.display(),
            listener.local_addr().map_err(bound)?
        );
        crate::serve(listener, app, limits, shutdown_signal()).await?;
        tracing::info!("stopped");
        Ok(())
    })
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
