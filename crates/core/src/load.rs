//! From `.tbl` text to a kernel [`Instance`] and [`Table`].
//!
//! Loading is where every *unreadable-input* error is found (exit status 2):
//! syntax, unknown generators in relations, a header naming a link twice, a group
//! that cannot be computed. What makes a table *invalid* (exit status 1) is left
//! to the kernel, so a bad letter in the table is passed on, not rejected here.

use crate::format::syntax::{Letter, Row, RowToken, Span, Spanned, TblFile};
use crate::format::{self, ParseError};
use crate::group::{self, EnumerationLimits, FiniteGroup, GenLetter, GroupError, Presentation};
use crate::kernel::{Expectation, Instance, MessageSpec, PlacedWord, Table, TableLetter};
use crate::network::NetworkName;

mod kind;
pub mod read;
mod spec;
pub use kind::{FileKind, Reader, detect};
pub use spec::{NetworkSpec, SpecError};

/// Why a file could not be loaded, with the span to point at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text does not follow the format.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The presentation does not define a group txverify can compute.
    #[error("{error}")]
    Group {
        /// What went wrong.
        error: GroupError,
        /// The `group:` value.
        span: Span,
    },
    /// The presentation has generators but defines the trivial group: its
    /// relations make every generator 1 (a network of one node).
    #[error(
        "the presentation defines the trivial group (order 1): its relations make every generator ({}) equal to 1, so the network has one node and nothing to send; check the relations (write `<>` for the trivial group on purpose)",
        generators.join(", ")
    )]
    TrivialGroup {
        /// The generators, as written.
        generators: Vec<String>,
        /// The `group:` value.
        span: Span,
    },
    /// A `links:` line that lists one group element twice.
    #[error("{}", same_link_text(link, first, *involution))]
    SameLink {
        /// The later link, as written.
        link: String,
        /// The earlier link naming the same element, as written.
        first: String,
        /// The two are a generator and its inverse (the generator is an involution).
        involution: bool,
        /// The later link.
        span: Span,
    },
    /// A header value is well-formed but meaningless for this group.
    #[error("{message}")]
    Header {
        /// What is wrong.
        message: String,
        /// Where.
        span: Span,
    },
}

/// The message of [`LoadError::SameLink`], naming the fix.
fn same_link_text(link: &str, first: &str, involution: bool) -> String {
    if involution {
        let generator = first.trim_end_matches('\'');
        format!(
            "`{generator}` is an involution ({generator}^2 = 1), so {generator}' = {generator}: list it once (`{first}` and `{link}` are one link)"
        )
    } else {
        format!(
            "link `{link}` is the same group element as link `{first}`: list it once (one link per element)"
        )
    }
}

impl LoadError {
    /// The span the error points at.
    pub fn span(&self) -> Span {
        match self {
            LoadError::Parse(e) => e.span,
            LoadError::Group { span, .. }
            | LoadError::Header { span, .. }
            | LoadError::TrivialGroup { span, .. }
            | LoadError::SameLink { span, .. } => *span,
        }
    }
}

/// A loaded file: the syntax, the computed group, the instance and the table.
#[derive(Debug)]
pub struct Loaded {
    /// The file as parsed.
    pub file: TblFile,
    /// The lowered presentation.
    pub presentation: Presentation,
    /// The independent checks of the computed group that ran (for the report).
    pub group_checks: Vec<String>,
    /// The standard family the presentation was recognised as, if any.
    pub family: Option<String>,
    /// The network, messages and ports, ready for the kernel.
    pub instance: Instance,
    /// Generators left out of the default link set because they are trivial in G.
    pub trivial_generators: Vec<String>,
    /// The table with letters resolved against the generators.
    pub table: Table,
    /// The `expect:` claims.
    pub claims: Vec<Expectation>,
    /// The `network:` value, if any.
    pub network: Option<NetworkName>,
}

/// Options for loading.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Limits for coset enumeration.
    pub limits: EnumerationLimits,
}

