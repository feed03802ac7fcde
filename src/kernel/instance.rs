//! What the kernel checks: the network (group + links), the messages, and the table.
//!
//! An [`Instance`] is built once per file; construction validates what would make
//! the link set meaningless (identity, missing inverses, not generating) and
//! records those defects instead of failing, because the spec counts them as an
//! invalid table (exit 1), not as unreadable input.

use crate::group::{BfsTree, Elem, FiniteGroup, GenLetter};
use std::collections::HashMap;

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
#[non_exhaustive]
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
    /// Distance from the identity in the Cayley graph; `u32::MAX` when unreachable.
    distance: Vec<u32>,
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
        let distance = group.distances_from_identity(&links);
        let mut instance = Instance {
            ports: ports.unwrap_or(links.len()).max(1),
            group,
            links,
            link_names,
            link_of_element,
            messages,
            defects: Vec::new(),
            distance,
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
        let reached = self.distance.iter().filter(|&&d| d != u32::MAX).count();
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
        &self.distance
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
                for (w, &d) in wanted.iter_mut().zip(&self.distance) {
                    *w = d != u32::MAX && d % 2 == 1;
                }
            }
            MessageSpec::Distances(ds) => {
                for (w, &d) in wanted.iter_mut().zip(&self.distance) {
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

    /// A shortest word over the links spelling every reachable element, written with link names.
    ///
    /// A run of more than three equal letters is written `l^k` (`a^500000`, not
    /// half a million letters): names are built from their parents' in
    /// breadth-first order, so a cyclic group of a million elements is named in
    /// linear time and space.
    pub fn element_names(&self) -> Vec<String> {
        let order = self.group.order();
        let tree = BfsTree::new(&self.group, &self.links);
        // Unreachable elements (a link set that does not generate) are named over the
        // generators instead; only then is that second search needed.
        let shortest = if tree.spans() {
            Vec::new()
        } else {
            self.group.shortest_words()
        };
        let mut names = vec![String::new(); order];
        // Per element: the link of its last run, that run's length, and where it starts.
        let mut last_run = vec![(usize::MAX, 0u32, 0usize); order];
        for &e in tree.visit_order() {
            let Some((p, link)) = tree.parent(e) else {
                continue;
            };
            let (p_link, p_count, p_start) = last_run[p.index()];
            let (prefix_end, count) = if p_link == link {
                (p_start, p_count + 1)
            } else {
                (names[p.index()].len(), 1)
            };
            let mut name = String::with_capacity(prefix_end + 16);
            name.push_str(&names[p.index()][..prefix_end]);
            let letter = self.link_names[link].as_str();
            if count > 3 {
                name.push_str(letter);
                name.push('^');
                name.push_str(&count.to_string());
            } else {
                (0..count).for_each(|_| name.push_str(letter));
            }
            last_run[e.index()] = (link, count, prefix_end);
            names[e.index()] = name;
        }
        names[0] = "1".to_string();
        for (i, name) in names.iter_mut().enumerate() {
            if i > 0 && tree.distances()[i] == u32::MAX {
                *name = self.group.format_word(&shortest[i]);
            }
        }
        names
    }
}
