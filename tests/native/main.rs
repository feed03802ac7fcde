//! The tests that change when the optional features `z3` and `mpi` are on: z3's
//! backend, `--solver z3` and `--version` on the command line, and `search --mpi`.
//! They are modules of the suite too (where the default build runs their other
//! half: the messages of a build without the features); this small binary exists so
//! that a build with `--features z3,mpi` compiles them alone, not the whole suite
//! again (docs/ci.md, "What each step costs"). Cargo builds it only with both
//! features: `cargo test --release --features z3,mpi --test native`.

#[path = "../suite/common/mod.rs"]
mod common;
#[path = "../suite/mpi.rs"]
mod mpi;
#[path = "../suite/optional_features.rs"]
mod optional_features;
#[path = "../suite/solvers.rs"]
mod solvers;
