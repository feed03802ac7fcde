//! The command line as a whole: examples in every `--help`, completions, the
//! man page, `--color` and NO_COLOR, `--quiet`, the JSON of `search`,
//! `verify-proof` and `gen`, the newline at the end of every output, and
//! docs/cli.md against the binary.

use crate::common;

use common::cli::{Run, documented_fields, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use std::process::Command;

/// Runs `txverify ARGS…` with NO_COLOR set to `no_color` (or unset), and no
/// other colour variables from the test's environment.
fn txverify_colour(args: &[&str], no_color: Option<&str>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_txverify"));
    command
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    let output = command.output().expect("the binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The subcommands `--help` of `path` lists (without clap's `help`).
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let run = txverify(&args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
        .lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path: `[]`, `["check"]`, `["lcc", "map"]`, …
fn every_command() -> Vec<Vec<String>> {
    let mut all = vec![vec![]];
    let mut i = 0;
    while i < all.len() {
        let path: Vec<&str> = all[i].iter().map(String::as_str).collect();
        let children: Vec<Vec<String>> = subcommands(&path)
            .into_iter()
            .map(|name| {
                let mut child = all[i].clone();
                child.push(name);
                child
            })
            .collect();
        all.extend(children);
        i += 1;
    }
    all
}

#[test]
fn every_subcommand_help_shows_an_example_of_itself() {
    let commands = every_command();
    let top = subcommands(&[]);
    for expected in ["check", "simulate", "search", "completions", "man", "lcc"] {
        assert!(top.iter().any(|c| c == expected), "{expected}: {top:?}");
    }
    assert!(commands.len() >= 20, "{commands:?}");
    for path in commands {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        let shown = std::iter::once("txverify")
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        for flag in ["--help", "-h"] {
            args.push(flag);
            let run = txverify(&args);
            args.pop();
            assert_eq!(run.code, 0, "{shown} {flag}: {}", run.stderr);
            let examples = run
                .stdout
                .split_once("\nExamples:\n")
                .unwrap_or_else(|| panic!("`{shown} {flag}` has no Examples: block"))
                .1;
            assert!(
                examples.lines().any(|l| l.trim_start().starts_with(&shown)),
                "`{shown} {flag}`: no example of `{shown}`:\n{examples}"
            );
        }
    }
}

#[test]
fn completions_for_bash_zsh_and_fish_name_every_subcommand() {
    let top = subcommands(&[]);
    for shell in ["bash", "zsh", "fish"] {
        let run = txverify(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for name in &top {
            assert!(
                run.stdout.contains(name.as_str()),
                "{shell} completions lack `{name}`"
            );
        }
        // Options of a subcommand and of nested subcommands are completed too.
        for word in ["no-simulate", "objective", "convert"] {
            assert!(run.stdout.contains(word), "{shell} completions lack {word}");
        }
        assert!(run.stdout.ends_with('\n'), "{shell}");
    }
    assert!(
        txverify(&["completions", "bash"])
            .stdout
            .contains("complete -F")
    );
    assert!(
        txverify(&["completions", "zsh"])
            .stdout
            .starts_with("#compdef txverify")
    );
    assert!(
        txverify(&["completions", "fish"])
            .stdout
            .contains("complete -c txverify")
    );
    for shell in ["elvish", "powershell"] {
        let run = txverify(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}");
        assert!(run.stdout.contains("check"), "{shell}");
    }
    let run = txverify(&["completions", "tcsh"]);
    assert_eq!(run.code, 2, "an unknown shell is a usage error");
}

#[test]
fn man_page_has_name_synopsis_every_subcommand_and_the_exit_statuses() {
    let run = txverify(&["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = &run.stdout;
    assert!(
        page.starts_with(".ie") || page.starts_with(".TH"),
        "{page:.200}"
    );
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
        ".SH \"EXIT STATUS\"",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    assert!(page.contains("txverify\\-check") || page.contains("txverify-check"));
    for name in subcommands(&[]) {
        let roff_name = name.replace('-', "\\-");
        assert!(
            page.contains(&format!("txverify\\-{roff_name}(1)"))
                || page.contains(&format!("txverify-{name}(1)")),
            "the man page does not list `{name}`"
        );
    }
    let statuses = exit_statuses_of_man(page);
    let codes: Vec<u8> = statuses.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, [0, 1, 2, 3, 4, 130, 141]);
    assert!(page.ends_with('\n'));
}

/// The EXIT STATUS section of the man page as (status, meaning).
fn exit_statuses_of_man(page: &str) -> Vec<(u8, String)> {
    let lines: Vec<&str> = page
        .lines()
        .skip_while(|l| *l != ".SH \"EXIT STATUS\"")
        .skip(1)
        .take_while(|l| !l.starts_with(".SH"))
        .collect();
    lines
        .chunks(3)
        .map(|c| {
            assert_eq!(c[0], ".TP", "{lines:?}");
            (c[1].parse().expect("a status"), c[2].replace("\\e", "\\"))
        })
        .collect()
}

#[test]
fn man_dir_writes_one_page_per_subcommand() {
    let dir = std::env::temp_dir().join(format!("txverify-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = txverify(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let mut expected: Vec<String> = every_command()
        .iter()
        .map(|path| {
            std::iter::once("txverify")
                .chain(path.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("-")
                + ".1"
        })
        .collect();
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, expected);
    let check = std::fs::read_to_string(dir.join("txverify-check.1")).unwrap();
    assert!(check.contains(".SH SYNOPSIS") && check.contains("\\-\\-no\\-simulate"));
    assert!(check.contains("Examples:"), "the examples are in the page");
    let top = std::fs::read_to_string(dir.join("txverify.1")).unwrap();
    assert!(top.contains(".SH \"EXIT STATUS\""));
    let _ = std::fs::remove_dir_all(&dir);
    let file_in_the_way = file("man-not-a-dir", "x");
    let run = txverify(&["man", "--dir", file_in_the_way.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

const ESC: char = '\u{1b}';

#[test]
fn color_never_and_no_color_give_no_escape_codes() {
    let cases: [(&[&str], Option<&str>); 6] = [
        (&["--color", "never", "check", "tables/mesh5.tbl"], None),
        (&["check", "--color=never", "tables/mesh5.tbl"], None),
        (&["--color", "never", "check", "--help"], None),
        (&["--color", "never", "check", "--no-such-option"], None),
        (&["check", "tables/mesh5.tbl"], Some("1")),
        (&["--color", "auto", "--help"], Some("1")),
    ];
    for (args, no_color) in cases {
        let run = txverify_colour(args, no_color);
        assert!(
            !run.stdout.contains(ESC) && !run.stderr.contains(ESC),
            "{args:?} NO_COLOR={no_color:?}: {:?}{:?}",
            run.stdout,
            run.stderr
        );
        assert!(!run.stdout.is_empty() || !run.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn color_always_colours_verdicts_help_and_usage_errors() {
    for no_color in [None, Some("1")] {
        // An explicit `always` wins over NO_COLOR.
        let run = txverify_colour(
            &["--color", "always", "check", "tables/mesh5.tbl"],
            no_color,
        );
        assert_eq!(run.code, 0);
        let verdict = run
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with("verdict"))
            .expect("a verdict line");
        assert!(verdict.contains(ESC), "{verdict:?}");
        assert!(verdict.contains("OPTIMAL"));
        let plain: Vec<&str> = run.stdout.lines().filter(|l| !l.contains(ESC)).collect();
        assert!(
            plain.len() + 1 == run.stdout.lines().count(),
            "only the verdict"
        );
    }
    let help = txverify_colour(&["--color=always", "check", "--help"], None);
    assert!(help.stdout.contains(ESC), "clap's help follows --color");
    let usage = txverify_colour(&["--color", "always", "check", "--no-such-option"], None);
    assert_eq!(usage.code, 2);
    assert!(usage.stderr.contains(ESC), "{:?}", usage.stderr);
    let invalid = file(
        "colour-invalid.tbl",
        "group: <a | a^5>\ntable:\na a\na'\naa\na'a'\n",
    );
    let run = txverify_colour(
        &["--color", "always", "check", invalid.to_str().unwrap()],
        None,
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    let verdict = run.stdout.lines().find(|l| l.contains("INVALID")).unwrap();
    assert!(verdict.contains("\u{1b}[31m"), "red: {verdict:?}");
    // JSON carries no colour, whatever --color says.
    let json = txverify_colour(
        &[
            "--color",
            "always",
            "check",
            "--format",
            "json",
            "tables/mesh5.tbl",
        ],
        None,
    );
    assert!(!json.stdout.contains(ESC));
    serde_json::from_str::<serde_json::Value>(json.stdout.trim()).unwrap();
}

#[test]
fn quiet_drops_the_summary_of_gen_and_keeps_the_table() {
    let loud = txverify(&["gen", "ring", "7"]);
    let quiet = txverify(&["--quiet", "gen", "ring", "7"]);
    let quiet_after = txverify(&["gen", "-q", "ring", "7"]);
    assert_eq!(loud.code, 0);
    assert!(
        loud.stderr.contains("steps, lower bound"),
        "{}",
        loud.stderr
    );
    for run in [&quiet, &quiet_after] {
        assert_eq!(run.code, 0);
        assert_eq!(run.stderr, "");
        assert_eq!(run.stdout, loud.stdout);
    }
    // Errors still print.
    let run = txverify(&["-q", "gen", "nosuchfamily", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown family"));
}

#[test]
fn quiet_search_prints_no_progress_and_still_the_table() {
    let table = "tables/ring6-dihedral-total.tbl";
    for args in [
        &["-q", "search", table][..],
        &["search", "--quiet", table],
        &["search", "-q", table],
    ] {
        let run = txverify(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains(" vars, "), "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("expect: optimal"), "{}", run.stdout);
    }
    let loud = txverify(&["search", table]);
    assert!(
        loud.stderr.contains(" vars, "),
        "progress without -q: {}",
        loud.stderr
    );
}

/// One JSON document from a run, with its field paths added to `fields`.
fn json_of(run: &Run, fields: &mut BTreeSet<String>) -> serde_json::Value {
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim_end())
        .unwrap_or_else(|e| panic!("{e}: {:?} {}", run.stdout, run.stderr));
    assert_eq!(run.stdout.lines().count(), 1, "one document");
    assert_eq!(value["exit_code"], run.code, "{value}");
    nested_field_paths(&value, "", fields);
    value
}

fn assert_documented(written: &BTreeSet<String>, heading: &str) {
    let documented = documented_fields(heading);
    assert_eq!(written, &documented, "docs/json.md, {heading}");
}

#[test]
fn search_json_has_the_documented_fields_and_the_found_table() {
    let mut ran = BTreeSet::new();
    let run = txverify(&[
        "-q",
        "search",
        "--format",
        "json",
        "tables/ring6-cyclic-total.tbl",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value = json_of(&run, &mut ran);
    assert_eq!(value["schema"], "txverify-search/2");
    assert_eq!(value["found"], true);
    assert_eq!(value["time"], 6);
    assert_eq!(value["optimal"], false);
    assert_eq!(value["infeasible"][0]["time"], 5);
    assert_eq!(value["infeasible"][0]["covers_all_tables"], false);
    // The table in the report is one `check` accepts.
    let found = file("search-json-found.tbl", value["table"].as_str().unwrap());
    assert_eq!(txverify(&["check", found.to_str().unwrap()]).code, 0);
    // With -o, the table also goes to the file the report names.
    let out = file("search-json-o.tbl", "");
    let written = txverify(&[
        "-q",
        "search",
        "--format",
        "json",
        "tables/ring6-cyclic-total.tbl",
        "-o",
        out.to_str().unwrap(),
    ]);
    let value = json_of(&written, &mut ran);
    assert_eq!(value["output"], out.to_str().unwrap());
    assert_eq!(
        value["table"],
        std::fs::read_to_string(&out).unwrap().as_str()
    );
    // None at T = 5 (exit 1), and --dimacs (nothing solved).
    let none = txverify(&[
        "-q",
        "search",
        "--format",
        "json",
        "--time",
        "5",
        "tables/ring6-cyclic-total.tbl",
    ]);
    assert_eq!(none.code, 1);
    let value = json_of(&none, &mut ran);
    assert_eq!(value["found"], false);
    assert_eq!(value["table"], serde_json::Value::Null);
    // The default solver is the fastest the build has.
    let default_solver = if cfg!(feature = "cadical") {
        "cadical"
    } else {
        "varisat"
    };
    assert_eq!(value["solver"], default_solver);
    let cnf = std::env::temp_dir().join(format!("txverify-polish-{}.cnf", std::process::id()));
    let dimacs = txverify(&[
        "-q",
        "search",
        "--format",
        "json",
        "--time",
        "5",
        "--dimacs",
        cnf.to_str().unwrap(),
        "tables/ring6-cyclic-total.tbl",
    ]);
    assert_eq!(dimacs.code, 0, "{}", dimacs.stderr);
    assert_eq!(json_of(&dimacs, &mut ran)["formulas_only"], true);
    let _ = std::fs::remove_file(&cnf);
    assert_documented(&ran, "### A search that ran");

    let mut stopped = BTreeSet::new();
    let missing = txverify(&["search", "--format", "json", "/nonexistent/x.tbl"]);
    assert_eq!(missing.code, 2);
    json_of(&missing, &mut stopped);
    let z3 = txverify(&[
        "search",
        "--format",
        "json",
        "--solver",
        "external",
        "tables/mesh5.tbl",
    ]);
    assert_eq!(z3.code, 2);
    json_of(&z3, &mut stopped);
    assert_documented(&stopped, "### A search that stopped");
}

#[test]
fn verify_proof_json_has_the_documented_fields() {
    let dir = std::env::temp_dir().join(format!("txverify-polish-cert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let table = "tables/ring6-cyclic-total.tbl";
    let search = txverify(&[
        "-q",
        "search",
        "--time",
        "5",
        "--certificate",
        dir.to_str().unwrap(),
        table,
    ]);
    assert_eq!(search.code, 1, "{}", search.stderr);
    let cert = dir.clone();
    let lrat = std::env::temp_dir().join(format!("txverify-polish-{}.lrat", std::process::id()));
    let mut checked = BTreeSet::new();
    for extra in [&[][..], &["--lrat", lrat.to_str().unwrap()]] {
        let mut args = vec![
            "verify-proof",
            "--format",
            "json",
            table,
            cert.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = txverify(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let value = json_of(&run, &mut checked);
        assert_eq!(value["verified"], true);
        assert!(value["lemmas"].as_u64().unwrap() > 0);
    }
    assert_documented(&checked, "### A certificate that was checked");

    let mut refused = BTreeSet::new();
    // A certificate for another table is rejected (1); a missing one cannot be read (2).
    let rejected = txverify(&[
        "verify-proof",
        "--format",
        "json",
        "tables/ring7-cyclic.tbl",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
    assert_eq!(json_of(&rejected, &mut refused)["verified"], false);
    let missing = txverify(&["verify-proof", "--format", "json", table, "/nonexistent/T5"]);
    assert_eq!(missing.code, 2);
    json_of(&missing, &mut refused);
    assert_documented(&refused, "### A certificate that was not accepted");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&lrat);
}

#[test]
fn gen_json_has_the_documented_fields_and_the_table() {
    let mut given = BTreeSet::new();
    let run = txverify(&["gen", "ring", "6", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "", "the summary is in the report");
    let value = json_of(&run, &mut given);
    assert_eq!(value["schema"], "txverify-gen/1");
    assert_eq!(value["time"], 5);
    assert_eq!(value["verdict"], "optimal");
    let text = txverify(&["gen", "ring", "6"]);
    assert_eq!(value["table"], text.stdout.as_str());
    assert_eq!(value["simulation"]["on"], "ring 6");
    let out = file("gen-json-out.tbl", "");
    let skipped = txverify(&[
        "gen",
        "ring",
        "6",
        "--no-simulate",
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    let value = json_of(&skipped, &mut given);
    assert_eq!(value["table"], serde_json::Value::Null);
    assert!(value["simulation"]["skipped"].is_string(), "{value}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text.stdout);
    assert_documented(&given, "### A construction that was given");

    let mut failed = BTreeSet::new();
    let run = txverify(&["gen", "nosuch", "3", "--format", "json"]);
    assert_eq!(run.code, 2);
    json_of(&run, &mut failed);
    assert_documented(&failed, "### A construction that could not be given");
}

#[test]
fn every_output_ends_with_a_newline() {
    let dir = std::env::temp_dir().join(format!("txverify-polish-nl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x3 = dir.join("x3.json");
    let x3_text = dir.join("x3.txt");
    let x3 = x3.to_str().unwrap();
    let x3_text = x3_text.to_str().unwrap();
    let cert = dir.join("cert");
    let cert = cert.to_str().unwrap();
    let mesh = "tables/mesh5.tbl";
    let ring = "tables/ring6-cyclic-total.tbl";
    // In order: later runs read what earlier ones wrote.
    let runs: Vec<Vec<&str>> = vec![
        vec!["check", mesh],
        vec!["check", "--format", "json", mesh],
        vec!["simulate", mesh],
        vec!["simulate", "--format", "json", mesh],
        vec!["simulate", "--trace", "tables/ring6-dihedral-total.tbl"],
        vec!["simulate", "--algorithm", "fifo", mesh],
        vec!["simulate", "--algorithm", "fifo", "--format", "json", mesh],
        vec!["gen", "ring", "5"],
        vec!["gen", "ring", "5", "--format", "json"],
        vec!["fmt", mesh],
        vec!["search", "-q", ring],
        vec!["search", "-q", "--format", "json", ring],
        vec!["search", "-q", "--time", "5", "--certificate", cert, ring],
        vec!["verify-proof", ring, cert],
        vec!["verify-proof", "--format", "json", ring, cert],
        vec!["hypercube", "exchange", "3", "-o", x3],
        vec!["hypercube", "exchange", "3", "--format", "json"],
        vec!["simulate", x3],
        vec!["simulate", "--format", "json", x3],
        vec!["schedule", "convert", x3, "--to", "text"],
        vec!["schedule", "convert", x3, "--to", "text", "-o", x3_text],
        vec!["schedule", "convert", x3_text, "--to", "json"],
        vec!["export", mesh],
        vec!["export", mesh, "--format", "text"],
        vec!["export", mesh, "--format", "csv"],
        vec!["net", "torus", "3", "3"],
        vec!["bounds", mesh],
        vec!["bounds", "--format", "json", mesh],
        vec!["bounds", "--network", "mesh 3 3"],
        vec!["bounds", "--network", "mesh 3 3", "--format", "json"],
        vec!["compose", "a2", "mesh", "4", "4"],
        vec!["compose", "a1", "torus", "3", "3", "--format", "json"],
        vec!["compare", "ring 4", "mesh 2 3"],
        vec!["compare", "ring 4", "--format", "json"],
        vec!["compare", "ring 4", "--format", "csv"],
        vec!["compare", "ring 4", "--format", "svg"],
        vec!["lcc", "contention", "transpose:4"],
        vec!["lcc", "reorder", "transpose:4", "--format", "json"],
        vec!["lcc", "map", "transpose:4", "bit-reverse:4"],
        vec![
            "lcc",
            "simulate",
            "transpose:4",
            "--loads",
            "0.1",
            "--warmup",
            "10",
            "--measure",
            "50",
            "--drain",
            "100",
        ],
        vec!["render", mesh],
        vec!["render", mesh, "--utilisation"],
        vec!["infer", "--count", "tests/infer/hypercube4-b.tbl"],
        vec![
            "infer",
            "--one",
            "--format",
            "json",
            "tests/infer/hypercube4-a.tbl",
        ],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["--version"],
        vec!["--help"],
    ];
    let mut covered = BTreeSet::new();
    for args in &runs {
        let run = txverify(args);
        assert!(
            run.code == 0 || (args.contains(&"--certificate") && run.code == 1),
            "{args:?} exits {}: {}",
            run.code,
            run.stderr
        );
        // These write files; standard output may be empty.
        if args.contains(&"-o") || args.contains(&"--certificate") {
            continue;
        }
        assert!(!run.stdout.is_empty(), "{args:?} prints nothing");
        assert!(
            run.stdout.ends_with('\n'),
            "{args:?}: stdout ends {:?}",
            &run.stdout[run.stdout.len().saturating_sub(40)..]
        );
        assert!(
            run.stderr.is_empty() || run.stderr.ends_with('\n'),
            "{args:?}: stderr {:?}",
            run.stderr
        );
        covered.insert(args[0].to_string());
    }
    // Every subcommand is covered, so one added later must join the list.
    for name in subcommands(&[]) {
        assert!(covered.contains(&name), "no run of `{name}` in this test");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of the first table under `heading` in docs/cli.md: its cells.
fn doc_table(heading: &str) -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string("docs/cli.md").expect("docs/cli.md is readable");
    doc.lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .filter(|l| l.starts_with('|') && !l.starts_with("| ---"))
        .skip(1)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn docs_cli_lists_every_subcommand_and_every_exit_status() {
    let listed: Vec<String> = doc_table("## Subcommands")
        .iter()
        .map(|row| row[0].trim_matches('`').to_string())
        .collect();
    for path in every_command().iter().filter(|p| !p.is_empty()) {
        let name = path.join(" ");
        assert!(listed.contains(&name), "docs/cli.md does not list `{name}`");
    }
    let man = txverify(&["man"]).stdout;
    let statuses = exit_statuses_of_man(&man);
    let documented = doc_table("## Exit status");
    assert_eq!(documented.len(), statuses.len(), "{documented:?}");
    for ((code, meaning), row) in statuses.iter().zip(&documented) {
        assert_eq!(row[0], code.to_string());
        assert_eq!(&row[1], meaning, "status {code}");
    }
}
