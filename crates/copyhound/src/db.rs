//! `copyhound db …`: a persistent database of registered documents (Koala
//! fingerprints by default, or winnowed ones) that new documents are
//! searched against.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use copyhound_db::{DEFAULT_ROTATION_BATCH, Mode, Params, SearchOptions};
use copyhound_normalize::TextMode;
use copyhound_normalize::code::Level;
use copyhound_pipeline::code_archive::{
    AddOutcome, ArchiveSettings, Stored, Storing, add_to_archive, create_archive, is_archive,
};
use copyhound_pipeline::database::{
    AddRequest, DocumentDatabase, NewDatabase, SearchLines, SearchRequest, check, check_lines,
    write_rotation, write_stats,
};
use copyhound_pipeline::{FrontEndChoice, Inputs, Selection, UnitMode, WalkFilter};

use crate::front_end::{isolated, isolated_extractor};
use crate::names::names;
use crate::walk::WalkArgs;
use crate::{Printer, warn};

/// The `db` subcommands.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Create a database.
    Init(InitArgs),
    /// Register documents (files, or directories walked recursively; hidden
    /// files and what `.gitignore` leaves out are skipped, as by `compare`).
    Add(AddArgs),
    /// Search each document on its own: ranked matches, and the passages it
    /// shares with the best ones.
    ///
    /// With --json, what `POST /api/search` answers, one object per line.
    /// Exit status: 0 when a file matched, 1 when none did, 2 when a file
    /// could not be read (the others are still searched).
    Search(SearchArgs),
    /// Unregister documents by id.
    Remove(RemoveArgs),
    /// Counts and sizes (of a code archive too: units, files, languages,
    /// bytes per unit).
    Stats(StatsArgs),
    /// Re-select every stored fingerprint under a new secret (Koala §3.3).
    ///
    /// Files are read again (or their prints kept with `--keep-prints`);
    /// those gone or changed are listed, with exit code 1. An interrupted
    /// rotation is resumed by the next `db rotate`.
    Rotate(RotateArgs),
    /// Read every file of the database (every unit of a code archive) and
    /// report damage.
    Check(DatabaseArg),
}

/// A database directory.
#[derive(Debug, Args)]
pub struct DatabaseArg {
    /// The database directory.
    db: PathBuf,
}

/// Arguments of `db rotate`.
#[derive(Debug, Args)]
pub struct RotateArgs {
    /// The database directory.
    db: PathBuf,
    /// Documents per transaction (for tests: small batches make a rotation
    /// long enough to interrupt).
    #[arg(long, hide = true, default_value_t = DEFAULT_ROTATION_BATCH)]
    batch: usize,
}

/// Arguments of `db init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The database directory to create.
    db: PathBuf,
    /// Koala (fixed-size) or winnowing (variable-size) fingerprints.
    #[arg(long, value_parser = names!(Mode), default_value = Mode::Koala.name())]
    mode: Mode,
    /// Secret key of the hashes and ranks; random if not given.
    #[arg(long)]
    seed: Option<u64>,
    /// How text is normalised (stored in the database, used by every
    /// command).
    #[arg(long, value_parser = names!(TextMode), default_value = TextMode::Chars.name())]
    text_mode: TextMode,
    #[command(flatten)]
    numeric: NumericArgs,
    /// Keep each document's search set (2.3 KB) so that `db rotate` reads
    /// no file.
    #[arg(long, action = clap::ArgAction::Set, default_value_t = false)]
    keep_prints: bool,
    /// Make a code archive for `compare --against` instead; it takes --seed
    /// (default 0), --k, --window and --text-mode of the options above.
    #[arg(long)]
    code: bool,
    /// Code archive: read every file as this language (or `text`).
    #[arg(long, value_name = "LANG", requires = "code")]
    lang: Option<String>,
    /// Code archive: normalisation level for code.
    #[arg(long, value_parser = names!(Level), default_value = Level::default().name(), requires = "code")]
    level: Level,
    /// Code archive: keep only where each file was added from (it is read
    /// again when it pairs with a new unit), not its bytes.
    #[arg(long, requires = "code")]
    no_texts: bool,
}

