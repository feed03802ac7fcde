//! What the kernel checks: the network (group + links), the messages, and the table.
//!
//! An [`Instance`] is built once per file; construction validates what would make
//! the link set meaningless (identity, missing inverses, not generating) and
//! records those defects instead of failing, because the spec counts them as an
//! invalid table (exit 1), not as unreadable input.

use crate::group::{BfsTree, Elem, FiniteGroup, GenLetter};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Index of a link in [`Instance::links`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);

impl LinkId {
    /// The index, for use as a vector index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which messages every node sends, as group elements relative to the sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageSpec {
    /// Every node sends to every other node.
    Total,
    /// To every node at odd distance.
    Odd,
    /// To every node at one of these distances.
    Distances(Vec<u32>),
    /// To exactly these elements (distinct, none the identity).
    To(Vec<Elem>),
}

/// A claim about the table that `check` must confirm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The table takes exactly this many steps.
    Time(usize),
    /// The table's time equals the lower bound.
    Optimal,
    /// The table is valid and its time is above the lower bound: valid, not proved
    /// optimal (the verdict `Valid`). It does not claim that a faster table exists.
    NotOptimal,
    /// The lower bound equals this number.
    Bound(u64),
    /// The table is invalid; with a row and/or a column, some violation is placed
    /// there (1-based, as reports print them; see `Violation::places`).
    Invalid {
        /// The row a violation must be in.
        row: Option<usize>,
        /// The column a violation must be in.
        column: Option<usize>,
    },
}

/// A letter of the table as the file wrote it, resolved against the generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableLetter {
    /// A generator or its inverse; whether it is a link is the kernel's business.
    Gen(GenLetter),
    /// A name that is not a generator of the group.
    UnknownName(String),
}

/// A word placed in the table: its row, its first column, and its letters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedWord {
    /// 1-based row number.
    pub row: usize,
    /// 1-based column of the first letter.
    pub column: usize,
    /// The letters, one per column.
    pub letters: Vec<TableLetter>,
    /// The word as written, for reports.
    pub text: String,
}

impl PlacedWord {
    /// The last column this word occupies (1-based).
    pub fn last_column(&self) -> usize {
        self.column + self.letters.len().saturating_sub(1)
    }
}

/// A table: its words in row order, left to right.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Number of rows (rows may be empty).
    pub rows: usize,
    /// Every word of every row.
    pub words: Vec<PlacedWord>,
}

impl Table {
    /// Builds a table from words given by their 1-based start column and their
    /// links, assigning rows by interval partitioning (each word goes into the
    /// first row that is free from its start column on).
    ///
    /// Column distinctness allows at most |S| letters per column, so at most |S|
    /// words overlap at any column and a valid schedule never needs more than |S|
    /// rows: a schedule is its words' start times, and the rows are only a way of
    /// writing it down. `links` and `names` are indexed by the words' [`LinkId`]s.
    pub fn from_placed_words(
        links: &[GenLetter],
        names: &[String],
        mut placed: Vec<(usize, Vec<LinkId>)>,
    ) -> Table {
        placed.sort();
        let mut row_ends: Vec<usize> = Vec::new();
        let mut words = Vec::with_capacity(placed.len());
        for (column, word) in placed {
            let row = match row_ends.iter().position(|&end| end < column) {
                Some(r) => r,
                None => {
                    row_ends.push(0);
                    row_ends.len() - 1
                }
            };
            row_ends[row] = column + word.len() - 1;
            words.push(PlacedWord {
                row: row + 1,
                column,
                letters: word
                    .iter()
                    .map(|l| TableLetter::Gen(links[l.index()]))
                    .collect(),
                text: word.iter().map(|l| names[l.index()].as_str()).collect(),
            });
        }
        words.sort_by_key(|w| (w.row, w.column));
        Table {
            rows: row_ends.len(),
            words,
        }
    }
}

