//! `txverify simulate`: play a table out on its physical network.

use super::SimulateArgs;
use super::check::{emit_all, load_read, read_once, single_format};
use super::exit::Exit;
use txverify_clients::report::schedule::refuse_schedule_options;
use txverify_clients::report::single::simulate_table;
use txverify_core::load::{Reader, detect};

pub fn run(args: &SimulateArgs) -> Exit {
    // Read once, then told by its content: a pipe or a FIFO cannot be read again.
    let Some(source) = read_once(&args.file, args.format) else {
        return Exit::Input;
    };
    // A file that is not a table or a schedule is pointed to its command.
    if let Some(line) = detect(&source).refusal(Reader::Simulate, &args.file.display().to_string())
    {
        errorln!("{line}");
        return Exit::Input;
    }
    let timing = args
        .timing
        .request()
        .asked()
        .then_some("--alpha, --beta and --link-table");
    if let (Some(_), Err(e)) = (&args.algorithm, refuse_schedule_options("", timing, None)) {
        errorln!("{e}");
        return Exit::Input;
    }
    if args.algorithm.is_none()
        && let Some(exit) = super::schedule::simulate_if_schedule(args, &source)
    {
        return exit;
    }
    let Some(loaded) = load_read(&args.file, source, &Default::default(), args.format) else {
        return Exit::Input;
    };
    if args.algorithm.is_some() {
        return super::fifo::run(args, loaded);
    }
    let shown = args.file.display().to_string();
    let outcome = simulate_table(&shown, &loaded, args.trace, single_format(args.format));
    emit_all(outcome.emits);
    Exit::from(outcome.status)
}
