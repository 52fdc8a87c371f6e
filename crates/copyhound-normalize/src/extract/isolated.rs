//! PDF extraction in a child process that limits itself and can be killed.
//!
//! A thread that loops inside a parser cannot be stopped, and an allocation
//! made while parsing cannot be refused from outside; a process can. When
//! [`crate::LoadOptions::isolation`] names an [`IsolatedExtractor`], the
//! loader starts that program for each PDF, writes the file to its standard
//! input and reads the text from its standard output. The program — the
//! `copyhound` binary runs itself as `copyhound __extract` — calls
//! [`serve_extraction`], which first lowers its own limits with `setrlimit`
//! (CPU time, address space, no core file), then extracts. The parent kills
//! it at the wall deadline, so no process or thread outlives the request,
//! and maps every way it can end (signal, limit, garbage) to an
//! [`ExtractError`].
//!
//! Both directions use one framing: the line [`MAGIC`], then little-endian
//! `u64` fields and length-prefixed bytes.
//!
//! - request: kind (`b'p'` for PDF), CPU seconds, address-space bytes,
//!   inflation limit, length, the file's bytes;
//! - answer: status `0` and the text (length, UTF-8), or status `1`, an
//!   error code, a number and a message (length, UTF-8).

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::ExtractError;

/// The first line of every request and answer.
pub const MAGIC: &[u8] = b"copyhound-extract 1\n";

/// Address space a child may use besides [`MEMORY_PER_INPUT_BYTE`] per
/// byte of its input: the program, its libraries and the text it builds.
pub const BASE_MEMORY_BYTES: u64 = 768 << 20;

/// Address space a child may use per byte of the PDF it reads: `lopdf`
/// holds the file and every object parsed from it, a few times its size.
pub const MEMORY_PER_INPUT_BYTE: u64 = 8;

/// The largest error message or text length a child may announce beyond
/// the inflation limit (a garbage answer must not make the parent allocate).
const ANSWER_SLACK_BYTES: u64 = 1 << 20;

/// How much of a child's standard error is kept to explain its death.
const STDERR_TAIL_BYTES: usize = 4096;

/// The program that extracts in a child process, and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsolatedExtractor {
    /// The program (for `copyhound`, the running executable).
    pub program: PathBuf,
    /// Its arguments (for `copyhound`, `["__extract"]`).
    pub args: Vec<OsString>,
    /// Address space allowed besides [`MEMORY_PER_INPUT_BYTE`] per input
    /// byte ([`BASE_MEMORY_BYTES`] by default).
    pub base_memory_bytes: u64,
}

impl IsolatedExtractor {
    /// `program args…` with the default memory allowance.
    pub fn new(program: impl Into<PathBuf>, args: &[&str]) -> Self {
        Self {
            program: program.into(),
            args: args.iter().map(OsString::from).collect(),
            base_memory_bytes: BASE_MEMORY_BYTES,
        }
    }

    /// The address-space limit for an input of `input_bytes`.
    pub fn memory_limit(&self, input_bytes: usize) -> u64 {
        self.base_memory_bytes
            .saturating_add(MEMORY_PER_INPUT_BYTE.saturating_mul(input_bytes as u64))
    }

    /// The text of the PDF in `bytes`, extracted by the child within
    /// `timeout` (wall and CPU time) and the memory limit, refusing streams
    /// that inflate beyond `inflated_limit`.
    pub fn extract_pdf(
        &self,
        bytes: &[u8],
        timeout: Duration,
        inflated_limit: u64,
    ) -> Result<String, ExtractError> {
        let memory = self.memory_limit(bytes.len());
        let cpu_seconds = timeout.as_secs().max(1);
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                ExtractError::ExtractorFailed(format!(
                    "cannot start {}: {error}",
                    self.program.display()
                ))
            })?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let answer_limit = inflated_limit.saturating_add(ANSWER_SLACK_BYTES);
        let deadline = Instant::now() + timeout;
        let (status, answer, stderr_tail) = std::thread::scope(|scope| {
            scope.spawn(move || {
                // A child that dies early closes the pipe; its status says why.
                let _ = write_request(&mut stdin, b'p', cpu_seconds, memory, inflated_limit, bytes);
            });
            let (sender, receiver) = mpsc::sync_channel(1);
            scope.spawn(move || {
                let _ = sender.send(read_answer(stdout, answer_limit));
            });
            let stderr_tail = scope.spawn(move || tail(stderr));
            // The answer is complete when the child closes its output, that
            // is when it exits: no polling while it works.
            let answer = receiver.recv_timeout(deadline.saturating_duration_since(Instant::now()));
            let status = wait_until(&mut child, deadline);
            let answer = answer
                .or_else(|_| receiver.recv())
                .unwrap_or_else(|_| Err(io::Error::other("the answer reader stopped")));
            (status, answer, stderr_tail.join().expect("stderr reader"))
        });
        match status {
            Err(error) => Err(ExtractError::ExtractorFailed(format!(
                "waiting for the PDF reader: {error}"
            ))),
            Ok(None) => Err(ExtractError::PdfTimeout(timeout)),
            Ok(Some(status)) if status.success() => answer.map_err(|error| {
                ExtractError::ExtractorFailed(format!(
                    "unreadable answer from the PDF reader: {error}"
                ))
            })?,
            Ok(Some(status)) => Err(died(status, &stderr_tail, cpu_seconds, memory)),
        }
    }
}

