//! Inputs nobody writes on purpose: each must give a clear error or a correct
//! result, never a panic, within a memory cap (the binary runs under
//! `ulimit -v`, so an input that needs more memory fails the test) and a
//! generous hang guard. Speed targets are not tested here (docs/limits.md).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address space the binary may use, in KiB (rayon's thread stacks included).
const MEMORY_CAP_KIB: u64 = 3_000_000;

/// Past this a run counts as hung.
const HANG_GUARD: Duration = Duration::from_secs(120);

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `txverify check --no-simulate FILE` under the memory cap.
fn check_capped(name: &str, content: &[u8]) -> Outcome {
    let dir = std::env::temp_dir().join(format!("txverify-malicious-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(content))
        .unwrap();
    // Output goes to files: a pipe nobody reads while waiting would fill and
    // stall the child.
    let (out_path, err_path) = (
        dir.join(format!("{name}.out")),
        dir.join(format!("{name}.err")),
    );
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_CAP_KIB}; exec \"$0\" check --no-simulate \"$1\""
        ))
        .arg(env!("CARGO_BIN_EXE_txverify"))
        .arg(&path)
        .stdout(Stdio::from(std::fs::File::create(&out_path).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err_path).unwrap()))
        .spawn()
        .expect("sh runs");
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > HANG_GUARD {
            child.kill().ok();
            panic!("{name}: still running after {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = child.wait().unwrap();
    let read =
        |p: &std::path::Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    let outcome = Outcome {
        code: status.code().unwrap_or(-1),
        stdout: read(&out_path),
        stderr: read(&err_path),
    };
    for p in [&path, &out_path, &err_path] {
        std::fs::remove_file(p).ok();
    }
    outcome
}

fn assert_input_error(name: &str, content: &[u8], says: &str) {
    let out = check_capped(name, content);
    assert_eq!(out.code, 2, "{name}: {}", out.stderr);
    assert!(out.stderr.contains(says), "{name}: {}", out.stderr);
    assert!(!out.stderr.contains("panicked"), "{name}: {}", out.stderr);
}

#[test]
fn parentheses_nested_a_hundred_thousand_deep() {
    let text = format!(
        "group: <a | {}a{}^2>\ntable:\na\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert_input_error("nested.tbl", text.as_bytes(), "nested too deeply");
}

#[test]
fn an_exponent_of_twenty_digits() {
    let text = "group: <a | a^99999999999999999999>\ntable:\na\n";
    assert_input_error("exponent.tbl", text.as_bytes(), "exponent too large");
}

#[test]
fn a_hundred_thousand_generators() {
    let names: Vec<String> = (0..100_000).map(|i| format!("{{g{i}}}")).collect();
    let text = format!("group: <{} | >\ntable:\n{{g0}}\n", names.join(", "));
    assert_input_error(
        "generators.tbl",
        text.as_bytes(),
        "more than 1000 generators",
    );
}

#[test]
fn invalid_utf8_and_nul_bytes() {
    assert_input_error(
        "utf8.tbl",
        b"group: <a | a^2>\ntable:\na\xff\xfe\n",
        "valid UTF-8",
    );
    assert_input_error("nul.tbl", b"group: <a | a^2>\ntable:\na\x00\n", "`\\0`");
}

#[test]
fn crlf_line_endings_and_a_byte_order_mark_are_read_as_text() {
    for (name, content) in [
        (
            "crlf.tbl",
            b"group: <a | a^2>\r\ntable:\r\na\r\n".as_slice(),
        ),
        (
            "bom.tbl",
            b"\xef\xbb\xbfgroup: <a | a^2>\ntable:\na\n".as_slice(),
        ),
    ] {
        let out = check_capped(name, content);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert!(out.stdout.contains("OPTIMAL"), "{name}: {}", out.stdout);
    }
}

#[test]
fn a_word_of_a_million_letters_in_the_table() {
    // C_2 with a word of 10^6 letters `a`: it spells the identity (even length),
    // which the kernel reports; nothing else goes wrong.
    let text = format!("group: <a | a^2>\ntable:\n{}\n", "a".repeat(1_000_000));
    let out = check_capped("word.tbl", text.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("identity"), "{}", out.stdout);
}

#[test]
fn a_relator_of_a_million_letters() {
    // <a | aaaa…a> (10^6 letters) is the cyclic group of order 10^6; a one-word
    // table misses 999,998 messages, each named in a few characters.
    let text = format!("group: <a | {}>\ntable:\na\n", "a".repeat(1_000_000));
    let out = check_capped("relator.tbl", text.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("(order 1000000)"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("characters; --format json gives it whole")
    );
    assert!(out.stdout.contains("missing message"), "{}", out.stdout);
}

#[test]
fn a_comment_line_of_a_hundred_megabytes() {
    let mut text = b"group: <a | a^2>\ntable:\n# ".to_vec();
    text.extend(std::iter::repeat_n(b'x', 100_000_000));
    text.extend(b"\na\n");
    let out = check_capped("line.tbl", &text);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn a_word_over_ten_million_letters_is_refused_at_the_word() {
    // Plain letter runs, in the table and in a relator (after a parenthesis,
    // where a run starts again): the limit is applied before the letters are
    // held (each letter held took about 140 bytes, 1.4 GB at the limit).
    let over = "a".repeat(10_000_001);
    let cases = [
        (
            "over-word.tbl",
            format!("group: <a | a^2>\ntable:\n{over}\n"),
        ),
        (
            "over-long.tbl",
            format!("group: <a | a^2>\ntable:\n{}\n", "a".repeat(12_000_000)),
        ),
        (
            "over-relator.tbl",
            format!("group: <a, b | (b){over}, b^2>\ntable:\na\n"),
        ),
        (
            "over-braced.tbl",
            format!("group: <a | a^2>\ntable:\n{}\n", "{a}".repeat(10_000_001)),
        ),
    ];
    for (name, text) in cases {
        assert_input_error(name, text.as_bytes(), "more than 10000000 letters");
    }
}
