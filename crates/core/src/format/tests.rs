//! Unit tests of the parser, the lowering, the printer and the error rendering.

use super::syntax::*;
use super::*;
use crate::{group::GenLetter, network::NetworkName};

mod printer;

const G: &str = "group: <a, b | a^2, b^2, (ab)^2>\n";

/// Parses `source`; a header snippet without a `table:` line gets one appended
/// (`missing_table_line` tests the file without it).
fn ok(source: &str) -> TblFile {
    let has_table = source
        .lines()
        .any(|l| l.trim_start().to_ascii_lowercase().starts_with("table:"));
    let owned;
    let source = if has_table {
        source
    } else {
        owned = format!("{source}\ntable:\n");
        owned.as_str()
    };
    match parse(source) {
        Ok(file) => file,
        Err(err) => panic!("{}", render_error("t.tbl", source, &err)),
    }
}

/// The error's kind and its rendering with path `t.tbl`.
fn err(source: &str) -> (ParseErrorKind, String) {
    match parse(source) {
        Ok(file) => panic!("parsed: {file:?}"),
        Err(err) => (err.kind.clone(), render_error("t.tbl", source, &err)),
    }
}

/// Asserts that `source` fails with a message containing `message` at `location`.
fn fails(source: &str, location: &str, message: &str) -> ParseErrorKind {
    let (kind, rendered) = err(source);
    assert!(
        rendered.starts_with(&format!("t.tbl:{location}: error: ")),
        "expected location {location}:\n{rendered}"
    );
    assert!(
        rendered.contains(message),
        "expected message {message:?}:\n{rendered}"
    );
    kind
}

/// The error of lowering the group of `source`, rendered.
fn lowering_fails(source: &str) -> (ParseErrorKind, String) {
    let file = ok(source);
    let err = lower_group(&file.group.value).expect_err("lowering should fail");
    let rendered = render_error("t.tbl", source, &err);
    (err.kind, rendered)
}

fn letters(row: &Row) -> Vec<Vec<String>> {
    row.tokens
        .iter()
        .map(|t| match &t.value {
            RowToken::Word(ls) => ls.iter().map(|l| l.value.to_string()).collect(),
            RowToken::Blanks(n) => vec![".".repeat(*n)],
        })
        .collect()
}

fn gl(generator: u32, inverse: bool) -> GenLetter {
    GenLetter { generator, inverse }
}

fn relators(source: &str) -> Vec<Vec<GenLetter>> {
    lower_group(&ok(source).group.value).unwrap().relators
}

// ---------------------------------------------------------------- errors, one per kind

#[test]
fn expected_key() {
    let kind = fails(&format!("{G}bBb bB\n"), "2:1", "expected a header line");
    assert_eq!(kind, ParseErrorKind::ExpectedKey);
}

#[test]
fn unknown_key() {
    let kind = fails(&format!("{G}colour: red\n"), "2:1", "unknown key `colour:`");
    assert_eq!(kind, ParseErrorKind::UnknownKey("colour".into()));
    let (_, rendered) = err(&format!("{G}  Colour : red\n"));
    assert!(rendered.contains("t.tbl:2:3"), "{rendered}");
    assert!(
        rendered.ends_with(" 2 |   Colour : red\n   |   ^^^^^^\n"),
        "{rendered}"
    );
}

#[test]
fn duplicate_key() {
    let kind = fails(
        &format!("{G}ports: 1\nPorts: 2\n"),
        "3:1",
        "`ports:` is given twice (first on line 2)",
    );
    assert!(matches!(
        kind,
        ParseErrorKind::DuplicateKey { first_line: 2, .. }
    ));
    fails(
        &format!("{G}group: <a>\n"),
        "2:1",
        "`group:` is given twice",
    );
}

#[test]
fn expect_may_repeat() {
    let file = ok(&format!(
        "{G}expect: time 3\nexpect: optimal\nexpect: time 3\n"
    ));
    assert_eq!(file.expect.len(), 3);
}

