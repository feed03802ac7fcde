//! `txverify search` and `txverify verify-proof`: the command line over `search`.

use super::OutputFormat;
use super::check::read_and_load_with_source;
use super::exit::Exit;
use super::{SearchArgs, SolverArg, SymmetryArg, VerifyProofArgs};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;
use txverify::group::EnumerationLimits;
use txverify::kernel::{self, Verdict};
use txverify::load::{LoadOptions, Loaded};
use txverify::search::portfolio::HelperActivity;
use txverify::search::{
    self, EncodingOptions, FoundBy, Infeasibility, Outcome, Phase, Progress, SearchOptions,
    SolverChoice, WordLengths,
};

fn load_file(path: &Path, max_order: usize) -> Result<(String, Loaded), Exit> {
    let options = LoadOptions {
        limits: EnumerationLimits {
            max_order,
            ..EnumerationLimits::default()
        },
    };
    read_and_load_with_source(path, &options, OutputFormat::Text).ok_or(Exit::Input)
}

fn options_of(args: &SearchArgs, loaded: &Loaded) -> Result<SearchOptions, Exit> {
    let lengths = if args.any_length {
        WordLengths::Any
    } else if args.slack > 0 {
        WordLengths::Slack(args.slack)
    } else {
        WordLengths::Shortest
    };
    let mut encoding = EncodingOptions {
        lengths,
        no_redundant: args.no_redundant,
        ..EncodingOptions::default()
    };
    for s in &args.symmetry {
        match s {
            SymmetryArg::Sigma => match sigma_for(&loaded.instance, args.time) {
                Some(p) => encoding.automorphism = Some(p),
                None => {
                    eprintln!("error: no automorphism of the group permutes the links");
                    return Err(Exit::Input);
                }
            },
            SymmetryArg::Reverse => encoding.time_reversal = true,
            SymmetryArg::Split => {
                match args
                    .time
                    .and_then(|t| search::split::suggested(&loaded.instance, t))
                {
                    Some(links) => {
                        encoding.split = links.iter().map(|e| e.index() as u16).collect()
                    }
                    None => {
                        let why = if search::split::split_links(&loaded.instance).is_empty() {
                            "no link is a central involution outside the subgroup of the others"
                        } else if args.time.is_none() {
                            "it needs --time"
                        } else {
                            "the number of columns must be even and the message set closed under the split links"
                        };
                        eprintln!("error: --symmetry split: {why}");
                        return Err(Exit::Input);
                    }
                }
            }
        }
    }
    if args.break_symmetry {
        let mut breaking = search::breaking::suggested(&loaded.instance, args.break_automorphisms);
        breaking.prefix = args.break_prefix;
        encoding.break_symmetry = Some(breaking);
    }
    let (solver, name, feature) = match args.solver {
        SolverArg::Varisat => (SolverChoice::Varisat, "varisat", ""),
        SolverArg::Cadical => (SolverChoice::Cadical, "CaDiCaL", "cadical"),
        SolverArg::Z3 => (SolverChoice::Z3, "z3", "z3"),
        SolverArg::External => (SolverChoice::External, "external", ""),
    };
    if (solver == SolverChoice::External) != args.solver_cmd.is_some() {
        eprintln!("error: --solver external and --solver-cmd CMD go together");
        return Err(Exit::Input);
    }
    if let Some(command) = &args.solver_cmd
        && !command.contains("{cnf}")
    {
        eprintln!("error: --solver-cmd must say where the formula goes: `{{cnf}}`");
        return Err(Exit::Input);
    }
    if !solver.available() {
        eprintln!("error: this build has no {name}; rebuild with `--features {feature}`");
        return Err(Exit::Input);
    }
    Ok(SearchOptions {
        encoding,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        stop: None,
        jobs: match args.jobs {
            Some(jobs) => usize::from(jobs),
            None => std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        },
        certificate_dir: args.certificate.clone(),
        dimacs_only: args.dimacs.clone(),
        solver,
        external_command: args.solver_cmd.clone(),
    })
}

