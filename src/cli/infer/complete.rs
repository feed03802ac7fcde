//! `txverify infer --complete N FILE [--derive OTHER --delete WHICH]`: every completion
//! of a printed prefix to a table of at most N columns, counted, and optionally the
//! kernel's verdicts on a table derived from each (docs/infer.md, "Completing a
//! printed prefix").

use super::super::exit::Exit;
use super::super::{InferArgs, OutputFormat};
use serde_json::{Value, json};
use txverify_clients::infer::{
    CompleteOptions, Completions, Deletion, Grid, InferOptions, complete,
};
use txverify_core::format::{self, render_diagnostic, syntax::TblFile};
use txverify_core::group::EnumerationLimits;
use txverify_core::load::{LoadOptions, Loaded, load, table_syntax};

/// The JSON schema of `infer --complete N --format json`.
const SCHEMA: &str = "txverify-infer-complete/1";

pub fn run(args: &InferArgs, shown: &str, grid: &Grid, columns: u64) -> Exit {
    let target = match &args.derive {
        Some(path) => match load_target(args, path) {
            Ok(loaded) => Some(loaded),
            Err(exit) => return exit,
        },
        None => None,
    };
    let deletion = args.delete.unwrap_or(Deletion::RowEnds);
    let options = CompleteOptions {
        columns: columns as usize,
        infer: InferOptions {
            shortest_only: args.shortest,
            max_steps: Some(args.max_steps),
            ..InferOptions::default()
        },
        max_fillings: args.max_fillings,
        derive: target.as_ref().map(|t| (t, deletion)),
    };
    let found = match complete(grid, &options) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Exit::Internal;
        }
    };
    let exit = if found.out_of_steps || !found.complete {
        Exit::Limit
    } else if found.count == 0 {
        Exit::Rejected
    } else {
        Exit::Ok
    };
    let derive_shown = args.derive.as_ref().map(|p| p.display().to_string());
    match args.format {
        OutputFormat::Text => out!(
            "{}",
            text(
                shown,
                columns,
                &found,
                derive_shown.as_deref(),
                deletion,
                target.as_ref()
            )
        ),
        OutputFormat::Json => {
            let report = report_json(shown, columns, &found, args, exit);
            outln!("{report}");
        }
    }
    exit
}

/// Loads the `--derive` file (exit status 2 with a diagnostic when it does not load).
fn load_target(args: &InferArgs, path: &std::path::Path) -> Result<Loaded, Exit> {
    let shown = path.display().to_string();
    let source = super::super::read_text(path).map_err(|e| {
        super::input_error(&shown, args.format, &format!("cannot read {shown}: {e}"))
    })?;
    let options = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    load(&source, &options).map_err(|e| match args.format {
        OutputFormat::Text => {
            eprint!(
                "{}",
                render_diagnostic(&shown, &source, e.span(), &e.to_string())
            );
            Exit::Input
        }
        OutputFormat::Json => {
            let (line, column) = format::line_col(&source, e.span().start);
            super::error_json(&shown, &e.to_string(), Some((line, column)))
        }
    })
}

fn deletion_text(deletion: Deletion) -> String {
    match deletion {
        Deletion::RowEnds => "row-ends".to_string(),
        Deletion::Last(k) => format!("last:{k}"),
        Deletion::RightMost(k) => format!("right-most:{k}"),
    }
}

fn text(
    shown: &str,
    columns: u64,
    found: &Completions,
    derive_shown: Option<&str>,
    deletion: Deletion,
    target: Option<&Loaded>,
) -> String {
    let whole = if found.complete && !found.out_of_steps {
        "the whole enumeration"
    } else {
        "the enumeration did not finish (--max-fillings, --max-steps): counts so far"
    };
    let mut out = format!(
        "{shown}: {} valid completions to at most {columns} columns ({whole}; {} fillings of the empty cells, {} with a valid segmentation; each completion re-checked by the kernel)\n",
        found.count, found.fillings, found.fillings_with_tables
    );
    if let (Some(derived), Some(other), Some(target)) = (&found.derived, derive_shown, target) {
        let claims = if derived.claims.is_empty() {
            "no claims".to_string()
        } else {
            derived.claims.join(", ")
        };
        out.push_str(&format!(
            "{other}: deleting {} from each: {} valid, {} optimal, {} satisfy its claims ({claims}); verdicts by the kernel\n",
            deletion_text(deletion),
            derived.valid,
            derived.optimal,
            derived.claims_hold
        ));
        if let Some(first) = &derived.first {
            out.push_str("# the first derived table that satisfies the claims:\n");
            out.push_str(&format::print(&with_rows(&target.file, target, first)));
        }
    }
    out
}

fn with_rows(file: &TblFile, loaded: &Loaded, table: &txverify_core::kernel::Table) -> TblFile {
    TblFile {
        rows: table_syntax(loaded.instance.group(), table),
        ..file.clone()
    }
}

fn report_json(
    shown: &str,
    columns: u64,
    found: &Completions,
    args: &InferArgs,
    exit: Exit,
) -> Value {
    let derived = match (&found.derived, &args.derive) {
        (Some(d), Some(path)) => json!({
            "file": path.display().to_string(),
            "delete": deletion_text(args.delete.unwrap_or(Deletion::RowEnds)),
            "claims": d.claims,
            "valid": d.valid,
            "optimal": d.optimal,
            "claims_hold": d.claims_hold,
        }),
        _ => Value::Null,
    };
    json!({
        "schema": SCHEMA,
        "file": shown,
        "columns": columns,
        "shortest_only": args.shortest,
        "fillings": found.fillings,
        "fillings_with_tables": found.fillings_with_tables,
        "count": found.count,
        "complete": found.complete && !found.out_of_steps,
        "out_of_steps": found.out_of_steps,
        "derived": derived,
        "exit_code": exit.code(),
    })
}
