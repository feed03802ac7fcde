//! [`NetworkSpec`]: every spelling a `--network` argument takes.
//!
//! A network is named ([`NetworkName`]: `ring 8`, `mesh 4 4`, `star 3 x ring 4`,
//! `edges FILE`) or given as a file whose content defines it: a `.tbl` file's
//! header (the Cayley graph of its group on its links, numbered as the group's
//! elements) or an edge list. The file's kind is told from its text
//! ([`super::detect`]), not from its name. A single word with a `.` or a `/`
//! in it is a file (no family name has either); anything else is read by the
//! one grammar of names, [`NetworkName::parse_spanned`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::{FileKind, LoadOptions, detect, load};
use crate::network::{Graph, NameError, NetworkError, NetworkName, parse_edges};

/// A network as a `--network` argument gives it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NetworkSpec {
    /// A network name (docs/networks.md).
    Named(NetworkName),
    /// A file defining the network: a `.tbl` header or an edge list.
    File(PathBuf),
}

/// Why a [`NetworkSpec`] gives no graph.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The named network cannot be built.
    #[error("`{name}`: {error}")]
    Network {
        /// The name.
        name: String,
        /// Why.
        error: NetworkError,
    },
    /// The file cannot be read.
    #[error("{path}: cannot read it: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// The reason from the operating system.
        reason: String,
    },
    /// A table whose header does not load.
    #[error("{path}: the header does not load (`txverify check {path}` says why)")]
    Header {
        /// The file.
        path: String,
    },
    /// A file that is neither a table nor an edge list.
    #[error("{path} is {kind}, not a network (a `.tbl` header or an edge list)")]
    NotANetwork {
        /// The file.
        path: String,
        /// What it is.
        kind: FileKind,
    },
    /// A file where this command needs a network name.
    #[error(
        "{path}: this command takes a network name (`ring 8`, `edges FILE`, docs/networks.md), not a table's header"
    )]
    NameNeeded {
        /// The file.
        path: String,
    },
}

impl FromStr for NetworkSpec {
    type Err = NameError;

    fn from_str(text: &str) -> Result<NetworkSpec, NameError> {
        let word = text.trim();
        let one_word = !word.is_empty() && !word.contains(char::is_whitespace);
        if one_word && word.contains(['.', '/', '\\']) {
            return Ok(NetworkSpec::File(PathBuf::from(word)));
        }
        NetworkName::parse_spanned(text).map(NetworkSpec::Named)
    }
}

impl fmt::Display for NetworkSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkSpec::Named(name) => write!(f, "{name}"),
            NetworkSpec::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl NetworkSpec {
    /// The name, for the commands that take names only (an edge list given
    /// as a file is named `edges FILE`; a table's header has no name).
    pub fn name(&self) -> Result<NetworkName, SpecError> {
        match self {
            NetworkSpec::Named(name) => Ok(name.clone()),
            NetworkSpec::File(path) => match kind_of(path)? {
                FileKind::EdgeList => Ok(NetworkName::Edges(path.clone())),
                _ => Err(SpecError::NameNeeded {
                    path: path.display().to_string(),
                }),
            },
        }
    }

    /// The graph: a name built, or the file read by its content (a table's
    /// header as its Cayley graph, an edge list as its graph).
    pub fn graph(&self, options: &LoadOptions) -> Result<Graph, SpecError> {
        let network = |name: &NetworkName, error| SpecError::Network {
            name: name.to_string(),
            error,
        };
        match self {
            NetworkSpec::Named(name) => name.build().map_err(|e| network(name, e)),
            NetworkSpec::File(path) => {
                let shown = path.display().to_string();
                // Read once: the kind is told from the text read (a pipe
                // cannot be read again).
                let source = read(path)?;
                match detect(&source) {
                    FileKind::Table | FileKind::Unknown => {
                        let loaded = load(&source, options).map_err(|_| SpecError::Header {
                            path: shown.clone(),
                        })?;
                        let instance = &loaded.instance;
                        Graph::cayley(instance.group(), instance.links())
                            .map(|g| g.with_label(shown.clone()))
                            .map_err(|error| SpecError::Network { name: shown, error })
                    }
                    FileKind::EdgeList => {
                        parse_edges(&source, &shown).map_err(|e| SpecError::Network {
                            name: format!("edges {shown}"),
                            error: NetworkError::Edges(e),
                        })
                    }
                    kind => Err(SpecError::NotANetwork { path: shown, kind }),
                }
            }
        }
    }
}

fn read(path: &Path) -> Result<String, SpecError> {
    super::read::read_text(path, super::read::ReadLimits::TEXT).map_err(|e| SpecError::Unreadable {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

fn kind_of(path: &Path) -> Result<FileKind, SpecError> {
    read(path).map(|text| detect(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_files_are_told_apart() {
        assert_eq!(
            "mesh 4 4".parse::<NetworkSpec>(),
            Ok(NetworkSpec::Named(NetworkName::Mesh(vec![4, 4])))
        );
        assert_eq!(
            "tables/ring7-cyclic.tbl".parse::<NetworkSpec>(),
            Ok(NetworkSpec::File("tables/ring7-cyclic.tbl".into()))
        );
        assert_eq!(
            "edges a b.txt".parse::<NetworkSpec>(),
            Ok(NetworkSpec::Named(NetworkName::Edges("a b.txt".into())))
        );
        let e = "ring 4 x torus 4 0".parse::<NetworkSpec>().unwrap_err();
        assert_eq!(e.span, 17..18);
        assert!("moebius".parse::<NetworkSpec>().is_err());
    }

    #[test]
    fn files_give_graphs_by_content() {
        let dir = std::env::temp_dir().join(format!("txverify-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let header = dir.join("c5.edges");
        std::fs::write(&header, "name: c5\ngroup: <a | a^5>\ntable:\n").unwrap();
        let edges = dir.join("path.tbl");
        std::fs::write(&edges, "0 1\n1 2\n").unwrap();
        let schedule = dir.join("s.txt");
        std::fs::write(&schedule, "network: ring 4\nsends:\n").unwrap();
        let options = LoadOptions::default();
        let ring = NetworkSpec::File(header.clone()).graph(&options).unwrap();
        // The Cayley graph of C5 on a, a⁻¹: a 5-cycle, numbered as the group.
        assert_eq!((ring.nodes(), ring.regular_degree()), (5, Some(2)));
        assert!(NetworkSpec::File(header).name().is_err());
        let path = NetworkSpec::File(edges.clone());
        assert_eq!(path.graph(&options).unwrap().nodes(), 3);
        assert_eq!(path.name().unwrap(), NetworkName::Edges(edges));
        assert!(matches!(
            NetworkSpec::File(schedule).graph(&options),
            Err(SpecError::NotANetwork {
                kind: FileKind::Schedule,
                ..
            })
        ));
        let _ = std::fs::remove_dir_all(dir);
    }
}
