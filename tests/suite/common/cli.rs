//! Running the `txverify` binary from integration tests, and the JSON field
//! lists of docs/json.md that the reports are pinned against.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// The 8-ring as the dihedral group of order 8 (seed 003's example): a header the
/// search completes in well under a second.
pub const RING8_HEADER: &str = "group: <y, Y | y^2 = Y^2 = (yY)^4 = 1>\nnetwork: ring 8\ntable:\n";

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `txverify ARGS…`.
pub fn txverify(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Writes `text` to a fresh file named `name` (in a directory of this test
/// process) and returns its path.
pub fn file(name: &str, text: &str) -> PathBuf {
    // One directory per test: the tests share one process, and two tests may
    // write files of the same name at the same time.
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(name) => name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        None => format!("{:?}", thread.id()).replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
    };
    let dir = std::env::temp_dir()
        .join(format!("txverify-test-{}", std::process::id()))
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The field paths (`a`, `a.b`) docs/json.md lists in the first column of the
/// tables under `heading`, up to the next heading.
pub fn documented_fields(heading: &str) -> BTreeSet<String> {
    let doc = std::fs::read_to_string("docs/json.md").expect("docs/json.md is readable");
    let fields: BTreeSet<String> = doc
        .lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next().map(str::to_string))
        .collect();
    assert!(
        !fields.is_empty(),
        "docs/json.md lists no fields under {heading}"
    );
    fields
}

/// Every field path of a report, two levels deep: `a`, and `a.b` for the fields
/// of an object-valued `a`.
pub fn field_paths(report: &serde_json::Value) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    for (key, value) in report.as_object().expect("a JSON object") {
        paths.insert(key.clone());
        if let Some(inner) = value.as_object() {
            paths.extend(inner.keys().map(|k| format!("{key}.{k}")));
        }
    }
    paths
}

/// Every field path of a JSON value, all levels deep: `a.b` for the fields of
/// objects, `a[].b` for the fields of the objects in an array.
#[allow(dead_code)] // not every test crate that includes this module uses it
pub fn nested_field_paths(value: &serde_json::Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                out.insert(path.clone());
                nested_field_paths(child, &path, out);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                nested_field_paths(item, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

/// `txverify export TABLE --format msccl`, written to a file of this test and
/// read back: the MSCCL XML program of a table's schedule.
pub fn export_msccl(table: &str) -> String {
    let out = file("export.xml", "");
    let run = txverify(&[
        "export",
        table,
        "--format",
        "msccl",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{table}: {}", run.stderr);
    std::fs::read_to_string(out).unwrap()
}
