//! Writing the schedule to `-o`, whole or not at all: the anytime search
//! rewrites it with each faster schedule, and a kill between two writes must
//! leave the last one, never half of the next.

use std::path::{Path, PathBuf};
use txverify_core::compress::{Compression, Encoder, inner_extension};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Schedule, write_json, write_text};

/// Writes the schedule to `path` (JSON for a `.json` name, else text;
/// compressed for a `.gz` or `.zst` one, `compressed_writer`), with
/// an edge list named by an absolute path when the schedule goes elsewhere (a
/// schedule names its edge list relative to itself). The text goes to a file
/// beside `path` first, which is then renamed over it; a device or a FIFO
/// (`written_in_place`) is written directly.
pub fn write_output(path: &Path, schedule: &Schedule) -> Result<(), String> {
    let schedule = named_for(path, schedule)?;
    if written_in_place(path) {
        return write_to(path, &schedule, path);
    }
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

/// Whether `path` exists and is not a regular file (`/dev/null`, a FIFO,
/// a directory): renaming a temporary over it would replace a device by a
/// plain file (as root, `-o /dev/null` would leave every later reader of
/// `/dev/null` reading the schedule), so it is opened and written instead.
pub(super) fn written_in_place(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.file_type().is_file())
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
    let (mut w, json) = compressed_writer(handle, shown).map_err(cannot)?;
    let written = if json {
        write_json(schedule, &mut w)
    } else {
        write_text(schedule, &mut w)
    };
    let handle = written.and_then(|()| finish(w)).map_err(cannot)?;
    synced(&handle).map_err(cannot)
}

/// Flushes a regular file to the disk; a device or a pipe has nothing to
/// flush (and `fsync` on a pipe is an error).
pub(super) fn synced(file: &std::fs::File) -> std::io::Result<()> {
    if file.metadata()?.file_type().is_file() {
        file.sync_all()
    } else {
        Ok(())
    }
}

/// A buffered writer to `file` for a schedule named `shown`, compressed as
/// its name says (`s.json.gz`: gzip, `.zst`: zstd), and whether the
/// schedule goes in JSON (its name without the compression ends in `.json`).
pub(super) fn compressed_writer(
    file: std::fs::File,
    shown: &Path,
) -> std::io::Result<(ScheduleWriter, bool)> {
    let encoder = Encoder::new(file, Compression::of_name(shown))?;
    let json = inner_extension(shown).is_some_and(|e| e == "json");
    Ok((std::io::BufWriter::new(encoder), json))
}

/// What [`compressed_writer`] gives.
pub(super) type ScheduleWriter = std::io::BufWriter<Encoder<std::fs::File>>;

/// Flushes `w` and ends its compressed stream; the file is given back.
pub(super) fn finish(w: ScheduleWriter) -> std::io::Result<std::fs::File> {
    w.into_inner().map_err(|e| e.into_error())?.finish()
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
    fn a_compressed_name_writes_compressed_and_reads_back_the_same() {
        use txverify_core::load::read::{ReadLimits, read_text};
        let dir = std::env::temp_dir().join(format!("txverify-write-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("s.json");
        write_output(&plain, &schedule(3)).unwrap();
        let text = std::fs::read_to_string(&plain).unwrap();
        assert!(text.starts_with('{'), "{text}");
        let plain_text = dir.join("s.sched");
        write_output(&plain_text, &schedule(3)).unwrap();
        let plain_text = std::fs::read_to_string(&plain_text).unwrap();
        let mut names = vec!["s.json.gz", "s.sched.gz"];
        if Compression::Zstd.available() {
            names.push("s.json.zst");
        }
        for name in names {
            let path = dir.join(name);
            write_output(&path, &schedule(3)).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let format = Compression::of_magic(&bytes).unwrap();
            assert_eq!(Some(format), Compression::of_name(&path), "{name}");
            let back = read_text(&path, ReadLimits::TEXT).unwrap();
            let expected = if name.contains(".json") {
                &text
            } else {
                &plain_text
            };
            assert_eq!(&back, expected, "{name}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
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
