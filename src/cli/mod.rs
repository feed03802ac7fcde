//! The command line: clap definitions and the glue from arguments to library calls.
//!
//! Arguments are parsed in two stages, as in ripgrep: clap gives raw
//! arguments; each subcommand validates them and calls the library; the
//! library never prints or exits. Exit status is part of the interface; every
//! status comes from [`exit::Exit`].

#[macro_use]
mod output;
mod check;
mod compare;
mod compose;
use txverify_clients::shared::help_examples as examples;
mod exit;
mod export;
mod failure_object;
mod fifo;
mod generate;
mod global;
mod hypercube;
mod infer;
mod lcc;
mod manual;
mod msccl;
mod net;
mod network_bounds;
mod render;
mod schedule;
mod search;
mod search_args;
mod search_config;
mod search_mpi;
mod search_network;
mod search_page;
mod search_report;
mod simulate;
mod verify_cnf;
mod verify_proof;
mod verify_schedule_proof;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use exit::Exit;
use std::path::PathBuf;
use std::process::ExitCode;
use txverify_core::load::NetworkSpec;
// Every command reads its files once, bounded, through this (`-`: standard input).
use txverify_clients::report::read_text;

/// `--version`: the package version and the SAT solvers compiled in.
const VERSION: &str = match (cfg!(feature = "cadical"), cfg!(feature = "z3")) {
    (false, false) => concat!(env!("CARGO_PKG_VERSION"), " (solvers: varisat)"),
    (true, false) => concat!(env!("CARGO_PKG_VERSION"), " (solvers: varisat, cadical)"),
    (false, true) => concat!(env!("CARGO_PKG_VERSION"), " (solvers: varisat, z3)"),
    (true, true) => concat!(
        env!("CARGO_PKG_VERSION"),
        " (solvers: varisat, cadical, z3)"
    ),
};

/// Verify, simulate and search for communication schedules on any network: tables on
/// Cayley networks, schedules on named networks and edge lists, MSCCL GPU programs.
#[derive(Parser, Debug)]
#[command(name = "txverify", version = VERSION, about, long_about = None)]
#[command(after_help = examples::TOP)]
pub struct Cli {
    #[command(flatten)]
    global: global::GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run, so the size of the largest arguments does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Check tables (`.tbl`: validity, time, bound, optimality, `expect:` claims) and MSCCL programs (`.xml`), files or directories.
    #[command(after_help = examples::CHECK)]
    Check(CheckArgs),
    /// Play a table or a schedule out on its physical network, every node, message, step and link.
    #[command(after_help = examples::SIMULATE)]
    Simulate(SimulateArgs),
    /// Print a published construction as a `.tbl` file, after checking and simulating it.
    #[command(after_help = examples::GEN)]
    Gen(GenArgs),
    /// Print a table file back in canonical form with its columns aligned.
    #[command(after_help = examples::FMT)]
    Fmt(FmtArgs),
    /// Search for a fastest table for a `.tbl` file's network, or with `--network NET` a fastest schedule on any network (docs/search.md, docs/schedules-any.md).
    #[command(
        after_help = examples::SEARCH,
        override_usage = "txverify search FILE.tbl [OPTIONS]\n       txverify search --network NET [OPTIONS]"
    )]
    Search(search_args::SearchArgs),
    /// Check an infeasibility certificate written by `search --certificate` (tables, or schedules with `--network`), or any DRAT/LRAT proof with `--cnf`.
    #[command(after_help = examples::VERIFY_PROOF)]
    VerifyProof(VerifyProofArgs),
    /// Work on schedule files: lists of timed sends (see docs/schedule.md).
    #[command(after_help = examples::SCHEDULE)]
    Schedule(schedule::ScheduleArgs),
    /// Write a valid total-exchange table or a schedule as timed sends or MSCCL XML (docs/export.md).
    #[command(after_help = examples::EXPORT)]
    Export(ExportArgs),
    /// Print a network family as a `.tbl` header (e.g. `net star 5`, `net torus 4 4`).
    #[command(after_help = examples::NET)]
    Net(NetArgs),
    /// Order, degree, diameter, status and the lower bounds of each file's network, or of any network with `--network NET`.
    #[command(after_help = examples::BOUNDS)]
    Bounds(BoundsArgs),
    /// Recompute the LP lower bound that a certificate's link weights prove (docs/schedules-any.md).
    #[command(after_help = examples::BOUNDS)]
    VerifyBound(network_bounds::VerifyBoundArgs),
    /// An optimal all-port collective on the d-cube, built, replayed and bounded (docs/hypercube.md).
    #[command(after_help = examples::HYPERCUBE)]
    Hypercube(HypercubeArgs),
    /// Total exchange on a product network composed from its factors (seed 000's
    /// A1 and A2), replayed and compared with the theorem and the bound (docs/products.md).
    #[command(after_help = examples::COMPOSE)]
    Compose(ComposeArgs),
    /// Networks side by side: size, degree, distances, lower bounds and the best known
    /// total exchange (docs/networks.md).
    #[command(after_help = compare::EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Linear-complement communication on wormhole hypercubes (docs/lcc.md).
    #[command(after_help = examples::LCC)]
    Lcc(lcc::LccArgs),
    /// Draw a table, or its link utilisation, as an SVG picture (docs/render.md).
    #[command(after_help = examples::RENDER)]
    Render(render::RenderArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_help = examples::COMPLETIONS)]
    Completions(manual::CompletionsArgs),
    /// Print the manual page (roff), or write one page per subcommand with --dir.
    #[command(after_help = examples::MAN)]
    Man(manual::ManArgs),
    /// Every way to cut a grid of letters into words that makes a valid table (docs/infer.md).
    #[command(after_help = examples::INFER)]
    Infer(InferArgs),
    /// Solve one DIMACS formula and write its proof (the child process of an MPI
    /// worker, docs/cluster.md): prints `s`/`v` lines, exits 10 or 20.
    #[command(hide = true, after_help = examples::SOLVE_CUBE)]
    SolveCube(search_mpi::SolveCubeArgs),
}

