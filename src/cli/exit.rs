//! The process exit statuses of `txverify`, in one place.
//!
//! Exit status is part of the command line's interface (README, "Exit status"):
//! scripts and CI tell a rejected table from a broken file from a bug by it.
//! Every command returns an [`Exit`]; the library never picks a status, it
//! returns typed outcomes and errors that the functions here map to one.

use std::process::ExitCode;
use txverify_clients::check::Outcome;
use txverify_clients::report::Status;
use txverify_search::SearchError;
use txverify_search::certificate::CertificateError;
use txverify_search::schedule::certificate::ScheduleCertificateError;
use txverify_search::solver::SatAnswer;

/// Why `txverify` stops, one variant per documented exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: every `expect:` claim holds and every table is valid, or invalid where an
    /// `expect: invalid` claim says so (or the command did what it was asked).
    Ok,
    /// 1: a table is invalid and no claim expects it, its network does not match, a
    /// claim fails, a search proved that no table exists, or a certificate is
    /// rejected.
    Rejected,
    /// 2: a file cannot be read or parsed, a header value or an argument is
    /// malformed, the group cannot be computed, or an input or output file cannot
    /// be read or written.
    Input,
    /// 3: internal disagreement between two independent checks, or a construction
    /// the checkers reject: a bug.
    Internal,
    /// 4: `search` or `infer` ran out of a time, size or step limit before an answer.
    Limit,
    /// 130: a second SIGINT or SIGTERM ended `search --network` at once (the
    /// first one stops the search, which then reports and exits 0).
    Interrupted,
    /// 141: the reader of standard output went away (as a shell reports SIGPIPE).
    BrokenPipe,
}

impl Exit {
    /// Every status, in numeric order (the man page and docs/cli.md list them).
    pub const ALL: [Exit; 7] = [
        Exit::Ok,
        Exit::Rejected,
        Exit::Input,
        Exit::Internal,
        Exit::Limit,
        Exit::Interrupted,
        Exit::BrokenPipe,
    ];

    /// What the status means, in one sentence (docs/cli.md repeats it; a test
    /// holds the two together).
    pub fn meaning(self) -> &'static str {
        match self {
            Exit::Ok => {
                "success: every `expect:` claim holds and every table is valid (or invalid where an `expect: invalid` claim says so), or the command did what it was asked"
            }
            Exit::Rejected => {
                "rejected: a table is invalid and no claim expects it, its network does not match, a claim fails, a replay or a bound disagrees, a search proved that no table exists, or a certificate is rejected"
            }
            Exit::Input => {
                "bad input: a file cannot be read or parsed, a header value or an argument is malformed, the group cannot be computed, a limit refuses the input, or an output file cannot be written"
            }
            Exit::Internal => {
                "a bug: two independent checks disagree, a construction is rejected by the checkers, or a search fails internally"
            }
            Exit::Limit => {
                "a time or size limit of `search`, or the step limit of `infer`, ran out before an answer"
            }
            Exit::Interrupted => {
                "a second SIGINT or SIGTERM ended `search --network` at once (the first stops the search, which reports its best schedule and exits 0)"
            }
            Exit::BrokenPipe => "standard output was closed early (as a shell reports SIGPIPE)",
        }
    }

    /// The numeric status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Rejected => 1,
            Exit::Input => 2,
            Exit::Internal => 3,
            Exit::Limit => 4,
            Exit::Interrupted => 130,
            Exit::BrokenPipe => 141,
        }
    }

    /// The status of a verified file.
    pub fn of_outcome(outcome: Outcome) -> Exit {
        match outcome {
            Outcome::Passed => Exit::Ok,
            Outcome::Failed => Exit::Rejected,
            Outcome::Disagreement => Exit::Internal,
        }
    }

    /// The status of a failed search: an output file that cannot be written is an
    /// input/output error (2); everything else the search library reports is a bug
    /// of the search (3).
    pub fn of_search_error(error: &SearchError) -> Exit {
        // The one place search errors become statuses: keep new variants here.
        if error.is_io() {
            Exit::Input
        } else {
            Exit::Internal
        }
    }

    /// The status of a certificate `verify-proof` did not accept: a file that cannot
    /// be read or written is an input/output error (2); anything else means the
    /// certificate is rejected (1).
    pub fn of_certificate_error(error: &CertificateError) -> Exit {
        // The one place certificate errors become statuses: keep new variants here.
        if error.is_io() {
            Exit::Input
        } else {
            Exit::Rejected
        }
    }

    /// The status of a schedule certificate `verify-proof --network` did not
    /// accept: 2 for a file that cannot be read, 1 for a certificate that
    /// does not hold.
    pub fn of_schedule_certificate_error(error: &ScheduleCertificateError) -> Exit {
        if error.is_io() {
            Exit::Input
        } else {
            Exit::Rejected
        }
    }

    /// Ends the process now with this status (for output errors deep in a command).
    pub fn exit_now(self) -> ! {
        std::process::exit(i32::from(self.code()))
    }
}

