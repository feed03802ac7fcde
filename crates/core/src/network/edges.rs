//! Networks from an edge list: a `.edges` text file, one undirected link per line.
//!
//! Machines are not only rings, tori and Cayley graphs (dragonflies, fat trees,
//! synthesized pod topologies, meshes with a few links missing), so any
//! connected simple graph can be named `edges FILE`. The format:
//!
//! ```text
//! # the Petersen graph
//! 0 1   # a link between node 0 and node 1
//! 1 2
//! ```
//!
//! Each non-blank line (after `#` comments are removed) is two node numbers
//! `u v` separated by white space. The nodes are `0 … N−1`, N one more than the
//! largest number used; every one of them must be in some link. Refused, each
//! with the file, line and column of the fault ([`EdgesError`]): a word that is
//! not a node number, a line with fewer than two, a self-loop `u u`, a link
//! listed twice (in either direction), a node number that leaves a gap, a
//! graph that is not connected, a file with no link, more nodes or links than
//! [`MAX_NODES`] and [`MAX_DIRECTED_LINKS`].
//!
//! A node's ports are its links in the order the file lists them. The reader
//! checks everything itself, with positions, before [`Graph::from_ports`]
//! checks the graph again.
//!
//! **Fabrics** (`fabric.rs`). A link line may go on with its capacity, the
//! chunks it carries each way a step (`0 1 2`; 1 when not given; from 1 to
//! [`super::MAX_CAPACITY`]), and its own times for the timed replay,
//! `alpha=A` and `beta=B` (numbers from 0 to 10^15). A line `switch: 8 9`
//! names forward-only nodes (switches: no data, need none), which do not copy
//! unless a line `multicast: yes` says so. A file whose text is an
//! msccl-tools topology (JSON, `"msccl_type": "topology"`) is read by
//! `edges/msccl_topology.rs` instead.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// msccl-tools' topology JSON, read wherever an edge list is.
pub(super) mod msccl_topology;

use super::graph::fabric::{FabricSpec, LinkTiming, MAX_CAPACITY, MAX_LINK_TIME};
use super::graph::{Graph, Topology};
use super::{MAX_DIRECTED_LINKS, MAX_NODES};

/// What is wrong with an edge list.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EdgesErrorKind {
    /// The file cannot be read (the reason from the operating system).
    Unreadable(String),
    /// A word that is not a node number.
    NotANode(String),
    /// A line with one node number.
    NotTwo(usize),
    /// A link from a node to itself.
    SelfLoop(u32),
    /// A link already listed (either way round) on an earlier line.
    Repeated {
        /// One end.
        u: u32,
        /// The other end.
        v: u32,
        /// The line that listed it first.
        first_line: usize,
    },
    /// The largest node number leaves a node in no link.
    Gap {
        /// The largest node number.
        largest: u32,
        /// The smallest number in no link.
        missing: u32,
    },
    /// Some node cannot be reached from node 0.
    NotConnected(u32),
    /// No link at all.
    Empty,
    /// A node number at least [`MAX_NODES`], or more than
    /// [`MAX_DIRECTED_LINKS`] directed links.
    TooLarge,
    /// A word after a link's two nodes that is neither its capacity nor a
    /// time (`alpha=`, `beta=`), or a second capacity.
    NotAField(String),
    /// A capacity of 0.
    ZeroCapacity,
    /// A capacity above [`super::MAX_CAPACITY`].
    CapacityTooLarge(String),
    /// An `alpha=` or `beta=` that is not a number from 0 to 10^15, or given twice.
    BadTime(String),
    /// A `key:` line other than `switch:` and `multicast:`.
    UnknownKey(String),
    /// A switch that is in no link.
    SwitchNotANode(u32),
    /// `multicast:` not followed by `yes` or `no`.
    BadMulticast(String),
    /// Every node is a switch.
    AllSwitches,
    /// An msccl-tools topology that does not give a network.
    Topology(String),
}

/// An edge list that does not give a network: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgesError {
    /// The file, as named.
    pub path: String,
    /// The line (1-based; 0 when the file cannot be read).
    pub line: usize,
    /// The column in characters (1-based; 0 when the file cannot be read).
    pub column: usize,
    /// What is wrong.
    pub kind: EdgesErrorKind,
}

impl fmt::Display for EdgesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.path, self.kind),
            line => write!(f, "{}:{line}:{}: {}", self.path, self.column, self.kind),
        }
    }
}

impl std::error::Error for EdgesError {}

