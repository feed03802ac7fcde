//! txverify-clients: everything that builds, imports, exports or shows what the
//! trusted core (`txverify-core`) judges — constructions, FIFO schedules,
//! products, hypercube collectives, linear-complement contention, MSCCL import
//! and export, table inference, the catalogue of published tables, the physical
//! simulation, reports and renderings.
//!
//! Nothing here decides a verdict: a table or schedule built here goes back to
//! the core's kernel, replay and `judge` before it is reported.
#![deny(missing_docs)]

pub mod batch;
pub mod bounds;
pub mod catalogue;
pub mod certified;
pub mod compare;
pub mod construct;
pub mod export;
pub mod fabric_bounds;
pub mod failure;
pub mod fifo;
pub mod help_examples;
pub mod hypercube;
pub mod infer;
pub mod lcc;
pub mod lp_bound;
pub mod msccl;
pub mod product;
pub mod render;
pub mod replay_text;
pub mod report;
pub mod simulate;
pub mod timed;
pub mod verify;
pub mod wording;
