//! Property tests of the `.tbl` parser and printer: random files survive a print/parse
//! round trip, and no input, however mangled, makes the parser, the lowering, the printer
//! or the error renderer panic.

use proptest::prelude::*;
use txverify_core::format::syntax::*;
use txverify_core::format::{
    lower_group, lower_word, parse, print, print_rows, render_error, without_spans,
};
use txverify_core::network::NetworkName;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "B", "e", "n", "d", "x", "y"]).prop_map(String::from),
        1 => "[a-zA-Z0-9_]{1,5}",
    ]
}

fn letter() -> impl Strategy<Value = Letter> {
    (name(), any::<bool>()).prop_map(|(name, inverse)| Letter { name, inverse })
}

fn spanned<T>(value: T) -> Spanned<T> {
    Spanned::unspanned(value)
}

fn word() -> impl Strategy<Value = WordExpr> {
    let exponent = prop_oneof![
        6 => Just(1i64),
        3 => -4i64..=4,
        1 => -10_000_000i64..=10_000_000,
    ];
    let leaf = prop_oneof![
        4 => letter().prop_map(Atom::Letter),
        1 => Just(Atom::One),
    ];
    let atom = leaf.prop_recursive(3, 16, 3, |inner| {
        let exponent = prop_oneof![3 => Just(1i64), 1 => -3i64..=3];
        let factors = prop::collection::vec(
            (inner, exponent).prop_map(|(atom, exponent)| spanned(Factor { atom, exponent })),
            1..3,
        );
        prop_oneof![
            factors.clone().prop_map(Atom::Parens),
            (factors.clone(), factors).prop_map(|(u, v)| Atom::Commutator(u, v)),
        ]
    });
    prop::collection::vec(
        (atom, exponent).prop_map(|(atom, exponent)| spanned(Factor { atom, exponent })),
        1..4,
    )
}

fn presentation() -> impl Strategy<Value = PresentationSyntax> {
    let relation =
        prop::collection::vec(word().prop_map(spanned), 1..4).prop_map(|sides| Relation { sides });
    (
        prop::collection::vec(name().prop_map(spanned), 0..4),
        prop::collection::vec(relation, 0..3),
    )
        .prop_map(|(generators, relations)| PresentationSyntax {
            generators,
            relations,
        })
}

fn group() -> impl Strategy<Value = GroupSyntax> {
    prop::collection::vec(presentation().prop_map(spanned), 1..3)
        .prop_map(|factors| GroupSyntax { factors })
}

fn messages() -> impl Strategy<Value = MessagesSyntax> {
    prop_oneof![
        Just(MessagesSyntax::Total),
        Just(MessagesSyntax::Odd),
        prop::collection::vec(1u32..=u32::MAX, 1..4).prop_map(MessagesSyntax::Distances),
        prop::collection::vec(word().prop_map(spanned), 1..4).prop_map(MessagesSyntax::To),
    ]
}

fn network() -> impl Strategy<Value = NetworkName> {
    prop_oneof![
        (3u32..1000).prop_map(NetworkName::Ring),
        // Sizes are checked while parsing: at most 2^24 nodes (docs/networks.md).
        (1u32..=24).prop_map(NetworkName::Hypercube),
        prop::collection::vec(2u32..20, 1..4).prop_map(NetworkName::Torus),
    ]
}

fn expectation() -> impl Strategy<Value = Expectation> {
    prop_oneof![
        (0usize..100).prop_map(Expectation::Time),
        Just(Expectation::Optimal),
        Just(Expectation::NotOptimal),
        (0usize..100).prop_map(Expectation::Bound),
        (prop::option::of(1usize..50), prop::option::of(1usize..50))
            .prop_map(|(row, column)| Expectation::Invalid { row, column }),
    ]
}

fn free_text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9ā][a-zA-Z0-9 ,.;:()=<>ā-]{0,15}".prop_map(|s| s.trim_end().to_string())
}

/// Rows in the parser's normal form: no empty words, no two blank runs side by side.
fn row() -> impl Strategy<Value = Row> {
    let token = prop_oneof![
        3 => prop::collection::vec(letter().prop_map(spanned), 1..5).prop_map(RowToken::Word),
        1 => (1usize..4).prop_map(RowToken::Blanks),
    ];
    prop::collection::vec(token, 1..7).prop_map(|tokens| {
        let mut merged: Vec<Spanned<RowToken>> = Vec::new();
        for token in tokens {
            if let (
                Some(Spanned {
                    value: RowToken::Blanks(n),
                    ..
                }),
                RowToken::Blanks(m),
            ) = (merged.last_mut(), &token)
            {
                *n += m;
                continue;
            }
            merged.push(spanned(token));
        }
        Row {
            line: 0,
            tokens: merged,
        }
    })
}