#[test]
fn empty_value() {
    let kind = fails(
        &format!("{G}ports:   # none\n"),
        "2:1",
        "`ports:` needs a value",
    );
    assert_eq!(kind, ParseErrorKind::EmptyValue("ports".into()));
}

#[test]
fn missing_group() {
    let kind = fails("name: x\nports: 2\n", "3:1", "missing `group:` line");
    assert_eq!(kind, ParseErrorKind::MissingGroup);
    fails("name: x\nTABLE:\na b\n", "2:1", "missing `group:` line");
    fails("", "1:1", "missing `group:` line");
}

#[test]
fn junk_after_table() {
    let kind = fails(&format!("{G}table: a b\n"), "2:8", "nothing but a comment");
    assert_eq!(kind, ParseErrorKind::JunkAfterTable);
    assert!(ok(&format!("{G}table:   # rows follow\na\n")).rows.len() == 1);
}

#[test]
fn header_after_table() {
    let kind = fails(
        &format!("{G}table:\na\n  Expect: time 1\n"),
        "4:3",
        "`expect:` after `table:`",
    );
    assert_eq!(kind, ParseErrorKind::HeaderAfterTable("expect".into()));
    fails(&format!("{G}table:\na:b\n"), "3:2", "unexpected `:`");
}

#[test]
fn trailing_after_end() {
    let kind = fails(
        &format!("{G}table:\na\nend\n\n# fine\n  b\n"),
        "7:3",
        "only blank and comment lines may follow `end`",
    );
    assert_eq!(kind, ParseErrorKind::TrailingAfterEnd);
}

#[test]
fn bad_letter() {
    let kind = fails(&format!("{G}table:\nab%\n"), "3:3", "unexpected `%`");
    assert_eq!(kind, ParseErrorKind::BadLetter('%'));
    fails(&format!("{G}links: a 3\n"), "2:10", "unexpected `3`");
}

#[test]
fn unclosed_brace() {
    let kind = fails(&format!("{G}table:\na{{t1 b\n"), "3:2", "unclosed `{`");
    assert_eq!(kind, ParseErrorKind::UnclosedBrace);
}

#[test]
fn bad_name_char() {
    let kind = fails(
        "group: <{t-1}>\n",
        "1:11",
        "`-` may not appear in a `{name}`",
    );
    assert_eq!(kind, ParseErrorKind::BadNameChar('-'));
}

#[test]
fn empty_name() {
    let kind = fails("group: <{}>\n", "1:9", "empty name `{}`");
    assert_eq!(kind, ParseErrorKind::EmptyName);
}

#[test]
fn inverted_generator() {
    let kind = fails(
        "group: <a, b' | a>\n",
        "1:12",
        "a generator is declared by its name",
    );
    assert_eq!(kind, ParseErrorKind::InvertedGenerator);
    fails("group: <ā>\n", "1:9", "a generator is declared by its name");
}

#[test]
fn mixed_token() {
    let kind = fails(
        &format!("{G}table:\na a.b\n"),
        "3:3",
        "mixes letters and blanks",
    );
    assert_eq!(kind, ParseErrorKind::MixedToken);
    fails(
        &format!("{G}table:\n..a\n"),
        "3:1",
        "mixes letters and blanks",
    );
}

#[test]
fn expected() {
    let kind = fails(
        "group: <a | a^2\n",
        "1:16",
        "expected `=`, `,`, `;` or `>`, found end of line",
    );
    assert!(matches!(kind, ParseErrorKind::Expected { .. }));
    fails("group: <a> y <b>\n", "1:12", "expected `x` or `×`");
    fails(
        "group: a^2\n",
        "1:8",
        "expected `<` starting a presentation",
    );
    fails(
        "group: <a | [a b]>\n",
        "1:17",
        "expected `,` between the two words",
    );
    fails("group: <a | (a>\n", "1:15", "expected `)`");
    fails(
        &format!("{G}links: ab\n"),
        "2:9",
        "expected white space between links",
    );
    fails(
        &format!("{G}ports: 2 3\n"),
        "2:10",
        "expected end of line, found `3`",
    );
    fails(
        &format!("{G}messages: to a)\n"),
        "2:15",
        "expected white space between words",
    );
    fails(
        &format!("{G}messages: distance\n"),
        "2:19",
        "expected at least one distance",
    );
}

