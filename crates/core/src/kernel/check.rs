//! The check itself: column distinctness, word-path conditions, time, bound, verdict.

use super::bounds::{LowerBound, lower_bound};
use super::instance::{
    ElementName, Expectation, Instance, InstanceError, LinkId, PlacedWord, Table, TableLetter,
};
use crate::group::Elem;
use crate::verdict::optimality::{self, OptimalBy, Refutation};

/// A word of the table, named the way a user finds it: row, first column, text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordRef {
    /// 1-based row.
    pub row: usize,
    /// 1-based column of the word's first letter.
    pub column: usize,
    /// The word as written.
    pub word: String,
}

impl WordRef {
    fn of(word: &PlacedWord) -> WordRef {
        WordRef {
            row: word.row,
            column: word.column,
            word: word.text.clone(),
        }
    }
}

/// One reason a table is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The link set does not define a connected undirected Cayley graph.
    LinkSet {
        /// What is wrong with it.
        defect: InstanceError,
    },
    /// A letter names no generator of the group.
    UnknownLetter {
        /// The word holding it.
        word: WordRef,
        /// The column of the letter.
        column: usize,
        /// The letter's name.
        letter: String,
    },
    /// A letter is a generator (or inverse) whose element is not in the link set.
    NotALink {
        /// The word holding it.
        word: WordRef,
        /// The column of the letter.
        column: usize,
        /// The letter as a word over the generators.
        letter: String,
    },
    /// A column holds the same link twice.
    ColumnConflict {
        /// The column.
        column: usize,
        /// The link, as declared.
        link: String,
        /// The word that uses it first (top-most row).
        first: WordRef,
        /// The word that uses it again.
        second: WordRef,
    },
    /// A column holds more letters than a node has ports.
    PortsExceeded {
        /// The column.
        column: usize,
        /// Letters in it.
        letters: usize,
        /// The port limit.
        ports: usize,
    },
    /// A word spells the identity.
    IdentityWord {
        /// The word.
        word: WordRef,
    },
    /// Two words spell the same element.
    DuplicateMessage {
        /// The word that repeats an element.
        word: WordRef,
        /// The earlier word spelling it.
        first: WordRef,
        /// The element, named as a shortest word over the links.
        element: ElementName,
    },
    /// A word spells an element outside the message set.
    UnexpectedMessage {
        /// The word.
        word: WordRef,
        /// The element, named as a shortest word over the links.
        element: ElementName,
        /// Its distance from the sender.
        distance: u32,
    },
    /// An element of the message set is spelled by no word.
    MissingMessage {
        /// The element, named as a shortest word over the links.
        element: ElementName,
        /// Its distance from the sender.
        distance: u32,
    },
}

/// A word longer than the distance of its element: legal, but not a shortest path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonShortestWord {
    /// The word.
    pub word: WordRef,
    /// Its length.
    pub length: usize,
    /// The distance of its element.
    pub distance: u32,
}

/// The outcome of one `expect:` claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectationOutcome {
    /// The claim, as text (`time 15`, `optimal`).
    pub claim: String,
    /// Whether it holds.
    pub holds: bool,
}

/// The kernel's verdict on a table. Only [`check`] can construct one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// At least one violation.
    Invalid,
    /// Valid; its time is above the lower bound, so not proved optimal.
    Valid,
    /// Valid and its time equals the lower bound. (A table above the bound
    /// may still be optimal by certificates: [`Checked::optimal_by`].)
    Optimal,
}

/// Everything the kernel found about a table.
#[derive(Clone, Debug)]
pub struct Checked {
    verdict: Verdict,
    time: usize,
    messages: usize,
    bound: Option<LowerBound>,
    violations: Vec<Violation>,
    non_shortest: Vec<NonShortestWord>,
    expectations: Vec<ExpectationOutcome>,
    expects_invalid: bool,
    optimal_by: Option<OptimalBy>,
    unrefuted: Vec<u64>,
    _sealed: (),
}

