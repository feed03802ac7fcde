//! The arguments of `search`: a table's network, or any network with `--network`.
use super::*;
use txverify_search::seconds::Seconds;
#[derive(clap::Args, Debug)]
pub(super) struct SearchArgs {
    /// The `.tbl` file giving the group, links, messages and ports (its table is ignored).
    #[arg(required_unless_present = "network")]
    pub(super) file: Option<PathBuf>,
    /// Instead of a table: search a total-exchange schedule (all-port, buffering)
    /// on this network, any spelling of docs/networks.md, e.g. `edges FILE` or
    /// `mesh 4 6` (docs/schedules-any.md).
    #[arg(long, value_name = "NET", conflicts_with = "file")]
    pub(super) network: Option<NetworkSpec>,
    /// With --network: search a schedule of this collective instead of a total
    /// exchange: `broadcast R`, `allgather` (formerly `mnb`), `reduce R`,
    /// `reduce-scatter` or `allreduce`, by SAT from the lower bound upward
    /// (docs/collectives.md).
    #[arg(long, value_name = "COLLECTIVE", requires = "network")]
    pub(super) collective: Option<String>,
    /// With --collective: chunks per block (default 1).
    #[arg(long, value_name = "C", requires = "collective")]
    pub(super) chunks: Option<String>,
    /// With --collective: ports per node, `all` (default) or K.
    #[arg(long, value_name = "K", requires = "collective")]
    pub(super) ports: Option<String>,
    /// With --network: no SAT, a fast schedule (with --collective a construction) against the bound.
    #[arg(long, requires = "network")]
    pub(super) heuristic: bool,
    /// With --network (total exchange): no LP bound, stated, judged against or followed.
    #[arg(long, requires = "network")]
    pub(super) no_lp: bool,
    /// With --network (the default there): try T from the heuristic's time
    /// minus one downward, one below each schedule found, and stop at the first
    /// T refuted or out of time; each schedule found is written to -o at once.
    /// With --mpi: the same from the FILE's table (docs/cluster.md).
    #[arg(long, conflicts_with = "heuristic")]
    pub(super) descending: bool,
    /// With --network: try T from the lower bound upward instead (each T refuted is a proved bound).
    #[arg(long, requires = "network", conflicts_with_all = ["heuristic", "descending"])]
    pub(super) ascending: bool,
    /// With --network (and --collective) or --mpi: stop the whole run after
    /// this many seconds and report the best result found (a schedule is
    /// already written to -o; exit 0 with a table or schedule); SIGINT and
    /// SIGTERM do the same at any time with --network (docs/schedules-any.md).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) deadline: Option<Seconds>,
    /// Try this number of columns only, instead of minimising from the lower bound.
    #[arg(long)]
    pub(super) time: Option<usize>,
    /// When minimising, give up above this number of columns.
    #[arg(long)]
    pub(super) max_time: Option<usize>,
    /// With --network: refuse a formula estimated above this many variables (docs/limits.md).
    #[arg(
        long,
        value_name = "N",
        default_value_t = txverify_search::schedule::encode::MAX_VARIABLES,
        requires = "network"
    )]
    pub(super) max_variables: u64,
    /// Allow words up to this many letters longer than shortest paths.
    #[arg(long, default_value_t = 0)]
    pub(super) slack: usize,
    /// Allow words of any length (an infeasibility then covers every table).
    #[arg(long)]
    pub(super) any_length: bool,
    /// Only search tables with this symmetry (infeasibility then covers only those).
    #[arg(long, value_enum)]
    pub(super) symmetry: Vec<SymmetryArg>,
    /// With --symmetry sigma: ask for the invariance only outside the last W
    /// columns, which hold the messages it cannot hold for (and any whole orbits
    /// the solver puts there): the shape of the published torus constructions
    /// (docs/search.md, "The free tail"). Needs --time.
    #[arg(long, value_name = "W", requires_all = ["symmetry", "time"])]
    pub(super) free_tail: Option<usize>,
    /// With --symmetry split: split along the direct factor these links generate
    /// (names as in the file's link set, separated by commas) instead of the one
    /// chosen by default (docs/search.md, "The split restriction").
    #[arg(long, value_name = "LINKS", value_delimiter = ',', requires_all = ["symmetry", "time"])]
    pub(super) split_along: Vec<String>,
    /// Add lex-leader constraints for symmetries of the tables (automorphisms of
    /// the group permuting the links, time reversal); unlike --symmetry, an
    /// infeasibility still covers every table (docs/search.md).
    #[arg(long, conflicts_with = "symmetry")]
    pub(super) break_symmetry: bool,
    /// With --break-symmetry: how many automorphisms to use (fewest moved links
    /// first; the time reversal is added alone and after each).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8,
        requires = "break_symmetry"
    )]
    pub(super) break_automorphisms: usize,
    /// With --break-symmetry: compare at most this many variable pairs per
    /// symmetry (0: all).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        requires = "break_symmetry"
    )]
    pub(super) break_prefix: usize,
    /// Leave out the redundant constraints (for experiments).
    #[arg(long, hide = true)]
    pub(super) no_redundant: bool,
    /// Give up on one number of columns after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) time_limit: Option<Seconds>,
    /// Solver threads: 2 runs a helper beside the main solver (symmetric
    /// restrictions and a shuffled copy of the formula); 1 runs the main solver
    /// alone. Default: 2 when the machine has two cores or more.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub(super) jobs: Option<u16>,
    /// Write a certificate (provenance, formula, DRAT proof) for every infeasible T here.
    #[arg(long)]
    pub(super) certificate: Option<PathBuf>,
    /// Write the formula in DIMACS to this file (`FILE.T<time>` when minimising) and stop.
    #[arg(long)]
    pub(super) dimacs: Option<PathBuf>,
    /// The SAT solver.
    #[arg(long, value_enum, default_value_t)]
    pub(super) solver: SolverArg,
    /// With `--solver external`: the command, run by `sh -c`, with `{cnf}` standing
    /// for the formula's DIMACS file (e.g. `cadical -q {cnf}`; docs/search.md).
    /// With `{proof}` (a DRAT proof's file, e.g. `cadical -q {cnf} {proof}`) or
    /// `{lrat}` (an LRAT proof's), "unsatisfiable" is taken only when the proof checks.
    #[arg(long, value_name = "CMD")]
    pub(super) solver_cmd: Option<String>,
    /// With `--time T`: instead of solving, decode this model of the formula
    /// (`--dimacs` writes it) found by any solver (its `v` lines).
    #[arg(long, value_name = "FILE", requires = "time")]
    pub(super) model: Option<PathBuf>,
    /// With `--time T` (or `--mpi`): split the formula into K cubes (cube-and-conquer) and
    /// solve them on `--jobs` threads, stopping at the first table; with `-o DIR`
    /// or `--dimacs F`, write them for independent jobs instead (docs/search.md).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub(super) cubes: Option<u32>,
    /// Write the table found (the `.tbl` text, after the kernel's check) to this
    /// file instead of standard output; nothing is written when no table is
    /// found. With `--format html`: write the page here instead. With `--cubes K`:
    /// write `cubes.icnf` and one DIMACS file per cube to this directory. With
    /// --network: the schedule, rewritten whole with each faster one found.
    #[arg(short = 'o', long, value_name = "PATH")]
    pub(super) output: Option<PathBuf>,
    /// With `--time T`: merge the answers of the cube jobs in this directory (a
    /// model from any cube, or every cube refuted with its proof).
    #[arg(long, value_name = "DIR", requires = "time", conflicts_with_all = ["cubes", "model", "dimacs"])]
    pub(super) merge: Option<PathBuf>,
    /// Run as an MPI job (`mpirun -np N txverify search FILE --mpi`): from the
    /// lower bound upward (or one `--time T`), rank 0 splits each formula into
    /// cubes (`--cubes K`, default 8 per worker) and hands them out to the
    /// other ranks as they ask, checks every answer and writes the
    /// certificates (cargo feature `mpi`; docs/cluster.md).
    #[arg(long, conflicts_with_all = ["merge", "model", "dimacs", "network"])]
    pub(super) mpi: bool,
    /// With --mpi or --cubes: seconds a solver gets on one cube before the
    /// cube is split on two more variables and the parts are queued (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) cube_budget: Option<Seconds>,
    /// With --mpi: seconds after which a cube whose worker has not answered is
    /// handed to another worker (default: twice the budget and a minute; never
    /// without a budget).
    #[arg(long, value_name = "SECONDS", requires = "mpi", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) cube_lease: Option<Seconds>,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    pub(super) max_order: usize,
    /// Report format (JSON: schema txverify-search/2; HTML: one page, docs/render.md).
    #[arg(long, value_enum, default_value_t)]
    pub(super) format: search::SearchFormat,
}
