//! The `txverify` binary: a thin shell over the library.

mod cli;

fn main() -> std::process::ExitCode {
    // The backends that link a system library (z3), when this build has them.
    txverify_native::install();
    cli::run()
}