#[derive(clap::Args, Debug)]
struct InferArgs {
    /// The grid: a `.tbl` header, then rows of letters, one per token, `.` for a blank
    /// column (docs/infer.md).
    file: PathBuf,
    /// Stop at the first valid segmentation and print it.
    #[arg(long, conflicts_with = "count")]
    one: bool,
    /// Count every valid segmentation without printing them.
    #[arg(long)]
    count: bool,
    /// Print at most N tables; when there are more, say so ("stopped at N").
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["one", "count"])]
    limit: u64,
    /// Only segmentations whose every word is a shortest path.
    #[arg(long)]
    shortest: bool,
    /// Report format (JSON schema txverify-infer/2).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
    /// Stop the search after N steps (a word grown by a letter, or a word start
    /// left): the report says so and the exit status is 4.
    #[arg(long, value_name = "N", default_value_t = txverify_clients::infer::MAX_STEPS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: u64,
    /// Complete the printed prefix to tables of at most N columns: every letter of
    /// the empty cells after each row's last letter and every segmentation, counted
    /// (docs/infer.md, "Completing a printed prefix").
    #[arg(long, value_name = "N", conflicts_with_all = ["one", "limit"],
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    complete: Option<u64>,
    /// With --complete: stop after N fillings of the empty cells (each a boundary
    /// search); the report says so and the exit status is 4.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, requires = "complete",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_fillings: u64,
    /// With --complete: from every completion, derive a table by --delete and check
    /// it against this file's group, network and `expect:` claims (its table is not read).
    #[arg(long, value_name = "FILE", requires_all = ["complete", "delete"])]
    derive: Option<PathBuf>,
    /// The words --derive deletes: `row-ends` (the last word of every row),
    /// `last:K` (the last K words in reading order) or `right-most:K` (the K words
    /// that end furthest right).
    #[arg(long, value_name = "WHICH", requires = "derive", value_parser = parse_deletion)]
    delete: Option<txverify_clients::infer::Deletion>,
}

/// Reads a number of seconds: positive and finite.
fn parse_seconds(
    text: &str,
) -> Result<txverify_search::seconds::Seconds, txverify_search::seconds::SecondsError> {
    text.parse()
}

/// Reads `--delete`: `row-ends`, `last:K` or `right-most:K`.
fn parse_deletion(text: &str) -> Result<txverify_clients::infer::Deletion, String> {
    use txverify_clients::infer::Deletion;
    let count = |k: &str| {
        k.parse::<usize>().ok().filter(|&k| k >= 1).ok_or_else(|| {
            format!(
                "`{}` is not a count of words (1 or more)",
                txverify_core::format::echoed(k)
            )
        })
    };
    match text.split_once(':') {
        None if text == "row-ends" => Ok(Deletion::RowEnds),
        Some(("last", k)) => Ok(Deletion::Last(count(k)?)),
        Some(("right-most", k)) => Ok(Deletion::RightMost(count(k)?)),
        _ => Err("expected `row-ends`, `last:K` or `right-most:K`".to_string()),
    }
}

