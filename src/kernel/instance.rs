//! What the kernel checks: the network (group + links), the messages, and the table.
//!
//! An [`Instance`] is built once per file; construction validates what would make
//! the link set meaningless (identity, missing inverses, not generating) and
//! records those defects instead of failing, because the spec counts them as an
//! invalid table (exit 1), not as unreadable input.

use crate::group::{Elem, FiniteGroup, GenLetter};
use std::collections::{HashMap, VecDeque};

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
                .entry(group.eval(&[letter]))
                .or_insert(LinkId(i as u32));
        }
        let distance = bfs_distances(&group, &links);
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
            let element = self.group.eval(&[letter]);
            if element == Elem::IDENTITY {
                defects.push(InstanceError::IdentityLink {
                    link: self.link_names[i].clone(),
                });
                continue;
            }
            let inverse = self.group.eval(&[letter.inverted()]);
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
    pub fn element_names(&self) -> Vec<String> {
        let order = self.group.order();
        let mut parent: Vec<Option<(Elem, LinkId)>> = vec![None; order];
        let mut seen = vec![false; order];
        seen[0] = true;
        let mut queue = VecDeque::from([Elem::IDENTITY]);
        while let Some(e) = queue.pop_front() {
            for l in 0..self.links.len() {
                let next = self.step(e, LinkId(l as u32));
                if !seen[next.index()] {
                    seen[next.index()] = true;
                    parent[next.index()] = Some((e, LinkId(l as u32)));
                    queue.push_back(next);
                }
            }
        }
        // Unreachable elements (a link set that does not generate) are named over the
        // generators instead; only then is that second search needed.
        let shortest = if seen.iter().all(|&s| s) {
            Vec::new()
        } else {
            self.group.shortest_words()
        };
        (0..order)
            .map(|i| {
                if i == 0 {
                    return "1".to_string();
                }
                if !seen[i] {
                    return self.group.format_word(&shortest[i]);
                }
                let mut names = Vec::new();
                let mut cur = i;
                while let Some((prev, link)) = parent[cur] {
                    names.push(self.link_names[link.index()].as_str());
                    cur = prev.index();
                }
                names.reverse();
                names.concat()
            })
            .collect()
    }
}

fn bfs_distances(group: &FiniteGroup, links: &[GenLetter]) -> Vec<u32> {
    let mut distance = vec![u32::MAX; group.order()];
    distance[0] = 0;
    let mut queue = VecDeque::from([Elem::IDENTITY]);
    while let Some(e) = queue.pop_front() {
        let next_distance = distance[e.index()] + 1;
        for &letter in links {
            let next = group.apply(e, letter);
            if distance[next.index()] == u32::MAX {
                distance[next.index()] = next_distance;
                queue.push_back(next);
            }
        }
    }
    distance
}
