//! Arguments from Python, each extracted by name: whatever a caller hands
//! over (a negative or huge int, a str with a lone surrogate, bytes that are
//! not UTF-8, a directory, an object of the wrong type) is a `Fail` of its
//! own, raised as `txverify.InputError` naming the argument, never Python's
//! `OverflowError`, `UnicodeError` or `TypeError`. Every entry point takes
//! its arguments as Python objects and reads them through these functions.

use crate::run::Fail;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};
use std::path::PathBuf;
use txverify_core::format::line_col;

/// The longest argument value a message repeats, in characters.
const SHOWN: usize = 60;

/// A Python argument, or `None` for one not given (or given as `None`).
pub type Arg<'py> = Option<Bound<'py, PyAny>>;

/// The value as a message shows it: its `repr`, cut to [`SHOWN`] characters.
fn shown(value: &Bound<'_, PyAny>) -> String {
    let repr = match value.repr() {
        Ok(repr) => repr.to_string_lossy().into_owned(),
        // An int too long for its decimal repr, a repr that raises.
        Err(_) => match value.get_type().name() {
            Ok(name) => format!("a {} object", name.to_string_lossy()),
            Err(_) => "a Python object".to_string(),
        },
    };
    let mut chars = repr.chars();
    let cut: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_some() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The failure for argument `name`, `value`: `needed` says what it must be.
fn refused(name: &str, value: &Bound<'_, PyAny>, needed: &str) -> Fail {
    Fail::input(
        format!("argument `{name}` is {}: {needed}", shown(value)),
        None,
        None,
    )
}

/// An unsigned whole number type an argument is read into.
pub trait Whole: Sized + TryFrom<u128> {
    /// Its largest value.
    const MAX: u128;
}

impl Whole for u32 {
    const MAX: u128 = u32::MAX as u128;
}

impl Whole for u64 {
    const MAX: u128 = u64::MAX as u128;
}

impl Whole for usize {
    const MAX: u128 = usize::MAX as u128;
}

/// A whole number from 0 to `T::MAX` (a Python int; not a bool, not a float).
pub fn whole<T: Whole>(value: &Arg<'_>, name: &str) -> Result<Option<T>, Fail> {
    let Some(value) = value else { return Ok(None) };
    let needed = || format!("a whole number from 0 to {} is needed", T::MAX);
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(refused(name, value, &needed()));
    }
    value
        .extract::<u128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| refused(name, value, &needed()))
}

/// `True` or `False`.
pub fn flag(value: &Arg<'_>, name: &str) -> Result<Option<bool>, Fail> {
    let Some(value) = value else { return Ok(None) };
    match value.cast::<PyBool>() {
        Ok(b) => Ok(Some(b.is_true())),
        Err(_) => Err(refused(name, value, "True or False is needed")),
    }
}

/// A number of seconds (an int or a float; its range is the caller's to check).
pub fn number(value: &Arg<'_>, name: &str) -> Result<Option<f64>, Fail> {
    let Some(value) = value else { return Ok(None) };
    if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyString>() {
        return Err(refused(name, value, "a number is needed"));
    }
    value.extract::<f64>().map(Some).map_err(|_| {
        // An int beyond a float's range, or no number at all.
        let needed = if value.is_instance_of::<PyInt>() {
            "a number a float can hold is needed"
        } else {
            "a number is needed"
        };
        refused(name, value, needed)
    })
}

/// A str of valid Unicode (no lone surrogate: the library reads UTF-8).
pub fn text(value: &Arg<'_>, name: &str) -> Result<Option<String>, Fail> {
    let Some(value) = value else { return Ok(None) };
    let Ok(s) = value.cast::<PyString>() else {
        return Err(refused(name, value, "a str is needed"));
    };
    match s.extract::<String>() {
        Ok(s) => Ok(Some(s)),
        Err(_) => Err(refused(
            name,
            value,
            "a str of valid Unicode is needed (it holds a lone surrogate)",
        )),
    }
}

/// A required str (the Python wrapper always passes it).
pub fn required_text(value: &Bound<'_, PyAny>, name: &str) -> Result<String, Fail> {
    text(&Some(value.clone()), name)?
        .ok_or_else(|| Fail::input(format!("argument `{name}` is needed"), None, None))
}

/// A path: a str or a path object the file system can name.
pub fn path(value: &Arg<'_>, name: &str) -> Result<Option<PathBuf>, Fail> {
    let Some(value) = value else { return Ok(None) };
    value.extract::<PathBuf>().map(Some).map_err(|_| {
        refused(
            name,
            value,
            "a path (str or path object) the file system can name is needed",
        )
    })
}

/// Source text given as a str or as bytes, named `<string>` in errors: bytes
/// that are not UTF-8 fail at the line and column of the first bad byte.
pub fn source_text(value: &Arg<'_>, name: &str) -> Result<Option<String>, Fail> {
    let Some(value) = value else { return Ok(None) };
    let Ok(bytes) = value.cast::<PyBytes>() else {
        return text(&Some(value.clone()), name).map_err(|mut fail| {
            fail.file = Some("<string>".to_string());
            fail
        });
    };
    let bytes = bytes.as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(Some(s.to_string())),
        Err(e) => {
            let good = e.valid_up_to();
            // The prefix is valid UTF-8: its end is where the bad byte stands.
            let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
            let at = line_col(prefix, good);
            let message = format!("not UTF-8 at byte 0x{:02x}", bytes[good]);
            Err(Fail::input(message, Some("<string>"), Some(at)))
        }
    }
}
