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

/// The search options the arguments ask for, or why they cannot be used.
fn options_of(args: &SearchArgs, loaded: &Loaded) -> Result<SearchOptions, String> {
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
            SymmetryArg::Sigma => match sigma_for(&loaded.instance, args.time, args.free_tail) {
                Some(p) => {
                    if !super::global::quiet() {
                        eprintln!(
                            "--symmetry sigma: {}",
                            search::symmetry::describe(&loaded.instance, &p)
                        );
                    }
                    encoding.automorphism = Some(p)
                }
                None => {
                    return Err("no automorphism of the group permutes the links".to_string());
                }
            },
            SymmetryArg::Reverse => encoding.time_reversal = true,
            SymmetryArg::Split => {
                let chosen = if args.split_along.is_empty() {
                    args.time
                        .and_then(|t| search::split::suggested(&loaded.instance, t))
                } else {
                    let links = split_links_named(&loaded.instance, &args.split_along)?;
                    if args
                        .time
                        .is_some_and(|t| !search::split::can_split(&loaded.instance, &links, t))
                    {
                        return Err(format!(
                            "--split-along {}: the links must generate a direct factor F (each commuting with every other link), with |F| dividing the number of columns and the messages closed under F",
                            args.split_along.join(",")
                        ));
                    }
                    Some(links)
                };
                match chosen {
                    Some(links) => {
                        if !super::global::quiet() {
                            eprintln!(
                                "--symmetry split: {}",
                                search::split::describe(
                                    &loaded.instance,
                                    &links,
                                    args.time.unwrap_or(0)
                                )
                            );
                        }
                        encoding.split = links.iter().map(|e| e.index() as u16).collect()
                    }
                    None => {
                        let why = if args.time.is_none() {
                            "it needs --time"
                        } else {
                            "no set of links generates a direct factor F of the group whose blocks fit: |F| must divide the number of columns and, unless the links are central involutions, the other links must fill every column of a block (docs/search.md)"
                        };
                        return Err(format!("--symmetry split: {why}"));
                    }
                }
            }
        }
    }
    if !args.split_along.is_empty() && encoding.split.is_empty() {
        return Err("--split-along needs --symmetry split".to_string());
    }
    if let Some(tail) = args.free_tail {
        if encoding.automorphism.is_none() {
            return Err("--free-tail needs --symmetry sigma".to_string());
        }
        if args.time.is_some_and(|time| tail == 0 || tail >= time) {
            return Err("--free-tail W needs 0 < W < --time".to_string());
        }
        encoding.tail = tail;
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
        return Err("--solver external and --solver-cmd CMD go together".to_string());
    }
    if let Some(command) = &args.solver_cmd
        && !command.contains("{cnf}")
    {
        return Err("--solver-cmd must say where the formula goes: `{cnf}`".to_string());
    }
    if let Some(command) = &args.solver_cmd
        && command.contains("{proof}")
        && command.contains("{lrat}")
    {
        return Err(
            "--solver-cmd takes one proof: `{proof}` (DRAT) or `{lrat}` (LRAT)".to_string(),
        );
    }
    if !solver.available() {
        return Err(format!(
            "this build has no {name}; rebuild with `--features {feature}`"
        ));
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
/// is given; with a free tail the test is skipped, since the tail holds what it
/// counts), else the link automorphism of largest order (docs/search.md).
fn sigma_for(
    instance: &txverify::kernel::Instance,
    time: Option<usize>,
    tail: Option<usize>,
) -> Option<Vec<u16>> {
    const BUDGET: usize = 1_000_000;
    let time = time.or_else(|| kernel::lower_bound(instance).map(|b| b.value as usize))?;
    if tail.is_some() {
        // The tail holds the short orbits: the symmetry of largest order divides most.
        return search::symmetry::candidates(instance, false, BUDGET)
            .into_iter()
            .max_by_key(|c| (c.order, std::cmp::Reverse(c.free_letters)))
            .map(|c| c.links);
    }
    let full = search::encode::fills_every_cell(instance, time);
    search::symmetry::candidates(instance, full, BUDGET)
        .into_iter()
        .next()
        .map(|c| c.links)
        .or_else(|| search::symmetry::find_rotation(instance, BUDGET))
}

/// Draws progress: a spinner on a terminal, plain lines otherwise.
pub(super) struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    last_plain: std::time::Instant,
}

