//! txverify-clients: everything that builds, imports, exports or shows what the
//! trusted core (`txverify-core`) judges — constructions, FIFO schedules,
//! products, hypercube collectives, linear-complement contention, MSCCL import
//! and export, table inference, the catalogue of published tables, the physical
//! simulation, reports and renderings.
//!
//! Nothing here decides a verdict: a table or schedule built here goes back to
//! the core's kernel, replay and `judge` before it is reported.
//!
//! Three layers, each naming only its own and those below it (a test in the
//! suite holds them): [`shared`] (statuses and words every part uses); the
//! features (the other modules: constructions, importers, exporters,
//! simulations, [`check`] of a loaded file, [`bounds`]); and the commands,
//! [`report`] and [`batch`], one pipeline per command, which compose the
//! features.
#![deny(missing_docs)]

pub mod batch;
pub mod bounds;
pub mod catalogue;
pub mod check;
pub mod compare;
pub mod construct;
pub mod export;
pub mod fifo;
pub mod hypercube;
pub mod infer;
pub mod lcc;
pub mod msccl;
pub mod product;
pub mod render;
pub mod report;
pub mod shared;
pub mod simulate;
pub mod timed;
