//! Network families as `.tbl` headers: a group presentation, its links and,
//! where one applies, the `network:` line.
//!
//! A family is only a way of writing a Cayley graph down: the header is loaded
//! like any file, the group computed by coset enumeration and the graph checked
//! by whoever reads it, so nothing here is trusted. Presentations are chosen so
//! that enumeration closes quickly (the symmetric group on its star transpositions
//! with the standard relations, on Coxeter generators for the pancake graph, the
//! wreath product C2 ≀ C_D with the commuting conjugates of its flip).
//!
//! The networks themselves are built by `crate::network`, which makes the same
//! presentations of the star, pancake, CCC and butterfly groups in code rather
//! than reading these headers back; its tests compare the two, graph for graph.

use std::fmt::Write;

use crate::network::{CayleyFamily, NetworkError, NetworkName};

/// The largest group a family may ask for (coset enumeration's default limit).
pub const MAX_ORDER: u64 = 2_000_000;

/// The names [`Family::new`] takes (and `kary`, read as a torus).
const FAMILY_NAMES: [&str; 11] = [
    "ring",
    "hypercube",
    "torus",
    "kary",
    "complete",
    "genhypercube",
    "twisted",
    "star",
    "pancake",
    "ccc",
    "butterfly",
];

/// A family and its sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Family {
    /// The ring of `n` nodes (C_n on a, a⁻¹).
    Ring(u64),
    /// The `d`-cube (C2^d).
    Hypercube(u64),
    /// The wrap-around mesh with these sides (C_n1 × C_n2 × …).
    Torus(Vec<u64>),
    /// K_n as the Cayley graph of C_n on every non-identity element.
    Complete(u64),
    /// K_m1 × K_m2 × …: the product of complete graphs.
    GenHypercube(Vec<u64>),
    /// The star graph: S_n on the transpositions (1 i).
    Star(u64),
    /// The pancake graph: S_n on the prefix reversals.
    Pancake(u64),
    /// Cube-connected cycles: C2 ≀ C_d on the shift and the flip of bit 0.
    Ccc(u64),
    /// The wrapped butterfly: C2 ≀ C_d on the shift and the shift-then-flip.
    Butterfly(u64),
    /// A twisted torus of shape `2k k`, `k k 2k` or `k 2k 2k`: an abelian
    /// group on one generator per dimension (`crate::network` defines the
    /// wrap-around shifts).
    Twisted(Vec<u64>),
}

/// Why a family cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FamilyError {
    /// Not a family name.
    #[error(
        "unknown family `{0}` (ring, hypercube, torus, kary, complete, genhypercube, twisted, star, pancake, ccc, butterfly)"
    )]
    Unknown(String),
    /// Sizes that are not one of the family's shapes.
    #[error("{0}")]
    Shape(String),
    /// The wrong number of sizes.
    #[error("`{family}` takes {expected}")]
    Arguments {
        /// The family.
        family: &'static str,
        /// What it takes, in words.
        expected: &'static str,
    },
    /// A size below the family's least.
    #[error("`{family}` needs sizes of at least {least}")]
    TooSmall {
        /// The family.
        family: &'static str,
        /// The least size.
        least: u64,
    },
    /// A network that is not a Cayley graph txverify writes a header for.
    #[error(
        "`{0}` has no header: `net` writes ring, hypercube, torus, kary, complete, genhypercube, twisted, star, pancake, ccc and butterfly networks with links, and their products"
    )]
    NoHeader(String),
    /// More nodes than a group may have.
    #[error(
        "`{family}` of these sizes has {} nodes, more than the limit of {MAX_ORDER}",
        count(*.order)
    )]
    TooLarge {
        /// The family.
        family: &'static str,
        /// Its order (`u64::MAX` when it does not fit).
        order: u64,
    },
}

