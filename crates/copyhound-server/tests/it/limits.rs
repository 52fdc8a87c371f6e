//! Hostile clients over a real loopback socket (issue #19): slow and idle
//! connections are closed, connections over the cap and documents over the
//! work budget are refused at once with `Retry-After`, a late body gets
//! 408, and a half-closed request is still answered.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use copyhound_server::{Limits, ServerConfig, Token, serve};

use crate::support::{TOKEN, TestServer, server_with, synthetic_text};

/// A server on a loopback port, stopped when dropped.
struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    _server: TestServer,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap();
    }
}

fn start(limits: &Limits) -> Running {
    let limits = Limits {
        shutdown_grace: Duration::from_millis(200),
        ..limits.clone()
    };
    let server = server_with(ServerConfig {
        token: Token::new(TOKEN),
        limits: limits.clone(),
        ..ServerConfig::default()
    });
    let app = server.app.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            serve(listener, app, limits, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
    });
    Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
        _server: server,
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Everything the server sends until it closes the connection; an error
/// if it keeps it open for the read timeout.
fn read_to_close(stream: &mut TcpStream) -> io::Result<String> {
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The response head and as much body as came with it.
fn read_response(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    while !bytes.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = stream.read(&mut buffer).unwrap();
        assert!(read > 0, "closed before a response");
        bytes.extend_from_slice(&buffer[..read]);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn search_request(text: &str) -> Vec<u8> {
    let body = serde_json::json!({ "text": text }).to_string();
    format!(
        "POST /api/search HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The head of a search whose body, `length` bytes long, is not sent yet.
fn search_head(length: usize) -> Vec<u8> {
    format!(
        "POST /api/search HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n{{\"text\": \""
    )
    .into_bytes()
}

const QUICK: Limits = Limits {
    max_connections: 512,
    header_timeout: Duration::from_secs(1),
    body_timeout: Duration::from_secs(1),
    max_concurrent: 4,
    max_inflight_bytes: 32 << 20,
    retry_after: Duration::from_secs(1),
    shutdown_grace: Duration::from_secs(1),
};

#[test]
fn a_header_sent_a_byte_at_a_time_is_cut_off() {
    let server = start(&QUICK);
    let mut stream = connect(server.addr);
    let started = Instant::now();
    for byte in b"GET /api/stats HTTP/1.1\r\nHost: test\r\nX-Slow: " {
        if stream.write_all(&[*byte]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    let answer = read_to_close(&mut stream).expect("the connection stayed open");
    assert!(!answer.contains("200 OK"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(6));
}

#[test]
fn idle_connections_are_closed() {
    let server = start(&QUICK);
    let mut silent = connect(server.addr);
    assert_eq!(read_to_close(&mut silent).expect("still open"), "");

    let mut kept_alive = connect(server.addr);
    kept_alive
        .write_all(b"GET /api/stats HTTP/1.1\r\nHost: test\r\n\r\n")
        .unwrap();
    let answer = read_to_close(&mut kept_alive).expect("still open after the answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_half_closed_request_is_answered() {
    let server = start(&QUICK);
    let mut stream = connect(server.addr);
    stream
        .write_all(b"GET /api/stats HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    stream.shutdown(Shutdown::Write).unwrap();
    let answer = read_to_close(&mut stream).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
}

#[test]
fn connections_over_the_cap_are_refused_with_retry_after() {
    let server = start(&Limits {
        max_connections: 3,
        header_timeout: Duration::from_secs(30),
        ..QUICK
    });
    let held: Vec<TcpStream> = (0..3).map(|_| connect(server.addr)).collect();
    // Let the server take the three before the fourth arrives.
    std::thread::sleep(Duration::from_millis(300));
    let mut extra = connect(server.addr);
    let answer = read_to_close(&mut extra).unwrap();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    assert!(answer.contains("Retry-After: 1"), "{answer}");
    drop(held);
    // Room again once they are gone.
    std::thread::sleep(Duration::from_millis(300));
    let mut again = connect(server.addr);
    again
        .write_all(b"GET /api/stats HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert!(
        read_to_close(&mut again)
            .unwrap()
            .starts_with("HTTP/1.1 200")
    );
}

#[test]
fn documents_over_the_concurrency_limit_get_429() {
    let server = start(&Limits {
        max_concurrent: 2,
        body_timeout: Duration::from_secs(30),
        ..QUICK
    });
    // Two searches admitted, their bodies still on the way.
    let mut pending: Vec<TcpStream> = (0..2).map(|_| connect(server.addr)).collect();
    for stream in &mut pending {
        stream.write_all(&search_head(100_000)).unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));
    let mut third = connect(server.addr);
    third
        .write_all(&search_request(&synthetic_text(1, 100)))
        .unwrap();
    let answer = read_response(&mut third);
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 1"),
        "{answer}"
    );
    assert!(answer.contains("\"busy\""), "{answer}");
    // Reads need no admission.
    let mut stats = connect(server.addr);
    stats
        .write_all(b"GET /api/stats HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert!(
        read_to_close(&mut stats)
            .unwrap()
            .starts_with("HTTP/1.1 200")
    );
}

#[test]
fn documents_over_the_byte_budget_get_429_and_small_ones_pass() {
    let server = start(&Limits {
        max_inflight_bytes: 1 << 20,
        body_timeout: Duration::from_secs(30),
        ..QUICK
    });
    let mut large = connect(server.addr);
    large.write_all(&search_head(800_000)).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut second_large = connect(server.addr);
    second_large.write_all(&search_head(400_000)).unwrap();
    assert!(read_response(&mut second_large).starts_with("HTTP/1.1 429"));
    let mut small = connect(server.addr);
    small
        .write_all(&search_request(&synthetic_text(2, 200)))
        .unwrap();
    assert!(read_response(&mut small).starts_with("HTTP/1.1 200"));
}

#[test]
fn a_body_that_does_not_arrive_in_time_gets_408() {
    let server = start(&QUICK);
    let mut stream = connect(server.addr);
    stream.write_all(&search_head(10_000)).unwrap();
    let answer = read_response(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout"), "{answer}");
}
