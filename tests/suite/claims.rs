//! Claims that match their certificates: what `search --format json` says
//! about `covers_all_tables` and `optimal`, the one certificate layout of
//! minimising and `--time` searches that `verify-proof` reads, and the
//! `source:` line of a found table.

use crate::common::cli::{file, txverify};

const RING6: &str = "tables/ring6-cyclic-total.tbl";

fn json(args: &[&str]) -> serde_json::Value {
    let run = txverify(args);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = file(name, "").with_extension("d");
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn shortest_path_infeasibility_covers_not_all_tables_nor_proves_optimal() {
    let value = json(&["-q", "search", "--format", "json", RING6]);
    assert_eq!(value["schema"], "txverify-search/2");
    assert_eq!(value["time"], 6);
    let below = &value["infeasible"][0];
    assert_eq!(below["time"], 5);
    assert_eq!(below["covers_all_tables"], false);
    assert_eq!(below["symmetry_restricted"], false);
    assert_eq!(value["optimal"], false);
    assert_eq!(value["optimal_by"], serde_json::Value::Null);
}

#[test]
fn certified_any_length_infeasibility_below_makes_the_table_optimal() {
    let dir = temp_dir("claims-any-length");
    let d = dir.to_str().unwrap();
    let args = ["-q", "search", "--format", "json", "--any-length", RING6];
    // Without a certificate the infeasibility is the solver's word: not optimal.
    let value = json(&args);
    assert_eq!(value["infeasible"][0]["covers_all_tables"], true);
    assert_eq!(value["optimal"], false);
    let mut certified = args.to_vec();
    certified.extend(["--certificate", d]);
    let value = json(&certified);
    assert_eq!(value["time"], 6);
    assert_eq!(value["infeasible"][0]["covers_all_tables"], true);
    assert_eq!(value["optimal"], true);
    assert_eq!(value["optimal_by"], "certificates");
}

#[test]
fn minimising_and_fixed_time_certificates_share_one_layout() {
    let minimised = temp_dir("claims-minimised");
    let fixed = temp_dir("claims-fixed");
    let run = txverify(&[
        "-q",
        "search",
        RING6,
        "--certificate",
        minimised.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = txverify(&[
        "-q",
        "search",
        RING6,
        "--time",
        "5",
        "--certificate",
        fixed.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for dir in [&minimised, &fixed] {
        assert!(
            dir.join("T5/provenance.json").is_file(),
            "{}",
            dir.display()
        );
        // The search's directory, and the certificate of each T in it.
        for target in [dir.clone(), dir.join("T5")] {
            let run = txverify(&["verify-proof", RING6, target.to_str().unwrap()]);
            assert_eq!(
                run.code,
                0,
                "{}: {}{}",
                target.display(),
                run.stdout,
                run.stderr
            );
            assert!(run.stdout.contains("verified"), "{}", run.stdout);
        }
    }
    // Both at once: one JSON object per certificate.
    let run = txverify(&[
        "verify-proof",
        "--format",
        "json",
        RING6,
        minimised.to_str().unwrap(),
        fixed.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
}

#[test]
fn a_found_table_credits_its_search_and_keeps_the_paper_only_for_the_network() {
    let run = txverify(&["-q", "search", RING6]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sources: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("source:"))
        .collect();
    assert_eq!(sources.len(), 1, "{}", run.stdout);
    let source = sources[0];
    assert!(
        source.starts_with("source: found by `txverify -q search "),
        "{source}"
    );
    assert!(
        source.contains("; network from Coolsaet, Fack, De Meyer"),
        "{source}"
    );
    assert!(
        source.contains("cadical") || source.contains("varisat"),
        "{source}"
    );
    // The table with that line is one `check` accepts.
    let found = file("claims-found.tbl", &run.stdout);
    assert_eq!(txverify(&["check", found.to_str().unwrap()]).code, 0);
}

#[test]
fn the_proof_manifest_names_every_certificate_directory_and_its_table() {
    let manifest = std::fs::read_to_string("proofs/MANIFEST.tsv").unwrap();
    let listed: std::collections::BTreeSet<String> = manifest
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (dir, table) = l.split_once('\t').expect("two tab-separated fields");
            assert!(std::path::Path::new(table).is_file(), "{table}");
            dir.to_string()
        })
        .collect();
    let present: std::collections::BTreeSet<String> = std::fs::read_dir("proofs")
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| format!("proofs/{}", e.file_name().to_string_lossy()))
        .collect();
    assert_eq!(listed, present);
}

#[test]
fn a_proof_check_reports_how_much_of_the_proof_it_has_read() {
    let dir = temp_dir("claims-progress");
    let run = txverify(&[
        "-q",
        "search",
        RING6,
        "--time",
        "5",
        "--certificate",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let source = std::fs::read_to_string(RING6).unwrap();
    let loaded = txverify_core::load::load(&source, &Default::default()).unwrap();
    let mut seen = Vec::new();
    let verified = txverify_search::certificate::verify_reporting(
        &loaded.instance,
        &dir.join("T5"),
        &mut |p| seen.push((p.read, p.total)),
    );
    assert!(verified.is_ok());
    let &(read, total) = seen.last().expect("progress was reported");
    assert!(total > 0 && read == total, "{read} of {total}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
}

/// The table of docs/results.md: from its header line to the first line that
/// is not a table row.
fn results_table(doc: &str, header: &str) -> Vec<String> {
    doc.lines()
        .skip_while(|l| *l != header)
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_campaign_script_prints_the_table_of_the_results_page() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("bash")
        .args(["scripts/campaign.sh", "--markdown"])
        .current_dir(root)
        .output()
        .expect("bash runs the script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let doc = std::fs::read_to_string(root.join("docs/results.md")).unwrap();
    let table = results_table(&doc, &printed[0]);
    assert!(printed.len() > 10, "{printed:?}");
    for (k, (a, b)) in printed.iter().zip(&table).enumerate() {
        assert_eq!(
            a, b,
            "row {k} of docs/results.md differs from campaign/results.tsv"
        );
    }
    assert_eq!(printed.len(), table.len());
}

#[test]
fn every_optimality_among_all_tables_has_its_certificates_in_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tsv = std::fs::read_to_string(root.join("campaign/results.tsv")).unwrap();
    let mut claims = 0;
    for line in tsv.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (name, bound, found, status) = (fields[0], fields[3], fields[4], fields[5]);
        if !status.starts_with("optimal among all tables") {
            continue;
        }
        claims += 1;
        let (bound, found): (u32, u32) = (bound.parse().unwrap(), found.parse().unwrap());
        for t in bound..found {
            let dir = root.join(format!("proofs/{name}/T{t}"));
            assert!(
                dir.join("provenance.json").is_file(),
                "{name}: optimal among all tables, but {} is missing",
                dir.display()
            );
        }
    }
    assert!(
        claims >= 5,
        "only {claims} claims found: is the file read right?"
    );
}