impl fmt::Display for EdgesErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdgesErrorKind::Unreadable(reason) => write!(f, "cannot read the edge list: {reason}"),
            EdgesErrorKind::NotANode(word) => write!(
                f,
                "`{}` is not a node number (a line is two node numbers `u v`)",
                crate::format::echoed(word)
            ),
            EdgesErrorKind::NotTwo(n) => write!(
                f,
                "a link is two node numbers `u v`, this line has {n} word{}",
                if *n == 1 { "" } else { "s" }
            ),
            EdgesErrorKind::SelfLoop(u) => write!(f, "self-loop: node {u} linked to itself"),
            EdgesErrorKind::Repeated { u, v, first_line } => write!(
                f,
                "the link {u} {v} is listed again (first on line {first_line})"
            ),
            EdgesErrorKind::Gap { largest, missing } => write!(
                f,
                "node {largest} leaves a gap: node {missing} is in no link (the nodes must be 0 … {largest}, each in some link)"
            ),
            EdgesErrorKind::NotConnected(x) => write!(
                f,
                "the network is not connected: node {x} cannot be reached from node 0"
            ),
            EdgesErrorKind::Empty => write!(f, "the edge list has no link"),
            EdgesErrorKind::TooLarge => write!(
                f,
                "the network is too large (at most {MAX_NODES} nodes and {MAX_DIRECTED_LINKS} directed links)"
            ),
            EdgesErrorKind::NotAField(word) => write!(
                f,
                "`{}` is not a capacity or a time (a link is `u v [capacity] [alpha=A] [beta=B]`)",
                crate::format::echoed(word)
            ),
            EdgesErrorKind::ZeroCapacity => write!(
                f,
                "capacity 0: a link carries at least 1 chunk a step (leave out a link that carries nothing)"
            ),
            EdgesErrorKind::CapacityTooLarge(word) => write!(
                f,
                "capacity {} is more than {}",
                crate::format::echoed(word),
                super::MAX_CAPACITY
            ),
            EdgesErrorKind::BadTime(word) => write!(
                f,
                "`{}`: a link's alpha= and beta= are numbers from 0 to 1e15, each given once",
                crate::format::echoed(word)
            ),
            EdgesErrorKind::UnknownKey(key) => write!(
                f,
                "`{}:` is not a line of an edge list (known: `switch:`, `multicast:`)",
                crate::format::echoed(key)
            ),
            EdgesErrorKind::SwitchNotANode(x) => {
                write!(
                    f,
                    "switch {x} is in no link: a switch is a node of the network"
                )
            }
            EdgesErrorKind::BadMulticast(word) => write!(
                f,
                "`multicast:` is `yes` or `no`, not `{}`",
                crate::format::echoed(word)
            ),
            EdgesErrorKind::AllSwitches => {
                write!(f, "every node is a switch: no node has data")
            }
            EdgesErrorKind::Topology(message) => f.write_str(message),
        }
    }
}

/// Reads and checks the edge list at `path` (named in errors as given; `-`
/// is standard input), once and bounded ([`crate::load::read::ReadLimits::RECORDS`]).
/// The text of a pipe kept by `peek_edges` (a size estimate) is taken here instead of read.
pub fn read_edges(path: &Path) -> Result<Graph, EdgesError> {
    let kept = piped().and_then(|mut kept| kept.remove(path));
    match kept {
        Some(text) => parse_edges(&text, &path.display().to_string()),
        None => parse_edges_at(path, &read_edges_text(path)?),
    }
}

/// [`read_edges`] for a size estimate made before the network is built: the
/// text of a pipe, a device or standard input is kept for the build, which
/// cannot read it again (a regular file is read again then).
pub fn peek_edges(path: &Path) -> Result<Graph, EdgesError> {
    if let Some(text) = piped().and_then(|kept| kept.get(path).cloned()) {
        return parse_edges_at(path, &text);
    }
    let text = read_edges_text(path)?;
    let regular = path != Path::new("-") && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if !regular && let Some(mut kept) = piped() {
        kept.insert(path.to_path_buf(), text.clone());
    }
    parse_edges_at(path, &text)
}

/// The edge lists read from pipes by [`peek_edges`], until [`read_edges`]
/// takes them (`None` if the lock was poisoned: then a pipe is read again).
fn piped() -> Option<std::sync::MutexGuard<'static, HashMap<std::path::PathBuf, String>>> {
    static PIPED: std::sync::OnceLock<std::sync::Mutex<HashMap<std::path::PathBuf, String>>> =
        std::sync::OnceLock::new();
    PIPED.get_or_init(Default::default).lock().ok()
}