#[test]
fn empty_word() {
    let kind = fails("group: <a | a = >\n", "1:17", "empty word");
    assert_eq!(kind, ParseErrorKind::EmptyWord);
    fails("group: <a | a^2, >\n", "1:18", "empty word");
    fails("group: <a | ()>\n", "1:14", "empty word");
}

#[test]
fn number_in_word() {
    let kind = fails("group: <a | a 12>\n", "1:15", "`12` is not a factor");
    assert_eq!(kind, ParseErrorKind::NumberInWord("12".into()));
}

#[test]
fn bad_exponent() {
    let kind = fails("group: <a | a^x>\n", "1:14", "expected an integer exponent");
    assert_eq!(kind, ParseErrorKind::BadExponent);
    fails(
        "group: <a | a^{-}>\n",
        "1:14",
        "expected an integer exponent",
    );
    fails("group: <a | a^{2>\n", "1:17", "expected `}`");
}

#[test]
fn exponent_too_large() {
    let kind = fails("group: <a | a^10000001>\n", "1:15", "exponent too large");
    assert_eq!(kind, ParseErrorKind::ExponentTooLarge);
    fails(
        "group: <a | a^-99999999999999999999999999>\n",
        "1:16",
        "exponent too large",
    );
    ok("group: <a | a^10000000 = a^-10000000>\n");
}

#[test]
fn nesting_too_deep() {
    let deep = format!("group: <a | {}a{}>\n", "(".repeat(100), ")".repeat(100));
    let kind = fails(&deep, "1:78", "nested too deeply");
    assert_eq!(kind, ParseErrorKind::NestingTooDeep);
    let fine = format!("group: <a | {}a{}>\n", "(".repeat(60), ")".repeat(60));
    ok(&fine);
    let brackets = format!("group: <a | {}>\n", "[a, ".repeat(10_000));
    let (kind, rendered) = err(&brackets);
    assert_eq!(kind, ParseErrorKind::NestingTooDeep, "{rendered}");
}

#[test]
fn bad_number() {
    let kind = fails(
        &format!("{G}ports: -3\n"),
        "2:8",
        "expected a non-negative integer, found `-3`",
    );
    assert_eq!(kind, ParseErrorKind::BadNumber("-3".into()));
    fails(
        &format!("{G}network: torus 4 four\n"),
        "2:18",
        "`four` is not a size",
    );
}

#[test]
fn number_too_large() {
    let kind = fails(
        &format!("{G}ports: 99999999999999999999999\n"),
        "2:8",
        "number too large",
    );
    assert_eq!(
        kind,
        ParseErrorKind::NumberTooLarge("99999999999999999999999".into())
    );
}

#[test]
fn out_of_range() {
    let kind = fails(&format!("{G}ports: 0\n"), "2:8", "ports must be at least 1");
    assert!(matches!(kind, ParseErrorKind::OutOfRange { .. }));
    // One grammar for every network name: `ring 2` is one link (docs/networks.md).
    fails(
        &format!("{G}network: ring 1\n"),
        "2:15",
        "`ring` needs sizes of at least 2, not 1",
    );
    fails(
        &format!("{G}network: hypercube 33\n"),
        "2:10",
        "the network is too large",
    );
    fails(
        &format!("{G}network: torus 4 1\n"),
        "2:18",
        "`torus` needs sizes of at least 2, not 1",
    );
    fails(
        &format!("{G}messages: distance 2 0\n"),
        "2:22",
        "a distance must be",
    );
}

#[test]
fn unknown_messages() {
    let kind = fails(
        &format!("{G}messages: all\n"),
        "2:11",
        "unknown message set `all`",
    );
    assert_eq!(kind, ParseErrorKind::UnknownMessages("all".into()));
}

