//! The `.tbl` header of a product of Cayley networks (`txverify net 'star 3 x
//! ring 4'`): the direct product of the presentations `txverify net` writes for
//! each factor (docs/tbl-format.md, "group products"), with the factors'
//! generators renamed apart when two factors share a name, an explicit link
//! set (each factor's links, in factor order, so that the Cayley graph's ports
//! come in the order the network layer gives a product's), and a `network:`
//! line only where the format allows one: a product of rings, tori and
//! hypercubes is the torus of all their sides.
//!
//! Nothing here is trusted: the header is loaded like any file by whoever
//! reads it, and its tests compare its Cayley graph with the product graph the
//! network layer builds.

use std::fmt::Write as _;
use txverify_core::families::{Family, FamilyError};
use txverify_core::format;
use txverify_core::format::syntax::{Atom, Letter, WordExpr};
use txverify_core::load::{LoadOptions, load};
use txverify_core::network::NetworkName;

/// Why no product header is written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// A factor is not a Cayley network txverify writes.
    #[error(
        "`{0}` is not a Cayley graph txverify writes a presentation for (ring, torus, hypercube, complete, genhypercube, twisted, star, pancake, ccc, butterfly): `net` writes headers of products of those only"
    )]
    NotCayley(String),
    /// A factor's sizes are refused by `net`.
    #[error("`{network}`: {error}")]
    Family {
        /// The factor.
        network: String,
        /// Why.
        error: FamilyError,
    },
    /// The product has more nodes than a group `net` writes may have.
    #[error(
        "`{network}` has {order} nodes, more than the limit of {max}",
        order = count(*.order),
        max = txverify_core::families::MAX_ORDER
    )]
    TooLarge {
        /// The product.
        network: String,
        /// Its order (`u64::MAX` when over the network layer's own limit).
        order: u64,
    },
    /// The network is not a product.
    #[error("`{0}` is not a product (`NET x NET`)")]
    NotAProduct(String),
    /// A factor's own header does not load (a bug in the family's header).
    #[error("the header of `{network}` does not load: {message}")]
    Factor {
        /// The factor.
        network: String,
        /// The loader's message.
        message: String,
    },
}

/// A node count as words: the number, or "more than 2^24" when the network
/// layer refused to count it.
fn count(order: u64) -> String {
    if order == u64::MAX {
        format!("more than {}", txverify_core::network::MAX_NODES)
    } else {
        order.to_string()
    }
}

/// The family `net` writes for one factor of a product.
fn family_of(part: &NetworkName) -> Result<Family, HeaderError> {
    Family::of_network(part).map_err(|error| match error {
        FamilyError::NoHeader(_) => HeaderError::NotCayley(part.to_string()),
        error => HeaderError::Family {
            network: part.to_string(),
            error,
        },
    })
}

/// One factor's presentation text and link letters, generators renamed by `rename`.
fn factor_parts(
    part: &NetworkName,
    rename: &dyn Fn(&str) -> String,
) -> Result<(String, Vec<String>), HeaderError> {
    let header = family_of(part)?.header();
    let failed = |message: String| HeaderError::Factor {
        network: part.to_string(),
        message,
    };
    let loaded = load(&header, &LoadOptions::default()).map_err(|e| failed(e.to_string()))?;
    let mut group = format::parse(&header)
        .map_err(|e| failed(e.to_string()))?
        .group
        .value;
    for factor in &mut group.factors {
        for generator in &mut factor.value.generators {
            generator.value = rename(&generator.value);
        }
        for relation in &mut factor.value.relations {
            for side in &mut relation.sides {
                rename_word(&mut side.value, rename);
            }
        }
    }
    let links = loaded
        .instance
        .links()
        .iter()
        .map(|l| {
            let name = &loaded.presentation.generators[l.generator as usize];
            Letter::new(rename(name), l.inverse).to_string()
        })
        .collect();
    Ok((format::print_group(&group), links))
}

fn rename_word(word: &mut WordExpr, rename: &dyn Fn(&str) -> String) {
    for factor in word.iter_mut() {
        match &mut factor.value.atom {
            Atom::Letter(letter) => letter.name = rename(&letter.name),
            Atom::One => {}
            Atom::Parens(inner) => rename_word(inner, rename),
            Atom::Commutator(u, v) => {
                rename_word(u, rename);
                rename_word(v, rename);
            }
        }
    }
}

/// The generator names of one factor's header.
fn generator_names(part: &NetworkName) -> Result<Vec<String>, HeaderError> {
    let header = family_of(part)?.header();
    let file = format::parse(&header).map_err(|e| HeaderError::Factor {
        network: part.to_string(),
        message: e.to_string(),
    })?;
    Ok(file
        .group
        .value
        .factors
        .iter()
        .flat_map(|f| f.value.generators.iter().map(|g| g.value.clone()))
        .collect())
}

/// The `network:` value of a product of rings, tori and hypercubes (the torus
/// of all their sides), or `None` for any other product.
fn torus_of(parts: &[NetworkName]) -> Option<NetworkName> {
    let mut sides = Vec::new();
    for part in parts {
        let s = part.torus_sides().ok()?;
        sides.extend(s.into_iter().map(|x| x as u32));
    }
    Some(NetworkName::Torus(sides))
}

/// The header of the product `network` (see the module note).
pub fn product_header(network: &NetworkName) -> Result<String, HeaderError> {
    let NetworkName::Product(parts) = network else {
        return Err(HeaderError::NotAProduct(network.to_string()));
    };
    // Every factor must be a family with a header, which the name tells
    // (an edge list is none, and its node count may not even be readable).
    for part in parts {
        family_of(part)?;
    }
    // The order is known from the name: checked before any factor's group is
    // computed (a factor of 2,000,000 elements alone takes seconds).
    let order = network.nodes().map_or(u64::MAX, |n| n as u64);
    if order > txverify_core::families::MAX_ORDER {
        return Err(HeaderError::TooLarge {
            network: network.to_string(),
            order,
        });
    }
    let mut names = Vec::new();
    for part in parts {
        names.extend(generator_names(part)?);
    }
    let clash = names
        .iter()
        .enumerate()
        .any(|(i, n)| names[..i].contains(n));
    let (mut groups, mut links) = (Vec::new(), Vec::new());
    for (i, part) in parts.iter().enumerate() {
        let rename = move |name: &str| {
            if clash {
                format!("{name}_{}", i + 1)
            } else {
                name.to_string()
            }
        };
        let (group, factor_links) = factor_parts(part, &rename)?;
        groups.push(group);
        links.extend(factor_links);
    }
    let file_name: Vec<String> = parts
        .iter()
        .map(|p| family_of(p).map(|f| f.file_name()))
        .collect::<Result<_, _>>()?;
    let mut text = format!("name: {}\n", file_name.join("-x-"));
    let _ = writeln!(
        text,
        "source: the direct product of the presentations txverify net writes for {}",
        parts
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(text, "group: {}", groups.join(" x "));
    let _ = writeln!(text, "links: {}", links.join(" "));
    if let Some(torus) = torus_of(parts) {
        let _ = writeln!(text, "network: {torus}");
    }
    text.push_str("table:\n");
    Ok(txverify_core::format::canonical(&text))
}
