//! Every reader bounded (docs/limits.md): the inputs a mutation campaign
//! found, each refused where it is read or before what it asks for is
//! allocated, with one line on standard error and exit 2, under a memory cap.
//! Speed is guarded loosely here (a debug build on a shared machine); the
//! release timings are in docs/limits.md.

use crate::common::cli::file;
use std::process::Command;
use std::time::{Duration, Instant};

/// Address space the binary may use, in KiB: a refusal that came after the
/// allocation it guards would need far more.
const MEMORY_CAP_KIB: u64 = 1_000_000;

/// Past this a refusal came too late.
const SLOW: Duration = Duration::from_secs(5);

/// Runs `txverify ARGS…` under the memory cap and asserts it refused the input:
/// exit 2, one line on standard error holding `says`, no panic, in time.
fn refused(args: &[&str], says: &str) {
    let started = Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KIB}; exec \"$@\""))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .output()
        .expect("the binary runs");
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    // One line; an argument refused by the parser of `--network` also gets
    // the parser's pointer to `--help`, after a blank line.
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect();
    assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(elapsed < SLOW, "{args:?}: {elapsed:?}");
}

/// The 9-GPU program the exporter writes, with `from` replaced by `to` once.
fn golden_with(from: &str, to: &str) -> String {
    let golden = std::fs::read_to_string("tests/golden/ring9-cyclic.msccl.xml").unwrap();
    assert!(golden.contains(from), "{from}");
    golden.replacen(from, to, 1)
}