impl Checked {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }
    /// The last non-blank column.
    pub fn time(&self) -> usize {
        self.time
    }
    /// Size of the message set.
    pub fn messages(&self) -> usize {
        self.messages
    }
    /// The lower bound (absent when the link set is defective).
    pub fn bound(&self) -> Option<&LowerBound> {
        self.bound.as_ref()
    }
    /// Every violation, in table order.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
    /// Words that are not shortest paths.
    pub fn non_shortest(&self) -> &[NonShortestWord] {
        &self.non_shortest
    }
    /// The `expect:` claims and whether each holds.
    pub fn expectations(&self) -> &[ExpectationOutcome] {
        &self.expectations
    }
    /// Why the table is optimal among all tables, if it is: its time equals
    /// the lower bound, or every number of columns from the bound up to its
    /// time − 1 is refuted by one of the refutations it was checked with
    /// ([`check_with_refutations`]; the core's one rule,
    /// [`crate::verdict::optimality`]). This, not [`Checked::verdict`], is
    /// what `expect: optimal` is decided by.
    pub fn optimal_by(&self) -> Option<OptimalBy> {
        self.optimal_by
    }
    /// The numbers of columns from the lower bound up to the time − 1 that no
    /// refutation settles, in increasing order (empty for an invalid table, a
    /// table without a bound, and a table optimal by either rule).
    pub fn unrefuted(&self) -> &[u64] {
        &self.unrefuted
    }
    /// Every claim holds, and the table is valid unless a claim says `invalid`
    /// (exit status 0). An invalid table passes only when the file expects it.
    pub fn passed(&self) -> bool {
        (self.verdict != Verdict::Invalid || self.expects_invalid)
            && self.expectations.iter().all(|e| e.holds)
    }
}

/// Checks a table against an instance and checks the claims made about it.
pub fn check(instance: &Instance, table: &Table, claims: &[Expectation]) -> Checked {
    check_settling(instance, table, claims, |_| false)
}

/// [`check`], with refutations of numbers of columns as evidence of optimality
/// above the lower bound: the table is optimal by certificates when every
/// number from the bound up to its time − 1 is refuted
/// ([`crate::verdict::optimality`]), and `expect: optimal` then holds. The
/// core checks no proof: a [`Refutation`] is made only by the search crate,
/// from a certificate the proof checker accepted and whose class covers every
/// table (docs/trust.md, "Optimality by certificates").
pub fn check_with_refutations<R: Refutation>(
    instance: &Instance,
    table: &Table,
    claims: &[Expectation],
    refutations: &[R],
) -> Checked {
    check_settling(instance, table, claims, |t| {
        optimality::refuted(t, refutations)
    })
}

/// The check, `settled(t)` saying whether `t` columns are refuted for every table.
fn check_settling(
    instance: &Instance,
    table: &Table,
    claims: &[Expectation],
    settled: impl Fn(u64) -> bool,
) -> Checked {
    let time = table
        .words
        .iter()
        .map(PlacedWord::last_column)
        .max()
        .unwrap_or(0);
    let message_set = instance.message_set();
    let messages = message_set.iter().filter(|&&m| m).count();
    let mut violations: Vec<Violation> = instance
        .defects()
        .iter()
        .map(|d| Violation::LinkSet { defect: d.clone() })
        .collect();
    let bound = violations
        .is_empty()
        .then(|| lower_bound(instance, &message_set));

    let resolved = resolve_letters(instance, table, &mut violations);
    violations.extend(column_conflicts(instance, table, &resolved, time));
    let mut non_shortest = Vec::new();
    if instance.defects().is_empty() {
        violations.extend(word_paths(
            instance,
            table,
            &resolved,
            &message_set,
            &mut non_shortest,
        ));
    }

    let verdict = match (&bound, violations.is_empty()) {
        (_, false) => Verdict::Invalid,
        (Some(b), true) if time as u64 == b.value => Verdict::Optimal,
        _ => Verdict::Valid,
    };
    let valid = verdict != Verdict::Invalid;
    let bound_value = bound.as_ref().map(|b| b.value);
    let optimal_by = optimality::optimal_by_settled(valid, bound_value, time as u64, &settled);
    let unrefuted = match bound_value {
        Some(b) if valid && optimal_by.is_none() => {
            (b..time as u64).filter(|&t| !settled(t)).collect()
        }
        _ => Vec::new(),
    };
    let found = Found {
        verdict,
        optimal_by,
        time,
        bound: bound.as_ref(),
        violations: &violations,
    };
    let expectations = claims
        .iter()
        .map(|claim| claim_outcome(*claim, &found))
        .collect();
    let expects_invalid = claims
        .iter()
        .any(|c| matches!(c, Expectation::Invalid { .. }));
    Checked {
        verdict,
        time,
        messages,
        bound,
        violations,
        non_shortest,
        expectations,
        expects_invalid,
        optimal_by,
        unrefuted,
        _sealed: (),
    }
}