impl FamilyError {
    /// The grammar's error as a family error (`order`: the product of the
    /// sizes, for a network too large).
    fn of_network(error: NetworkError, name: &str, order: u64) -> FamilyError {
        match error {
            NetworkError::UnknownFamily(name) => FamilyError::Unknown(name),
            NetworkError::WrongArity {
                family, expected, ..
            } => FamilyError::Arguments { family, expected },
            NetworkError::TooSmall {
                family, minimum, ..
            } => FamilyError::TooSmall {
                family,
                least: u64::from(minimum),
            },
            NetworkError::TooLarge => FamilyError::TooLarge {
                family: FAMILY_NAMES
                    .iter()
                    .find(|&&n| n == name)
                    .copied()
                    .unwrap_or("network"),
                order,
            },
            other => FamilyError::Shape(other.to_string()),
        }
    }
}

/// A node count as words: the number, or "at least 2^64" when it saturated.
fn count(order: u64) -> String {
    if order == u64::MAX {
        "at least 2^64".to_string()
    } else {
        order.to_string()
    }
}

impl Family {
    /// The family `name` with sizes `args`, read by the one grammar of
    /// network names ([`NetworkName`], so the same names and least sizes as
    /// `network:` and `--network`), then [`Family::of_network`].
    pub fn new(name: &str, args: &[u64]) -> Result<Family, FamilyError> {
        let sizes = args
            .iter()
            .map(|&n| u32::try_from(n))
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| FamilyError::TooLarge {
                family: FAMILY_NAMES
                    .iter()
                    .find(|&&n| n == name)
                    .copied()
                    .unwrap_or("network"),
                order: u64::MAX,
            })?;
        let network = NetworkName::of_family(&name.to_ascii_lowercase(), &sizes).map_err(|e| {
            let order = args.iter().fold(1u64, |p, &n| p.saturating_mul(n));
            FamilyError::of_network(e, name, order)
        })?;
        Family::of_network(&network)
    }

    /// The family of a network name, checked against [`MAX_ORDER`]: the
    /// networks that are Cayley graphs txverify writes a header for (`ring 2`,
    /// one link, is the 1-cube). Paths, meshes, edge lists and products have
    /// none ([`FamilyError::NoHeader`]; `net` writes products itself), nor do
    /// networks without links (`hypercube 0`, `complete 1`).
    pub fn of_network(network: &NetworkName) -> Result<Family, FamilyError> {
        let wide = |sides: &[u32]| sides.iter().map(|&n| u64::from(n)).collect::<Vec<u64>>();
        let no_header = || FamilyError::NoHeader(network.to_string());
        let family = match network {
            NetworkName::Ring(2) => Family::Hypercube(1),
            NetworkName::Ring(n) => Family::Ring(u64::from(*n)),
            NetworkName::Hypercube(0) | NetworkName::Complete(0..=1) => return Err(no_header()),
            NetworkName::GenHypercube(s) if s.contains(&1) => return Err(no_header()),
            NetworkName::Hypercube(d) => Family::Hypercube(u64::from(*d)),
            NetworkName::Torus(s) => Family::Torus(wide(s)),
            NetworkName::Complete(n) => Family::Complete(u64::from(*n)),
            NetworkName::GenHypercube(s) => Family::GenHypercube(wide(s)),
            NetworkName::Twisted(s) => Family::Twisted(wide(s)),
            NetworkName::Cayley { family, size } => {
                let size = u64::from(*size);
                match family {
                    CayleyFamily::Star => Family::Star(size),
                    CayleyFamily::Pancake => Family::Pancake(size),
                    CayleyFamily::Ccc => Family::Ccc(size),
                    CayleyFamily::Butterfly => Family::Butterfly(size),
                }
            }
            NetworkName::Linear(_)
            | NetworkName::Mesh(_)
            | NetworkName::Product(_)
            | NetworkName::Edges(_)
            | NetworkName::Fabric(_) => return Err(no_header()),
        };
        let order = family.order();
        if order > MAX_ORDER {
            return Err(FamilyError::TooLarge {
                family: family.name(),
                order,
            });
        }
        Ok(family)
    }

    /// The network this family's header describes.
    pub fn network(&self) -> NetworkName {
        let narrow = |sides: &[u64]| sides.iter().map(|&n| n as u32).collect::<Vec<u32>>();
        let cayley = |family, size: u64| NetworkName::Cayley {
            family,
            size: size as u32,
        };
        match self {
            Family::Ring(n) => NetworkName::Ring(*n as u32),
            Family::Hypercube(d) => NetworkName::Hypercube(*d as u32),
            Family::Torus(s) => NetworkName::Torus(narrow(s)),
            Family::Complete(n) => NetworkName::Complete(*n as u32),
            Family::GenHypercube(s) => NetworkName::GenHypercube(narrow(s)),
            Family::Star(n) => cayley(CayleyFamily::Star, *n),
            Family::Pancake(n) => cayley(CayleyFamily::Pancake, *n),
            Family::Ccc(d) => cayley(CayleyFamily::Ccc, *d),
            Family::Butterfly(d) => cayley(CayleyFamily::Butterfly, *d),
            Family::Twisted(s) => NetworkName::Twisted(narrow(s)),
        }
    }

    /// The family's name as `txverify net` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            Family::Ring(_) => "ring",
            Family::Hypercube(_) => "hypercube",
            Family::Torus(_) => "torus",
            Family::Complete(_) => "complete",
            Family::GenHypercube(_) => "genhypercube",
            Family::Star(_) => "star",
            Family::Pancake(_) => "pancake",
            Family::Ccc(_) => "ccc",
            Family::Butterfly(_) => "butterfly",
            Family::Twisted(_) => "twisted",
        }
    }

    /// The number of nodes by its closed form (saturating).
    pub fn order(&self) -> u64 {
        let product = |sides: &[u64]| sides.iter().fold(1u64, |p, &n| p.saturating_mul(n));
        // Stops at the first overflow (by 21!), not after n steps.
        let factorial = |n: u64| {
            (1..=n)
                .try_fold(1u64, |p, k| p.checked_mul(k))
                .unwrap_or(u64::MAX)
        };
        // 2^d, saturated (a d of 2^32 is not the shift by 0 it truncates to).
        let power = |d: u64| {
            u32::try_from(d)
                .ok()
                .and_then(|d| 1u64.checked_shl(d))
                .unwrap_or(u64::MAX)
        };
        match self {
            Family::Ring(n) | Family::Complete(n) => *n,
            Family::Hypercube(d) => power(*d),
            Family::Torus(sides) | Family::GenHypercube(sides) | Family::Twisted(sides) => {
                product(sides)
            }
            Family::Star(n) | Family::Pancake(n) => factorial(*n),
            Family::Ccc(d) | Family::Butterfly(d) => power(*d).saturating_mul(*d),
        }
    }

    /// A short name for the header's `name:` line (`star5`, `torus4x4`).
    pub fn file_name(&self) -> String {
        let sizes = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join("x");
        match self {
            Family::Torus(s) => format!("torus{}", sizes(s)),
            Family::GenHypercube(s) => format!("genhypercube{}", sizes(s)),
            Family::Twisted(s) => format!("twisted{}", sizes(s)),
            Family::Ring(n)
            | Family::Hypercube(n)
            | Family::Complete(n)
            | Family::Star(n)
            | Family::Pancake(n)
            | Family::Ccc(n)
            | Family::Butterfly(n) => format!("{}{n}", self.name()),
        }
    }

    /// The `.tbl` header: name, source, group, links, network where one applies,
    /// and an empty `table:`.
    pub fn header(&self) -> String {
        let (group, links, network) = match self {
            Family::Ring(n) => (format!("<a | a^{n}>"), None, Some(format!("ring {n}"))),
            Family::Hypercube(d) => (cube(*d), None, Some(format!("hypercube {d}"))),
            Family::Torus(sides) => {
                let factors: Vec<String> = sides
                    .iter()
                    .enumerate()
                    .map(|(i, n)| format!("<{} | {}^{n}>", letter(i), letter(i)))
                    .collect();
                let sides: Vec<String> = sides.iter().map(u64::to_string).collect();
                (
                    factors.join(" x "),
                    None,
                    Some(format!("torus {}", sides.join(" "))),
                )
            }
            Family::Complete(n) => {
                let (group, links) = complete_factor(*n, &letter(0));
                (group, Some(links), None)
            }
            Family::GenHypercube(sides) => {
                let (groups, links): (Vec<String>, Vec<String>) = sides
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| complete_factor(m, &letter(i)))
                    .unzip();
                (groups.join(" x "), Some(links.join(" ")), None)
            }
            Family::Star(n) => (star(*n), None, None),
            Family::Pancake(n) => pancake(*n),
            Family::Ccc(d) => (wreath(*d), Some("s s' x".to_string()), None),
            Family::Butterfly(d) => (wreath(*d), Some("s s' t t'".to_string()), None),
            Family::Twisted(sides) => {
                let words: Vec<String> = sides.iter().map(u64::to_string).collect();
                (
                    twisted(sides),
                    None,
                    Some(format!("twisted {}", words.join(" "))),
                )
            }
        };
        let mut text = format!("name: {}\n", self.file_name());
        let _ = writeln!(text, "source: {}", self.source());
        let _ = writeln!(text, "group: {group}");
        if let Some(links) = links {
            let _ = writeln!(text, "links: {links}");
        }
        if let Some(network) = network {
            let _ = writeln!(text, "network: {network}");
        }
        text.push_str("table:\n");
        crate::format::canonical(&text)
    }

    /// Where the family is described.
    fn source(&self) -> &'static str {
        match self {
            Family::Ring(_) | Family::Hypercube(_) | Family::Torus(_) => {
                "Coolsaet, Fack, De Meyer, A tabular method for verification of data exchange algorithms, section 3 (rings, hypercubes, wrap-around meshes as Cayley graphs)"
            }
            Family::Complete(_) | Family::GenHypercube(_) => {
                "Dimakopoulos, Dimopoulos, A theory for total exchange in multidimensional interconnection networks, section 3.1 (complete graphs and generalised hypercubes)"
            }
            Family::Star(_) | Family::Pancake(_) | Family::Ccc(_) | Family::Butterfly(_) => {
                "Dimakopoulos, Dimopoulos, Optimal total exchange in Cayley graphs, section 2 (Cayley networks)"
            }
            Family::Twisted(_) => {
                "Camara, Moreto, Vallejo, Beivide et al., Twisted Torus Topologies for Enhanced Interconnection Networks, IEEE TPDS 2010 (2k x k); Jouppi et al., TPU v4, ISCA 2023, section 2.8 (k x k x 2k, k x 2k x 2k)"
            }
        }
    }
}

