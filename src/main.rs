//! The `txverify` binary: a thin shell over the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