#[test]
fn unknown_network() {
    let kind = fails(
        &format!("{G}network: mesh 3 3\n"),
        "2:10",
        "a table does not run on a `mesh` network",
    );
    assert_eq!(kind, ParseErrorKind::UnknownNetwork("mesh".into()));
}

#[test]
fn unknown_expectation() {
    let kind = fails(&format!("{G}expect: fast\n"), "2:9", "unknown claim `fast`");
    assert_eq!(kind, ParseErrorKind::UnknownExpectation("fast".into()));
}

#[test]
fn unknown_generator() {
    let (kind, rendered) = lowering_fails("name: n\ngroup: <a | a^2 = b>\n");
    assert_eq!(kind, ParseErrorKind::UnknownGenerator("b".into()));
    assert!(
        rendered.starts_with("t.tbl:2:19: error: `b` is not a generator"),
        "{rendered}"
    );
    // A factor's relations may use only that factor's generators.
    let (kind, rendered) = lowering_fails("group: <a | a^2> x <b | ab>\n");
    assert_eq!(kind, ParseErrorKind::UnknownGenerator("a".into()));
    assert!(rendered.contains("t.tbl:1:25"), "{rendered}");
    let word = &ok(&format!("{G}messages: to ac\n")).messages.unwrap().value;
    let MessagesSyntax::To(words) = word else {
        panic!()
    };
    let e = lower_word(&words[0].value, &["a".into(), "b".into()]).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::UnknownGenerator("c".into()));
}

#[test]
fn a_long_generator_name_without_braces_names_the_fix() {
    let kind = fails(
        "group: <a, ab12 | a^2>\ntable:\n",
        "1:12",
        "generator names are one letter: `ab12` reads as `a` followed by more; write `{ab12}` for a longer name",
    );
    assert_eq!(kind, ParseErrorKind::LongGeneratorName("ab12".into()));
    // Braced, the name is one generator.
    assert_eq!(ok("group: <{ab12}>\ntable:\n").group.value.factors.len(), 1);
    let (kind, rendered) = lowering_fails("group: <{t1} | t1^2>\n");
    assert_eq!(
        kind,
        ParseErrorKind::UnbracedGenerator {
            letter: "t".into(),
            generator: "t1".into()
        }
    );
    assert!(rendered.starts_with("t.tbl:1:16: error: `t` is not a generator of this presentation; a longer name keeps its braces in every word: write `{t1}`"), "{rendered}");
}

#[test]
fn duplicate_generator() {
    let (kind, rendered) = lowering_fails("group: <a | a^2> × <b, a | b^3>\n");
    assert_eq!(kind, ParseErrorKind::DuplicateGenerator("a".into()));
    assert!(
        rendered.contains("t.tbl:1:24: error: generator `a` is declared twice"),
        "{rendered}"
    );
    let (kind, _) = lowering_fails("group: <a, {a}>\n");
    assert_eq!(kind, ParseErrorKind::DuplicateGenerator("a".into()));
}

#[test]
fn word_too_long() {
    let (kind, rendered) = lowering_fails("group: <a | (a^10000000)^2>\n");
    assert_eq!(kind, ParseErrorKind::WordTooLong);
    assert!(rendered.contains("t.tbl:1:13"), "{rendered}");
    // Nested exponents would overflow any integer type; the check saturates.
    let huge = format!(
        "group: <a | {}a{}>\n",
        "(".repeat(20),
        ")^9999999".repeat(20)
    );
    assert_eq!(lowering_fails(&huge).0, ParseErrorKind::WordTooLong);
    // A zeroth power is not expanded, however large its base.
    assert!(relators("group: <a | ((a^9999999)^9999999)^0 a>\n") == vec![vec![gl(0, false)]]);
    // Empty powers cost nothing.
    assert!(relators("group: <a | ((1^9999999)^9999999)^9999999 a>\n") == vec![vec![gl(0, false)]]);
}

#[test]
fn presentation_too_large() {
    let (kind, _) = lowering_fails("group: <a | a^6000000, a^6000000>\n");
    assert_eq!(kind, ParseErrorKind::PresentationTooLarge);
}