/// Waits for `child` until `deadline`; kills it then and answers `None`.
fn wait_until(child: &mut Child, deadline: Instant) -> io::Result<Option<ExitStatus>> {
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Why a child that did not exit cleanly stopped.
fn died(status: ExitStatus, stderr: &str, cpu_seconds: u64, memory: u64) -> ExtractError {
    if stderr.contains("memory allocation of") {
        return ExtractError::ExtractorMemoryLimit { bytes: memory };
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        // SIGXCPU: the soft CPU limit was reached.
        if status.signal() == Some(24) {
            return ExtractError::ExtractorCpuLimit {
                seconds: cpu_seconds,
            };
        }
    }
    let last_line = stderr.lines().last().unwrap_or("").trim();
    ExtractError::ExtractorFailed(if last_line.is_empty() {
        format!("the PDF reader stopped: {status}")
    } else {
        format!("the PDF reader stopped: {status}: {last_line}")
    })
}

/// The last [`STDERR_TAIL_BYTES`] of `stream`.
fn tail(mut stream: impl Read) -> String {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(read) = stream.read(&mut buffer) {
        if read == 0 {
            break;
        }
        kept.extend_from_slice(&buffer[..read]);
        if kept.len() > 2 * STDERR_TAIL_BYTES {
            kept.drain(..kept.len() - STDERR_TAIL_BYTES);
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

fn write_request(
    out: &mut impl Write,
    kind: u8,
    cpu_seconds: u64,
    memory: u64,
    inflated_limit: u64,
    bytes: &[u8],
) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&[kind])?;
    for number in [cpu_seconds, memory, inflated_limit, bytes.len() as u64] {
        out.write_all(&number.to_le_bytes())?;
    }
    out.write_all(bytes)?;
    out.flush()
}

/// The answer of a child: its text or its error.
fn read_answer(mut input: impl Read, limit: u64) -> io::Result<Result<String, ExtractError>> {
    read_magic(&mut input)?;
    match read_u8(&mut input)? {
        0 => Ok(Ok(read_string(&mut input, limit)?)),
        1 => {
            let code = read_u8(&mut input)?;
            let number = read_u64(&mut input)?;
            let message = read_string(&mut input, limit)?;
            Ok(Err(decode_error(code, number, message)?))
        }
        other => Err(invalid(format!("unknown status {other}"))),
    }
}

fn encode_error(error: &ExtractError) -> (u8, u64, String) {
    match error {
        ExtractError::CorruptPdf(message) => (1, 0, message.clone()),
        ExtractError::EncryptedPdf => (2, 0, String::new()),
        ExtractError::PdfReaderCrashed(message) => (3, 0, message.clone()),
        ExtractError::PdfTooLarge { limit } => (4, *limit, String::new()),
        other => (5, 0, other.to_string()),
    }
}

fn decode_error(code: u8, number: u64, message: String) -> io::Result<ExtractError> {
    Ok(match code {
        1 => ExtractError::CorruptPdf(message),
        2 => ExtractError::EncryptedPdf,
        3 => ExtractError::PdfReaderCrashed(message),
        4 => ExtractError::PdfTooLarge { limit: number },
        5 => ExtractError::ExtractorFailed(message),
        other => return Err(invalid(format!("unknown error code {other}"))),
    })
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

fn read_magic(input: &mut impl Read) -> io::Result<()> {
    let mut magic = [0u8; MAGIC.len()];
    input.read_exact(&mut magic)?;
    if magic == MAGIC {
        Ok(())
    } else {
        Err(invalid("not a copyhound-extract frame".into()))
    }
}

fn read_u8(input: &mut impl Read) -> io::Result<u8> {
    let mut byte = [0u8; 1];
    input.read_exact(&mut byte)?;
    Ok(byte[0])
}

fn read_u64(input: &mut impl Read) -> io::Result<u64> {
    let mut bytes = [0u8; 8];
    input.read_exact(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

fn read_bytes(input: &mut impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let length = read_u64(input)?;
    if length > limit {
        return Err(invalid(format!("{length} bytes announced, over {limit}")));
    }
    let mut bytes = Vec::new();
    input.take(length).read_to_end(&mut bytes)?;
    if bytes.len() as u64 == length {
        Ok(bytes)
    } else {
        Err(invalid(format!(
            "{length} bytes announced, {} sent",
            bytes.len()
        )))
    }
}

fn read_string(input: &mut impl Read, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bytes(input, limit)?).map_err(|_| invalid("text is not UTF-8".into()))
}

fn write_bytes(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(&(bytes.len() as u64).to_le_bytes())?;
    out.write_all(bytes)
}

/// The child's side: reads one request from `input`, lowers this process's
/// limits to the ones asked for, extracts, and writes the answer to
/// `output`. Meant to be the whole of a process that does nothing else (the
/// limits stay lowered): `copyhound __extract`.
pub fn serve_extraction(mut input: impl Read, mut output: impl Write) -> io::Result<()> {
    read_magic(&mut input)?;
    let kind = read_u8(&mut input)?;
    let cpu_seconds = read_u64(&mut input)?;
    let memory = read_u64(&mut input)?;
    let inflated_limit = read_u64(&mut input)?;
    limit_self(cpu_seconds, memory)?;
    let bytes = read_bytes(&mut input, u64::MAX)?;
    let result = match kind {
        b'p' => extract_pdf_here(&bytes, inflated_limit),
        other => return Err(invalid(format!("unknown kind {other}"))),
    };
    output.write_all(MAGIC)?;
    match result {
        Ok(text) => {
            output.write_all(&[0])?;
            write_bytes(&mut output, text.as_bytes())?;
        }
        Err(error) => {
            let (code, number, message) = encode_error(&error);
            output.write_all(&[1, code])?;
            output.write_all(&number.to_le_bytes())?;
            write_bytes(&mut output, message.as_bytes())?;
        }
    }
    output.flush()
}

#[cfg(feature = "pdf")]
fn extract_pdf_here(bytes: &[u8], inflated_limit: u64) -> Result<String, ExtractError> {
    // The parent reports a panic from the answer; the child's stderr stays
    // for allocation failures.
    std::panic::set_hook(Box::new(|_| {}));
    std::panic::catch_unwind(|| super::pdf::extract(bytes, inflated_limit)).unwrap_or_else(
        |panic| {
            Err(ExtractError::PdfReaderCrashed(super::pdf::panic_message(
                panic.as_ref(),
            )))
        },
    )
}

#[cfg(not(feature = "pdf"))]
fn extract_pdf_here(_bytes: &[u8], _inflated_limit: u64) -> Result<String, ExtractError> {
    Err(ExtractError::FeatureDisabled("PDF", "pdf"))
}

/// Lowers this process's CPU time and address space, and turns core files
/// off (a child killed at a limit must not leave one behind). Limits the
/// process already has that are lower stay.
#[cfg(unix)]
fn limit_self(cpu_seconds: u64, memory: u64) -> io::Result<()> {
    use rlimit::Resource;
    let lower = |resource: Resource, soft: u64, hard: u64| -> io::Result<()> {
        let (current_soft, current_hard) = resource.get()?;
        resource.set(soft.min(current_soft), hard.min(current_hard))
    };
    lower(Resource::CORE, 0, 0)?;
    // The hard limit one second later: SIGXCPU at the soft one, SIGKILL after.
    lower(Resource::CPU, cpu_seconds, cpu_seconds.saturating_add(1))?;
    lower(Resource::AS, memory, memory)
}

#[cfg(not(unix))]
fn limit_self(_cpu_seconds: u64, _memory: u64) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip() {
        for result in [
            Ok("some text".to_string()),
            Err(ExtractError::CorruptPdf("bad xref".into())),
            Err(ExtractError::EncryptedPdf),
            Err(ExtractError::PdfTooLarge { limit: 77 }),
        ] {
            let mut frame = MAGIC.to_vec();
            match &result {
                Ok(text) => {
                    frame.push(0);
                    write_bytes(&mut frame, text.as_bytes()).unwrap();
                }
                Err(error) => {
                    let (code, number, message) = encode_error(error);
                    frame.extend([1, code]);
                    frame.extend(number.to_le_bytes());
                    write_bytes(&mut frame, message.as_bytes()).unwrap();
                }
            }
            assert_eq!(read_answer(frame.as_slice(), 1 << 20).unwrap(), result);
        }
    }

    #[test]
    fn garbage_answers_are_refused_without_allocating_what_they_announce() {
        assert!(read_answer(&b"hello"[..], 1 << 20).is_err());
        let mut frame = MAGIC.to_vec();
        frame.push(0);
        frame.extend(u64::MAX.to_le_bytes());
        let error = read_answer(frame.as_slice(), 1 << 20).unwrap_err();
        assert!(error.to_string().contains("announced"), "{error}");
    }
}
