//! The rules of `search`'s options that need no argument parser: which solver
//! and solver command may be used, the automorphism of `--symmetry sigma`,
//! the links of `--symmetry split` (`--split-along`), and how the found
//! table names its certificates. Messages name the options as the command
//! line spells them.

use std::path::{Path, PathBuf};
use txverify_core::kernel::{self, Instance, LinkId};
use txverify_search::{self as search, SearchOptions, SolverChoice};

/// `solver` with its command (`--solver-cmd`) checked, or why they cannot be
/// used (the command is missing, has no `{cnf}`, asks for two proofs, or the
/// solver is not in this build).
pub fn checked_solver(solver: SolverChoice, command: Option<&str>) -> Result<SolverChoice, String> {
    let (name, feature) = match solver {
        SolverChoice::Varisat => ("varisat", ""),
        SolverChoice::Cadical => ("CaDiCaL", "cadical"),
        SolverChoice::Z3 => ("z3", "z3"),
        SolverChoice::External => ("external", ""),
    };
    if (solver == SolverChoice::External) != command.is_some() {
        return Err("--solver external and --solver-cmd CMD go together".to_string());
    }
    if let Some(command) = command
        && !command.contains("{cnf}")
    {
        return Err("--solver-cmd must say where the formula goes: `{cnf}`".to_string());
    }
    if let Some(command) = command
        && command.contains("{proof}")
        && command.contains("{lrat}")
    {
        return Err(
            "--solver-cmd takes one proof: `{proof}` (DRAT) or `{lrat}` (LRAT)".to_string(),
        );
    }
    if !solver.available() {
        return Err(format!(
            "this build has no {name}; rebuild with `--features {feature}`"
        ));
    }
    Ok(solver)
}

/// The automorphism `--symmetry sigma` asks for: the first one that the portfolio's
/// counting test keeps at the searched number of columns (the lower bound when none
/// is given; with a free tail the test is skipped, since the tail holds what it
/// counts), else the link automorphism of largest order (docs/search.md).
pub fn sigma_for(
    instance: &Instance,
    time: Option<usize>,
    tail: Option<usize>,
) -> Option<Vec<u16>> {
    const BUDGET: usize = 1_000_000;
    let time = time.or_else(|| kernel::lower_bound(instance).map(|b| b.value as usize))?;
    if tail.is_some() {
        // The tail holds the short orbits: the symmetry of largest order divides most.
        return search::symmetry::candidates(instance, false, BUDGET)
            .into_iter()
            .max_by_key(|c| (c.order, std::cmp::Reverse(c.free_letters)))
            .map(|c| c.links)
            .or_else(|| search::symmetry::find_rotation(instance, BUDGET));
    }
    let full = search::encode::fills_every_cell(instance, time);
    search::symmetry::candidates(instance, full, BUDGET)
        .into_iter()
        .next()
        .map(|c| c.links)
        .or_else(|| search::symmetry::find_rotation(instance, BUDGET))
}

/// The links `--symmetry split` splits along: those named by `--split-along`
/// (`split_along`), which must fit at `time` columns, or else the suggested
/// ones (which need `time`).
pub fn split_links(
    instance: &Instance,
    split_along: &[String],
    time: Option<usize>,
) -> Result<Vec<LinkId>, String> {
    let chosen = if split_along.is_empty() {
        time.and_then(|t| search::split::suggested(instance, t))
    } else {
        let links = split_links_named(instance, split_along)?;
        if time.is_some_and(|t| !search::split::can_split(instance, &links, t)) {
            return Err(format!(
                "--split-along {}: the links must generate a direct factor F (each commuting with every other link), with |F| dividing the number of columns and the messages closed under F",
                split_along.join(",")
            ));
        }
        Some(links)
    };
    chosen.ok_or_else(|| {
        let why = if time.is_none() {
            "it needs --time"
        } else {
            "no set of links generates a direct factor F of the group whose blocks fit: |F| must divide the number of columns and, unless the links are central involutions, the other links must fill every column of a block (docs/search.md)"
        };
        format!("--symmetry split: {why}")
    })
}

/// The links `names` denote, for `--split-along`.
fn split_links_named(instance: &Instance, names: &[String]) -> Result<Vec<LinkId>, String> {
    names
        .iter()
        .map(|name| {
            let name = name.trim();
            instance
                .link_names()
                .iter()
                .position(|n| n == name)
                .map(|l| LinkId(l as u32))
                .ok_or_else(|| {
                    format!(
                        "--split-along: {name:?} is not a link (the links are {})",
                        instance.link_names().join(", ")
                    )
                })
        })
        .collect()
}

/// The certificate directory (`--certificate DIR`) as the found table's
/// `certificates:` line names it: relative to the directory of `-o FILE`
/// (absolute when no relative path joins them), or as given when the table
/// goes to standard output.
pub fn certificates_as_named(options: &SearchOptions, output: Option<&Path>) -> Option<String> {
    let dir = options.certificate_dir.as_deref()?;
    let Some(output) = output else {
        return Some(dir.display().to_string());
    };
    let absolute = std::fs::canonicalize(dir).ok()?;
    let base = output.parent().filter(|p| !p.as_os_str().is_empty());
    let base = std::fs::canonicalize(base.unwrap_or(Path::new("."))).ok()?;
    Some(relative_path(&base, &absolute).display().to_string())
}

/// `target` as a path relative to the directory `base` (both absolute).
fn relative_path(base: &Path, target: &Path) -> PathBuf {
    let (base, target): (Vec<_>, Vec<_>) =
        (base.components().collect(), target.components().collect());
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut path = PathBuf::new();
    for _ in common..base.len() {
        path.push("..");
    }
    for part in &target[common..] {
        path.push(part);
    }
    if path.as_os_str().is_empty() {
        path.push(".");
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_path_climbs_to_the_common_folder() {
        let path = |base: &str, target: &str| {
            relative_path(Path::new(base), Path::new(target))
                .display()
                .to_string()
        };
        assert_eq!(path("/a/b", "/a/c/d"), "../c/d");
        assert_eq!(path("/a/b", "/a/b"), ".");
        assert_eq!(path("/a", "/a/b"), "b");
    }

    #[test]
    fn a_solver_command_says_where_the_formula_goes() {
        let external = SolverChoice::External;
        assert!(checked_solver(external, None).is_err());
        assert!(checked_solver(SolverChoice::Varisat, Some("x {cnf}")).is_err());
        let no_cnf = checked_solver(external, Some("solver x"));
        assert_eq!(
            no_cnf,
            Err("--solver-cmd must say where the formula goes: `{cnf}`".to_string())
        );
        let two = checked_solver(external, Some("s {cnf} {proof} {lrat}"));
        assert!(two.is_err_and(|e| e.contains("takes one proof")));
        assert_eq!(checked_solver(external, Some("s {cnf}")), Ok(external));
    }
}
