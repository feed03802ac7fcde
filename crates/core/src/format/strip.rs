//! Span removal, for comparing syntax trees by content.

use super::syntax::{
    Atom, Factor, GroupSyntax, MessagesSyntax, PresentationSyntax, Relation, Row, RowToken, Span,
    Spanned, TblFile, WordExpr,
};

fn clear<T: Clone>(spanned: &Spanned<T>) -> Spanned<T> {
    Spanned::new(spanned.value.clone(), Span::default())
}

fn map<T, U>(spanned: &Spanned<T>, f: impl FnOnce(&T) -> U) -> Spanned<U> {
    Spanned::new(f(&spanned.value), Span::default())
}

pub(crate) fn file(file: &TblFile) -> TblFile {
    TblFile {
        name: file.name.as_ref().map(clear),
        source: file.source.as_ref().map(clear),
        group: map(&file.group, group),
        links: file
            .links
            .as_ref()
            .map(|links| map(links, |letters| letters.iter().map(clear).collect())),
        messages: file.messages.as_ref().map(|m| map(m, messages)),
        ports: file.ports.as_ref().map(clear),
        network: file.network.as_ref().map(clear),
        certificates: file.certificates.as_ref().map(clear),
        expect: file.expect.iter().map(clear).collect(),
        rows: file.rows.iter().map(row).collect(),
    }
}

pub(crate) fn group(group: &GroupSyntax) -> GroupSyntax {
    GroupSyntax {
        factors: group.factors.iter().map(|f| map(f, presentation)).collect(),
    }
}

fn presentation(p: &PresentationSyntax) -> PresentationSyntax {
    PresentationSyntax {
        generators: p.generators.iter().map(clear).collect(),
        relations: p
            .relations
            .iter()
            .map(|r| Relation {
                sides: r.sides.iter().map(|s| map(s, word)).collect(),
            })
            .collect(),
    }
}

fn messages(messages: &MessagesSyntax) -> MessagesSyntax {
    match messages {
        MessagesSyntax::To(words) => {
            MessagesSyntax::To(words.iter().map(|w| map(w, word)).collect())
        }
        other => other.clone(),
    }
}

pub(crate) fn word(w: &WordExpr) -> WordExpr {
    w.iter()
        .map(|f| {
            map(f, |f| Factor {
                atom: match &f.atom {
                    Atom::Parens(inner) => Atom::Parens(word(inner)),
                    Atom::Commutator(u, v) => Atom::Commutator(word(u), word(v)),
                    other => other.clone(),
                },
                exponent: f.exponent,
            })
        })
        .collect()
}

fn row(r: &Row) -> Row {
    Row {
        line: 0,
        tokens: r
            .tokens
            .iter()
            .map(|t| {
                map(t, |t| match t {
                    RowToken::Word(letters) => RowToken::Word(letters.iter().map(clear).collect()),
                    RowToken::Blanks(n) => RowToken::Blanks(*n),
                })
            })
            .collect(),
    }
}
