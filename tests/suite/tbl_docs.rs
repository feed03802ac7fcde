//! Every example in `docs/tbl-format.md` parses.
//!
//! Fenced blocks are tagged: `tbl` is a whole file, `tbl-lines` holds one-line files,
//! `tbl-rows` holds table rows (a `group:` line is supplied), and `ebnf` / `text` are not
//! examples. An untagged block is an error, so no example escapes the test.

use txverify_core::format::syntax::{Atom, Factor, RowToken, Spanned, TblFile};
use txverify_core::format::{
    lower_group, lower_word, parse, print, print_rows, render_error, without_spans,
};

const DOC: &str = include_str!("../../docs/tbl-format.md");

/// The group supplied to `tbl-rows` fragments.
const ROWS_GROUP: &str = "group: <a, b, B | a^3 = b^3 = B^3 = 1, ab = ba, aB = Ba, bB = Bb>\n";

struct Block {
    tag: String,
    body: String,
    /// The text between the previous block and this one.
    before: String,
    line: usize,
}

fn blocks() -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, usize, String)> = None;
    let mut between = String::new();
    for (i, line) in DOC.lines().enumerate() {
        match open.take() {
            None => {
                if let Some(tag) = line.strip_prefix("```") {
                    open = Some((tag.trim().to_string(), i + 1, String::new()));
                } else {
                    between.push_str(line);
                    between.push('\n');
                }
            }
            Some((tag, start, mut body)) => {
                if line.starts_with("```") {
                    blocks.push(Block {
                        tag,
                        body,
                        before: std::mem::take(&mut between),
                        line: start,
                    });
                } else {
                    body.push_str(line);
                    body.push('\n');
                    open = Some((tag, start, body));
                }
            }
        }
    }
    assert!(open.is_none(), "unclosed fence in docs/tbl-format.md");
    blocks
}

fn parse_ok(text: &str, line: usize) -> TblFile {
    let file = parse(text).unwrap_or_else(|e| {
        panic!(
            "example at docs/tbl-format.md:{line} does not parse:\n{}",
            render_error("example", text, &e)
        )
    });
    let presentation = lower_group(&file.group.value).unwrap_or_else(|e| {
        panic!(
            "example at docs/tbl-format.md:{line}: {}",
            render_error("example", text, &e)
        )
    });
    // Every table letter names a generator.
    for row in &file.rows {
        for token in &row.tokens {
            if let RowToken::Word(letters) = &token.value {
                for letter in letters {
                    let word = vec![Spanned::new(
                        Factor {
                            atom: Atom::Letter(letter.value.clone()),
                            exponent: 1,
                        },
                        letter.span,
                    )];
                    lower_word(&word, &presentation.generators).unwrap_or_else(|e| {
                        panic!(
                            "example at docs/tbl-format.md:{line}: {}",
                            render_error("example", text, &e)
                        )
                    });
                }
            }
        }
    }
    // And the canonical form reads back the same.
    assert_eq!(
        without_spans(&parse(&print(&file)).unwrap()),
        without_spans(&file)
    );
    file
}

#[test]
fn every_example_parses() {
    let blocks = blocks();
    let mut checked = 0;
    let mut previous_rows: Option<String> = None;
    for block in &blocks {
        match block.tag.as_str() {
            "tbl" => {
                parse_ok(&block.body, block.line);
                checked += 1;
            }
            "tbl-lines" => {
                for (i, line) in block.body.lines().enumerate() {
                    if !line.trim().is_empty() {
                        // One header line; the `table:` line every file needs follows it.
                        parse_ok(&format!("{line}\ntable:\n"), block.line + 1 + i);
                        checked += 1;
                    }
                }
            }
            "tbl-rows" => {
                let body = block.body.strip_prefix("table:\n").unwrap_or(&block.body);
                let file = parse_ok(&format!("{ROWS_GROUP}table:\n{body}"), block.line);
                assert!(
                    !file.rows.is_empty(),
                    "empty rows example at line {}",
                    block.line
                );
                if block.before.trim() == "print as" {
                    let rows = previous_rows
                        .as_deref()
                        .expect("`print as` follows a rows example");
                    assert_eq!(
                        rows, block.body,
                        "docs/tbl-format.md:{}: printed form differs",
                        block.line
                    );
                }
                previous_rows = Some(print_rows(&file.rows));
                checked += 1;
            }
            "ebnf" | "text" => {}
            other => panic!(
                "docs/tbl-format.md:{}: fenced block with tag {other:?}; tag it tbl, tbl-lines, tbl-rows, ebnf or text",
                block.line
            ),
        }
    }
    assert!(checked >= 6, "only {checked} examples found");
}