/// The `i`-th generator name: `a` … `z`, then `{g26}` ….
fn letter(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("{{g{i}}}")
    }
}

/// C2^d as a direct product of d copies of C2.
fn cube(d: u64) -> String {
    (0..d as usize)
        .map(|i| format!("<{} | {}^2>", letter(i), letter(i)))
        .collect::<Vec<_>>()
        .join(" x ")
}

/// C_m with a generator named for every non-identity element (`x`, `{x2}`, …,
/// `{x(m−1)}` = x^k), and those m − 1 generators as the links: K_m.
fn complete_factor(m: u64, x: &str) -> (String, String) {
    let power = |k: u64| {
        if k == 1 {
            x.to_string()
        } else {
            format!("{{{}{k}}}", x.trim_matches(['{', '}']))
        }
    };
    let generators: Vec<String> = (1..m).map(power).collect();
    let mut relations = vec![format!("{x}^{m}")];
    relations.extend((2..m).map(|k| format!("{} = {x}^{k}", power(k))));
    (
        format!("<{} | {}>", generators.join(", "), relations.join(", ")),
        generators.join(" "),
    )
}

/// S_n on the star transpositions t_i = (1 i): t_i² = (t_i t_j)³ = (t_i t_j t_i t_k)² = 1.
fn star(n: u64) -> String {
    let t = |i: u64| format!("{{t{i}}}");
    let generators: Vec<String> = (2..=n).map(t).collect();
    let mut relations = Vec::new();
    for i in 2..=n {
        relations.push(format!("{}^2", t(i)));
        for j in i + 1..=n {
            relations.push(format!("({}{})^3", t(i), t(j)));
        }
        for j in 2..=n {
            for k in j + 1..=n {
                if j != i && k != i {
                    relations.push(format!("({}{}{}{})^2", t(i), t(j), t(i), t(k)));
                }
            }
        }
    }
    format!("<{} | {}>", generators.join(", "), relations.join(", "))
}

