//! The "Examples:" block of every subcommand's `--help` (and man page) of `txverify`.
//!
//! Kept apart from the clap definitions so that they read as a list; a unit
//! test in `cli` walks every subcommand and fails when one has no block.

/// `txverify` itself.
pub const TOP: &str = "\
Examples:
  txverify check tables/mesh5.tbl             # is the 5 x 5 torus table valid and optimal?
  txverify check examples/msccl/allreduce_ring.xml --network 'ring 8'   # an MSCCL program
  txverify search --network 'torus 4 4'       # a fastest total-exchange schedule on any network
  txverify bounds --network 'edges examples/networks/petersen.edges'  # an edge list's bounds
  txverify check tables/ --format junit -o report.xml   # a collection, for CI
  txverify gen torus2d 7 -o torus7.tbl        # a published construction, checked first
  txverify --color never check tables/*.tbl   # plain text, whatever the terminal
  txverify completions bash > txverify.bash   # shell completions
  txverify man > txverify.1                   # the manual page";

/// `check`.
pub const CHECK: &str = "\
Examples:
  txverify check tables/mesh5.tbl
  txverify check --format json tables/*.tbl
  txverify check --no-simulate tables/torus3d-6.tbl
  txverify check tables/mesh5.tbl --format html -o mesh5.html   # one self-contained page
  txverify check tables/ --jobs 2                               # a line per file and a summary
  txverify check tables/ --format junit -o report.xml           # for a CI's test view
  txverify check tables/ --format github                        # GitHub workflow annotations
  txverify check examples/msccl/allreduce_ring.xml              # an MSCCL program, run symbolically
  txverify check examples/msccl/ --network 'ring 8'             # every program, with link loads on a ring";

/// `render`.
pub const RENDER: &str = "\
Examples:
  txverify render tables/mesh5.tbl -o mesh5.svg
  txverify render tables/hypercube4-a.tbl --by link -o cube4.svg
  txverify render tables/torus3d-6.tbl --utilisation -o use.svg   # from the simulation";

/// `infer`.
pub const INFER: &str = "\
Examples:
  txverify infer tests/infer/hypercube4-a.tbl           # all 104 ways, each a .tbl file
  txverify infer --one tests/infer/hypercube4-a.tbl     # the first: a file `check` reads
  txverify infer --count tests/infer/hypercube4-b.tbl   # 644, without printing them";

/// `simulate`.
pub const SIMULATE: &str = "\
Examples:
  txverify simulate tables/ring6-dihedral-total.tbl --trace
  txverify simulate --algorithm fifo tables/mesh5.tbl
  txverify simulate x5.json --format json     # a schedule written by `hypercube -o`";

/// `gen`.
pub const GEN: &str = "\
Examples:
  txverify gen ring 10
  txverify gen hypercube 6 -o cube6.tbl
  txverify gen torus3d 8 --no-simulate --format json";

/// `fmt`.
pub const FMT: &str = "\
Examples:
  txverify fmt tables/mesh5.tbl
  txverify fmt messy.tbl > tidy.tbl
  txverify fmt --check tables/          # lists the files fmt would change; exit 1 if any";

/// `search`.
pub const SEARCH: &str = "\
Examples:
  txverify search tables/mesh5.tbl
  txverify search tables/ring6-cyclic-total.tbl -o found.tbl
  txverify search tables/ring6-cyclic-total.tbl --time 5 --certificate cert
  txverify search tables/mesh6.tbl --time 27 --symmetry sigma --format json
  txverify search campaign/networks/torus10x12.tbl --time 180 --symmetry split --split-along a,A
  txverify search tables/ring6-cyclic-total.tbl --format html -o search.html
  txverify search --network 'edges examples/networks/petersen.edges'   # a schedule on any network
  txverify search --network 'torus 8 8 8' --deadline 60 -o t8.sched    # the best within a minute
  txverify search --network 'hypercube 10' --collective allgather --heuristic -o h10.sched";

/// `verify-proof`.
pub const VERIFY_PROOF: &str = "\
Examples:
  txverify search tables/ring6-cyclic-total.tbl --time 5 --certificate cert
  txverify verify-proof tables/ring6-cyclic-total.tbl cert
  txverify verify-proof TABLE.tbl proofs/NAME/T13 --lrat proof.lrat --format json";

/// `solve-cube` (hidden: the solver process of `search --mpi` workers and of
/// the Slurm job array, docs/cluster.md).
pub const SOLVE_CUBE: &str = "\
Examples:
  txverify search FILE --time T --cubes 4 -o cubes
  txverify solve-cube cubes/cube-0001.cnf cubes/cube-0001.lrat > cubes/cube-0001.out";

/// `schedule`.
pub const SCHEDULE: &str = "\
Examples:
  txverify schedule convert x5.json --to text -o x5.txt";

/// `schedule convert`.
pub const SCHEDULE_CONVERT: &str = "\
Examples:
  txverify schedule convert x5.json --to text -o x5.txt
  txverify schedule convert x5.txt --to json";

/// `export`.
pub const EXPORT: &str = "\
Examples:
  txverify export tables/mesh5.tbl -o mesh5.json
  txverify export tables/mesh5.tbl --format csv
  txverify export ring8-allgather.sched --format msccl -o ring8-allgather.xml";

/// `net`.
pub const NET: &str = "\
Examples:
  txverify net star 5
  txverify net torus 4 4 -o torus4x4.tbl";

/// `bounds`.
pub const BOUNDS: &str = "\
Examples:
  txverify bounds tables/mesh5.tbl
  txverify bounds --network 'mesh 3 5' --format json
  txverify verify-bound --network 'edges examples/networks/petersen.edges' lp.json";

/// `hypercube`.
pub const HYPERCUBE: &str = "\
Examples:
  txverify hypercube exchange 5 -o x5.json
  txverify hypercube broadcast 8 --root 3 --format json";

/// `compose`.
pub const COMPOSE: &str = "\
Examples:
  txverify compose a2 mesh 4 4
  txverify compose a1 torus 4 3 -o a1.json --format json";

/// `lcc`.
pub const LCC: &str = "\
Examples:
  txverify lcc contention transpose:8
  txverify lcc reorder transpose:8 --format json";

/// `lcc contention`.
pub const LCC_CONTENTION: &str = "\
Examples:
  txverify lcc contention transpose:8
  txverify lcc contention transpose:8 perfect-shuffle:6 --format json";

/// `lcc reorder`.
pub const LCC_REORDER: &str = "\
Examples:
  txverify lcc reorder transpose:8";

/// `lcc map`.
pub const LCC_MAP: &str = "\
Examples:
  txverify lcc map transpose:6 perfect-shuffle:6 --objective sum";

/// `lcc simulate`.
pub const LCC_SIMULATE: &str = "\
Examples:
  txverify lcc simulate transpose:8 --svg transpose8.svg
  txverify lcc simulate transpose:6 --loads 0.1,0.5 --format json";

/// `completions`.
pub const COMPLETIONS: &str = "\
Examples:
  txverify completions bash > ~/.local/share/bash-completion/completions/txverify
  txverify completions zsh > ~/.zfunc/_txverify
  txverify completions fish > ~/.config/fish/completions/txverify.fish";

/// `man`.
pub const MAN: &str = "\
Examples:
  txverify man | man -l -
  txverify man --dir man1                     # one page per subcommand";
