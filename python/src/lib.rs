//! `txverify._txverify`: the compiled half of the `txverify` Python package.
//!
//! Each function builds the same typed report the command line builds, by the
//! same library call, and hands it over as its JSON text (the schemas of
//! docs/json.md), its text report and its exit status; the pure-Python
//! package (`python/txverify/`) turns them into result objects. Work runs on
//! a thread of its own with the GIL released, so that the caller's thread can
//! notice Ctrl-C (and stop a search through its stop flag). Every argument
//! is read by name (`args`), and every entry point goes through
//! `run::call`: a bad argument is `txverify.InputError`, a panic
//! `txverify.InternalError`, never another exception or a crash of the
//! interpreter.

mod api;
mod args;
mod run;

use pyo3::prelude::*;
use txverify_clients::report::Status;

/// The module's functions (their Python wrappers are in `txverify/__init__.py`).
#[pymodule]
fn _txverify(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(api::check_table, m)?)?;
    m.add_function(wrap_pyfunction!(api::check_msccl, m)?)?;
    m.add_function(wrap_pyfunction!(api::bounds, m)?)?;
    m.add_function(wrap_pyfunction!(api::verify_bound, m)?)?;
    m.add_function(wrap_pyfunction!(api::search, m)?)?;
    m.add_function(wrap_pyfunction!(api::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(api::schedule_msccl_xml, m)?)?;
    m.add_function(wrap_pyfunction!(api::schedule_text, m)?)?;
    m.add_function(wrap_pyfunction!(api::schedule_save, m)?)?;
    m.add_function(wrap_pyfunction!(api::render, m)?)?;
    m.add_function(wrap_pyfunction!(api::cut_svg, m)?)?;
    m.add_function(wrap_pyfunction!(api::panic_for_test, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The library's one exit-status table, by the exception each status
    // raises: `python -m txverify` exits as the command line does.
    let statuses = pyo3::types::PyDict::new(m.py());
    for (class, status) in [
        ("Error", Status::Rejected),
        ("InputError", Status::Input),
        ("LimitError", Status::Limit),
        ("InternalError", Status::Internal),
    ] {
        statuses.set_item(class, status.code())?;
    }
    m.add("EXIT_STATUS", statuses)?;
    Ok(())
}
