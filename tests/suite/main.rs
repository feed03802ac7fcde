//! The integration tests, in one test binary so that a test run links once
//! instead of once per file. Each module is one former test file, named after
//! what it covers; `common` is the shared support (also used by the benchmarks
//! and by some unit tests). The browser test stays a binary of its own: it
//! drives an external program and CI runs it alone, with the browser required.
//!
//! Run one module with a filter: `cargo test --test suite fifo::`.

mod common;
mod fifo_replay;
mod fmt_comments;

mod agreement;
mod anytime_limits;
mod bounded;
mod bounds;
mod breaking;
mod certified;
mod ci;
mod claims;
mod cli;
mod cli_polish;
mod collective_heuristics;
mod collectives;
mod compare;
mod compressed;
mod crate_layout;
mod cubes;
mod doc_examples;
mod edges;
mod error_object;
mod expect;
mod export;
mod export_replay;
mod external;
mod fabric_msccl;
mod fabric_search;
mod fabrics;
mod families;
mod fifo;
mod fifo_cli;
mod fifo_messages;
mod file_kinds;
mod fuzz;
mod gen_sweep;
mod group;
mod hypercube;
mod import_circles;
mod infer;
mod infer_complete;
mod kernel;
mod kernel_props;
mod lcc;
mod lcc_cli;
mod lcc_lex;
mod lcc_saturation;
mod limits;
mod lp_bound;
mod lrat_certificates;
mod malicious;
mod mpi;
mod msccl;
mod msccl_check;
mod msccl_crosscheck;
mod msccl_export_collectives;
mod msccl_network;
mod no_panic;
mod one_bound;
mod optional_features;
mod portfolio;
mod presentations;
mod products;
mod proofcheck_cnf;
mod proofs;
mod render;
mod schedule;
mod schedule_cli;
mod schedule_fuzz;
mod seals;
mod search;
mod search_any;
mod search_anytime;
mod search_html;
mod search_returns;
mod search_stopped;
mod single_port;
mod solvers;
mod split;
mod tables;
mod tail;
mod tbl_docs;
mod tbl_proptest;
mod timed_replay;
mod trust_doc;
mod twisted;
mod written_layout;