/// The automorphism `--symmetry sigma` asks for: the first one that the portfolio's
/// counting test keeps at the searched number of columns (the lower bound when none
/// is given), else the link automorphism of largest order (docs/search.md).
fn sigma_for(instance: &txverify::kernel::Instance, time: Option<usize>) -> Option<Vec<u16>> {
    const BUDGET: usize = 1_000_000;
    let time = time.or_else(|| kernel::lower_bound(instance).map(|b| b.value as usize))?;
    let full = search::encode::fills_every_cell(instance, time);
    search::symmetry::candidates(instance, full, BUDGET)
        .into_iter()
        .next()
        .map(|c| c.links)
        .or_else(|| search::symmetry::find_rotation(instance, BUDGET))
}

/// Draws progress: a spinner on a terminal, plain lines otherwise.
struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    last_plain: std::time::Instant,
}

impl Reporter {
    fn new(quiet: bool) -> Reporter {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Reporter {
            bar,
            quiet,
            last_plain: std::time::Instant::now(),
        }
    }

    fn show(&mut self, p: &Progress) {
        if self.quiet {
            return;
        }
        let mut text = format!(
            "T={} {:?}: {} vars, {} clauses, {} learned, {:.1} s",
            p.time,
            p.phase,
            p.stats.variables,
            p.stats.clauses,
            p.learned,
            p.elapsed.as_secs_f64()
        )
        .to_lowercase();
        match p.helper {
            Some(HelperActivity::Starting) => text.push_str("; helper: starting"),
            Some(HelperActivity::Restriction {
                index,
                open,
                turn_ms,
            }) => text.push_str(&match turn_ms {
                Some(ms) => format!(
                    "; helper: restriction {index} of {open}, {:.1} s turn",
                    ms as f64 / 1000.0
                ),
                None => format!("; helper: restriction {index} of {open}, until the limit"),
            }),
            Some(HelperActivity::ShuffledCopy) => text.push_str("; helper: shuffled copy"),
            None => {}
        }
        match &self.bar {
            Some(bar) => bar.set_message(text),
            None => {
                let due = self.last_plain.elapsed() >= Duration::from_secs(5);
                if p.phase == Phase::Done || due {
                    self.last_plain = std::time::Instant::now();
                    eprintln!("{text}");
                }
            }
        }
    }

    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn describe(i: &Infeasibility) -> String {
    let mut text = format!("T={}: {}", i.time, i.claim);
    if !i.covers_all_tables {
        text.push_str(" (restricted class: says nothing about other tables)");
    }
    match &i.certificate {
        Some(dir) => text.push_str(&format!(" [certificate: {}]", dir.display())),
        None => text.push_str(" [solver's word, no certificate]"),
    }
    text
}

pub fn run(args: &SearchArgs) -> Exit {
    let (source, loaded) = match load_file(&args.file, args.max_order) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if !loaded.instance.defects().is_empty() {
        eprintln!("error: the link set does not define a connected undirected network");
        return Exit::Rejected;
    }
    let options = match options_of(args, &loaded) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let instance = &loaded.instance;
    if let (Some(path), Some(time)) = (&args.model, args.time) {
        return decode_model_file(path, time, &options.encoding, &source, instance);
    }
    let mut reporter = Reporter::new(args.quiet);
    let result = match args.time {
        Some(time) => search::solve_reporting(instance, time, &options, &mut |p| reporter.show(p))
            .map(|outcome| match outcome {
                Outcome::Found(table, by) => (Some((table, by)), vec![], vec![]),
                Outcome::Infeasible(i) => (None, vec![i], vec![]),
                Outcome::Unknown => (None, vec![], vec![time]),
            }),
        None => search::minimise(instance, &options, args.max_time, &mut |p| reporter.show(p)).map(
            |found| match found {
                Some(min) => (Some((min.table, min.found_by)), min.infeasible, min.unknown),
                None => (None, vec![], vec![]),
            },
        ),
    };
    reporter.finish();
    let (table, infeasible, unknown) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::of_search_error(&e);
        }
    };
    for i in &infeasible {
        reporter.say(&format!("infeasible {}", describe(i)));
    }
    if options.dimacs_only.is_some() {
        reporter.say("formulas written; nothing solved");
        return Exit::Ok;
    }
    for t in &unknown {
        reporter.say(&format!("unknown T={t}: the limit ran out"));
    }
    let Some((table, by)) = table else {
        return if unknown.is_empty() {
            Exit::Rejected
        } else {
            Exit::Limit
        };
    };
    if let FoundBy::Helper(how) = &by {
        reporter.say(&format!("found by the helper solver, on {how}"));
    }
    print_found(&source, instance, &table);
    Exit::Ok
}

