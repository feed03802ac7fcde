//! The printer: tables written back aligned, and read again to the same table.

use super::*;

#[test]
fn printer_aligns_columns() {
    let file = ok(&format!("{G}table:\nbBb bB\nBb B . b\n"));
    assert!(
        print(&file).ends_with("table:\nbBb  bB\nBb B . b\n"),
        "{}",
        print(&file)
    );
    let file = ok(&format!("{G}table:\n{{t1}}a .. b\nab ab'\n... b'\n"));
    assert_eq!(
        print_rows(&file.rows),
        "{t1}a . .  b\nab    ab'\n. .   . b'\n"
    );
}

#[test]
fn printer_header_order_and_round_trip() {
    let source = "expect: optimal\nnetwork: torus 4 4\nports: 2\nmessages: to a^2b (ab)^2 [a, b]^{2}1\n\
                  links: a' b\ngroup: <a, b | a^4 = b^4 = 1, ab = ba> × <{t1} | {t1}^2>\n\
                  source: nowhere\nname: n\nexpect: time 4\ntable:\nab a'\n";
    let file = ok(source);
    let printed = print(&file);
    assert_eq!(
        printed,
        "name: n\nsource: nowhere\ngroup: <a, b | a^4 = b^4 = 1, ab = ba> x <{t1} | {t1}^2>\n\
         links: a' b\nmessages: to a^2b (ab)^2 [a, b]^{2}1\nports: 2\nnetwork: torus 4 4\n\
         expect: optimal\nexpect: time 4\ntable:\nab a'\n"
    );
    assert_eq!(without_spans(&ok(&printed)), without_spans(&file));
}

#[test]
fn printer_keeps_digits_apart() {
    let source = "group: <a | 1 1 a^2 1 [a, a]^-1 1^3 1 (a)^0>\n";
    let file = ok(source);
    let printed = print_group(&file.group.value);
    assert_eq!(printed, "<a | 1^{1}1a^{2}1[a, a]^{-1}1^{3}1(a)^0>");
    assert_eq!(without_spans(&ok(&print(&file))), without_spans(&file));
}

#[test]
fn printer_handles_empty_table_and_tokens() {
    let file = ok("group: <a>\n");
    assert_eq!(print(&file), "group: <a>\ntable:\n");
    assert_eq!(print_row_token(&RowToken::Blanks(3)), "...");
    assert_eq!(
        print_letters(&[Letter::new("a", true), Letter::new("t2", false)]),
        "a'{t2}"
    );
}
