//! Lowering: presentation syntax into a [`Presentation`] of generator letters.
//!
//! Exponents are expanded, commutators written out (`[u, v]` = u⁻¹v⁻¹uv), relation chains
//! `w1 = w2 = … = wk` become the relators w1·w2⁻¹, w2·w3⁻¹, … (or each wi alone when one side is `1`), and a direct product adds
//! the commutator of every pair of generators from different factors. Sizes are checked
//! before anything is expanded, so absurd exponents fail with an error instead of
//! exhausting memory.

use std::collections::HashMap;

use super::syntax::{Atom, GroupSyntax, Span, WordExpr};
use super::{ParseError, ParseErrorKind};
use crate::group::{GenLetter, Presentation};

/// The most generators a presentation may have (all factors together): the
/// action table takes 8 bytes per generator per element.
pub const MAX_GENERATORS: usize = 1000;

/// The largest exponent, in absolute value, that a word may carry.
pub const MAX_EXPONENT: u64 = 10_000_000;

/// The most letters one lowered word may have, and the most letters all relators of
/// one lowered presentation may have together.
pub const MAX_RELATOR_LETTERS: u64 = 10_000_000;

/// Turns presentation syntax (possibly a direct product) into a [`Presentation`].
///
/// Generators are numbered in the order written, factor after factor. The relations of
/// a factor may only use that factor's generators. Relators that expand to the empty
/// word are left out (they say nothing).
pub fn lower_group(group: &GroupSyntax) -> Result<Presentation, ParseError> {
    let whole = match (group.factors.first(), group.factors.last()) {
        (Some(first), Some(last)) => first.span.to(last.span),
        _ => Span::default(),
    };
    let mut generators: Vec<String> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut ranges = Vec::new();
    let mut relators = Vec::new();
    let mut budget = MAX_RELATOR_LETTERS;
    for factor in &group.factors {
        let first = generators.len();
        let mut local: HashMap<&str, u32> = HashMap::new();
        for generator in &factor.value.generators {
            if generators.len() >= MAX_GENERATORS {
                return Err(ParseError::new(
                    ParseErrorKind::TooManyGenerators,
                    generator.span,
                ));
            }
            if index.contains_key(generator.value.as_str()) {
                return Err(ParseError::new(
                    ParseErrorKind::DuplicateGenerator(generator.value.clone()),
                    generator.span,
                ));
            }
            let number = u32::try_from(generators.len()).map_err(|_| too_large(whole))?;
            index.insert(&generator.value, number);
            local.insert(&generator.value, number);
            generators.push(generator.value.clone());
        }
        for relation in &factor.value.relations {
            let mut lengths = Vec::with_capacity(relation.sides.len());
            for side in &relation.sides {
                resolve(&side.value, &local)?;
                let length = word_length(&side.value);
                if length > MAX_RELATOR_LETTERS {
                    return Err(ParseError::new(ParseErrorKind::WordTooLong, side.span));
                }
                lengths.push(length);
            }
            // Each side but the first and last appears in two relators.
            let total: u64 = lengths
                .iter()
                .enumerate()
                .map(|(i, &n)| {
                    if i == 0 || i + 1 == lengths.len() {
                        n
                    } else {
                        2 * n
                    }
                })
                .sum();
            if total > budget {
                let span = match (relation.sides.first(), relation.sides.last()) {
                    (Some(a), Some(b)) => a.span.to(b.span),
                    _ => whole,
                };
                return Err(ParseError::new(ParseErrorKind::PresentationTooLarge, span));
            }
            budget -= total;
            let sides: Vec<Vec<GenLetter>> = relation
                .sides
                .iter()
                .map(|side| expand_word(&side.value, &local))
                .collect();
            if let [single] = sides.as_slice() {
                relators.push(single.clone());
            } else if sides.iter().any(Vec::is_empty) {
                // `w1 = w2 = … = 1`: every side is a relator on its own, which keeps
                // standard presentations in their standard form (`y^2`, `(yY)^3`).
                relators.extend(sides.iter().filter(|side| !side.is_empty()).cloned());
                continue;
            }
            for pair in sides.windows(2) {
                let mut relator = pair[0].clone();
                relator.extend(inverse(&pair[1]));
                relators.push(relator);
            }
        }
        ranges.push(first..generators.len());
    }
    // Only non-empty factors contribute commutators; counting them this way keeps the
    // work linear in the number of factors even when many are empty.
    ranges.retain(|range| !range.is_empty());
    let mut pairs: u64 = 0;
    let mut before: u64 = 0;
    for range in &ranges {
        let size = range.len() as u64;
        pairs = pairs.saturating_add(size.saturating_mul(before));
        before = before.saturating_add(size);
    }
    if pairs.saturating_mul(4) > budget {
        return Err(too_large(whole));
    }
    for (i, a) in ranges.iter().enumerate() {
        for b in &ranges[i + 1..] {
            for g in a.clone() {
                for h in b.clone() {
                    let g = letter(g as u32, false);
                    let h = letter(h as u32, false);
                    relators.push(vec![g.inverted(), h.inverted(), g, h]);
                }
            }
        }
    }
    relators.retain(|relator| !relator.is_empty());
    Ok(Presentation {
        generators,
        relators,
    })
}

