//! Running library work from Python: off the GIL, on a thread of its own,
//! with Ctrl-C noticed and panics caught, and failures raised as the
//! package's exceptions (`txverify/_errors.py`).

use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_clients::report::{Failure, Status};

/// The stack of a worker thread: the command line's main thread has 8 MiB,
/// and the library's recursion was sized for it.
const STACK: usize = 8 << 20;

/// How often the caller's thread looks for a signal while the work runs.
const POLL: Duration = Duration::from_millis(50);

/// A failure to raise: its kind (by the exit status the command line would
/// give), its message, and where it is, when known.
#[derive(Debug)]
pub struct Fail {
    /// The status: `Input` raises `InputError`, `Limit` `LimitError`,
    /// `Internal` `InternalError`, anything else `Error`.
    pub status: Status,
    /// What went wrong, in one line.
    pub message: String,
    /// The file or text it is about (`<string>` for text).
    pub file: Option<String>,
    /// 1-based line and column.
    pub at: Option<(usize, usize)>,
}

impl Fail {
    /// A bad input, about `file`, at `at`.
    pub fn input(
        message: impl Into<String>,
        file: Option<&str>,
        at: Option<(usize, usize)>,
    ) -> Fail {
        Fail {
            status: Status::Input,
            message: message.into(),
            file: file.map(str::to_string),
            at,
        }
    }

    /// A library [`Failure`], about `file` unless it names its own.
    pub fn of(failure: &Failure, file: Option<&str>) -> Fail {
        Fail {
            status: failure.status,
            message: failure.message.clone(),
            file: failure.file.clone().or(file.map(str::to_string)),
            at: failure.at,
        }
    }

    /// The Python exception.
    pub fn into_py(self, py: Python<'_>) -> PyErr {
        let class = match self.status {
            Status::Input => "InputError",
            Status::Limit => "LimitError",
            Status::Internal => "InternalError",
            Status::Ok | Status::Rejected => "Error",
        };
        let (line, column) = self.at.unzip();
        let made = py
            .import("txverify._errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.call1((self.message.clone(), self.file, line, column)));
        match made {
            Ok(value) => PyErr::from_value(value),
            // The package's own module is missing: still an exception.
            Err(e) => e,
        }
    }
}

impl Fail {
    /// A caught panic: a bug, raised as `InternalError`.
    fn panic(panic: &(dyn std::any::Any + Send)) -> Fail {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        Fail {
            status: Status::Internal,
            message: format!("internal error (a bug): {what}"),
            file: None,
            at: None,
        }
    }
}

/// Every entry point of the module goes through here: `prepare` reads the
/// arguments (on the caller's thread, the GIL held; `crate::args`) and
/// returns the work, which [`run`] runs. A panic in either is raised as
/// `InternalError`, a failure as the package's exception: nothing but a
/// `txverify.Error` (or Ctrl-C's `KeyboardInterrupt`) leaves the module.
pub fn call<T: Send + 'static, W: FnOnce() -> Result<T, Fail> + Send + 'static>(
    py: Python<'_>,
    stop: Option<&Arc<AtomicBool>>,
    prepare: impl FnOnce() -> Result<W, Fail>,
) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(prepare)) {
        Ok(Ok(work)) => run(py, stop, work),
        Ok(Err(fail)) => Err(fail.into_py(py)),
        Err(panic) => Err(Fail::panic(&*panic).into_py(py)),
    }
}

/// How long a search asked to stop by Ctrl-C is waited for before it is
/// left to finish alone.
const GRACE: Duration = Duration::from_secs(1);

/// Runs `work` on a thread of its own, the GIL released, and waits for it
/// while looking for signals. On Ctrl-C (or any signal handler's exception)
/// `stop` is set, so that a search gives up, and the exception is raised once
/// the work has returned, or after [`GRACE`]; work without a stop flag is not
/// waited for: it is left to finish on its thread, its result dropped, and the
/// exception raised at once. A panic is raised as `InternalError`.
fn run<T: Send + 'static>(
    py: Python<'_>,
    stop: Option<&Arc<AtomicBool>>,
    work: impl FnOnce() -> Result<T, Fail> + Send + 'static,
) -> PyResult<T> {
    let worker = std::thread::Builder::new()
        .name("txverify".into())
        .stack_size(STACK)
        .spawn(move || catch_unwind(AssertUnwindSafe(work)));
    let worker = match worker {
        Ok(worker) => worker,
        Err(e) => return Err(internal(format!("cannot start a thread: {e}")).into_py(py)),
    };
    let mut interrupted: Option<(PyErr, Instant)> = None;
    loop {
        let finished = py.detach(|| {
            let waited = Instant::now();
            while !worker.is_finished() && waited.elapsed() < POLL * 4 {
                std::thread::sleep(POLL / 5);
            }
            worker.is_finished()
        });
        if finished {
            break;
        }
        match interrupted {
            None => {
                if let Err(e) = py.check_signals() {
                    if let Some(stop) = stop {
                        stop.store(true, Ordering::Relaxed);
                    }
                    interrupted = Some((e, Instant::now()));
                }
            }
            // Dropping the handle leaves the thread to end on its own.
            Some((e, since)) if stop.is_none() || since.elapsed() >= GRACE => return Err(e),
            Some(pending) => interrupted = Some(pending),
        }
    }
    if let Some((e, _)) = interrupted {
        return Err(e);
    }
    let result = match worker.join() {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => Err(Fail::panic(&*panic)),
        Err(_) => Err(internal("the worker thread failed".to_string())),
    };
    result.map_err(|fail| fail.into_py(py))
}

/// A failure of the binding itself.
fn internal(message: String) -> Fail {
    Fail {
        status: Status::Internal,
        message,
        file: None,
        at: None,
    }
}
