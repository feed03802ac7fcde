//! `txverify completions SHELL` and `txverify man`: shell completions and
//! manual pages generated from the clap definitions, so they cannot drift from
//! the options the binary takes.

use super::exit::Exit;
use clap::CommandFactory;
use std::path::PathBuf;

/// `txverify completions SHELL`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// `txverify man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write one page per subcommand into this directory (txverify.1,
    /// txverify-check.1, …) instead of one page to standard output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Prints the completion script for `args.shell`.
pub fn completions(args: &CompletionsArgs) -> Exit {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "txverify", &mut script);
    let mut text = String::from_utf8_lossy(&script).into_owned();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    super::output::write(&text);
    Exit::Ok
}

/// Prints the manual page, or writes one page per subcommand into `--dir`.
pub fn man(args: &ManArgs) -> Exit {
    let command = super::Cli::command();
    if let Some(dir) = &args.dir {
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(command, dir))
            .and_then(|()| append_exit_status(&dir.join("txverify.1")));
        return match written {
            Ok(()) => Exit::Ok,
            Err(e) => {
                errorln!("cannot write the manual pages to {}: {e}", dir.display());
                Exit::Input
            }
        };
    }
    let mut page = Vec::new();
    if let Err(e) = clap_mangen::Man::new(command).render(&mut page) {
        errorln!("cannot render the manual page (a bug): {e}");
        return Exit::Internal;
    }
    let mut text = String::from_utf8_lossy(&page).into_owned();
    text.push_str(&exit_status_section());
    super::output::write(&text);
    Exit::Ok
}

/// The EXIT STATUS section of the top-level page, from [`Exit::ALL`].
fn exit_status_section() -> String {
    let mut roff = String::from(".SH \"EXIT STATUS\"\n");
    for exit in Exit::ALL {
        roff.push_str(&format!(
            ".TP\n{}\n{}\n",
            exit.code(),
            escape(exit.meaning())
        ));
    }
    roff
}

fn append_exit_status(page: &std::path::Path) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(page)?;
    file.write_all(exit_status_section().as_bytes())
}

/// Escapes text for a roff body line: backslashes, and a leading `.` or `'`
/// that roff would read as a request.
fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}