/// Turns a word expression into generator letters, resolving names against `generators`
/// (a letter's generator number is its name's index there).
pub fn lower_word(word: &WordExpr, generators: &[String]) -> Result<Vec<GenLetter>, ParseError> {
    let mut index: HashMap<&str, u32> = HashMap::new();
    for (i, name) in generators.iter().enumerate() {
        let Ok(i) = u32::try_from(i) else { break };
        index.entry(name.as_str()).or_insert(i);
    }
    resolve(word, &index)?;
    if word_length(word) > MAX_RELATOR_LETTERS {
        return Err(ParseError::new(
            ParseErrorKind::WordTooLong,
            word_span(word),
        ));
    }
    Ok(expand_word(word, &index))
}

fn too_large(span: Span) -> ParseError {
    ParseError::new(ParseErrorKind::PresentationTooLarge, span)
}

fn letter(generator: u32, inverse: bool) -> GenLetter {
    GenLetter { generator, inverse }
}

/// The span from a word's first factor to its last.
fn word_span(word: &WordExpr) -> Span {
    match (word.first(), word.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => Span::default(),
    }
}

/// Checks that every name in `word` is a key of `index`.
fn resolve(word: &WordExpr, index: &HashMap<&str, u32>) -> Result<(), ParseError> {
    for factor in word {
        match &factor.value.atom {
            Atom::Letter(l) => {
                if !index.contains_key(l.name.as_str()) {
                    // `t1` for the generator `{t1}`: say how to write it.
                    let mut longer: Vec<&str> = index
                        .keys()
                        .copied()
                        .filter(|g| g.len() > l.name.len() && g.starts_with(l.name.as_str()))
                        .collect();
                    longer.sort_unstable();
                    let kind = match longer.first() {
                        Some(generator) => ParseErrorKind::UnbracedGenerator {
                            letter: l.name.clone(),
                            generator: generator.to_string(),
                        },
                        None => ParseErrorKind::UnknownGenerator(l.name.clone()),
                    };
                    return Err(ParseError::new(kind, factor.span));
                }
            }
            Atom::One => {}
            Atom::Parens(inner) => resolve(inner, index)?,
            Atom::Commutator(u, v) => {
                resolve(u, index)?;
                resolve(v, index)?;
            }
        }
    }
    Ok(())
}

/// The number of letters `word` expands to, saturating.
fn word_length(word: &WordExpr) -> u64 {
    word.iter().fold(0u64, |total, factor| {
        let atom = match &factor.value.atom {
            Atom::Letter(_) => 1,
            Atom::One => 0,
            Atom::Parens(inner) => word_length(inner),
            Atom::Commutator(u, v) => word_length(u)
                .saturating_add(word_length(v))
                .saturating_mul(2),
        };
        total.saturating_add(atom.saturating_mul(factor.value.exponent.unsigned_abs()))
    })
}

/// The inverse of a word: reversed, every letter inverted.
fn inverse(word: &[GenLetter]) -> Vec<GenLetter> {
    word.iter().rev().map(|l| l.inverted()).collect()
}

/// Expands a word whose names all resolve and whose length is within the limit.
fn expand_word(word: &WordExpr, index: &HashMap<&str, u32>) -> Vec<GenLetter> {
    let mut out = Vec::new();
    expand_into(word, index, &mut out);
    out
}

fn expand_into(word: &WordExpr, index: &HashMap<&str, u32>, out: &mut Vec<GenLetter>) {
    for factor in word {
        let exponent = factor.value.exponent;
        if exponent == 0 {
            // Skipped rather than expanded: its atom may be far larger than the limit,
            // which only bounds the letters that end up in the word.
            continue;
        }
        let piece = match &factor.value.atom {
            Atom::Letter(l) => {
                let generator = index.get(l.name.as_str()).copied().unwrap_or(0);
                vec![letter(generator, l.inverse)]
            }
            Atom::One => Vec::new(),
            Atom::Parens(inner) => expand_word(inner, index),
            Atom::Commutator(u, v) => {
                let u = expand_word(u, index);
                let v = expand_word(v, index);
                let mut c = inverse(&u);
                c.extend(inverse(&v));
                c.extend(u);
                c.extend(v);
                c
            }
        };
        if piece.is_empty() {
            continue;
        }
        let piece = if exponent < 0 { inverse(&piece) } else { piece };
        for _ in 0..exponent.unsigned_abs() {
            out.extend_from_slice(&piece);
        }
    }
}