#[test]
fn render_shape() {
    let source = "group: <a>\nnetwork: ring 1\n";
    let e = parse(source).unwrap_err();
    assert_eq!(
        render_error("dir/t.tbl", source, &e),
        "dir/t.tbl:2:15: error: `ring` needs sizes of at least 2, not 1\n 2 | network: ring 1\n   |               ^\n"
    );
    // Overlines take no column on screen; the caret still sits under the offending text.
    let source = "group: <a>\ntable:\na\u{304}b\u{304} %\n";
    let e = parse(source).unwrap_err();
    let rendered = render_error("t.tbl", source, &e);
    assert!(rendered.starts_with("t.tbl:3:6: error"), "{rendered}");
    assert!(
        rendered.ends_with(" 3 | a\u{304}b\u{304} %\n   |    ^\n"),
        "{rendered}"
    );
    // Spans at the very end and past it.
    let e = ParseError::new(ParseErrorKind::MissingGroup, Span::new(100, 200));
    let rendered = render_error("t.tbl", "ab", &e);
    assert!(rendered.starts_with("t.tbl:1:3: error"), "{rendered}");
}

#[test]
fn line_col_is_robust() {
    let s = "ab\nāx\n";
    assert_eq!(line_col(s, 0), (1, 1));
    assert_eq!(line_col(s, 3), (2, 1));
    assert_eq!(line_col(s, 4), (2, 1)); // inside `ā`
    assert_eq!(line_col(s, 5), (2, 2));
    assert_eq!(line_col(s, 1000), (3, 1));
}

// ---------------------------------------------------------------- constructs

#[test]
fn overline_forms() {
    let file = ok(&format!(
        "{G}table:\nā a\u{304} Ḡ ȳ a' a'' ā' {{b}}\u{304} {{t1}}\u{305}'' Ī\n"
    ));
    let words = letters(&file.rows[0]);
    let expected: Vec<Vec<String>> = ["a'", "a'", "G'", "y'", "a'", "a", "a", "b'", "{t1}'", "I'"]
        .iter()
        .map(|s| vec![s.to_string()])
        .collect();
    assert_eq!(words, expected);
}

#[test]
fn braced_names() {
    let file = ok(&format!("{G}table:\n{{b}}b' {{t12}}{{t_3}}a {{T}}\n"));
    assert_eq!(
        letters(&file.rows[0]),
        vec![
            vec!["b".to_string(), "b'".to_string()],
            vec!["{t12}".to_string(), "{t_3}".to_string(), "a".to_string()],
            vec!["T".to_string()],
        ]
    );
    let RowToken::Word(ls) = &file.rows[0].tokens[1].value else {
        panic!()
    };
    assert_eq!(ls[0].value, Letter::new("t12", false));
    assert_eq!(ls[0].span, Span::new(G.len() + 13, G.len() + 18));
}

#[test]
fn row_structure() {
    let source = format!(
        "{G}table:\n# a comment is not a row\nbBb bB\n\n  Bb B . b  # trailing\n. ... ab\n"
    );
    let file = ok(&source);
    assert_eq!(file.rows.len(), 3);
    assert_eq!(file.rows[0].line, 4);
    assert_eq!(file.rows[1].line, 6);
    assert_eq!(file.rows[2].line, 7);
    // Adjacent blank runs merge into one.
    assert_eq!(
        letters(&file.rows[2]),
        vec![vec!["....".to_string()], vec!["a".into(), "b".into()]]
    );
}

#[test]
fn end_handling() {
    let file = ok(&format!("{G}table:\na\nEnD   # done\n\n# after\n"));
    assert_eq!(file.rows.len(), 1);
    let file = ok(&format!("{G}table:\n{{e}}nd\na end\nend\n"));
    assert_eq!(
        letters(&file.rows[0]),
        vec![vec!["e".to_string(), "n".into(), "d".into()]]
    );
    assert_eq!(file.rows.len(), 2);
    // The printer protects the word e·n·d alone on its row.
    let printed = print(&file);
    assert!(printed.contains("\n{e}nd\n"), "{printed}");
    assert_eq!(without_spans(&ok(&printed)), without_spans(&file));
    // `end` before `table:` is not a header line.
    fails(&format!("{G}end\n"), "2:1", "expected a header line");
}

