//! `txverify render`: a table, or its link utilisation, or a schedule of timed
//! sends (replayed first; docs/render.md), as an SVG picture drawn by
//! [`txverify_clients::render::picture`].

use super::OutputFormat;
use super::check::{load_read, read_once};
use super::exit::Exit;
use clap::ValueEnum;
use std::path::PathBuf;
use txverify_clients::render::ColourBy;
use txverify_clients::render::picture::{
    Picture, RenderRequest, TableView, render_source, render_table, table_name,
};
use txverify_clients::report::Failure;
use txverify_core::group::EnumerationLimits;
use txverify_core::load::LoadOptions;
use txverify_core::schedule::format::is_schedule;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The `.tbl` file or the schedule (text or JSON, docs/schedule.md) to draw.
    file: PathBuf,
    /// Write the SVG here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// What colours say: the length of each word, or the link of each letter.
    #[arg(long, value_enum, default_value_t)]
    by: ByArg,
    /// Draw the link utilisation per step found by the exhaustive simulation (a heat
    /// map of directed links × steps and a curve of busy links) instead of the table.
    #[arg(long)]
    utilisation: bool,
    /// Above this many steps, aggregate runs of steps into at most this many drawn columns.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    max_columns: u32,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
}

/// What colours say (`--by`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum ByArg {
    /// The length of each word.
    #[default]
    Length,
    /// The link of each letter.
    Link,
}

pub fn run(args: &RenderArgs) -> Exit {
    // Read once, then told by content: a pipe cannot be read twice.
    let Some(source) = read_once(&args.file, OutputFormat::Text) else {
        return Exit::Input;
    };
    if is_schedule(&source) {
        return render_schedule_file(args, &source);
    }
    let load = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    let Some(loaded) = load_read(&args.file, source, &load, OutputFormat::Text) else {
        return Exit::Input;
    };
    let shown = args.file.display().to_string();
    let name = table_name(&args.file, &loaded);
    let view = view(args);
    let max_columns = args.max_columns as usize;
    write_picture(
        args,
        render_table(&shown, &name, &loaded, view, max_columns),
    )
}

/// What to draw of a table (`--utilisation`, `--by`).
fn view(args: &RenderArgs) -> TableView {
    match (args.utilisation, args.by) {
        (true, _) => TableView::Utilisation,
        (false, ByArg::Length) => TableView::Table(ColourBy::Length),
        (false, ByArg::Link) => TableView::Table(ColourBy::Link),
    }
}

/// Writes the picture to `-o` or standard output; the file's status, or the
/// failure's.
fn write_picture(args: &RenderArgs, picture: Result<Picture, Failure>) -> Exit {
    let picture = match picture {
        Ok(picture) => picture,
        Err(failure) => return super::output::failure(&failure, None),
    };
    let svg = &picture.svg;
    let written = match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, svg) {
                errorln!("cannot write {}: {e}", path.display());
                return Exit::Input.max(Exit::from(picture.status));
            }
            if !super::global::quiet() {
                eprintln!("wrote {} ({} bytes)", path.display(), svg.len());
            }
            Exit::Ok
        }
        None => {
            out!("{svg}");
            Exit::Ok
        }
    };
    written.max(Exit::from(picture.status))
}

/// Draws the schedule `args.file` holds (its text, `source`).
fn render_schedule_file(args: &RenderArgs, source: &str) -> Exit {
    // The library's rules for a schedule (`--utilisation` is for tables).
    let request = RenderRequest {
        view: view(args),
        max_columns: args.max_columns as usize,
        load: LoadOptions::default(),
    };
    let picture = render_source(&args.file, source, &request);
    write_picture(args, picture)
}