/// The product algorithms of `txverify compose`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ComposeAlgorithm {
    /// Algorithm A1: single-port, any product.
    A1,
    /// Algorithm A2: all-port, halves with as many nodes each (H × H, H^(2^k)).
    A2,
}

#[derive(clap::Args, Debug)]
struct ComposeArgs {
    /// a1 (single-port) or a2 (all-port).
    #[arg(value_enum)]
    algorithm: ComposeAlgorithm,
    /// The product network: `torus N1 N2 …`, `mesh N1 N2 …`, `genhypercube M1 M2 …`,
    /// `hypercube D`, `kary K N`, or one factor (`ring N`, `linear N`, `complete N`).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = false)]
    network: Vec<String>,
    /// Write the composed schedule here (JSON; the text format for a name ending in `.txt`).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Report format (JSON schema txverify-compose/1).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// A symmetry the searched tables must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// Invariant under an automorphism of the group permuting the links (the first one a
    /// counting test keeps, else the one of largest order; docs/search.md).
    Sigma,
    /// Equal to its time reversal.
    Reverse,
    /// Repeating one pattern in 2^k blocks of columns, split along links that are
    /// central involutions forming a direct factor C2^k (the doubling shape of
    /// hypercube tables; needs --time; docs/search.md).
    Split,
}

/// The SAT solver a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolverArg {
    /// varisat (built in; writes the proofs of certificates; the default in a build
    /// without the `cadical` feature).
    Varisat,
    /// CaDiCaL (the `cadical` feature, on by default; the default solver where it is built).
    Cadical,
    /// z3 (needs a build with the `z3` feature and the system's libz3).
    Z3,
    /// Any solver with the SAT competition's conventions, run as `--solver-cmd`.
    External,
}

/// The fastest backend the build has: CaDiCaL where it is built, varisat otherwise.
impl Default for SolverArg {
    fn default() -> SolverArg {
        if cfg!(feature = "cadical") {
            SolverArg::Cadical
        } else {
            SolverArg::Varisat
        }
    }
}

#[derive(clap::Args, Debug)]
struct VerifyProofArgs {
    /// The `.tbl` file the certificate was made for (with --network: the first
    /// certificate directory; with --cnf: the proof, DRAT or LRAT).
    file: PathBuf,
    /// Certificate directories: each one certificate, or a directory that a
    /// search's `--certificate` wrote (its `T<t>/` certificates are all checked).
    #[arg(required_unless_present_any = ["network", "cnf"], conflicts_with = "cnf", num_args = 1..)]
    certificates: Vec<PathBuf>,
    /// Check the proof FILE (DRAT or LRAT, text or binary) against this DIMACS
    /// formula and answer `s VERIFIED` / `s NOT VERIFIED` as drat-trim does (docs/proofcheck.md).
    #[arg(long, value_name = "FORMULA", conflicts_with_all = ["network", "lrat"])]
    cnf: Option<PathBuf>,
    /// With --cnf: the proof's format (default: told from its first line, and
    /// from a name ending in `.lrat` for binary proofs).
    #[arg(long, value_enum, requires = "cnf")]
    proof_format: Option<ProofFormatArg>,
    /// With --cnf and a DRAT proof: also write the core of the refutation as
    /// text LRAT to this file (checked again by the LRAT checker).
    #[arg(long, value_name = "FILE", requires = "cnf")]
    lrat_out: Option<PathBuf>,
    /// The network a `search --network` certificate was made for (its graph is
    /// built and the formula regenerated from it; docs/schedules-any.md).
    #[arg(long, value_name = "NET", conflicts_with = "lrat")]
    network: Option<NetworkSpec>,
    /// With --network: the certificates are of `search --collective` and must
    /// be about this collective (docs/collectives.md).
    #[arg(long, value_name = "COLLECTIVE", requires = "network")]
    collective: Option<String>,
    /// With --collective: its chunks (default 1).
    #[arg(long, value_name = "C", requires = "collective")]
    chunks: Option<String>,
    /// Also write the refutation as a text LRAT proof to this file (clauses
    /// numbered as in the formula `search --dimacs` writes; checked again after
    /// writing; for LRAT checkers such as cake_lpr).
    #[arg(long)]
    lrat: Option<PathBuf>,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
    /// Report format (JSON: schema txverify-verify-proof/2).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The format of a proof given to `verify-proof --cnf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProofFormatArg {
    /// DRAT, text or binary.
    Drat,
    /// LRAT, text or binary.
    Lrat,
}

