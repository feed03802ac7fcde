//! The kernel's violations in words, one line each, for every report and
//! picture that shows them (the text and HTML reports, the table pictures,
//! `infer`): apart from both, so that neither the reports nor the pictures
//! need the other to name a violation.

use txverify_core::kernel::Violation;

/// One line describing a violation: row, column and word first.
pub fn describe(v: &Violation) -> String {
    match v {
        Violation::LinkSet { defect } => format!("link set: {defect}"),
        Violation::UnknownLetter {
            word,
            column,
            letter,
        } => format!(
            "row {}, column {column}: word `{}`: letter `{letter}` is not a generator",
            word.row, word.word
        ),
        Violation::NotALink {
            word,
            column,
            letter,
        } => format!(
            "row {}, column {column}: word `{}`: letter `{letter}` is not a link",
            word.row, word.word
        ),
        Violation::ColumnConflict {
            column,
            link,
            first,
            second,
        } => format!(
            "column {column}: link `{link}` used twice: row {} word `{}` (from column {}) and row {} word `{}` (from column {})",
            first.row, first.word, first.column, second.row, second.word, second.column
        ),
        Violation::PortsExceeded {
            column,
            letters,
            ports,
        } => format!("column {column}: {letters} letters but a node has only {ports} ports"),
        Violation::IdentityWord { word } => format!(
            "row {}, column {}: word `{}` spells the identity",
            word.row, word.column, word.word
        ),
        Violation::DuplicateMessage {
            word,
            first,
            element,
        } => format!(
            "row {}, column {}: word `{}` spells {element}, already sent by row {}, column {} word `{}` (duplicate)",
            word.row, word.column, word.word, first.row, first.column, first.word
        ),
        Violation::UnexpectedMessage {
            word,
            element,
            distance,
        } => format!(
            "row {}, column {}: word `{}` spells {element} (distance {distance}), which is not in the message set",
            word.row, word.column, word.word
        ),
        Violation::MissingMessage { element, distance } => {
            format!("missing message: no word spells {element} (distance {distance})")
        }
    }
}