impl Reporter {
    pub(super) fn new(quiet: bool) -> Reporter {
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

    pub(super) fn show(&mut self, p: &Progress) {
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

    /// The helper's restrictions for `time` columns, one line each.
    pub(super) fn show_plan(&self, time: usize, plan: &[String]) {
        if self.quiet {
            return;
        }
        for (k, label) in plan.iter().enumerate() {
            self.say(&format!("T={time} helper plan {}: {label}", k + 1));
        }
    }

    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Which solver run found a table, in words (JSON's `found_by`, the page's log).
pub(super) fn found_by_text(by: &FoundBy) -> String {
    match by {
        FoundBy::Main => "main solver".to_string(),
        FoundBy::Helper(how) => format!("helper solver, on {how}"),
    }
}

fn describe(i: &Infeasibility) -> String {
    let mut text = format!("T={}: {}", i.time, i.claim);
    if !i.covers_all_tables {
        text.push_str(" (restricted class: says nothing about other tables)");
    }
    match (&i.certificate, i.checked_proof) {
        (Some(dir), Some(lemmas)) => text.push_str(&format!(
            " [the solver's proof checked, {lemmas} lemmas; certificate: {}]",
            dir.display()
        )),
        (Some(dir), None) => text.push_str(&format!(" [certificate: {}]", dir.display())),
        (None, Some(lemmas)) => text.push_str(&format!(
            " [the solver's proof checked, {lemmas} lemmas; no certificate kept]"
        )),
        (None, None) => text.push_str(" [solver's word: no proof checked, no certificate]"),
    }
    text
}

/// The JSON schema of `search --format json`.
const SEARCH_SCHEMA: &str = "txverify-search/1";

/// The JSON schema of `verify-proof --format json`.
const VERIFY_PROOF_SCHEMA: &str = "txverify-verify-proof/1";

/// Formats of `search`: the text and JSON reports, and the HTML page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchFormat {
    /// Human-readable text: the table found on standard output, the log on standard error.
    #[default]
    Text,
    /// One JSON document, schema txverify-search/1 (docs/json.md).
    Json,
    /// One self-contained HTML page with the T-by-T log (docs/render.md).
    Html,
}

/// A search that stopped before it ran: the message on standard error and, in
/// JSON, an object with it.
pub(super) fn search_failure(args: &SearchArgs, message: &str, exit: Exit) -> Exit {
    if !message.is_empty() {
        eprintln!("error: {message}");
    }
    if args.format == SearchFormat::Json {
        let message = if message.is_empty() {
            "the file cannot be read or loaded (the diagnostic is on standard error)"
        } else {
            message
        };
        let value = serde_json::json!({
            "schema": SEARCH_SCHEMA,
            "file": args.file.display().to_string(),
            "error": { "message": message },
            "exit_code": exit.code(),
        });
        outln!("{value}");
    }
    exit
}

pub fn run(args: &SearchArgs) -> Exit {
    let (source, loaded) = match load_file(&args.file, args.max_order) {
        Ok(l) => l,
        Err(code) => return search_failure(args, "", code),
    };
    if !loaded.instance.defects().is_empty() {
        let message = "the link set does not define a connected undirected network";
        return search_failure(args, message, Exit::Rejected);
    }
    let options = match options_of(args, &loaded) {
        Ok(o) => o,
        Err(message) => return search_failure(args, &message, Exit::Input),
    };
    let instance = &loaded.instance;
    if args.format == SearchFormat::Html && (args.model.is_some() || args.dimacs.is_some()) {
        let message = "--model and --dimacs report in text only (no --format html)";
        return search_failure(args, message, Exit::Input);
    }
    if let (Some(path), Some(time)) = (&args.model, args.time) {
        return decode_model_file(path, time, &options.encoding, &source, instance);
    }
    if (args.merge.is_some() || args.cubes.is_some()) && args.format != SearchFormat::Text {
        let message = "--cubes and --merge report in text only (no --format json or html yet)";
        return search_failure(args, message, Exit::Input);
    }
    if args.output.is_some() && args.cubes.is_none() && args.format != SearchFormat::Html {
        let message = "-o is for --cubes K (a directory) or --format html (the page)";
        return search_failure(args, message, Exit::Input);
    }
    if args.format == SearchFormat::Html {
        return super::search_page::run(args, &source, &loaded, &options);
    }
    if let (Some(dir), Some(time)) = (&args.merge, args.time) {
        return merge_cubes(dir, time, &options.encoding, &source, instance);
    }
    if let (Some(count), Some(time)) = (args.cubes, args.time) {
        return cubes(args, count as usize, time, &options, &source, instance);
    }
    let mut reporter = Reporter::new(super::global::quiet());
    let mut planned = None;
    let mut show = |p: &Progress| {
        // Once per T, when the helper starts: what it will try, in order.
        if p.helper.is_some() && planned != Some(p.time) {
            planned = Some(p.time);
            reporter.show_plan(p.time, &search::portfolio::plan(instance, p.time, &options));
        }
        reporter.show(p)
    };
    let result = match args.time {
        Some(time) => {
            search::solve_reporting(instance, time, &options, &mut show).map(
                |outcome| match outcome {
                    Outcome::Found(table, by) => (Some((table, by)), vec![], vec![]),
                    Outcome::Infeasible(i) => (None, vec![i], vec![]),
                    Outcome::Unknown => (None, vec![], vec![time]),
                },
            )
        }
        // Whatever is found, the times shown infeasible and those where a limit ran
        // out are reported: a search that finds nothing up to `--max-time` says why.
        None => search::minimise_tried(instance, &options, args.max_time, &mut show).map(|tried| {
            let found = tried.found.map(|(table, _, by)| (table, by));
            (found, tried.infeasible, tried.unknown)
        }),
    };
    reporter.finish();
    let (table, infeasible, unknown) = match result {
        Ok(r) => r,
        Err(e) => return search_failure(args, &e.to_string(), Exit::of_search_error(&e)),
    };
    let exit = match (&table, options.dimacs_only.is_some()) {
        (Some(_), _) | (None, true) => Exit::Ok,
        (None, false) if unknown.is_empty() => Exit::Rejected,
        (None, false) => Exit::Limit,
    };
    let found = table.map(|(table, by)| {
        let checked = kernel::check(instance, &table, &[]);
        let text = found_text(&source, instance, &table, &checked);
        (text, checked, by)
    });
    if args.format == SearchFormat::Json {
        let infeasible: Vec<serde_json::Value> = infeasible
            .iter()
            .map(|i| {
                serde_json::json!({
                    "time": i.time,
                    "claim": i.claim,
                    "covers_all_tables": i.covers_all_tables,
                    "certificate": i.certificate.as_ref().map(|p| p.display().to_string()),
                })
            })
            .collect();
        let (table, time, optimal, found_by) = match &found {
            Some((text, checked, by)) => (
                Some(text.as_str()),
                Some(checked.time()),
                Some(checked.verdict() == Verdict::Optimal),
                Some(found_by_text(by)),
            ),
            None => (None, None, None, None),
        };
        let value = serde_json::json!({
            "schema": SEARCH_SCHEMA,
            "file": args.file.display().to_string(),
            "found": found.is_some(),
            "time": time,
            "optimal": optimal,
            "found_by": found_by,
            "solver": options.solver,
            "table": table,
            "infeasible": infeasible,
            "unknown": unknown,
            "formulas_only": options.dimacs_only.is_some(),
            "exit_code": exit.code(),
        });
        outln!("{value}");
        return exit;
    }
    for i in &infeasible {
        reporter.say(&format!("infeasible {}", describe(i)));
    }
    if options.dimacs_only.is_some() {
        reporter.say("formulas written; nothing solved");
        return exit;
    }
    for t in &unknown {
        reporter.say(&format!("unknown T={t}: the limit ran out"));
    }
    if let Some((text, _, by)) = found {
        if let FoundBy::Helper(how) = &by {
            reporter.say(&format!("found by the helper solver, on {how}"));
        }
        out!("{text}");
    }
    exit
}

/// `--cubes K`: the cubes written for jobs elsewhere, or solved here.
fn cubes(
    args: &SearchArgs,
    count: usize,
    time: usize,
    options: &SearchOptions,
    source: &str,
    instance: &txverify::kernel::Instance,
) -> Exit {
    use txverify::search::conquer;
    let written = match (&args.output, &options.dimacs_only) {
        (Some(dir), _) => Some(
            conquer::write_cubes(instance, time, &options.encoding, count, dir)
                .map(|n| format!("{n} cubes for T={time} written to {}", dir.display())),
        ),
        (None, Some(path)) => Some(
            conquer::write_icnf_file(instance, time, &options.encoding, count, path).map(|n| {
                format!(
                    "{n} cubes for T={time} written to {} (iCNF)",
                    path.display()
                )
            }),
        ),
        (None, None) => None,
    };
    if let Some(written) = written {
        return match written {
            Ok(message) => {
                eprintln!("{message}");
                Exit::Ok
            }
            Err(e) => {
                eprintln!("error: {e}");
                Exit::of_search_error(&e)
            }
        };
    }
    match conquer::solve_cubes(instance, time, options, count) {
        Ok((Outcome::Found(table, _), n)) => {
            eprintln!("found in one of {n} cubes");
            print_found(source, instance, &table);
            Exit::Ok
        }
        Ok((Outcome::Infeasible(i), n)) => {
            eprintln!("infeasible {} (all {n} cubes refuted)", describe(&i));
            Exit::Rejected
        }
        Ok((Outcome::Unknown, n)) => {
            eprintln!("unknown T={time}: the limit ran out before all {n} cubes were solved");
            Exit::Limit
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::of_search_error(&e)
        }
    }
}

/// `--merge DIR --time T`: what the cube jobs' answers add up to.
fn merge_cubes(
    dir: &Path,
    time: usize,
    encoding: &EncodingOptions,
    source: &str,
    instance: &txverify::kernel::Instance,
) -> Exit {
    use txverify::search::conquer::{self, Merged};
    match conquer::merge(instance, time, encoding, dir) {
        Ok(Merged::Found(table, cube)) => {
            eprintln!("found by cube {}", cube + 1);
            print_found(source, instance, &table);
            Exit::Ok
        }
        Ok(Merged::Infeasible(i)) => {
            eprintln!(
                "infeasible {} (every cube refuted with a checked proof; the cubes cover)",
                describe(&i)
            );
            Exit::Rejected
        }
        Ok(Merged::Open {
            missing,
            unproved,
            proved,
        }) => {
            let list = |cubes: &[usize]| {
                cubes
                    .iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            eprintln!("open T={time}: {proved} cubes refuted with a checked proof");
            if !missing.is_empty() {
                eprintln!("  no answer from cubes {}", list(&missing));
            }
            if !unproved.is_empty() {
                eprintln!(
                    "  unsatisfiable without a proof (the solver's word, not counted): cubes {}",
                    list(&unproved)
                );
            }
            Exit::Limit
        }
        Err(e) => {
            eprintln!("error: {e}");
            if e.is_input() {
                Exit::Input
            } else {
                Exit::Internal
            }
        }
    }
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
            let checked = kernel::check(instance, &table, &[]);
            out!("{}", found_text(source, instance, &table, &checked));
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

/// Prints a table the search found (`--cubes`, `--merge`), after the kernel's check.
fn print_found(
    source: &str,
    instance: &txverify::kernel::Instance,
    table: &txverify::kernel::Table,
) {
    let checked = kernel::check(instance, table, &[]);
    out!("{}", found_text(source, instance, table, &checked));
}

/// A table the kernel accepted (`checked` is its check), under the file's
/// header with its time, as a `.tbl` file.
fn found_text(
    source: &str,
    instance: &txverify::kernel::Instance,
    table: &txverify::kernel::Table,
    checked: &kernel::Checked,
) -> String {
    let mut text = header_without_table(source);
    text.push_str(&format!("expect: time {}\n", checked.time()));
    if checked.verdict() == Verdict::Optimal {
        text.push_str("expect: optimal\n");
    }
    text.push_str("table:\n");
    let rows = txverify::load::table_syntax(instance.group(), table);
    text.push_str(&txverify::format::print_rows(&rows));
    text
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
    if args.format == OutputFormat::Json {
        return verify_proof_json(args, checked);
    }
    match checked {
        Ok((v, lrat)) => {
            outln!("verified: {}", v.provenance.claim);
            let proof = match v.provenance.cubes {
                Some(k) => format!(
                    "{k} cubes that cover every assignment, each refuted by its proof: {} lemmas checked",
                    v.report.lemmas
                ),
                None => format!("proof: {} lemmas checked", v.report.lemmas),
            };
            outln!(
                "formula: {} variables, {} clauses ({}); {proof}",
                v.provenance.variables,
                v.provenance.clauses,
                v.provenance.encoding,
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

/// What `verify-proof` found, and the LRAT file it wrote with its added clauses.
type ProofCheck<'a> = Result<
    (
        search::certificate::Verified,
        Option<(&'a std::path::PathBuf, usize)>,
    ),
    search::certificate::CertificateError,
>;

/// `verify-proof --format json`: one object, accepted or not.
fn verify_proof_json(args: &VerifyProofArgs, checked: ProofCheck<'_>) -> Exit {
    let file = args.file.display().to_string();
    let certificate = args.certificate.display().to_string();
    let (value, exit) = match checked {
        Ok((v, lrat)) => {
            let p = &v.provenance;
            let value = serde_json::json!({
                "schema": VERIFY_PROOF_SCHEMA,
                "file": file,
                "certificate": certificate,
                "verified": true,
                "claim": p.claim,
                "covers_all_tables": p.options.covers_all_tables(),
                "variables": p.variables,
                "clauses": p.clauses,
                "encoding": p.encoding,
                "lemmas": v.report.lemmas,
                "lrat": lrat.map(|(path, steps)| serde_json::json!({
                    "path": path.display().to_string(),
                    "clauses_added": steps,
                })),
                "exit_code": Exit::Ok.code(),
            });
            (value, Exit::Ok)
        }
        Err(e) => {
            let exit = Exit::of_certificate_error(&e);
            if exit != Exit::Rejected {
                eprintln!("error: {e}");
            }
            let value = serde_json::json!({
                "schema": VERIFY_PROOF_SCHEMA,
                "file": file,
                "certificate": certificate,
                "verified": false,
                "error": { "message": e.to_string() },
                "exit_code": exit.code(),
            });
            (value, exit)
        }
    };
    outln!("{value}");
    exit
}

/// The links `names` denote, for `--split-along`.
fn split_links_named(
    instance: &txverify::kernel::Instance,
    names: &[String],
) -> Result<Vec<txverify::kernel::LinkId>, String> {
    names
        .iter()
        .map(|name| {
            let name = name.trim();
            instance
                .link_names()
                .iter()
                .position(|n| n == name)
                .map(|l| txverify::kernel::LinkId(l as u32))
                .ok_or_else(|| {
                    format!(
                        "--split-along: {name:?} is not a link (the links are {})",
                        instance.link_names().join(", ")
                    )
                })
        })
        .collect()
}