/// Why the link set does not define a connected undirected Cayley graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// A link equals the identity.
    #[error("link `{link}` is the identity")]
    IdentityLink {
        /// The link as written.
        link: String,
    },
    /// A link's inverse is not a link.
    #[error(
        "the inverse {inverse} of link `{link}` is not a link (the network must be undirected)"
    )]
    InverseMissing {
        /// The link as written.
        link: String,
        /// The missing inverse, as a word.
        inverse: String,
    },
    /// The links generate a proper subgroup.
    #[error(
        "the links generate only {reached} of the {order} elements (the network is not connected)"
    )]
    NotGenerating {
        /// Order of the subgroup they reach.
        reached: usize,
        /// Order of the group.
        order: usize,
    },
    /// No links at all in a non-trivial group.
    #[error("no links")]
    NoLinks,
}

/// A network (G, S) with its message set and port limit, ready to check tables against.
#[derive(Clone, Debug)]
pub struct Instance {
    group: FiniteGroup,
    links: Vec<GenLetter>,
    link_names: Vec<String>,
    link_of_element: HashMap<Elem, LinkId>,
    ports: usize,
    messages: MessageSpec,
    defects: Vec<InstanceError>,
    /// Shortest paths from the identity in the Cayley graph: distances, and the
    /// words elements are named by (shared with every [`ElementNamer`]).
    tree: Arc<BfsTree>,
}

impl Instance {
    /// Builds an instance. `links` must name distinct elements (the loader rejects
    /// duplicates as a header error); `ports` of `None` means `|S|`.
    pub fn new(
        group: FiniteGroup,
        links: Vec<(GenLetter, String)>,
        messages: MessageSpec,
        ports: Option<usize>,
    ) -> Instance {
        let (links, link_names): (Vec<GenLetter>, Vec<String>) = links.into_iter().unzip();
        let mut link_of_element = HashMap::new();
        for (i, &letter) in links.iter().enumerate() {
            link_of_element
                .entry(group.letter_element(letter))
                .or_insert(LinkId(i as u32));
        }
        let tree = Arc::new(BfsTree::new(&group, &links));
        let mut instance = Instance {
            ports: ports.unwrap_or(links.len()).max(1),
            group,
            links,
            link_names,
            link_of_element,
            messages,
            defects: Vec::new(),
            tree,
        };
        instance.defects = instance.find_defects();
        instance
    }

    fn find_defects(&self) -> Vec<InstanceError> {
        let mut defects = Vec::new();
        if self.links.is_empty() && self.group.order() > 1 {
            defects.push(InstanceError::NoLinks);
            return defects;
        }
        for (i, &letter) in self.links.iter().enumerate() {
            let element = self.group.letter_element(letter);
            if element == Elem::IDENTITY {
                defects.push(InstanceError::IdentityLink {
                    link: self.link_names[i].clone(),
                });
                continue;
            }
            let inverse = self.group.letter_element(letter.inverted());
            if !self.link_of_element.contains_key(&inverse) {
                defects.push(InstanceError::InverseMissing {
                    link: self.link_names[i].clone(),
                    inverse: self.group.format_word(&[letter.inverted()]),
                });
            }
        }
        let reached = self.distances().iter().filter(|&&d| d != u32::MAX).count();
        if reached < self.group.order() {
            defects.push(InstanceError::NotGenerating {
                reached,
                order: self.group.order(),
            });
        }
        defects
    }

    /// The group.
    pub fn group(&self) -> &FiniteGroup {
        &self.group
    }

    /// The links, as generator letters.
    pub fn links(&self) -> &[GenLetter] {
        &self.links
    }

    /// The links as written.
    pub fn link_names(&self) -> &[String] {
        &self.link_names
    }

    /// The link an element is, if any.
    pub fn link_of(&self, element: Elem) -> Option<LinkId> {
        self.link_of_element.get(&element).copied()
    }

    /// The link a generator letter denotes, if it denotes one (the one place that
    /// resolves a letter of a word to a link).
    pub fn link_of_letter(&self, letter: GenLetter) -> Option<LinkId> {
        self.link_of(self.group.letter_element(letter))
    }

