//! `txverify net FAMILY SIZE… [-o FILE]`: a network family, or a product of
//! families (`'star 3 x ring 4'`), as a `.tbl` header (group presentation,
//! links, `network:` where one applies) for `check`, `simulate`, `search` and
//! `bounds`.

use super::exit::Exit;
use super::{BoundsArgs, NetArgs};

use txverify_clients::product::header::{HeaderError, product_header};
use txverify_core::families::Family;
use txverify_core::network::NetworkName;

pub fn run(args: &NetArgs) -> Exit {
    let header = match header_of(args) {
        Ok(header) => header,
        Err(message) => {
            eprintln!("error: {message}");
            return Exit::Input;
        }
    };
    match &args.output {
        Some(path) => match std::fs::write(path, &header) {
            Ok(()) => Exit::Ok,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
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
/// an `x` (`net 'star 3 x ring 4'`, `net star 3 x ring 4`).
fn header_of(args: &NetArgs) -> Result<String, String> {
    let words: Vec<&str> = std::iter::once(args.family.as_str())
        .chain(args.sizes.iter().map(String::as_str))
        .flat_map(str::split_whitespace)
        .collect();
    let text = words.join(" ");
    if words.contains(&"x") {
        // An edge list is refused before its file is read.
        if let Some(part) = text.split(" x ").find(|p| p.starts_with("edges")) {
            return Err(HeaderError::NotCayley(part.to_string()).to_string());
        }
        let network = text
            .parse::<NetworkName>()
            .map_err(|e| format!("`{text}`: {e}"))?;
        return product_header(&network).map_err(|e| e.to_string());
    }
    let (family, sizes) = words.split_first().ok_or("no family named")?;
    let sizes = sizes
        .iter()
        .map(|w| w.parse::<u64>().map_err(|_| format!("`{w}` is not a size")))
        .collect::<Result<Vec<u64>, _>>()?;
    Family::new(family, &sizes)
        .map(|f| f.header())
        .map_err(|e| e.to_string())
}

/// `txverify bounds FILE… [--network NET…] [--ports K]`.
pub fn bounds(args: &BoundsArgs) -> Exit {
    super::network_bounds::bounds(args)
}