/// The exit status of a library command's status: the same number (a test
/// holds the two tables together).
impl From<Status> for Exit {
    fn from(status: Status) -> Exit {
        match status {
            Status::Ok => Exit::Ok,
            Status::Rejected => Exit::Rejected,
            Status::Input => Exit::Input,
            Status::Internal => Exit::Internal,
            Status::Limit => Exit::Limit,
        }
    }
}

/// The statuses of the hidden `solve-cube` command, which answers as a SAT
/// solver does for the cluster worker that runs it (not for a user): 10
/// satisfiable, 20 unsatisfiable, 0 no answer; a formula it cannot read is
/// [`Exit::Input`] (2).
pub fn of_solver_answer(answer: &SatAnswer) -> ExitCode {
    ExitCode::from(solver_answer_code(answer))
}

/// The number [`of_solver_answer`] exits with.
fn solver_answer_code(answer: &SatAnswer) -> u8 {
    match answer {
        SatAnswer::Sat(_) => 10,
        SatAnswer::Unsat => 20,
        SatAnswer::Unknown => 0,
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_the_documented_numbers() {
        let all = [
            (Exit::Ok, 0),
            (Exit::Rejected, 1),
            (Exit::Input, 2),
            (Exit::Internal, 3),
            (Exit::Limit, 4),
            (Exit::Interrupted, 130),
            (Exit::BrokenPipe, 141),
        ];
        for (exit, code) in all {
            assert_eq!(exit.code(), code, "{exit:?}");
        }
    }

    #[test]
    fn all_lists_every_status_once_in_order() {
        let codes: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(codes, [0, 1, 2, 3, 4, 130, 141]);
        assert!(Exit::ALL.iter().all(|e| !e.meaning().is_empty()));
    }

    #[test]
    fn library_statuses_keep_their_numbers() {
        for status in [
            Status::Ok,
            Status::Rejected,
            Status::Input,
            Status::Internal,
            Status::Limit,
        ] {
            assert_eq!(Exit::from(status).code(), status.code(), "{status:?}");
        }
    }

    #[test]
    fn solve_cube_exits_as_the_workers_read_a_solver() {
        use txverify_search::cluster::task::solver_output;
        for answer in [
            SatAnswer::Sat(vec![true]),
            SatAnswer::Unsat,
            SatAnswer::Unknown,
        ] {
            let (_, expected) = solver_output(&answer);
            assert_eq!(i32::from(solver_answer_code(&answer)), expected);
        }
        assert_ne!(solver_answer_code(&SatAnswer::Unsat), Exit::Input.code());
    }

    #[test]
    fn the_worst_of_several_files_is_the_largest() {
        let worst = [Exit::Ok, Exit::Input, Exit::Rejected]
            .into_iter()
            .max()
            .unwrap();
        assert_eq!(worst, Exit::Input);
        assert!(Exit::Internal > Exit::Input);
    }

    #[test]
    fn an_unwritable_output_of_a_search_is_an_input_error() {
        let error = SearchError::Io {
            path: "/nonexistent/x.cnf".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(Exit::of_search_error(&error), Exit::Input);
        assert_eq!(
            Exit::of_search_error(&SearchError::Undecodable),
            Exit::Internal
        );
    }

    #[test]
    fn unreadable_or_unwritable_certificate_files_are_input_errors() {
        let io = || std::io::Error::from(std::io::ErrorKind::NotFound);
        let read = CertificateError::Read {
            path: "/nonexistent/provenance.json".into(),
            source: io(),
        };
        let write = CertificateError::Write {
            path: "/nonexistent/proof.lrat".into(),
            source: io(),
        };
        assert_eq!(Exit::of_certificate_error(&read), Exit::Input);
        assert_eq!(Exit::of_certificate_error(&write), Exit::Input);
        let mismatch = CertificateError::WrongInstance;
        assert_eq!(Exit::of_certificate_error(&mismatch), Exit::Rejected);
    }
}
