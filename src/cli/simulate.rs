//! `txverify simulate`: play a table out on its physical network.

use super::SimulateArgs;
use super::check::{emit_all, read_and_load, single_format};
use super::exit::Exit;
use txverify_clients::report::single::simulate_table;
use txverify_core::load::{Reader, detect};

pub fn run(args: &SimulateArgs) -> Exit {
    // A file that is not a table or a schedule is pointed to its command.
    if let Ok(source) = super::read_text(&args.file)
        && let Some(line) =
            detect(&source).refusal(Reader::Simulate, &args.file.display().to_string())
    {
        errorln!("{line}");
        return Exit::Input;
    }
    if args.algorithm.is_some() && args.timing.request().asked() {
        errorln!("--alpha, --beta and --link-table apply to schedule files only");
        return Exit::Input;
    }
    if args.algorithm.is_some() {
        return super::fifo::run(args);
    }
    if let Some(exit) = super::schedule::simulate_if_schedule(args) {
        return exit;
    }
    let Some(loaded) = read_and_load(&args.file, &Default::default(), args.format) else {
        return Exit::Input;
    };
    let shown = args.file.display().to_string();
    let outcome = simulate_table(&shown, &loaded, args.trace, single_format(args.format));
    emit_all(outcome.emits);
    Exit::from(outcome.status)
}