/// The group a construction is presented with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GroupArg {
    /// The paper's choice: cyclic for odd sizes, dihedral (of order n) for even ones.
    #[default]
    Default,
    /// The cyclic group (for even rings: slower than the bound, as the paper notes).
    Cyclic,
    /// The dihedral group of order n (even sizes).
    Dihedral,
}

#[derive(clap::Args, Debug)]
struct ExportArgs {
    /// The `.tbl` file (a valid total-exchange table) or a schedule file (a valid schedule).
    file: PathBuf,
    /// `json` and `text`: the schedule formats of docs/schedule.md; `csv`: one line per send;
    /// `msccl`: an MSCCL algorithm (XML) of the schedule's collective.
    #[arg(long, value_enum, default_value_t)]
    format: ExportFormat,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Formats of `txverify export`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    /// The schedule JSON (schema txverify-schedule/1).
    #[default]
    Json,
    /// The schedule text format.
    Text,
    /// `step,from,to,source,destination`, one line per send.
    Csv,
    /// An MSCCL algorithm (XML) for GPUs (docs/export.md).
    Msccl,
}

#[derive(clap::Args, Debug)]
struct NetArgs {
    /// ring, hypercube, torus, kary, complete, genhypercube, star, pancake, ccc or butterfly;
    /// or a product of those, `'star 3 x ring 4'` (docs/products.md).
    family: String,
    /// The sizes: `ring N`, `hypercube D`, `torus N1 N2 …`, `kary K N`, `complete N`,
    /// `genhypercube M1 M2 …`, `star N`, `pancake N`, `ccc D`, `butterfly D`.
    sizes: Vec<String>,
    /// Write the header here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct BoundsArgs {
    /// The `.tbl` files (a header is enough).
    #[arg(required_unless_present = "network")]
    files: Vec<PathBuf>,
    /// A network instead of a file (`mesh 4 4`, `torus 4 3`, `star 4`, `edges FILE`;
    /// repeatable): statuses, distance bounds and the best cut found (by seed 000's
    /// formulas too for a product of families).
    #[arg(long, value_name = "NET")]
    network: Vec<NetworkSpec>,
    /// The K of the K-port bounds (a node uses no more ports than it has links).
    #[arg(long, default_value_t = 1)]
    ports: u64,
    /// Write the LP bound's certificate of the one --network here (docs/schedules-any.md).
    #[arg(long, value_name = "FILE", requires = "network")]
    lp_certificate: Option<PathBuf>,
    /// With a --network fabric: this collective's bounds (`allgather`, `broadcast 0`, …).
    #[arg(long, value_name = "X", requires = "network")]
    collective: Option<String>,
    /// With --collective: chunks per block (default 1).
    #[arg(long, value_name = "C", requires = "collective")]
    chunks: Option<String>,
    /// Report format (JSON: one object per file or network, schema txverify-bounds/4).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

#[derive(clap::Args, Debug)]
struct HypercubeArgs {
    /// broadcast, scatter, gather, accumulate, mnb or exchange.
    problem: String,
    /// The dimension d (1 … 16, as far as memory allows).
    dimension: u32,
    /// The root of broadcast, scatter, gather and accumulate (default 0).
    #[arg(long)]
    root: Option<u32>,
    /// Write the schedule here: JSON when the name ends in `.json`, text otherwise.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Report format (JSON: schema txverify-hypercube/1).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// Refuse sizes whose estimated memory exceeds this many GiB (default: the
    /// memory the system says is available).
    #[arg(long, value_name = "GIB")]
    max_memory: Option<f64>,
}

#[derive(clap::Args, Debug)]
struct GenArgs {
    /// ring, ring-cyclic, hypercube, torus2d, torus3d or twisted.
    family: String,
    /// Number of nodes of a ring, dimension of a hypercube, side of a torus,
    /// first side of a twisted torus.
    size: usize,
    /// The further sides of a twisted torus (`gen twisted 4 4 8`).
    more_sizes: Vec<usize>,
    /// The group to present the network with.
    #[arg(long, value_enum, default_value_t)]
    group: GroupArg,
    /// Write the table here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Check with the kernel only, without the exhaustive simulation.
    #[arg(long)]
    no_simulate: bool,
    /// `text`: the table on standard output, a summary on standard error (left
    /// out by --quiet); `json`: one report (schema txverify-gen/1) with the table in it.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// Output format of reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (one object per file, one per line), schema in docs/json.md.
    Json,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The `.tbl` files to check, and directories to search for `*.tbl` files
    /// (recursively). One file gets the full report; several paths or a directory
    /// get one line per file and a summary (docs/ci.md).
    #[arg(required = true, value_name = "PATH")]
    files: Vec<PathBuf>,
    /// Report format (`html`: one self-contained page, docs/render.md; `junit`: JUnit
    /// XML; `github`: GitHub workflow annotations; docs/ci.md).
    #[arg(long, value_enum, default_value_t)]
    format: check::CheckFormat,
    /// Write the report here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Files checked at once. Default: the number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
    /// Skip the exhaustive simulation on the physical network.
    #[arg(long)]
    no_simulate: bool,
    /// Refuse a simulation of more message-steps than this (nodes × (letters of
    /// the table + messages per node)): the report says `not simulated`, exit 2.
    #[arg(long, value_name = "N", default_value_t = txverify_clients::simulate::MAX_WORK)]
    max_simulation_steps: u64,
    /// The network MSCCL programs (`.xml`) run on, GPU i on node i (e.g. `ring 8`,
    /// `nvlink 8`): adds each link's load and the collective's lower bounds
    /// (docs/msccl.md). Tables name their own network.
    #[arg(long, value_name = "NET")]
    network: Option<NetworkSpec>,
    /// Check the certificates in DIR (one certificate, or the `T<t>/`
    /// directories of `search --certificate DIR`) instead of those the table's
    /// `certificates:` line names; one file only (docs/tbl-format.md).
    #[arg(long, value_name = "DIR")]
    proofs: Option<PathBuf>,
    #[command(flatten)]
    timing: TimingArgs,
}

/// The timed (α, β) replay of a schedule or an MSCCL program (docs/schedule.md).
#[derive(clap::Args, Debug, Default)]
struct TimingArgs {
    /// Time a message takes on a link before its first chunk (latency); adds a
    /// timed section, predicted completion beside its α-β lower bound.
    /// At most 1e15 (docs/limits.md).
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    alpha: Option<f64>,
    /// Time each chunk of a message takes on a link (inverse bandwidth).
    /// At most 1e15 (docs/limits.md).
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    beta: Option<f64>,
    /// Per-link α and β, lines `from to alpha beta` (docs/schedule.md).
    #[arg(long, value_name = "FILE")]
    link_table: Option<PathBuf>,
}

impl TimingArgs {
    fn request(&self) -> txverify_clients::timed::TimingRequest<'_> {
        txverify_clients::timed::TimingRequest {
            alpha: self.alpha,
            beta: self.beta,
            link_table: self.link_table.as_deref(),
        }
    }
}

