//! Compressed schedules (docs/schedule.md): `search -o F.json.gz` and `F.zst`
//! write them, and `simulate`, `export` and `check` read them back, told by
//! their first bytes, with the same reports as from the plain file.

use crate::common::cli::txverify;
use txverify_core::compress::Compression;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-compressed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `txverify ARGS…`: its standard output, after asserting exit 0.
fn ok(args: &[&str]) -> String {
    let r = txverify(args);
    assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

#[test]
fn a_compressed_schedule_round_trips_through_search_simulate_and_export() {
    // The heuristic streams its schedule to -o; the SAT search writes it whole.
    for search in [&["--heuristic"][..], &[]] {
        let plain = scratch("foundschedule.json");
        let plain = plain.to_str().unwrap();
        let mut args = vec!["search", "--network", "ring 5", "-o", plain];
        args.extend_from_slice(search);
        ok(&args);
        let mut names = vec!["foundschedule.json.gz", "foundschedule.sched.gz"];
        if Compression::Zstd.available() {
            names.push("foundschedule.json.zst");
        }
        for name in names {
            let path = scratch(name);
            let shown = path.to_str().unwrap();
            let mut args = vec!["search", "--network", "ring 5", "-o", shown];
            args.extend_from_slice(search);
            ok(&args);
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(
                Compression::of_magic(&bytes),
                Compression::of_name(&path),
                "{name}"
            );
            // Renamed, it is still read by its content.
            let renamed = scratch(&format!("{name}.renamed"));
            std::fs::rename(&path, &renamed).unwrap();
            let renamed = renamed.to_str().unwrap();
            let report = |file: &str| ok(&["simulate", file, "--format", "json"]);
            let simulated: serde_json::Value = serde_json::from_str(&report(renamed)).unwrap();
            let expected: serde_json::Value = serde_json::from_str(&report(plain)).unwrap();
            assert_eq!(simulated["valid"], true, "{name}");
            assert_eq!(simulated["time"], expected["time"], "{name}");
            assert_eq!(
                simulated["transmissions"], expected["transmissions"],
                "{name}"
            );
            // The program is named after the file's stem.
            let export = |file: &str| {
                let stem = std::path::Path::new(file).file_stem().unwrap();
                ok(&["export", "--format", "msccl", file]).replace(stem.to_str().unwrap(), "STEM")
            };
            assert_eq!(export(renamed), export(plain), "{name}");
            assert_eq!(
                ok(&["schedule", "convert", renamed, "--to", "json"]),
                ok(&["schedule", "convert", plain, "--to", "json"]),
                "{name}"
            );
        }
    }
}

#[test]
fn a_damaged_compressed_schedule_is_refused_with_one_line() {
    let path = scratch("damaged.json.gz");
    let shown = path.to_str().unwrap();
    ok(&["search", "--network", "ring 4", "-o", shown]);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&path, bytes).unwrap();
    let r = txverify(&["simulate", shown]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("its gzip data is damaged"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
}