fn tbl_file() -> impl Strategy<Value = TblFile> {
    (
        (
            prop::option::of(free_text()),
            prop::option::of(free_text()),
            group(),
            prop::option::of(prop::collection::vec(letter().prop_map(spanned), 1..5)),
        ),
        (
            prop::option::of(messages()),
            prop::option::of(1usize..16),
            prop::option::of(network()),
            prop::option::of(free_text()),
            prop::collection::vec(expectation(), 0..3),
            prop::collection::vec(row(), 0..6),
        ),
    )
        .prop_map(
            |(
                (name, source, group, links),
                (messages, ports, network, certificates, expect, rows),
            )| TblFile {
                name: name.map(spanned),
                source: source.map(spanned),
                group: spanned(group),
                links: links.map(spanned),
                messages: messages.map(spanned),
                ports: ports.map(spanned),
                network: network.map(spanned),
                certificates: certificates.map(spanned),
                expect: expect.into_iter().map(spanned).collect(),
                rows,
            },
        )
}

/// The column at which every word of a row starts, with its letters.
fn layout(row: &Row) -> Vec<(usize, Vec<Letter>)> {
    let mut column = 1;
    let mut out = Vec::new();
    for token in &row.tokens {
        match &token.value {
            RowToken::Word(letters) => {
                out.push((column, letters.iter().map(|l| l.value.clone()).collect()));
                column += letters.len();
            }
            RowToken::Blanks(n) => column += n,
        }
    }
    out
}

/// Everything a parsed file offers: lowering, printing, re-parsing. None of it may panic,
/// and the printed form must read back as the same file.
fn exercise(source: &str) {
    match parse(source) {
        Ok(file) => {
            if let (Ok(presentation), Some(messages)) =
                (lower_group(&file.group.value), &file.messages)
                && let MessagesSyntax::To(words) = &messages.value
            {
                for word in words {
                    let _ = lower_word(&word.value, &presentation.generators);
                }
            }
            let printed = print(&file);
            let reparsed = parse(&printed).unwrap_or_else(|e| {
                panic!(
                    "printed form does not parse:\n{}",
                    render_error("printed", &printed, &e)
                )
            });
            assert_eq!(without_spans(&reparsed), without_spans(&file), "{printed}");
            assert_eq!(print(&reparsed), printed);
        }
        Err(err) => {
            let rendered = render_error("t.tbl", source, &err);
            assert!(rendered.starts_with("t.tbl:"));
        }
    }
}

