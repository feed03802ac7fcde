//! Regression of the published tables: every file in `tables/` (and `tables/found/`)
//! loads, is valid with every claim holding (with the certificates it names,
//! checked), simulates clean on its network, and the kernel and the simulator agree.

use txverify_clients::check::certified::{CertificateLookup, check_certificates};
use txverify_clients::check::{
    Agreement, NetworkCheck, Outcome, SimulationOutcome, VerifyOptions, verify_certified,
};
use txverify_core::load::{LoadOptions, load};

fn table_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for dir in ["tables", "tables/found"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "tbl") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_table_checks_simulates_and_agrees() {
    let files = table_files();
    assert!(
        files.len() >= 12,
        "expected the published tables, found {files:?}"
    );
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let loaded = load(&source, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lookup = CertificateLookup::for_file(&path, None);
        let certified = check_certificates(&loaded, &lookup)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let v = verify_certified(&loaded, &VerifyOptions::default(), certified);
        assert_eq!(
            v.outcome(),
            Outcome::Passed,
            "{}: {:?}",
            path.display(),
            v.checked().violations()
        );
        assert!(
            matches!(
                v.network(),
                NetworkCheck::Matches { .. }
                    | NetworkCheck::Inferred { .. }
                    | NetworkCheck::CayleyGraphOnly
            ),
            "{}: {:?}",
            path.display(),
            v.network()
        );
        match v.simulation() {
            SimulationOutcome::Ran { report, .. } => {
                assert!(report.valid, "{}: {:?}", path.display(), report.failures);
                assert_eq!(
                    report.completion_time,
                    v.checked().time(),
                    "{}",
                    path.display()
                );
            }
            other => panic!("{}: simulation did not run: {other:?}", path.display()),
        }
        assert!(
            matches!(v.agreement(), Agreement::Agree),
            "{}",
            path.display()
        );
    }
}
