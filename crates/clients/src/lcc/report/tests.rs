//! The reports agree with their text and carry the status of what they found.

use super::*;
use crate::shared::failure::Status;

#[test]
fn a_contention_report_agrees_with_its_text() {
    let lcc = load("transpose:4").expect("a built-in");
    let report = contention_report("transpose:4", &lcc).expect("the counts agree");
    assert_eq!(report.dimensions, 4);
    assert!(report.minimum <= report.contention);
    let text = report.text();
    assert!(text.starts_with("transpose:4: "), "{text}");
    assert!(text.contains(&format!("contention T(A, b)      {}", report.contention)));
}

#[test]
fn map_refuses_weights_that_are_not_numbers() {
    let lcc = load("transpose:4").expect("a built-in");
    let failure = map_report(
        &["transpose:4".to_string()],
        &[lcc],
        MapObjective::Lex,
        Some("1,x"),
    )
    .expect_err("`x` is not a weight");
    assert_eq!(failure.status, Status::Input);
}

#[test]
fn a_spec_that_cannot_load_is_an_input_failure_with_its_diagnostic() {
    let failure = load("no-such-pattern:4").expect_err("not a built-in");
    assert_eq!(failure.status, Status::Input);
    assert!(failure.stderr_text().contains("error"));
}