/// S_n on Coxeter generators s_1 … s_(n−1), with the prefix reversals
/// r_i = the longest element of S_i as further generators and the links.
fn pancake(n: u64) -> (String, Option<String>, Option<String>) {
    let s = |i: u64| format!("{{s{i}}}");
    let r = |i: u64| format!("{{r{i}}}");
    let mut generators: Vec<String> = (1..n).map(s).collect();
    generators.extend((2..=n).map(r));
    let mut relations = Vec::new();
    for i in 1..n {
        relations.push(format!("{}^2", s(i)));
        for j in i + 1..n {
            let m = if j == i + 1 { 3 } else { 2 };
            relations.push(format!("({}{})^{m}", s(i), s(j)));
        }
    }
    for i in 2..=n {
        // The longest element of S_i: s1 (s2 s1) (s3 s2 s1) … (s(i−1) … s1).
        let word: String = (1..i).flat_map(|top| (1..=top).rev().map(s)).collect();
        relations.push(format!("{} = {word}", r(i)));
    }
    let links: Vec<String> = (2..=n).map(r).collect();
    (
        format!("<{} | {}>", generators.join(", "), relations.join(", ")),
        Some(links.join(" ")),
        None,
    )
}

/// The twisted torus of a checked shape as an abelian group, one generator
/// per dimension: `a^(2k) = 1, b^k = a^k` (2k × k); `c^(2k) = 1, a^k = c^k,
/// b^k = c^k` (k × k × 2k); `b^(2k) = c^(2k) = 1, a^k = b^k c^k` (k × 2k × 2k).
fn twisted(sides: &[u64]) -> String {
    match *sides {
        [n1, k] => format!("<a, b | [a,b] = 1, a^{n1} = 1, b^{k} = a^{k}>"),
        [k, k2, n3] if k == k2 => format!(
            "<a, b, c | [a,b] = [a,c] = [b,c] = 1, c^{n3} = 1, a^{k} = c^{k}, b^{k} = c^{k}>"
        ),
        [k, n2, n3] => format!(
            "<a, b, c | [a,b] = [a,c] = [b,c] = 1, b^{n2} = c^{n3} = 1, a^{k} = b^{k} c^{k}>"
        ),
        _ => String::new(),
    }
}

/// C2 ≀ C_d: `s` the cyclic shift, `x` the flip of bit 0, `t = sx`; `x`
/// commutes with its conjugates by the powers of `s`.
fn wreath(d: u64) -> String {
    let mut relations = vec![format!("s^{d} = x^2 = 1"), "t = sx".to_string()];
    relations.extend((1..=d / 2).map(|i| format!("[x, s^-{i} x s^{i}]")));
    format!("<s, x, t | {}>", relations.join(", "))
}