    /// Letters a node may send on in one step.
    pub fn ports(&self) -> usize {
        self.ports
    }

    /// The message set as specified.
    pub fn message_spec(&self) -> &MessageSpec {
        &self.messages
    }

    /// Defects of the link set; non-empty means no table over it is valid.
    pub fn defects(&self) -> &[InstanceError] {
        &self.defects
    }

    /// Distance of every element from the identity (`u32::MAX` when unreachable).
    pub fn distances(&self) -> &[u32] {
        self.tree.distances()
    }

    /// `e · s` for link `s`.
    pub fn step(&self, e: Elem, link: LinkId) -> Elem {
        self.group.apply(e, self.links[link.index()])
    }

    /// Whether each element is a message destination (relative to the sender).
    pub fn message_set(&self) -> Vec<bool> {
        let mut wanted = vec![false; self.group.order()];
        match &self.messages {
            MessageSpec::Total => wanted.iter_mut().for_each(|w| *w = true),
            MessageSpec::Odd => {
                for (w, &d) in wanted.iter_mut().zip(self.distances()) {
                    *w = d != u32::MAX && d % 2 == 1;
                }
            }
            MessageSpec::Distances(ds) => {
                for (w, &d) in wanted.iter_mut().zip(self.distances()) {
                    *w = ds.contains(&d);
                }
            }
            MessageSpec::To(elements) => {
                for e in elements {
                    wanted[e.index()] = true;
                }
            }
        }
        wanted[Elem::IDENTITY.index()] = false;
        wanted
    }

    /// A namer for elements, as shortest words over the links.
    pub fn namer(&self) -> ElementNamer {
        ElementNamer {
            tree: Arc::clone(&self.tree),
            link_names: self.link_names.clone(),
        }
    }
}

/// Names elements as shortest words over the links, one element at a time.
///
/// A table can be wrong about any of |G| elements (a one-word table on a group of a
/// million elements misses 999,998 messages), so an element is named when a report
/// shows it, not when the kernel finds it: naming all of them would cost more than
/// the check.
#[derive(Clone, Debug)]
pub struct ElementNamer {
    tree: Arc<BfsTree>,
    link_names: Vec<String>,
}

impl ElementNamer {
    /// The shortest word the breadth-first search found for `e`, with a run of
    /// more than three equal letters written `l^k` (`a^500000`, not half a million
    /// letters). The identity is `1`.
    pub fn name(&self, e: Elem) -> String {
        let Some(word) = self.tree.word(e) else {
            // Only a link set that does not generate leaves elements unreachable,
            // and the kernel reports that defect instead of naming messages.
            return format!("element {} (not reachable over the links)", e.index());
        };
        if word.is_empty() {
            return "1".to_string();
        }
        let mut name = String::new();
        for run in word.chunk_by(|a, b| a == b) {
            let letter = self.link_names[run[0]].as_str();
            if run.len() > 3 {
                name.push_str(letter);
                name.push('^');
                name.push_str(&run.len().to_string());
            } else {
                run.iter().for_each(|_| name.push_str(letter));
            }
        }
        name
    }
}

/// An element of a violation, named only when it is shown (see [`ElementNamer`]).
#[derive(Clone, Debug)]
pub struct ElementName {
    namer: Arc<ElementNamer>,
    element: Elem,
}

impl ElementName {
    /// `element`, to be named by `namer`.
    pub fn new(namer: Arc<ElementNamer>, element: Elem) -> ElementName {
        ElementName { namer, element }
    }

    /// The element.
    pub fn element(&self) -> Elem {
        self.element
    }
}

impl fmt::Display for ElementName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.namer.name(self.element))
    }
}

/// Equal when they name the same word (elements of different groups may).
impl PartialEq for ElementName {
    fn eq(&self, other: &ElementName) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for ElementName {}

impl PartialEq<str> for ElementName {
    fn eq(&self, other: &str) -> bool {
        self.namer.name(self.element) == other
    }
}