#[test]
fn header_only_file() {
    let file =
        ok("# only a header\nname: search target\nGROUP: <a | a^6>\nMessages: total\nTable:\n");
    assert!(file.rows.is_empty());
    assert_eq!(file.name.unwrap().value, "search target");
    let file = ok(&format!("{G}table:\nend\n"));
    assert!(file.rows.is_empty());
}

#[test]
fn missing_table_line() {
    // The spec: header lines, then a `table:` line. Without it the file is
    // malformed, and the caret stands where `table:` was expected.
    let kind = fails(
        "name: x\ngroup: <a | a^6>\nmessages: total\n\n",
        "3:16",
        "missing `table:` line",
    );
    assert_eq!(kind, ParseErrorKind::MissingTable);
}

#[test]
fn case_insensitive_keys_and_comments() {
    let file = ok(
        "Name: ring 6 # the name stops here\nSOURCE: seed 003, §3.1\n\
         Group: <b, B | b^2 = B^2 = (bB)^3 = 1> # dihedral\nLinks: b B\n\
         MESSAGES: odd\nPorts: 1\nNetwork: RING 6\nExpect: Time 5\neXpect: OPTIMAL\nTable:\n",
    );
    assert_eq!(file.name.as_ref().unwrap().value, "ring 6");
    assert_eq!(file.source.as_ref().unwrap().value, "seed 003, §3.1");
    assert_eq!(file.links.as_ref().unwrap().value.len(), 2);
    assert_eq!(file.messages.as_ref().unwrap().value, MessagesSyntax::Odd);
    assert_eq!(file.ports.as_ref().unwrap().value, 1);
    assert_eq!(file.network.as_ref().unwrap().value, NetworkName::Ring(6));
    let claims: Vec<_> = file.expect.iter().map(|e| e.value.clone()).collect();
    assert_eq!(claims, vec![Expectation::Time(5), Expectation::Optimal]);
}

#[test]
fn crlf_line_endings() {
    let file = ok("group: <a | a^3>\r\ntable:\r\na aa\r\nend\r\n");
    assert_eq!(file.rows.len(), 1);
    assert_eq!(file.rows[0].tokens.len(), 2);
}

#[test]
fn messages_forms() {
    let m = |v: &str| ok(&format!("{G}messages: {v}\n")).messages.unwrap().value;
    assert_eq!(m("total"), MessagesSyntax::Total);
    assert_eq!(m("Odd"), MessagesSyntax::Odd);
    assert_eq!(m("distance 1 3"), MessagesSyntax::Distances(vec![1, 3]));
    assert_eq!(m("distances 9"), MessagesSyntax::Distances(vec![9]));
    let count = |v: &str| match m(v) {
        MessagesSyntax::To(words) => words.len(),
        other => panic!("{other:?}"),
    };
    assert_eq!(count("to a b"), 2);
    assert_eq!(count("to ab"), 1);
    assert_eq!(count("to a^2b (ab)^2"), 2);
    assert_eq!(count("to [a, b]^-1 ( a b )"), 2);
    let MessagesSyntax::To(words) = m("to a^2b (ab)^2") else {
        panic!()
    };
    let names = ["a".to_string(), "b".to_string()];
    assert_eq!(
        lower_word(&words[0].value, &names).unwrap(),
        vec![gl(0, false), gl(0, false), gl(1, false)]
    );
    assert_eq!(lower_word(&words[1].value, &names).unwrap().len(), 4);
}

#[test]
fn network_forms() {
    let n = |v: &str| ok(&format!("{G}network: {v}\n")).network.unwrap().value;
    assert_eq!(n("ring 6"), NetworkName::Ring(6));
    assert_eq!(n("hypercube 3"), NetworkName::Hypercube(3));
    assert_eq!(n("torus 4 4 2"), NetworkName::Torus(vec![4, 4, 2]));
}

