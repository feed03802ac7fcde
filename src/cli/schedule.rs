//! `txverify simulate` on schedule files, and `txverify schedule convert`.
//!
//! A file given to `simulate` is a schedule when
//! [`txverify_core::schedule::format::is_schedule`] says so (JSON
//! object, or a `sends:` line); `.tbl` files keep their own path. The replay,
//! the verdict and the report are [`txverify_clients::report::schedule`]'s.

use super::exit::Exit;
use super::{OutputFormat, SimulateArgs};
use std::io::Write as _;
use std::path::PathBuf;
use txverify_clients::report::ErrorReport;
pub(super) use txverify_clients::report::schedule::{
    REPORT_SCHEMA, ScheduleRequest, refuse_schedule_options, simulate_schedule,
};
use txverify_core::schedule::format::{is_schedule, write_json, write_text};
use txverify_core::schedule::{Schedule, parse};

/// Work on schedule files (docs/schedule.md).
#[derive(clap::Args, Debug)]
pub struct ScheduleArgs {
    #[command(subcommand)]
    command: ScheduleCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ScheduleCommand {
    /// Convert a schedule between the text and JSON formats (without loss).
    #[command(after_help = super::examples::SCHEDULE_CONVERT)]
    Convert(ConvertArgs),
}

/// Schedule formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ScheduleFormat {
    /// `key: value` header, `sends:`, one send per line.
    Text,
    /// One JSON object, schema `txverify-schedule/1`.
    Json,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// The schedule (text or JSON).
    file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    to: ScheduleFormat,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `txverify schedule …`.
pub fn run(args: &ScheduleArgs) -> Exit {
    match &args.command {
        ScheduleCommand::Convert(c) => convert(c),
    }
}

fn read(path: &std::path::Path) -> Result<String, Exit> {
    super::read_text(path).map_err(|e| {
        errorln!("cannot read {}: {e}", path.display());
        Exit::Input
    })
}

fn read_schedule(path: &std::path::Path) -> Result<(String, Schedule), Exit> {
    let source = read(path)?;
    match parse(&source) {
        Ok(s) => Ok((source, s)),
        Err(e) => {
            super::output::diagnostic(&e.render(&path.display().to_string(), &source));
            Err(Exit::Input)
        }
    }
}

fn convert(args: &ConvertArgs) -> Exit {
    let schedule = match read_schedule(&args.file) {
        Ok((_, s)) => s,
        Err(code) => return code,
    };
    let result = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            write_to(&schedule, args.to, &mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write_to(&schedule, args.to, &mut w).and_then(|_| w.flush())
        }
    };
    match result {
        Ok(()) => Exit::Ok,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::BrokenPipe,
        Err(e) => {
            errorln!("cannot write the schedule: {e}");
            Exit::Input
        }
    }
}

fn write_to(s: &Schedule, to: ScheduleFormat, w: &mut impl std::io::Write) -> std::io::Result<()> {
    match to {
        ScheduleFormat::Text => write_text(s, w),
        ScheduleFormat::Json => write_json(s, w),
    }
}

/// When `args.file` is a schedule, replays it and returns the exit status;
/// `None` hands the file on to the `.tbl` path.
pub fn simulate_if_schedule(args: &SimulateArgs, source: &str) -> Option<Exit> {
    if !is_schedule(source) {
        let timing = args
            .timing
            .request()
            .asked()
            .then_some("--alpha, --beta and --link-table");
        let placing =
            (args.network.is_some() || args.ports.is_some()).then_some("--network and --ports");
        let shown = format!("{}: ", args.file.display());
        let refused = refuse_schedule_options(&shown, timing, placing).err();
        return refused.map(|e| (errorln!("{e}"), Exit::Input).1);
    }
    let request = ScheduleRequest {
        network: args.network.as_ref(),
        ports: args.ports.as_deref(),
        trace: args.trace,
        all: args.all,
        timing: args.timing.request(),
    };
    Some(match simulate_schedule(&args.file, source, &request) {
        Ok(report) => {
            match args.format {
                OutputFormat::Json => super::output::json(&report),
                OutputFormat::Text => out!("{}", report.text()),
            }
            Exit::from(report.status())
        }
        Err(failure) => {
            let json = (args.format == OutputFormat::Json).then(|| {
                ErrorReport::new(Some(REPORT_SCHEMA), &failure)
                    .about("file", args.file.display().to_string())
                    .placed(failure.at)
            });
            super::output::failure(&failure, json)
        }
    })
}