const VALID: &str = "# a valid file, to mutate\n\
name: ring6-dihedral-total\n\
source: seed 003\n\
group: <b, B | b^2 = B^2 = (bB)^3 = 1> x <{t1} | {t1}^{2}, [{t1}, {t1}]^-1 = 1>\n\
links: b B {t1}\n\
messages: to bB (bB)^2 b^-1B ā\u{304}\n\
ports: 2\n\
network: torus 6 2\n\
expect: time 5\n\
expect: optimal\n\
table:   # rows\n\
bBb bB {t1}\n\
Bb B . b ...\n\
{e}nd b'' b\u{304}\n\
end\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn round_trip(file in tbl_file()) {
        let printed = print(&file);
        let parsed = match parse(&printed) {
            Ok(parsed) => parsed,
            Err(e) => panic!("{}", render_error("printed", &printed, &e)),
        };
        prop_assert_eq!(without_spans(&parsed), without_spans(&file));
        // Columns survive: every word starts in the same column with the same letters.
        for (a, b) in parsed.rows.iter().zip(&file.rows) {
            prop_assert_eq!(layout(a), layout(b));
        }
        prop_assert_eq!(print(&parsed), printed.clone());
        // Alignment: a word that starts in column c starts at the same position in every row.
        let table = print_rows(&parsed.rows);
        let mut positions = std::collections::HashMap::new();
        for (line, row) in table.lines().zip(&parsed.rows) {
            let starts: Vec<usize> = line
                .char_indices()
                .filter(|&(i, c)| c != ' ' && (i == 0 || line.as_bytes()[i - 1] == b' '))
                .map(|(i, _)| i)
                .collect();
            let mut columns = Vec::new();
            let mut column = 1;
            for token in &row.tokens {
                match &token.value {
                    RowToken::Word(letters) => { columns.push(column); column += letters.len(); }
                    RowToken::Blanks(n) => { for _ in 0..*n { columns.push(column); column += 1; } }
                }
            }
            prop_assert_eq!(starts.len(), columns.len(), "{}", line);
            for (position, column) in starts.into_iter().zip(columns) {
                let known = *positions.entry(column).or_insert(position);
                prop_assert_eq!(known, position, "column {} in {:?}", column, table);
            }
        }
    }

    #[test]
    fn random_text_never_panics(source in "[<>|,;=()\\[\\]{}^'x×ābab\u{304}1-3.#: \t\n-]{0,120}") {
        exercise(&source);
    }

    #[test]
    fn random_lines_never_panic(
        table_at in 0usize..8,
        lines in prop::collection::vec(
            (
                prop::sample::select(vec![
                    "", "", "", "group:", "links:", "messages: to", "messages:", "ports:",
                    "network: ring", "network: torus", "network:", "expect: time", "expect:",
                    "name:", "end", "source:", "table:",
                ]),
                prop::collection::vec(prop::sample::select(vec![
                    "a", "b", "ab'", "ā", "b\u{304}", "{t1}", ".", "..", "1", "3", "x", "×",
                    "<a>", "<a, b | a^2>", "(ab)^2", "[a, b]", "^-2", "=", "#", "odd", "total",
                    "distance", "optimal", "hypercube", "%",
                ]), 0..5),
            ),
            0..8,
        ),
    ) {
        let mut source = String::from("group: <a, b | a^2 = b^2 = (ab)^3 = 1>\n");
        for (i, (key, values)) in lines.iter().enumerate() {
            if i == table_at {
                source.push_str("table:\n");
            }
            source.push_str(&format!("{key} {}\n", values.join(" ")));
        }
        exercise(&source);
    }

    #[test]
    fn random_rows_round_trip(rows in prop::collection::vec("[abB'\u{304}āē{}t1. \t]{0,24}", 0..6)) {
        let mut source = String::from("group: <a, b | a^2 = b^2 = (ab)^3 = 1>\ntable:\n");
        for row in rows {
            source.push_str(&row);
            source.push('\n');
        }
        exercise(&source);
    }

    #[test]
    fn any_string_never_panics(source in any::<String>()) {
        exercise(&source);
    }

    #[test]
    fn mutations_never_panic(edits in prop::collection::vec(
        (any::<prop::sample::Index>(), 0u8..4, prop::sample::select(vec![
            'a', 'b', 'B', 'x', '×', '<', '>', '|', ',', ';', '=', '(', ')', '[', ']', '{', '}',
            '^', '-', '\'', '1', '9', '.', ' ', '\n', '#', ':', 'ā', '\u{304}', 'é',
        ])),
        1..4,
    )) {
        let mut chars: Vec<char> = VALID.chars().collect();
        for (index, op, c) in edits {
            if chars.is_empty() {
                chars.push(c);
                continue;
            }
            let i = index.index(chars.len());
            match op {
                0 => { chars.remove(i); }
                1 => chars.insert(i, c),
                2 => chars[i] = c,
                _ => {
                    let copy: Vec<char> = chars[i..].iter().take(8).copied().collect();
                    let at = index.index(chars.len());
                    for (k, d) in copy.into_iter().enumerate() {
                        chars.insert(at + k, d);
                    }
                }
            }
        }
        let source: String = chars.into_iter().collect();
        exercise(&source);
    }
}

#[test]
fn valid_sample_parses() {
    exercise(VALID);
    let file = parse(VALID).unwrap();
    assert_eq!(file.rows.len(), 3);
    let presentation = lower_group(&file.group.value).unwrap();
    assert_eq!(presentation.generators, vec!["b", "B", "t1"]);
}

#[test]
fn random_byte_offsets_render() {
    let err = parse("group: <ā | ā>\n").unwrap_err();
    for start in 0..20 {
        for end in 0..20 {
            let mut e = err.clone();
            e.span = Span::new(start, end);
            let _ = render_error("t.tbl", "group: <ā | ā>\n", &e);
        }
    }
}