#[derive(clap::Args, Debug)]
struct SimulateArgs {
    /// The `.tbl` file or schedule (text or JSON, docs/schedule.md) to simulate.
    file: PathBuf,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// List every hop, step by step (small networks only; tables and `--algorithm`).
    #[arg(long)]
    trace: bool,
    /// The network of a schedule, supplying or overriding its header (e.g. `mesh 4 4`,
    /// or a file: a `.tbl` header's Cayley graph, an edge list; docs/networks.md).
    #[arg(long, value_name = "NET")]
    network: Option<NetworkSpec>,
    /// The ports of a schedule (`all` or K), supplying or overriding its header.
    #[arg(long)]
    ports: Option<String>,
    /// List every violation of an invalid schedule (the text shows the counts
    /// per kind and the first few; JSON lists up to 1,000 without it).
    #[arg(long)]
    all: bool,
    /// Instead of the file's table, build the schedule of an algorithm on the
    /// Cayley graph of its header and replay it (`fifo`: the node-invariant FIFO
    /// queue algorithm, single-port; docs/single-port.md).
    #[arg(long, value_enum)]
    algorithm: Option<Algorithm>,
    /// The initial queue order of `--algorithm fifo`.
    #[arg(long, value_enum, default_value_t, requires = "algorithm")]
    order: QueueOrder,
    /// Write the schedule `--algorithm` builds to this file (JSON when the name
    /// ends in `.json`, text otherwise; total exchange only).
    #[arg(short, long, requires = "algorithm")]
    output: Option<PathBuf>,
    #[command(flatten)]
    timing: TimingArgs,
}

