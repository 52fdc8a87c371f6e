//! The JSON report: the whole model, pretty-printed, with its schema
//! version first so readers can check it before anything else.

use std::io::{Read, Write};

use crate::{Report, ReportError, SCHEMA_VERSION};

/// Writes `report` as pretty-printed JSON followed by a newline.
pub fn write_json(report: &Report, mut out: impl Write) -> Result<(), ReportError> {
    serde_json::to_writer_pretty(&mut out, report)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// Reads a JSON report, refusing one of a newer schema version.
pub fn read_json(input: impl Read) -> Result<Report, ReportError> {
    let value: serde_json::Value = serde_json::from_reader(input)?;
    let found = value
        .get("schema_version")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    if found > u64::from(SCHEMA_VERSION) {
        return Err(ReportError::NewerSchema {
            found: found as u32,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(serde_json::from_value(value)?)
}
