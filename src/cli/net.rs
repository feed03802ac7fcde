//! `txverify net FAMILY SIZE… [-o FILE]`: a network family, or a product of
//! families (`'star 3 x ring 4'`), as a `.tbl` header (group presentation,
//! links, `network:` where one applies) for `check`, `simulate`, `search` and
//! `bounds`; a fabric or an edge list as msccl-tools topology JSON.

use super::exit::Exit;
use super::{BoundsArgs, NetArgs};

use txverify_clients::export::network::network_definition;
use txverify_core::network::NetworkName;

pub fn run(args: &NetArgs) -> Exit {
    let header = match header_of(args) {
        Ok(header) => header,
        Err(message) => {
            errorln!("{message}");
            return Exit::Input;
        }
    };
    match &args.output {
        Some(path) => match std::fs::write(path, &header) {
            Ok(()) => Exit::Ok,
            Err(e) => {
                errorln!("cannot write {}: {e}", path.display());
                Exit::Input
            }
        },
        None => {
            out!("{header}");
            Exit::Ok
        }
    }
}

/// The header of a family, or of a product of families when the words hold
/// an `x` (`net 'star 3 x ring 4'`, `net star 3 x ring 4`): the words are one
/// network name (docs/networks.md).
fn header_of(args: &NetArgs) -> Result<String, String> {
    let text = std::iter::once(args.family.as_str())
        .chain(args.sizes.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let network = NetworkName::parse_spanned(&text)
        .map_err(|e| format!("`{}`: {e}", txverify_core::format::echoed(&text)))?;
    network_definition(&network)
}

/// `txverify bounds FILE… [--network NET…] [--ports K]`.
pub fn bounds(args: &BoundsArgs) -> Exit {
    super::network_bounds::bounds(args)
}