/// Algorithms `simulate --algorithm` builds and replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Algorithm {
    /// The node-invariant FIFO queue algorithm (seed 004, section 6).
    Fifo,
}

/// The initial order of the FIFO queues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum QueueOrder {
    /// Nearest destinations first.
    #[default]
    Closest,
    /// Furthest destinations first.
    Furthest,
}

#[derive(clap::Args, Debug)]
struct FmtArgs {
    /// The `.tbl` file to print; with `--check`, files and directories (searched for
    /// `*.tbl` files recursively).
    #[arg(required = true, value_name = "PATH")]
    files: Vec<PathBuf>,
    /// Print nothing but the files whose text is not what `fmt` would print, and
    /// exit 1 if there is one (2 if a file cannot be read or parsed).
    #[arg(long)]
    check: bool,
}

/// Parses the command line. `--color` is looked up first so that clap's own
/// help and usage errors follow it (and NO_COLOR) too. Also returns what a
/// failure's JSON error object says when the command was asked for
/// `--format json`; a usage error gets that object here.
fn parse() -> (
    Cli,
    Option<txverify_clients::report::error_object::ErrorContext>,
) {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let when = global::color_in_args(&args).with_no_color(global::no_color_env());
    let mut command = Cli::command().color(when.for_clap());
    let parsed = command
        .try_get_matches_from_mut(args.clone())
        .and_then(|matches| {
            let context = failure_object::context(&matches);
            Cli::from_arg_matches_mut(&mut matches.clone()).map(|cli| (cli, context))
        });
    parsed.unwrap_or_else(|e| {
        let e = with_value_echoed(e).with_cmd(&command);
        failure_object::usage_error(&args, &e);
        e.exit()
    })
}

/// A usage error whose rejected value is cut as every echoed token is
/// ([`txverify_core::format::echoed`]): clap repeats the value whole.
fn with_value_echoed(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    if let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue)
        && value.len() > txverify_core::format::SHOWN_LINE_BYTES
    {
        let shown = txverify_core::format::echoed(value).into_owned();
        error.insert(ContextKind::InvalidValue, ContextValue::String(shown));
    }
    error
}

/// Runs the command line and returns the exit status.
pub fn run() -> ExitCode {
    let (cli, json_failure) = parse();
    global::init(&cli.global);
    let exit: Exit = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Gen(args) => generate::run(&args),
        Command::Fmt(args) => check::fmt::run(&args),
        Command::Search(args) => search::run(&args),
        Command::VerifyProof(args) => verify_proof::verify_proof(&args),
        Command::Schedule(args) => schedule::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Net(args) => net::run(&args),
        Command::Bounds(args) => net::bounds(&args),
        Command::VerifyBound(args) => network_bounds::verify_bound(&args),
        Command::Hypercube(args) => hypercube::run(&args),
        Command::Compose(args) => compose::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Lcc(args) => lcc::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Completions(args) => manual::completions(&args),
        Command::Man(args) => manual::man(&args),
        Command::Infer(args) => infer::run(&args),
        // Its status follows the SAT solvers' convention (10, 20), not `Exit`.
        Command::SolveCube(args) => return search_mpi::solve_cube(&args),
    };
    failure_object::finish(json_failure.as_ref(), exit);
    ExitCode::from(exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command's path (`txverify lcc map`) and the command, depth first.
    fn every_command() -> Vec<(String, clap::Command)> {
        fn walk(prefix: &str, command: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
            let path = format!("{prefix}{}", command.get_name());
            out.push((path.clone(), command.clone()));
            for sub in command.get_subcommands() {
                walk(&format!("{path} "), sub, out);
            }
        }
        let mut command = Cli::command();
        command.build();
        let mut out = Vec::new();
        walk("", &command, &mut out);
        out
    }

    #[test]
    fn the_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_subcommand_help_has_an_example_of_itself() {
        let commands = every_command();
        assert!(commands.len() > 15, "{} commands", commands.len());
        for (path, mut command) in commands {
            // clap's generated `help` subcommands (and theirs) have nothing to show.
            if path.split(' ').any(|word| word == "help") {
                continue;
            }
            let help = command.render_long_help().to_string();
            let examples = help
                .split_once("Examples:")
                .unwrap_or_else(|| panic!("`{path} --help` has no Examples: block"))
                .1;
            assert!(
                examples.lines().any(|l| l.trim_start().starts_with(&path)),
                "`{path} --help`: no example runs `{path}`:\n{examples}"
            );
        }
    }
}