/// The numeric parameters of `db init`, an option each (`--search-size`):
/// names, descriptions and defaults come from the database's own table.
#[derive(Debug)]
pub struct NumericArgs(Vec<(&'static str, Option<u32>)>);

impl NumericArgs {
    fn given(&self, name: &str) -> Option<u32> {
        self.0.iter().find(|&&(each, _)| each == name)?.1
    }
}

impl clap::FromArgMatches for NumericArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let given = |&(name, _): &(&'static str, _)| (name, matches.get_one(name).copied());
        Ok(Self(Params::NUMERIC.iter().map(given).collect()))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for NumericArgs {
    fn augment_args(mut command: clap::Command) -> clap::Command {
        let defaults = Params::default().numeric();
        for ((name, help), (_, default)) in Params::NUMERIC.into_iter().zip(defaults) {
            let help = format!("{help} [default: {default}]");
            let option = clap::Arg::new(name)
                .long(name.replace('_', "-"))
                .value_name("N");
            command = command.arg(option.help(help).value_parser(clap::value_parser!(u32)));
        }
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// Arguments of `db add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// The database directory.
    db: PathBuf,
    /// Files or directories to register.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where the document can be fetched (stored instead of its path).
    #[arg(long)]
    url: Option<String>,
    /// A contact address for the document.
    #[arg(long, default_value = "")]
    email: String,
    /// A title (default: the file name).
    #[arg(long)]
    title: Option<String>,
    /// Documents (units of a code archive) per transaction: each batch is
    /// durable when it is reported.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[command(flatten)]
    walk: WalkArgs,
    /// Code archive: what one unit is, as for `compare`.
    #[arg(long, value_parser = names!(UnitMode), default_value = UnitMode::default().name())]
    unit: UnitMode,
    /// Code archive: a unit already archived with other files is replaced
    /// (without it, it is reported and left as it was).
    #[arg(long)]
    update: bool,
}

/// Arguments of `db search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The database directory.
    db: PathBuf,
    /// The documents to search for: files or directories.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// At most this many matches.
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Only matches with at least this many hits.
    #[arg(long, default_value_t = 1)]
    min_hits: u32,
    /// Show the passages of this many of the best matches.
    #[arg(long, default_value_t = 3)]
    fragments: usize,
    #[command(flatten)]
    walk: WalkArgs,
}

/// Arguments of `db remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The database directory.
    db: PathBuf,
    /// Ids of the documents to unregister.
    #[arg(required = true)]
    ids: Vec<u32>,
}

/// Arguments of `db stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The database directory.
    db: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs one `db` subcommand.
pub fn run(cmd: DbCommand) -> Result<ExitCode> {
    match cmd {
        DbCommand::Init(args) => init(&args),
        DbCommand::Add(args) => add(&args),
        DbCommand::Search(args) => search(&args),
        DbCommand::Remove(args) => remove(&args),
        DbCommand::Stats(args) => stats(&args),
        DbCommand::Rotate(args) => rotate(&args),
        DbCommand::Check(args) => check_command(&args.db),
    }
}

fn init(args: &InitArgs) -> Result<ExitCode> {
    if args.code {
        let settings = ArchiveSettings {
            front_end: FrontEndChoice {
                lang: args.lang.clone(),
                level: args.level,
                text_mode: args.text_mode,
                ..FrontEndChoice::default()
            },
            selection: Selection {
                k: args.numeric.given("k").map(|k| k as usize),
                w: args.numeric.given("window").map(|w| w as usize),
                seed: args.seed.unwrap_or(0),
                ..Selection::default()
            },
        };
        println!("{}", create_archive(&args.db, &settings, !args.no_texts)?);
        return Ok(ExitCode::SUCCESS);
    }
    let new = NewDatabase {
        mode: args.mode,
        seed: args.seed,
        text_mode: args.text_mode,
        keep_prints: args.keep_prints,
        changes: args.numeric.0.clone(),
    };
    println!("{}", new.create(&args.db)?);
    Ok(ExitCode::SUCCESS)
}

fn add(args: &AddArgs) -> Result<ExitCode> {
    let filter = args.walk.filter(&[], &[]);
    if is_archive(&args.db) {
        if args.url.is_some() || args.title.is_some() || !args.email.is_empty() {
            bail!(
                "--url, --title and --email are for text databases; a code archive names each unit by its path"
            );
        }
        let mut out = io::stdout().lock();
        let mut committed = |units: &[Stored]| AddOutcome::write_stored(units, &mut out);
        let storing = Storing {
            update: args.update,
            batch: args.batch,
            committed: Some(&mut committed),
        };
        let outcome = register_units(&args.db, &args.paths, args.unit, filter, storing)?;
        outcome.write_skipped(&mut out)?;
        return Ok(ExitCode::from(u8::from(outcome.failed())));
    }
    let mut db = DocumentDatabase::open(&args.db)?.with_isolation(isolated_extractor());
    let request = AddRequest {
        paths: args.paths.clone(),
        url: args.url.clone(),
        email: args.email.clone(),
        title: args.title.clone(),
        batch: args.batch,
        filter,
    };
    let mut printer = Printer::default();
    let summary = db.add_paths(&request, &mut |event| printer.print(event.line()))?;
    printer.finish()?;
    Ok(ExitCode::from(u8::from(summary.failed > 0)))
}

/// Registers the units of `paths` in the code archive at `dir` (PDFs
/// extracted in a child process), warning of the files left out.
pub fn register_units(
    dir: &Path,
    paths: &[PathBuf],
    unit: UnitMode,
    filter: WalkFilter,
    storing: Storing<'_>,
) -> Result<AddOutcome> {
    let inputs = Inputs {
        new: paths.to_vec(),
        unit,
        filter,
        ..Inputs::default()
    };
    let outcome = add_to_archive(
        dir,
        &inputs,
        &isolated(FrontEndChoice::default()),
        storing,
        &(),
    )?;
    for problem in &outcome.problems {
        warn(&problem.message);
    }
    Ok(outcome)
}

fn search(args: &SearchArgs) -> Result<ExitCode> {
    let db = DocumentDatabase::open(&args.db)?.with_isolation(isolated_extractor());
    let request = SearchRequest {
        options: SearchOptions {
            limit: args.limit,
            min_hits: args.min_hits,
        },
        fragments: args.fragments,
        include_text: false,
    };
    let mut lines = SearchLines::new(args.json, &args.files);
    let mut printer = Printer::default();
    let filter = args.walk.filter(&[], &[]);
    let summary = db.search_paths(&args.files, &filter, &request, &mut |event| {
        printer.print(lines.line(event));
    })?;
    printer.finish()?;
    Ok(ExitCode::from(summary.exit_status()))
}

fn rotate(args: &RotateArgs) -> Result<ExitCode> {
    let mut db = DocumentDatabase::open(&args.db)?.with_isolation(isolated_extractor());
    let progress = |done: u64, end: u64| eprintln!("rotated through document {done} of {end}");
    let report = db.rotate(args.batch, &progress)?;
    write_rotation(&report, &mut io::stdout().lock())?;
    Ok(ExitCode::from(u8::from(!report.unrotated.is_empty())))
}

fn remove(args: &RemoveArgs) -> Result<ExitCode> {
    let db = DocumentDatabase::open(&args.db)?;
    let mut printer = Printer::default();
    let found_all = db.remove_all(&args.ids, &mut |line| printer.print(line))?;
    printer.finish()?;
    Ok(ExitCode::from(u8::from(!found_all)))
}

fn stats(args: &StatsArgs) -> Result<ExitCode> {
    write_stats(&args.db, args.json, &mut io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

fn check_command(dir: &Path) -> Result<ExitCode> {
    let report = check(dir)?;
    let mut printer = Printer::default();
    for line in check_lines(&report) {
        printer.print(line);
    }
    printer.finish()?;
    Ok(ExitCode::from(u8::from(!report.is_ok())))
}
