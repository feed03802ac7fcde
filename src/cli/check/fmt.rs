//! `txverify fmt`: a table file printed back in canonical form, and `fmt --check`,
//! which lists the files (and the `*.tbl` files of directories) whose text is not
//! that form. Both are the library's (`batch::fmt`).

use super::super::FmtArgs;
use super::super::exit::Exit;
use txverify_clients::batch::fmt::{check_formatted, formatted};

pub fn run(args: &FmtArgs) -> Exit {
    if args.check {
        let checked = check_formatted(&args.files, |emit| super::emit_all(vec![emit]));
        if !super::super::global::quiet() {
            eprintln!("{}", checked.summary);
        }
        return Exit::from(checked.status);
    }
    let [path] = args.files.as_slice() else {
        errorln!(
            "fmt prints one file ({} given); `fmt --check` takes several",
            args.files.len()
        );
        return Exit::Input;
    };
    match formatted(path) {
        Ok((_, printed)) => {
            out!("{printed}");
            Exit::Ok
        }
        Err(message) => {
            eprint!("{message}");
            Exit::Input
        }
    }
}