/// `--model FILE --time T`: the table a model found elsewhere describes.
fn decode_model_file(
    path: &Path,
    time: usize,
    encoding: &txverify::search::EncodingOptions,
    source: &str,
    instance: &txverify::kernel::Instance,
) -> Exit {
    let text = match super::read_text(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Exit::Input;
        }
    };
    match search::decode_model(instance, time, encoding, &text) {
        Ok(table) => {
            print_found(source, instance, &table);
            Exit::Ok
        }
        Err(e @ search::SearchError::Solver(_)) => {
            eprintln!("error: {}: {e}", path.display());
            Exit::Input
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::of_search_error(&e)
        }
    }
}

/// Prints a table the kernel accepted, under the file's header with its time.
fn print_found(
    source: &str,
    instance: &txverify::kernel::Instance,
    table: &txverify::kernel::Table,
) {
    let checked = kernel::check(instance, table, &[]);
    out!("{}", header_without_table(source));
    outln!("expect: time {}", checked.time());
    if checked.verdict() == Verdict::Optimal {
        outln!("expect: optimal");
    }
    outln!("table:");
    let rows = txverify::load::table_syntax(instance.group(), table);
    out!("{}", txverify::format::print_rows(&rows));
}

/// The file's header lines (comments included), without `expect:` lines.
fn header_without_table(source: &str) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let key = line.trim_start().to_ascii_lowercase();
        if key.starts_with("table:") {
            break;
        }
        if key.starts_with("expect:") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

pub fn verify_proof(args: &VerifyProofArgs) -> Exit {
    let (_, loaded) = match load_file(&args.file, args.max_order) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let checked = match &args.lrat {
        Some(path) => {
            search::certificate::verify_writing_lrat(&loaded.instance, &args.certificate, path)
                .map(|(v, steps)| (v, Some((path, steps))))
        }
        None => search::certificate::verify(&loaded.instance, &args.certificate).map(|v| (v, None)),
    };
    match checked {
        Ok((v, lrat)) => {
            outln!("verified: {}", v.provenance.claim);
            outln!(
                "formula: {} variables, {} clauses ({}); proof: {} lemmas checked",
                v.provenance.variables,
                v.provenance.clauses,
                v.provenance.encoding,
                v.report.lemmas
            );
            if let Some((path, steps)) = lrat {
                outln!(
                    "LRAT: {} ({steps} clauses added, checked by the LRAT checker)",
                    path.display()
                );
            }
            if let Some(breaking) = &v.provenance.options.break_symmetry {
                outln!(
                    "symmetry breaking: {} maps, each re-derived from the instance and checked to be a symmetry of the tables (an automorphism of the group permuting the links and fixing the messages, with or without the time reversal)",
                    breaking.maps.len()
                );
            }
            if !v.provenance.options.covers_all_tables() {
                outln!("note: the class is restricted by a symmetry; other tables are not covered");
            }
            Exit::Ok
        }
        Err(e) => {
            let exit = Exit::of_certificate_error(&e);
            if exit == Exit::Rejected {
                outln!("rejected: {e}");
            } else {
                // A file that cannot be read or written: a problem with a path, not a
                // verdict on the certificate.
                eprintln!("error: {e}");
            }
            exit
        }
    }
}