fn read_edges_text(path: &Path) -> Result<String, EdgesError> {
    crate::load::read::read_text(path, crate::load::read::ReadLimits::RECORDS).map_err(|e| {
        EdgesError {
            path: path.display().to_string(),
            line: 0,
            column: 0,
            kind: EdgesErrorKind::Unreadable(e.to_string()),
        }
    })
}

fn parse_edges_at(path: &Path, text: &str) -> Result<Graph, EdgesError> {
    parse_edges(text, &path.display().to_string())
}

/// A position in the file: line and column, both 1-based.
type Position = (usize, usize);

/// Parses and checks an edge list; `shown` names the file in errors.
pub fn parse_edges(text: &str, shown: &str) -> Result<Graph, EdgesError> {
    if msccl_topology::looks_like_topology(text) {
        return msccl_topology::parse_topology(text, shown);
    }
    let fail = |(line, column): Position, kind| EdgesError {
        path: shown.to_string(),
        line,
        column,
        kind,
    };
    // Every node number as written, in file order, and the links.
    let mut named: Vec<(u32, Position)> = Vec::new();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut links: HashMap<(u32, u32), usize> = HashMap::new();
    let mut last_line = 1;
    let mut fabric = FabricSpec::default();
    let mut switches: Vec<(u32, Position)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("");
        let words = words_with_columns(content);
        if words.is_empty() {
            continue;
        }
        if let Some(key) = words[0].0.strip_suffix(':') {
            let rest = &words[1..];
            match key.to_ascii_lowercase().as_str() {
                "switch" => {
                    for &(word, column) in rest {
                        let x = node_number(word).map_err(|kind| fail((line, column), kind))?;
                        switches.push((x, (line, column)));
                    }
                }
                "multicast" => {
                    let (word, column) = rest.first().copied().unwrap_or(("", words[0].1));
                    fabric.multicast = match word.to_ascii_lowercase().as_str() {
                        "yes" if rest.len() == 1 => true,
                        "no" if rest.len() == 1 => false,
                        _ => {
                            let kind = EdgesErrorKind::BadMulticast(word.to_string());
                            return Err(fail((line, column), kind));
                        }
                    };
                }
                _ => {
                    let kind = EdgesErrorKind::UnknownKey(key.to_string());
                    return Err(fail((line, words[0].1), kind));
                }
            }
            continue;
        }
        if words.len() < 2 {
            return Err(fail(
                (line, words[0].1),
                EdgesErrorKind::NotTwo(words.len()),
            ));
        }
        let mut ends = [0u32; 2];
        for (end, &(word, column)) in ends.iter_mut().zip(&words) {
            *end = node_number(word).map_err(|kind| fail((line, column), kind))?;
            named.push((*end, (line, column)));
        }
        let [u, v] = ends;
        if u == v {
            return Err(fail((line, words[1].1), EdgesErrorKind::SelfLoop(u)));
        }
        if let Some(&first_line) = links.get(&(u.min(v), u.max(v))) {
            let kind = EdgesErrorKind::Repeated { u, v, first_line };
            return Err(fail((line, words[0].1), kind));
        }
        if 2 * (links.len() + 1) > MAX_DIRECTED_LINKS {
            return Err(fail((line, words[0].1), EdgesErrorKind::TooLarge));
        }
        links.insert((u.min(v), u.max(v)), line);
        pairs.push((u, v));
        let (capacity, timing) =
            link_fields(&words[2..]).map_err(|(c, kind)| fail((line, c), kind))?;
        if let Some(c) = capacity {
            fabric.capacities.extend([(u, v, c), (v, u, c)]);
        }
        if let Some(t) = timing {
            fabric.timing.extend([(u, v, t), (v, u, t)]);
        }
    }
    if links.is_empty() {
        return Err(fail((last_line, 1), EdgesErrorKind::Empty));
    }
    // Memory follows the file, not the largest number: gaps are found first.
    let n = check_no_gap(&named).map_err(|(at, kind)| fail(at, kind))?;
    let mut first_seen: Vec<Option<Position>> = vec![None; n];
    for &(x, at) in &named {
        first_seen[x as usize].get_or_insert(at);
    }
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(u, v) in &pairs {
        lists[u as usize].push(v);
        lists[v as usize].push(u);
    }
    check_connected(&lists, &first_seen).map_err(|(at, kind)| fail(at, kind))?;
    for &(x, at) in &switches {
        if x as usize >= n {
            return Err(fail(at, EdgesErrorKind::SwitchNotANode(x)));
        }
        fabric.forward_only.push(x);
    }
    // Every fault from_ports checks was refused above, with its position.
    let graph = Graph::from_ports(shown, Topology::General, lists)
        .map_err(|_| fail((1, 1), EdgesErrorKind::TooLarge))?;
    if fabric == FabricSpec::default() {
        return Ok(graph);
    }
    // Capacities, times and switch numbers were checked above; what is left
    // is a file whose every node is a switch.
    let at = switches.last().map_or((1, 1), |&(_, at)| at);
    graph
        .with_fabric(fabric)
        .map_err(|_| fail(at, EdgesErrorKind::AllSwitches))
}