/// Parses and loads a file's text.
pub fn load(source: &str, options: &LoadOptions) -> Result<Loaded, LoadError> {
    let file = format::parse(source)?;
    let presentation = format::lower_group(&file.group.value)?;
    let computed =
        group::compute(&presentation, &options.limits).map_err(|error| LoadError::Group {
            error,
            span: file.group.span,
        })?;
    let group_checks = computed.checks;
    let family = computed.family;
    let group = computed.group;
    if group.order() == 1 && !presentation.generators.is_empty() {
        return Err(LoadError::TrivialGroup {
            generators: presentation.generators.clone(),
            span: file.group.span,
        });
    }
    let (links, trivial_generators) = link_set(&file, &group)?;
    let messages = message_spec(&file, &group)?;
    let ports = file.ports.as_ref().map(|p| p.value);
    let table = table_of(&file, source, &group);
    let claims = file
        .expect
        .iter()
        .map(|e| match e.value {
            format::syntax::Expectation::Time(t) => Expectation::Time(t),
            format::syntax::Expectation::Optimal => Expectation::Optimal,
            format::syntax::Expectation::NotOptimal => Expectation::NotOptimal,
            format::syntax::Expectation::Bound(b) => Expectation::Bound(b as u64),
            format::syntax::Expectation::Invalid { row, column } => {
                Expectation::Invalid { row, column }
            }
        })
        .collect();
    let network = file.network.as_ref().map(|n| n.value.clone());
    let instance = Instance::new(group, links, messages, ports);
    Ok(Loaded {
        file,
        presentation,
        group_checks,
        family,
        instance,
        trivial_generators,
        table,
        claims,
        network,
    })
}

fn generator_letter(group: &FiniteGroup, letter: &Letter) -> Option<GenLetter> {
    let index = group
        .generator_names()
        .iter()
        .position(|n| *n == letter.name)?;
    Some(GenLetter {
        generator: index as u32,
        inverse: letter.inverse,
    })
}

/// Writes a letter the way the format spells it (`a`, `a'`, `{t12}`).
pub fn letter_text(name: &str, inverse: bool) -> String {
    Letter::new(name, inverse).to_string()
}

/// Links as generator letters with the names they are written with.
pub type LinkList = Vec<(GenLetter, String)>;

/// The declared link set, or the default one; also the trivial generators left out.
fn link_set(file: &TblFile, group: &FiniteGroup) -> Result<(LinkList, Vec<String>), LoadError> {
    let mut links: LinkList = Vec::new();
    let mut elements = Vec::new();
    if let Some(declared) = &file.links {
        for letter in &declared.value {
            let Some(g) = generator_letter(group, &letter.value) else {
                return Err(LoadError::Header {
                    message: format!(
                        "link `{}` is not a generator of the group",
                        letter.value.name
                    ),
                    span: letter.span,
                });
            };
            let element = group.eval(&[g]);
            if let Some(i) = elements.iter().position(|&e| e == element) {
                let (first, first_text): &(GenLetter, String) = &links[i];
                return Err(LoadError::SameLink {
                    link: letter_text(&letter.value.name, letter.value.inverse),
                    first: first_text.clone(),
                    involution: first.generator == g.generator && first.inverse != g.inverse,
                    span: letter.span,
                });
            }
            elements.push(element);
            links.push((g, letter_text(&letter.value.name, letter.value.inverse)));
        }
        return Ok((links, Vec::new()));
    }
    Ok(default_links(group))
}

/// The default link set: every generator and its inverse, one link per group element,
/// leaving out generators that are trivial in G (returned second, for the report).
pub fn default_links(group: &FiniteGroup) -> (LinkList, Vec<String>) {
    let mut links: LinkList = Vec::new();
    let mut elements = Vec::new();
    let mut trivial = Vec::new();
    for (index, name) in group.generator_names().iter().enumerate() {
        for inverse in [false, true] {
            let g = GenLetter {
                generator: index as u32,
                inverse,
            };
            let element = group.eval(&[g]);
            if element == crate::group::Elem::IDENTITY {
                if !inverse {
                    trivial.push(name.clone());
                }
                continue;
            }
            if !elements.contains(&element) {
                elements.push(element);
                links.push((g, letter_text(name, inverse)));
            }
        }
    }
    (links, trivial)
}

