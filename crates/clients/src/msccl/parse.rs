//! Reading MSCCL XML into [`Element`]s that keep their line and column.
//!
//! The XML is parsed with roxmltree (a strict, well-kept reader); what is kept
//! is only the element tree, each element's attributes in order and the place
//! of every element and attribute, so that every later message can point into
//! the file. Nothing here decides anything about the program: a syntax error
//! is a [`ReadError`] (the file is unreadable), everything else is left to
//! [`program`](super::program).

/// A place in the file: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1 (characters).
    pub col: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// One attribute as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its value, with XML's entities resolved.
    pub value: String,
    /// Where its name starts.
    pub pos: Pos,
    /// Whether the value is quoted with `'` (msccl-executor-nccl's reader reads
    /// a value up to the next `"`, so it misreads such a value).
    pub single_quoted: bool,
    /// Whether the raw value holds an entity reference (`&…;`), which the
    /// executor's reader does not resolve.
    pub has_entity: bool,
}

/// One element, its attributes and its child elements (text is dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// Its tag name.
    pub name: String,
    /// Where its `<` is.
    pub pos: Pos,
    /// Its attributes, in file order.
    pub attributes: Vec<Attribute>,
    /// Its child elements, in file order.
    pub children: Vec<Element>,
}

impl Element {
    /// The attribute called `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// Why a file cannot be read as XML.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct ReadError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

/// Whether `source` looks like an MSCCL program: its first element (after an
/// optional XML declaration, comments and blanks) is `<algo`.
pub fn looks_like_msccl(source: &str) -> bool {
    let mut rest = source.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("<!--") {
            match after.find("-->") {
                Some(end) => rest = after[end + 3..].trim_start(),
                None => return false,
            }
        } else if let Some(after) = rest.strip_prefix("<?") {
            match after.find("?>") {
                Some(end) => rest = after[end + 2..].trim_start(),
                None => return false,
            }
        } else {
            return rest.starts_with("<algo")
                && rest[5..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_whitespace() || c == '>' || c == '/');
        }
    }
}

/// Elements nested deeper than this make the file unreadable. A program is four
/// levels deep (`<algo>`, `<gpu>`, `<tb>`, `<step>`); the copy into
/// [`Element`]s recurses, so an unbounded depth would overflow the stack.
pub const MAX_DEPTH: usize = 32;

/// Parses `source` into its root element.
pub fn parse(source: &str) -> Result<Element, ReadError> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(source, options).map_err(|e| {
        let p = e.pos();
        ReadError {
            pos: Pos {
                line: p.row,
                col: p.col,
            },
            // The reader's text ends with the position, which the error carries.
            message: format!(
                "not well-formed XML: {}",
                e.to_string()
                    .trim_end_matches(&format!(" at {}:{}", p.row, p.col))
            ),
        }
    })?;
    let lines = Lines::new(source);
    check_depth(&lines, source, &doc)?;
    Ok(element(&lines, source, doc.root_element()))
}

/// Refuses a document whose elements nest deeper than [`MAX_DEPTH`], at the
/// first element too deep. Nodes come in document order, each after its
/// parent, so each depth is its parent's plus one (no recursion).
fn check_depth(lines: &Lines, source: &str, doc: &roxmltree::Document) -> Result<(), ReadError> {
    let mut depth: Vec<u32> = Vec::new();
    for node in doc.root().descendants() {
        let id = node.id().get_usize();
        let parent = node.parent().map_or(0, |p| depth[p.id().get_usize()]);
        let here = parent + u32::from(node.is_element());
        if here as usize > MAX_DEPTH {
            return Err(ReadError {
                pos: lines.pos(source, node.range().start),
                message: format!(
                    "elements are nested more than {MAX_DEPTH} deep (an MSCCL program is 4 deep)"
                ),
            });
        }
        if depth.len() <= id {
            depth.resize(id + 1, 0);
        }
        depth[id] = here;
    }
    Ok(())
}

/// Where each line starts, to turn byte offsets into places in O(log n)
/// (roxmltree's own lookup scans from the start of the file).
struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    fn new(source: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The place of byte `offset` of `source`.
    fn pos(&self, source: &str, offset: usize) -> Pos {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = source.get(start..offset).map_or(1, |t| {
            if t.is_ascii() {
                t.len() + 1
            } else {
                t.chars().count() + 1
            }
        });
        Pos {
            line: line as u32,
            col: col as u32,
        }
    }
}

/// Copies one element and its descendants (recursively: [`check_depth`] has
/// bounded the nesting).
fn element(lines: &Lines, source: &str, node: roxmltree::Node) -> Element {
    let attributes = node
        .attributes()
        .map(|a| {
            let raw = &source[a.range_value()];
            let quote = a
                .range_value()
                .start
                .checked_sub(1)
                .map(|i| source.as_bytes()[i]);
            Attribute {
                name: a.name().to_string(),
                value: a.value().to_string(),
                pos: lines.pos(source, a.range().start),
                single_quoted: quote == Some(b'\''),
                has_entity: raw.contains('&'),
            }
        })
        .collect();
    Element {
        name: node.tag_name().name().to_string(),
        pos: lines.pos(source, node.range().start),
        attributes,
        children: node
            .children()
            .filter(|c| c.is_element())
            .map(|c| element(lines, source, c))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_an_algo_root_after_comments() {
        assert!(looks_like_msccl("<!-- x -->\n<algo name=\"a\">"));
        assert!(looks_like_msccl("<?xml version=\"1.0\"?><algo>"));
        assert!(!looks_like_msccl("<algorithm>"));
        assert!(!looks_like_msccl("network: ring 4"));
    }

    #[test]
    fn keeps_positions_and_quotes() {
        let root = parse("<algo a=\"1\">\n  <gpu id='0'/>\n</algo>").unwrap();
        assert_eq!(root.children[0].pos, Pos { line: 2, col: 3 });
        let id = root.children[0].attribute("id").unwrap();
        assert!(id.single_quoted);
        assert_eq!(id.pos, Pos { line: 2, col: 8 });
    }

    #[test]
    fn a_syntax_error_has_a_place() {
        let e = parse("<algo>\n<gpu>\n</algo>").unwrap_err();
        assert_eq!(e.pos.line, 3);
    }
}
