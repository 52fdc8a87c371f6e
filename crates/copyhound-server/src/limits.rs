//! What one client, or many, may cost the server.
//!
//! - **Connections** ([`serve_connections`]): at most
//!   [`Limits::max_connections`] open at once; one over the cap is answered
//!   `503` with `Retry-After` and closed, so idle clients cannot use up the
//!   file descriptors. A request's header must arrive within
//!   [`Limits::header_timeout`], which also closes a kept-alive connection
//!   idle for that long. A client that half-closes its side after the
//!   request still gets the answer.
//! - **Work** ([`Admission`]): a request with a document (add, search) is
//!   admitted before its body is read, when fewer than
//!   [`Limits::max_concurrent`] such requests are in flight and their bodies
//!   (by `Content-Length`, else the upload limit) fit in
//!   [`Limits::max_inflight_bytes`]; otherwise it is answered `429` with
//!   `Retry-After` at once. The admission is held until the database work
//!   ends, even when the client has gone, so memory follows the budget and
//!   not the number of clients. The body must then arrive within
//!   [`Limits::body_timeout`] (`408` otherwise).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The limits of the server; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at most.
    pub max_connections: usize,
    /// Time to send a request's header, and for a kept-alive connection to
    /// start its next request.
    pub header_timeout: Duration,
    /// Time to send a request's body once admitted.
    pub body_timeout: Duration,
    /// Requests with a document (add, search) in flight at most.
    pub max_concurrent: usize,
    /// Bytes of documents in flight at most.
    pub max_inflight_bytes: usize,
    /// What a refused client is told to wait before trying again.
    pub retry_after: Duration,
    /// How long a shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(60),
            max_concurrent: 16,
            max_inflight_bytes: 32 << 20,
            retry_after: Duration::from_secs(1),
            shutdown_grace: Duration::from_secs(30),
        }
    }
}

/// Admission of requests with a document: a count and a byte budget.
#[derive(Clone, Debug)]
pub struct Admission {
    requests: Arc<Semaphore>,
    kibibytes: Arc<Semaphore>,
    budget_kib: u32,
    retry_after: Duration,
    body_timeout: Duration,
}

/// An admitted request's share of the budget, given back when dropped.
#[derive(Debug)]
pub struct AdmissionPermit {
    _request: OwnedSemaphorePermit,
    _bytes: OwnedSemaphorePermit,
}

impl Admission {
    /// Admission under `limits`.
    pub fn new(limits: &Limits) -> Self {
        let budget_kib = u32::try_from(limits.max_inflight_bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .max(1);
        Self {
            requests: Arc::new(Semaphore::new(limits.max_concurrent.max(1))),
            kibibytes: Arc::new(Semaphore::new(budget_kib as usize)),
            budget_kib,
            retry_after: limits.retry_after,
            body_timeout: limits.body_timeout,
        }
    }

    /// How long an admitted request's body may take to arrive.
    pub fn body_timeout(&self) -> Duration {
        self.body_timeout
    }

    /// Admits a request whose document is `bytes` long, or refuses it with
    /// [`ApiError::Busy`] without waiting.
    pub fn try_admit(&self, bytes: usize) -> Result<AdmissionPermit, ApiError> {
        let busy = || ApiError::Busy {
            retry_after: self.retry_after,
        };
        let kib = u32::try_from(bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .clamp(1, self.budget_kib);
        let request = Arc::clone(&self.requests)
            .try_acquire_owned()
            .map_err(|_| busy())?;
        let bytes = Arc::clone(&self.kibibytes)
            .try_acquire_many_owned(kib)
            .map_err(|_| busy())?;
        Ok(AdmissionPermit {
            _request: request,
            _bytes: bytes,
        })
    }
}

/// The answer to a connection over the cap, written if the socket takes it
/// at once.
const OVER_CAPACITY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n\
    Content-Type: application/json\r\nContent-Length: 80\r\nConnection: close\r\n\r\n\
    {\"error\":{\"code\":\"busy\",\"message\":\"too many open connections; try again later\"}}";

/// Pause after a failed `accept` (out of file descriptors, say) so the loop
/// does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` under `limits` until `shutdown` completes,
/// then waits up to [`Limits::shutdown_grace`] for requests in flight.
pub async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .half_close(true)
        .keep_alive(true);
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    tracing::warn!("accepting a connection: {error}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A client that breaks off or times out is no server error.
            if let Err(error) = connection.await {
                tracing::debug!("connection ended: {error}");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            "requests still in flight after {} s; stopping anyway",
            limits.shutdown_grace.as_secs()
        );
    }
    Ok(())
}

/// Tells a connection over the cap to come back later, and closes it.
async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(OVER_CAPACITY)).await;
    let _ = stream.shutdown().await;
}