/// The capacity and the times of a link line, from the words after its two
/// nodes; on a fault, its column and kind.
fn link_fields(
    words: &[(&str, usize)],
) -> Result<(Option<u64>, Option<LinkTiming>), (usize, EdgesErrorKind)> {
    let mut capacity = None;
    let mut timing: Option<LinkTiming> = None;
    for &(word, column) in words {
        let fail = |kind| Err((column, kind));
        if let Some((key, value)) = word.split_once('=') {
            let t = timing.get_or_insert(LinkTiming {
                alpha: None,
                beta: None,
            });
            let slot = match key.to_ascii_lowercase().as_str() {
                "alpha" => &mut t.alpha,
                "beta" => &mut t.beta,
                _ => return fail(EdgesErrorKind::NotAField(word.to_string())),
            };
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|x| (0.0..=MAX_LINK_TIME).contains(x));
            match (number, &slot) {
                (Some(x), None) => *slot = Some(x),
                _ => return fail(EdgesErrorKind::BadTime(word.to_string())),
            }
            continue;
        }
        if capacity.is_some() || !word.bytes().all(|b| b.is_ascii_digit()) {
            return fail(EdgesErrorKind::NotAField(word.to_string()));
        }
        match word.parse::<u64>() {
            Ok(0) => return fail(EdgesErrorKind::ZeroCapacity),
            Ok(c) if c <= u64::from(MAX_CAPACITY) => capacity = Some(c),
            _ => return fail(EdgesErrorKind::CapacityTooLarge(word.to_string())),
        }
    }
    Ok((capacity, timing))
}

/// The words of a line with their 1-based columns (in characters).
fn words_with_columns(content: &str) -> Vec<(&str, usize)> {
    let mut words = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (byte, c)) in content.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((byte, column + 1)),
            (true, Some((b, col))) => {
                words.push((&content[b..byte], col));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((b, col)) = start {
        words.push((&content[b..], col));
    }
    words
}

/// A node number: decimal digits, below [`MAX_NODES`].
fn node_number(word: &str) -> Result<u32, EdgesErrorKind> {
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(EdgesErrorKind::NotANode(word.to_string()));
    }
    match word.parse::<u64>() {
        Ok(x) if (x as usize) < MAX_NODES => Ok(x as u32),
        _ => Err(EdgesErrorKind::TooLarge),
    }
}

/// The number of nodes, when every number below the largest is in a link;
/// a gap is reported at the largest number's first appearance.
fn check_no_gap(named: &[(u32, Position)]) -> Result<usize, (Position, EdgesErrorKind)> {
    let mut used: Vec<u32> = named.iter().map(|&(x, _)| x).collect();
    used.sort_unstable();
    used.dedup();
    let largest = used.last().copied().unwrap_or(0);
    if used.len() == largest as usize + 1 {
        return Ok(used.len());
    }
    let missing = (0u32..)
        .zip(&used)
        .find(|&(i, &x)| i != x)
        .map_or(0, |(i, _)| i);
    let at = named
        .iter()
        .find(|&&(x, _)| x == largest)
        .map_or((1, 1), |&(_, at)| at);
    Err((at, EdgesErrorKind::Gap { largest, missing }))
}

/// Every node must be reachable from node 0: the first that is not is
/// reported where the file first names it.
fn check_connected(
    lists: &[Vec<u32>],
    first_seen: &[Option<Position>],
) -> Result<(), (Position, EdgesErrorKind)> {
    let mut seen = vec![false; lists.len()];
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        for &y in &lists[x as usize] {
            if !seen[y as usize] {
                seen[y as usize] = true;
                stack.push(y);
            }
        }
    }
    match seen.iter().position(|&s| !s) {
        None => Ok(()),
        Some(x) => Err((
            first_seen[x].unwrap_or((1, 1)),
            EdgesErrorKind::NotConnected(x as u32),
        )),
    }
}

#[cfg(test)]
mod tests;