#[test]
fn an_msccl_offset_beyond_32_bits_is_unreadable() {
    let xml = golden_with(
        r#"type="r" srcbuf="i" srcoff="8""#,
        r#"type="r" srcbuf="i" srcoff="9223372036854775807""#,
    );
    let path = file("srcoff.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "outside the range");
    // A send's source offset, which the executor reads.
    let xml = std::fs::read_to_string("tests/golden/torus3x4.msccl.xml").unwrap();
    let send = r#"type="s" srcbuf="i" srcoff=""#;
    let at = xml.find(send).unwrap() + send.len();
    let end = at + xml[at..].find('"').unwrap();
    let xml = format!("{}9223372036854775807{}", &xml[..at], &xml[end..]);
    let path = file("send-srcoff.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "outside the range");
}

#[test]
fn an_msccl_scratch_size_beyond_32_bits_is_unreadable() {
    let xml = golden_with(r#"s_chunks="12""#, r#"s_chunks="9223372036854775807""#);
    let path = file("s_chunks.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "outside the range");
}

#[test]
fn an_msccl_gpu_count_over_the_limit_is_refused_before_the_ranks_are_laid_out() {
    let xml = golden_with(r#"ngpus="9""#, r#"ngpus="2147483647""#);
    let path = file("ngpus.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "65536 GPUs");
}

#[test]
fn msccl_thread_blocks_over_the_limit_are_refused_before_their_clocks() {
    // Three GPUs, each with one thread block of the largest id the reader
    // takes: 3 · 4097 thread blocks laid out, more than the limit.
    let mut xml = String::from(
        "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allgather\" inplace=\"0\" outofplace=\"1\">\n",
    );
    for g in 0..3 {
        xml += &format!(
            "<gpu id=\"{g}\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\"><tb id=\"4096\" send=\"-1\" recv=\"-1\" chan=\"0\"/></gpu>\n"
        );
    }
    xml += "</algo>\n";
    let path = file("tbs.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "thread blocks");
}

#[test]
fn msccl_elements_nested_too_deep_are_refused_without_recursing() {
    let xml = format!(
        "<algo name=\"x\" ngpus=\"2\">{}{}</algo>",
        "<a>".repeat(20_000),
        "</a>".repeat(20_000)
    );
    let path = file("deep.xml", &xml);
    refused(&["check", path.to_str().unwrap()], "nested more than");
}

#[test]
fn a_dimacs_literal_of_the_least_i64_is_refused_not_negated() {
    let cnf = file("min.cnf", "p cnf 2 1\n1 -9223372036854775808 0\n");
    let proof = file("p.drat", "1 0\n");
    refused(
        &[
            "verify-proof",
            "--cnf",
            cnf.to_str().unwrap(),
            proof.to_str().unwrap(),
        ],
        "2:3",
    );
}

#[test]
fn proof_variables_and_clause_ids_out_of_range_are_refused() {
    let cnf = file("f.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    let cases: [(&str, &[u8]); 6] = [
        ("text.drat", b"-9223372036854775808 0\n"),
        ("text-wide.drat", b"99999999999999999999 0\n"),
        (
            "binary.drat",
            b"a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x00",
        ),
        ("text.lrat", b"3 -9223372036854775808 0 1 2 0\n"),
        ("ids.lrat", b"9223372036854775808 2 0 1 2 0\n"),
        ("hint.lrat", b"3 2 0 -9223372036854775808 0\n"),
    ];
    for (name, bytes) in cases {
        let dir = cnf.parent().unwrap().join(name);
        std::fs::write(&dir, bytes).unwrap();
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_txverify"))
            .args(["verify-proof", "--cnf", cnf.to_str().unwrap()])
            .arg(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        // Rejected (1) or unreadable (2), never a panic.
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(started.elapsed() < SLOW, "{name}");
    }
}

#[test]
fn a_complete_factor_over_the_link_limit_is_refused_by_its_name() {
    refused(
        &["search", "--network", "genhypercube 65535", "--heuristic"],
        "too large",
    );
}

#[test]
fn a_net_product_over_the_order_limit_is_refused_before_its_factors_are_built() {
    refused(
        &["net", "twisted 2000 1000 x ring 3"],
        "6000000 nodes, more than the limit of 2000000",
    );
}

#[test]
fn bounds_of_a_network_too_large_for_all_pairs_distances_are_refused_at_once() {
    let network = ["complete 5"; 8].join(" x ");
    refused(
        &["bounds", "--network", &network],
        "all pairs of 390625 nodes",
    );
}

/// A path of `n` nodes as an edge list.
fn path_edges(n: u32) -> std::path::PathBuf {
    let text: String = (0..n - 1).map(|i| format!("{i} {}\n", i + 1)).collect();
    file("path.edges", &text)
}

#[test]
fn a_search_formula_over_the_variable_limit_is_refused_with_its_estimate() {
    let network = format!("edges {}", path_edges(600).display());
    refused(
        &["search", "--network", &network],
        "more than the limit of 8388608: raise it with --max-variables N, or use --heuristic",
    );
    // Under a smaller limit, a small network is refused the same way.
    refused(
        &["search", "--network", "ring 8", "--max-variables", "100"],
        "--max-variables",
    );
}

#[test]
fn a_heuristic_schedule_over_the_send_limit_is_refused_before_it_is_made() {
    // The heuristic streams its schedule: its limit is 2^28 sends (SAT's,
    // which holds the heuristic's schedule whole, 2^25).
    let network = format!("edges {}", path_edges(1000).display());
    refused(
        &["search", "--network", &network, "--heuristic"],
        "more than the limit of 268435456",
    );
    refused(
        &["search", "--network", "ring 20000", "--heuristic"],
        "at least",
    );
}

#[test]
fn a_family_order_stops_counting_at_the_first_overflow() {
    // The factorial was a loop of 2^31 steps; 2^32 as a shift was 1.
    refused(&["net", "star 2147483647"], "too large");
    // Sizes past 32 bits are no size at all, refused as the name is read.
    refused(&["net", "hypercube 4294967296"], "is not a size");
    refused(&["net", "ccc 4294967296"], "is not a size");
}

/// Runs `verify-proof --cnf` on a DRAT proof under the memory cap: its
/// status and standard error, after asserting it took less than [`SLOW`].
fn verify_capped(cnf: &std::path::Path, proof: &str) -> (Option<i32>, String) {
    let proof = file("proof.drat", proof);
    let started = Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KIB}; exec \"$@\""))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_txverify"))
        .args(["verify-proof", "-q", "--cnf"])
        .args([cnf, &proof])
        .output()
        .unwrap();
    assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code(), stderr)
}

#[test]
fn a_drat_proof_naming_a_variable_far_above_the_formula_is_refused_before_its_memory() {
    let cnf = file("f.cnf", "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n");
    // Variable 2^24, once: the checker's memory per variable made it 1.7 GB.
    let (code, stderr) = verify_capped(&cnf, "3 16777216 0\n0\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("above the formula's 2 variables"),
        "{stderr}"
    );
    // Deletions of clauses no formula has are ignored, whatever they name; RAT
    // checks on lemmas of a large new variable cost the lemma, not the
    // variables (each once allocated two bytes per variable).
    let mut proof = String::new();
    for _ in 0..300 {
        proof += "d 1 16777216 0\n-1000000 1 0\n1000000 -1 0\n";
    }
    proof += "2 0\n0\n";
    let (code, stderr) = verify_capped(&cnf, &proof);
    assert!(matches!(code, Some(0 | 1)), "{stderr}");
}

#[test]
fn msccl_byte_ranges_are_read_at_the_64_bits_the_executor_reads_them_in() {
    // TE-CCL's published programs say `maxBytes="100000000000"` and
    // `1152921504606846976` (2^60): both executors read minBytes and maxBytes
    // with a 64-bit `strtoll`, so the program is read and judged.
    for (attribute, value) in [
        ("maxBytes", "100000000000"),
        ("maxBytes", "1152921504606846976"),
        ("minBytes", "1152921504606846976"),
    ] {
        let xml = golden_with(
            &format!("{attribute}=\"0\""),
            &format!("{attribute}=\"{value}\""),
        );
        let path = file("bytes.xml", &xml);
        let run = crate::common::cli::txverify(&["check", path.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{attribute}={value}: {}", run.stderr);
        assert!(run.stdout.contains("VALID MSCCL"), "{}", run.stdout);
    }
    // Past 64 bits the reader's `strtoll` saturates: refused, at the attribute.
    let xml = golden_with(r#"maxBytes=""#, r#"maxBytes="9223372036854775808"#);
    let path = file("bytes-over.xml", &xml);
    refused(
        &["check", path.to_str().unwrap()],
        "outside the range of the 64-bit integer",
    );
    // Every other integer stays at the reader's 32 bits.
    let xml = golden_with(r#"nchannels=""#, r#"nchannels="100000000000"#);
    let path = file("nchannels.xml", &xml);
    refused(
        &["check", path.to_str().unwrap()],
        "outside the range of the 32-bit integer",
    );
}

/// A schedule `--link-table` applies to.
fn ring4_schedule() -> std::path::PathBuf {
    file(
        "ring4.sched",
        "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n",
    )
}

#[test]
fn endless_devices_are_refused_at_once_by_every_reader() {
    // /dev/zero's first byte is a NUL, which no text txverify reads has;
    // /dev/urandom has one, or a byte that is not UTF-8, within a few bytes.
    let schedule = ring4_schedule();
    let schedule = schedule.to_str().unwrap();
    let cnf = file("f.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    let cnf = cnf.to_str().unwrap();
    let cases: [&[&str]; 8] = [
        &["check", "/dev/zero"],
        &["check", "/dev/urandom"],
        &["simulate", "/dev/urandom"],
        &["simulate", "/dev/zero"],
        &["bounds", "--network", "edges /dev/zero"],
        &["bounds", "--network", "/dev/zero"],
        &["simulate", schedule, "--link-table", "/dev/zero"],
        &["verify-proof", "--cnf", "/dev/zero", "/dev/null"],
    ];
    for args in cases {
        refused(args, "/dev/");
    }
    // A binary proof is no text, but its first byte must be a step.
    refused(
        &["verify-proof", "--cnf", cnf, "/dev/zero"],
        "expected 'a' or 'd'",
    );
}

#[test]
fn a_file_over_the_byte_limit_is_refused_before_it_is_read() {
    // A sparse file of 256 MiB + 1 byte: refused by its size, unread.
    let path = file("huge.tbl", "");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len((256 << 20) + 1)
        .unwrap();
    let shown = path.to_str().unwrap();
    refused(&["check", shown], "longer than 268435456 bytes (256 MiB)");
    refused(&["simulate", shown], "longer than 268435456 bytes");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_decompression_bomb_is_refused_at_the_byte_limit_of_the_decompressed_text() {
    use std::io::Write as _;
    use txverify_core::compress::{Compression, Encoder};
    // One gzip member of 1 MiB of spaces, about 1 KB; 300 of them in a row
    // are one stream of 300 MiB, over the 256 MiB cap, in a file of ~300 KB.
    let mut member = Encoder::new(Vec::new(), Some(Compression::Gzip)).unwrap();
    member.write_all(&[b' '; 1 << 20]).unwrap();
    let member = member.finish().unwrap();
    let path = file("bomb.json.gz", "");
    std::fs::write(&path, member.repeat(300)).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() < 1 << 20);
    let shown = path.to_str().unwrap();
    refused(
        &["simulate", shown],
        "longer than 268435456 bytes (256 MiB)",
    );
    refused(&["check", shown], "longer than 268435456 bytes (256 MiB)");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_long_line_of_a_link_table_or_an_edge_list_is_refused_as_it_is_read() {
    // One 4 MB line: it was held, split into fields and lower-cased (168 MB).
    let line = "0,1,".repeat(1 << 20);
    let table = file("long.csv", &line);
    let schedule = ring4_schedule();
    refused(
        &[
            "simulate",
            schedule.to_str().unwrap(),
            "--link-table",
            table.to_str().unwrap(),
        ],
        "line 1 is longer than 65536 bytes (64 KiB)",
    );
    let edges = file(
        "long.edges",
        &format!("0 1\n1 2 # {}\n", "x".repeat(1 << 20)),
    );
    refused(
        &["bounds", "--network", &format!("edges {}", edges.display())],
        "line 2 is longer than 65536 bytes",
    );
}

/// Runs `txverify ARGS…` and returns its standard error, asserting exit 2.
fn error_line(args: &[&str]) -> String {
    let run = crate::common::cli::txverify(args);
    assert_eq!(
        run.code,
        2,
        "{args:?}: {}",
        &run.stderr[..run.stderr.len().min(300)]
    );
    run.stderr
}

#[test]
fn an_error_echoes_at_most_200_bytes_of_a_token() {
    // A number of a million digits, where each reader wants a number; and
    // 60,000 digits, under the 64 KiB line limit of link tables and edge lists.
    let million = "9".repeat(1_000_000);
    let sixty_thousand = "9".repeat(60_000);
    let schedule = ring4_schedule();
    let schedule = schedule.to_str().unwrap();
    let mut errors = Vec::new();
    for digits in [&million, &sixty_thousand] {
        let table = file("times.tsv", &format!("0 1 {digits}x 1\n"));
        errors.push(error_line(&[
            "simulate",
            schedule,
            "--link-table",
            table.to_str().unwrap(),
        ]));
        let edges = file("n.edges", &format!("0 {digits}x\n"));
        errors.push(error_line(&[
            "bounds",
            "--network",
            &format!("edges {}", edges.display()),
        ]));
    }
    let sched = file(
        "big.sched",
        &format!("network: ring 4\nsends:\n1 0 1 {million}x 1\n"),
    );
    errors.push(error_line(&["simulate", sched.to_str().unwrap()]));
    let xml = golden_with(r#"nchannels="2""#, &format!(r#"nchannels="{million}""#));
    let program = file("wide.xml", &xml);
    errors.push(error_line(&["check", program.to_str().unwrap()]));
    let xml = golden_with(r#"nchannels="2""#, &format!(r#"nchannels="{million}x""#));
    let program = file("word.xml", &xml);
    errors.push(error_line(&["check", program.to_str().unwrap()]));
    // An argument is at most 128 KiB (the system's limit): 100,000 digits.
    let argument = "9".repeat(100_000);
    errors.push(error_line(&["net", &format!("ring {argument}")]));
    errors.push(error_line(&["net", &format!("{argument}x")]));
    errors.push(error_line(&["simulate", schedule, "--alpha", &argument]));
    errors.push(error_line(&[
        "simulate",
        schedule,
        "--alpha",
        &format!("{argument}x"),
    ]));
    let long: Vec<String> = errors
        .iter()
        .filter(|e| e.len() >= 1024)
        .map(|e| {
            format!(
                "{} bytes: {}…",
                e.len(),
                e.chars().take(200).collect::<String>()
            )
        })
        .collect();
    assert!(long.is_empty(), "{long:#?}");
}

/// An endless stream of valid text (`yes aaa | txverify check -`) is refused
/// at the byte limit while holding at most `MAX_HELD_STREAM_BYTES` (64 MiB):
/// under an address-space limit of 200 MB, which the 256 MiB it held did not
/// fit, the refusal is still the byte limit's.
#[test]
fn an_endless_stream_of_text_is_refused_holding_a_quarter_of_the_limit() {
    let run = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 200000 && yes aaa | exec \"$0\" check -",
            env!("CARGO_BIN_EXE_txverify"),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read -: it is longer than 268435456 bytes (256 MiB)"),
        "{stderr}"
    );
}
