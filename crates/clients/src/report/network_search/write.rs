//! Writing the schedule to `-o`, whole or not at all: the anytime search
//! rewrites it with each faster schedule, and a kill between two writes must
//! leave the last one, never half of the next.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Schedule, write_json, write_text};

/// Writes the schedule to `path` (JSON for a `.json` name, else text), with
/// an edge list named by an absolute path when the schedule goes elsewhere (a
/// schedule names its edge list relative to itself). The text goes to a file
/// beside `path` first, which is then renamed over it.
pub fn write_output(path: &Path, schedule: &Schedule) -> Result<(), String> {
    let schedule = named_for(path, schedule)?;
    let temporary = temporary_beside(path);
    let written = write_to(&temporary, &schedule, path).and_then(|()| {
        std::fs::rename(&temporary, path).map_err(|e| {
            format!(
                "cannot rename {} to {}: {e}",
                temporary.display(),
                path.display()
            )
        })
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// `schedule` as written to `path`: an edge list named by a relative path is
/// named by its absolute path when `path` is in another directory.
pub(super) fn named_for(path: &Path, schedule: &Schedule) -> Result<Schedule, String> {
    let mut schedule = schedule.clone();
    if let Some(NetworkName::Edges(edges)) = &schedule.network
        && edges.is_relative()
        && path.parent().is_some_and(|p| !p.as_os_str().is_empty())
    {
        let absolute = std::fs::canonicalize(edges)
            .map_err(|e| format!("cannot resolve {}: {e}", edges.display()))?;
        schedule.network = Some(NetworkName::Edges(absolute));
    }
    Ok(schedule)
}

/// `path`'s temporary sibling: hidden, and named after this process so that
/// two runs writing the same file do not share it.
pub(super) fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "schedule".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `schedule` to `file` and flushes it to the disk; errors name `shown`.
fn write_to(file: &Path, schedule: &Schedule, shown: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", shown.display());
    let handle = std::fs::File::create(file).map_err(cannot)?;
    let mut w = std::io::BufWriter::new(handle);
    let json = shown.extension().is_some_and(|e| e == "json");
    let written = if json {
        write_json(schedule, &mut w)
    } else {
        write_text(schedule, &mut w)
    };
    written.and_then(|()| w.flush()).map_err(cannot)?;
    w.get_ref().sync_all().map_err(cannot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::schedule::{Collective, Ports, TimedSend};

    fn schedule(sends: usize) -> Schedule {
        Schedule {
            network: Some("ring 3".parse().unwrap()),
            ports: Some(Ports::All),
            collective: Collective::TotalExchange,
            sends: (0..sends)
                .map(|i| TimedSend {
                    step: 1,
                    from: i as u32,
                    to: (i as u32 + 1) % 3,
                    source: i as u32,
                    destination: (i as u32 + 1) % 3,
                })
                .collect(),
        }
    }

    #[test]
    fn a_rewrite_replaces_the_file_and_leaves_nothing_beside_it() {
        let dir = std::env::temp_dir().join(format!("txverify-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.sched");
        write_output(&path, &schedule(3)).unwrap();
        let first = std::fs::read_to_string(&path).unwrap();
        write_output(&path, &schedule(2)).unwrap();
        let second = std::fs::read_to_string(&path).unwrap();
        assert_ne!(first, second);
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["s.sched"]);
        // A directory that does not exist: an error naming the file, no temporary left.
        let missing = dir.join("no-such-dir").join("s.sched");
        let e = write_output(&missing, &schedule(1)).unwrap_err();
        assert!(e.contains("s.sched"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