fn message_spec(file: &TblFile, group: &FiniteGroup) -> Result<MessageSpec, LoadError> {
    use format::syntax::MessagesSyntax;
    let Some(messages) = &file.messages else {
        return Ok(MessageSpec::Total);
    };
    Ok(match &messages.value {
        MessagesSyntax::Total => MessageSpec::Total,
        MessagesSyntax::Odd => MessageSpec::Odd,
        MessagesSyntax::Distances(ds) => MessageSpec::Distances(ds.clone()),
        MessagesSyntax::To(words) => {
            let mut elements = Vec::with_capacity(words.len());
            for word in words {
                let letters = format::lower_word(&word.value, group.generator_names())?;
                let element = group.eval(&letters);
                if element == crate::group::Elem::IDENTITY {
                    return Err(LoadError::Header {
                        message: "message word names the identity".to_string(),
                        span: word.span,
                    });
                }
                if elements.contains(&element) {
                    return Err(LoadError::Header {
                        message: "message word names an element listed before".to_string(),
                        span: word.span,
                    });
                }
                elements.push(element);
            }
            MessageSpec::To(elements)
        }
    })
}

fn table_of(file: &TblFile, source: &str, group: &FiniteGroup) -> Table {
    let mut words = Vec::new();
    for (r, row) in file.rows.iter().enumerate() {
        let mut column = 1;
        for token in &row.tokens {
            match &token.value {
                RowToken::Blanks(count) => column += count,
                RowToken::Word(letters) => {
                    let text = source
                        .get(token.span.start..token.span.end)
                        .map(str::to_string)
                        .unwrap_or_else(|| {
                            letters
                                .iter()
                                .map(|l| letter_text(&l.value.name, l.value.inverse))
                                .collect()
                        });
                    let resolved = letters
                        .iter()
                        .map(|l| match generator_letter(group, &l.value) {
                            Some(g) => TableLetter::Gen(g),
                            None => TableLetter::UnknownName(l.value.name.clone()),
                        })
                        .collect::<Vec<_>>();
                    let length = resolved.len();
                    words.push(PlacedWord {
                        row: r + 1,
                        column,
                        letters: resolved,
                        text,
                    });
                    column += length;
                }
            }
        }
    }
    Table {
        rows: file.rows.len(),
        words,
    }
}

/// The inverse of loading a table: rows of syntax (words and blank runs) for the
/// printer, so that tables found by txverify print with their columns aligned.
pub fn table_syntax(group: &FiniteGroup, table: &Table) -> Vec<Row> {
    let mut rows: Vec<Vec<&PlacedWord>> = vec![Vec::new(); table.rows];
    for word in &table.words {
        if let Some(row) = rows.get_mut(word.row.saturating_sub(1)) {
            row.push(word);
        }
    }
    rows.into_iter()
        .map(|mut words| {
            words.sort_by_key(|w| w.column);
            let mut tokens = Vec::new();
            let mut next = 1;
            for word in words {
                if word.column > next {
                    tokens.push(Spanned::unspanned(RowToken::Blanks(word.column - next)));
                }
                let letters = word
                    .letters
                    .iter()
                    .map(|letter| {
                        Spanned::unspanned(match letter {
                            TableLetter::Gen(g) => Letter::new(
                                group.generator_names()[g.generator as usize].clone(),
                                g.inverse,
                            ),
                            TableLetter::UnknownName(name) => Letter::new(name.clone(), false),
                        })
                    })
                    .collect();
                tokens.push(Spanned::unspanned(RowToken::Word(letters)));
                next = word.last_column() + 1;
            }
            Row { line: 0, tokens }
        })
        .collect()
}