/// What the claims are decided from.
struct Found<'a> {
    verdict: Verdict,
    optimal_by: Option<OptimalBy>,
    time: usize,
    bound: Option<&'a LowerBound>,
    violations: &'a [Violation],
}

/// Whether one claim holds. Every claim is decided here, from the kernel's own
/// findings: the verdict, why the table is optimal (the bound, or the
/// refutations it was given), the time, the bound and the violations' places.
fn claim_outcome(claim: Expectation, found: &Found<'_>) -> ExpectationOutcome {
    let Found {
        verdict,
        optimal_by,
        time,
        bound,
        violations,
    } = *found;
    let (text, holds) = match claim {
        Expectation::Time(t) => (format!("time {t}"), t == time),
        Expectation::Optimal => ("optimal".to_string(), optimal_by.is_some()),
        Expectation::NotOptimal => (
            "not optimal".to_string(),
            verdict != Verdict::Invalid && optimal_by.is_none(),
        ),
        Expectation::Bound(b) => (format!("bound {b}"), bound.is_some_and(|l| l.value == b)),
        Expectation::Invalid { row, column } => {
            let mut text = "invalid".to_string();
            if let Some(r) = row {
                text.push_str(&format!(" row {r}"));
            }
            if let Some(c) = column {
                text.push_str(&format!(" column {c}"));
            }
            let at = |place: &Place| {
                row.is_none_or(|r| place.row == Some(r)) && column.is_none_or(|c| place.column == c)
            };
            let placed = row.is_none() && column.is_none()
                || violations.iter().any(|v| v.places().iter().any(at));
            (text, verdict == Verdict::Invalid && placed)
        }
    };
    ExpectationOutcome { claim: text, holds }
}

/// Where a violation is: a column, and the row when the violation has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// 1-based row, absent for a violation of a whole column.
    pub row: Option<usize>,
    /// 1-based column.
    pub column: usize,
}

impl Violation {
    /// Every place the report of this violation names, as `expect: invalid row R
    /// column C` matches them: the letter of an unknown letter or a non-link; both
    /// letters of a column conflict (their rows, the conflict's column); the column of
    /// too many letters (no row); the first letter of an identity word and of an
    /// unexpected message; the first letters of both words of a duplicate message.
    /// A defective link set and a missing message have no place.
    pub fn places(&self) -> Vec<Place> {
        let word = |w: &WordRef| Place {
            row: Some(w.row),
            column: w.column,
        };
        match self {
            Violation::LinkSet { .. } | Violation::MissingMessage { .. } => Vec::new(),
            Violation::UnknownLetter {
                word: w, column, ..
            }
            | Violation::NotALink {
                word: w, column, ..
            } => vec![Place {
                row: Some(w.row),
                column: *column,
            }],
            Violation::ColumnConflict {
                column,
                first,
                second,
                ..
            } => [first, second]
                .iter()
                .map(|w| Place {
                    row: Some(w.row),
                    column: *column,
                })
                .collect(),
            Violation::PortsExceeded { column, .. } => vec![Place {
                row: None,
                column: *column,
            }],
            Violation::IdentityWord { word: w } | Violation::UnexpectedMessage { word: w, .. } => {
                vec![word(w)]
            }
            Violation::DuplicateMessage { word: w, first, .. } => vec![word(w), word(first)],
        }
    }
}

/// Resolves every letter to a link, reporting letters that are not links.
/// `None` marks a word with at least one unresolvable letter.
fn resolve_letters(
    instance: &Instance,
    table: &Table,
    violations: &mut Vec<Violation>,
) -> Vec<Option<Vec<LinkId>>> {
    table
        .words
        .iter()
        .map(|word| {
            let mut links = Vec::with_capacity(word.letters.len());
            for (offset, letter) in word.letters.iter().enumerate() {
                let column = word.column + offset;
                match letter {
                    TableLetter::UnknownName(name) => violations.push(Violation::UnknownLetter {
                        word: WordRef::of(word),
                        column,
                        letter: name.clone(),
                    }),
                    TableLetter::Gen(g) => match instance.link_of_letter(*g) {
                        Some(link) => links.push(link),
                        None => violations.push(Violation::NotALink {
                            word: WordRef::of(word),
                            column,
                            letter: instance.group().format_word(&[*g]),
                        }),
                    },
                }
            }
            (links.len() == word.letters.len()).then_some(links)
        })
        .collect()
}

