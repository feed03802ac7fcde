//! What every part of the crate shares, below the features and the commands:
//! how a command ends ([`failure`]), the kernel's violations and a replay in
//! words ([`wording`], [`replay_text`]), the `--help` examples
//! ([`help_examples`]). Nothing here names a feature or a command.

pub mod failure;
pub mod help_examples;
pub mod replay_text;
pub mod wording;
