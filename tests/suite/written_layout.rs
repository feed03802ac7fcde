//! What the tool writes as a `.tbl` file is in its own layout: `fmt --check`
//! accepts every table `search -o`, `gen -o` and `net -o` write (docs/tbl-format.md).

use crate::common::cli::{file, txverify};

/// Asserts that `fmt --check` accepts the file `what` wrote.
fn formatted(what: &str, path: &std::path::Path) {
    let run = txverify(&["fmt", "--check", path.to_str().unwrap()]);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let printed = txverify(&["fmt", path.to_str().unwrap()]).stdout;
    assert_eq!(
        run.code, 0,
        "{what}: `fmt --check` rejects what it wrote:\n{text}\n--- fmt prints:\n{printed}"
    );
}

#[test]
fn tables_found_by_search_pass_fmt_check() {
    let without_source = file(
        "ring5.tbl",
        "group: <a | a^5 = 1>\nnetwork: ring 5\ntable:\n",
    );
    let inputs = [
        std::path::PathBuf::from("campaign/networks/ring8-cyclic.tbl"),
        // `links:` and comments, with a `source:` to keep.
        std::path::PathBuf::from("tables/mesh5.tbl"),
        // No `source:`: the search adds one.
        without_source,
    ];
    for input in inputs {
        let out = file("found.tbl", "");
        let run = txverify(&[
            "search",
            "-q",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}: {}", input.display(), run.stderr);
        formatted(&format!("search {}", input.display()), &out);
    }
}

#[test]
fn tables_and_headers_of_gen_and_net_pass_fmt_check() {
    let commands: [&[&str]; 8] = [
        &["gen", "ring", "6"],
        &["gen", "torus2d", "5"],
        &["gen", "twisted", "4", "4", "8"],
        &["net", "ccc", "3"],
        &["net", "butterfly", "3"],
        &["net", "star", "4"],
        &["net", "torus", "4", "4"],
        &["net", "star 3 x ring 4"],
    ];
    for words in commands {
        let out = file("written.tbl", "");
        let mut args = words.to_vec();
        args.extend(["-q", "-o", out.to_str().unwrap()]);
        let run = txverify(&args);
        assert_eq!(run.code, 0, "{words:?}: {}", run.stderr);
        formatted(&words.join(" "), &out);
    }
}