#[test]
fn inverse_marks() {
    let file = ok("group: <a | a''a'''a>\n");
    let names = ["a".to_string()];
    let side = &file.group.value.factors[0].value.relations[0].sides[0].value;
    assert_eq!(
        lower_word(side, &names).unwrap(),
        vec![gl(0, false), gl(0, true), gl(0, false)]
    );
}

#[test]
fn chains_and_exponents() {
    let a = gl(0, false);
    let a_ = gl(0, true);
    let b = gl(1, false);
    let b_ = gl(1, true);
    // a^2 = b^-1 = 1 → a a, b^-1 (a side is 1: each side alone); ab = ba → a b a' b';
    // a^2 = b^3 (no side is 1) → a a b' b' b'.
    assert_eq!(
        relators("group: <a, b | a^2 = b^-1 = 1; ab = ba; a^2 = b^3>\n"),
        vec![
            vec![a, a],
            vec![b_],
            vec![a, b, a_, b_],
            vec![a, a, b_, b_, b_]
        ]
    );
    let forms = [
        "a^3",
        "a^{3}",
        "a^(3)",
        "a ^ 3",
        "a^{ 3 }",
        "(a^-3)^-1",
        "a^{-3}^-1",
    ];
    for form in forms.iter().take(6) {
        assert_eq!(
            relators(&format!("group: <a | {form}>\n")),
            vec![vec![a, a, a]],
            "{form}"
        );
    }
    for form in ["a^-2", "a^{-2}", "a^(-2)", "(a^2)^-1", "a'a'"] {
        assert_eq!(
            relators(&format!("group: <a | {form}>\n")),
            vec![vec![a_, a_]],
            "{form}"
        );
    }
    // A zero exponent and `1` give nothing; empty relators are dropped.
    assert_eq!(
        relators("group: <a | a^0, 1, 1 = 1^5>\n"),
        Vec::<Vec<GenLetter>>::new()
    );
}

#[test]
fn commutators() {
    let a = gl(0, false);
    let b = gl(1, false);
    assert_eq!(
        relators("group: <a, b | [a, b]>\n"),
        vec![vec![a.inverted(), b.inverted(), a, b]]
    );
    assert_eq!(
        relators("group: <a, b | [a, b]^-1>\n"),
        vec![vec![b.inverted(), a.inverted(), b, a]]
    );
    assert_eq!(
        relators("group: <a, b | [ab, 1]>\n"),
        vec![vec![b.inverted(), a.inverted(), a, b]]
    );
}

#[test]
fn direct_products() {
    for op in ["x", "×", " x ", "x"] {
        let source = format!("group: <x, y | x^2 = y^2 = 1>{op}<z | z^3>\n");
        let p = lower_group(&ok(&source).group.value).unwrap();
        assert_eq!(p.generators, vec!["x", "y", "z"]);
        let (x, y, z) = (gl(0, false), gl(1, false), gl(2, false));
        assert_eq!(
            p.relators,
            vec![
                vec![x, x],
                vec![y, y],
                vec![z, z, z],
                vec![x.inverted(), z.inverted(), x, z],
                vec![y.inverted(), z.inverted(), y, z],
            ]
        );
    }
    let p = lower_group(&ok("group: <a|a^2> x <b|b^2> x <c|c^2>\n").group.value).unwrap();
    assert_eq!(p.relators.len(), 3 + 3);
    fails(
        "group: <a> x\n",
        "1:13",
        "expected `<` starting a presentation",
    );
}

#[test]
fn presentation_shapes() {
    let g = |s: &str| {
        ok(&format!("group: {s}\n")).group.value.factors[0]
            .value
            .clone()
    };
    assert!(g("<>").generators.is_empty());
    assert!(g("< | >").relations.is_empty());
    assert_eq!(g("<a, b>").generators.len(), 2);
    assert_eq!(g("<a | a^2 ; a^2, a^2>").relations.len(), 3);
    assert_eq!(g("<{gen1}, x | {gen1}x>").generators[0].value, "gen1");
}
