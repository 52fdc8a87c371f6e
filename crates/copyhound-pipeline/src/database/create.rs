//! A new database's parameters: its mode's defaults, each change checked by
//! `Params`, and a random secret unless one is given.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use copyhound_db::{Mode, Params};
use copyhound_normalize::TextMode;

use super::{DatabaseError, DocumentDatabase};

/// What `db init` chooses.
#[derive(Clone, Debug)]
pub struct NewDatabase {
    /// Koala or winnowing fingerprints; every parameter not changed is this
    /// mode's default.
    pub mode: Mode,
    /// The secret key of the hashes and ranks; eight random bytes from the
    /// operating system when not given.
    pub seed: Option<u64>,
    /// How text is normalised, by every command.
    pub text_mode: TextMode,
    /// Keep each document's search set, so that rotating reads no file.
    pub keep_prints: bool,
    /// Numeric parameters by their names in [`Params::numeric`], each
    /// changed from the mode's default when given.
    pub changes: Vec<(&'static str, Option<u32>)>,
}

impl NewDatabase {
    /// The parameters chosen; a value out of its range is an error naming
    /// the parameter.
    pub fn params(&self) -> Result<Params, DatabaseError> {
        let mut params = match self.mode {
            Mode::Koala => Params::default(),
            Mode::Winnow => Params::winnow(),
        };
        params.seed = match self.seed {
            Some(seed) => seed,
            None => random_seed().map_err(DatabaseError::Seed)?,
        };
        self.text_mode.name().clone_into(&mut params.front_end);
        params.keep_prints = self.keep_prints;
        for &(name, value) in &self.changes {
            if let Some(value) = value {
                params.set(name, &value.to_string())?;
            }
        }
        Ok(params)
    }

    /// Creates the database at `dir` with these parameters; what `db init`
    /// says of it.
    pub fn create(&self, dir: &Path) -> Result<String, DatabaseError> {
        let db = DocumentDatabase::create(dir, self.params()?)?;
        let params = db.params();
        Ok(format!(
            "created {} ({} mode, {} text)",
            dir.display(),
            params.mode,
            params.front_end
        ))
    }
}

/// Eight bytes from the operating system's random source.
fn random_seed() -> std::io::Result<u64> {
    let mut bytes = [0u8; 8];
    File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}