/// No column holds a link twice, nor more letters than there are ports.
///
/// Every (column, link) use is listed and sorted, so the work and memory are
/// proportional to the number of letters, whatever the table's width or |S|.
fn column_conflicts(
    instance: &Instance,
    table: &Table,
    resolved: &[Option<Vec<LinkId>>],
    time: usize,
) -> Vec<Violation> {
    let mut letters_in_column = vec![0usize; time];
    let mut uses: Vec<(usize, LinkId, usize)> = Vec::new();
    for (w, word) in table.words.iter().enumerate() {
        for offset in 0..word.letters.len() {
            letters_in_column[word.column + offset - 1] += 1;
        }
        if let Some(links) = &resolved[w] {
            uses.extend(
                links
                    .iter()
                    .enumerate()
                    .map(|(offset, &link)| (word.column + offset, link, w)),
            );
        }
    }
    // Words are in table order, so after sorting the first use of a cell is the top-most.
    uses.sort_unstable();
    let mut found = Vec::new();
    let mut first_use = 0;
    for i in 1..uses.len() {
        let (column, link, w) = uses[i];
        if (column, link) != (uses[first_use].0, uses[first_use].1) {
            first_use = i;
            continue;
        }
        found.push(Violation::ColumnConflict {
            column,
            link: instance.link_names()[link.index()].clone(),
            first: WordRef::of(&table.words[uses[first_use].2]),
            second: WordRef::of(&table.words[w]),
        });
    }
    for (c, &letters) in letters_in_column.iter().enumerate() {
        if letters > instance.ports() {
            found.push(Violation::PortsExceeded {
                column: c + 1,
                letters,
                ports: instance.ports(),
            });
        }
    }
    found.sort_by_key(|v| match v {
        Violation::ColumnConflict { column, .. } | Violation::PortsExceeded { column, .. } => {
            *column
        }
        _ => 0,
    });
    found
}

/// Each word spells a distinct non-identity element, and together exactly the message set.
fn word_paths(
    instance: &Instance,
    table: &Table,
    resolved: &[Option<Vec<LinkId>>],
    message_set: &[bool],
    non_shortest: &mut Vec<NonShortestWord>,
) -> Vec<Violation> {
    // Elements are named when shown: the namer shares the instance's search tree.
    let namer = std::sync::Arc::new(instance.namer());
    let name = |e: Elem| ElementName::new(std::sync::Arc::clone(&namer), e);
    let distances = instance.distances();
    let mut spelled_by: Vec<Option<usize>> = vec![None; message_set.len()];
    let mut found = Vec::new();
    for (w, word) in table.words.iter().enumerate() {
        let Some(links) = &resolved[w] else { continue };
        let element = links
            .iter()
            .fold(Elem::IDENTITY, |e, &link| instance.step(e, link));
        let distance = distances[element.index()];
        if element == Elem::IDENTITY {
            found.push(Violation::IdentityWord {
                word: WordRef::of(word),
            });
            continue;
        }
        if let Some(first) = spelled_by[element.index()] {
            found.push(Violation::DuplicateMessage {
                word: WordRef::of(word),
                first: WordRef::of(&table.words[first]),
                element: name(element),
            });
            continue;
        }
        spelled_by[element.index()] = Some(w);
        if !message_set[element.index()] {
            found.push(Violation::UnexpectedMessage {
                word: WordRef::of(word),
                element: name(element),
                distance,
            });
        } else if links.len() > distance as usize {
            non_shortest.push(NonShortestWord {
                word: WordRef::of(word),
                length: links.len(),
                distance,
            });
        }
    }
    // A word that could not be resolved may have been meant for any element, so
    // only report missing messages when every word was understood.
    if resolved.iter().all(Option::is_some) {
        let missing = |e: usize| message_set[e] && spelled_by[e].is_none();
        let count = (0..message_set.len()).filter(|&e| missing(e)).count();
        found.reserve(count);
        for e in (0..message_set.len()).filter(|&e| missing(e)) {
            found.push(Violation::MissingMessage {
                element: name(Elem(e as u32)),
                distance: distances[e],
            });
        }
    }
    found
}
