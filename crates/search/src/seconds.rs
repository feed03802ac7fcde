//! Durations as people give them: `--deadline`, `--time-limit`,
//! `--cube-budget`, `--cube-lease` on the command line and `deadline=`,
//! `time_limit=` in the Python package all go through [`Seconds`], one reader
//! with one range (docs/limits.md), so that no value reaches
//! [`Duration::from_secs_f64`], which panics on a negative, NaN, infinite or
//! huge number.
//!
//! The range: a finite number more than 0; above [`MAX_SECONDS`] it is no
//! limit for any run and is taken as [`MAX_SECONDS`]. 0, a negative number,
//! NaN, `inf` or a word that is not a number are refused.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest duration a limit takes: 10⁹ s, about 31.7 years. A longer one
/// is taken as this (it is no limit for any run), which keeps `now + limit`
/// far from the end of [`std::time::Instant`]'s range.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// A positive number of seconds, at most [`MAX_SECONDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seconds(Duration);

/// Why a number of seconds is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SecondsError {
    /// The text is not a decimal number.
    #[error("`{0}` is not a number of seconds")]
    NotANumber(String),
    /// The number is 0, negative, NaN or infinite.
    #[error(
        "{0} is not a positive number of seconds (a finite number more than 0; anything above {max} s is taken as no limit)",
        max = MAX_SECONDS
    )]
    NotPositive(String),
}

impl Seconds {
    /// The longest duration, [`MAX_SECONDS`].
    pub const MAX: Seconds = Seconds(Duration::from_secs(MAX_SECONDS));

    /// `seconds`, when it is finite and more than 0; above [`MAX_SECONDS`]
    /// it is [`Seconds::MAX`].
    pub fn new(seconds: f64) -> Result<Seconds, SecondsError> {
        if !seconds.is_finite() || seconds <= 0.0 {
            return Err(SecondsError::NotPositive(seconds.to_string()));
        }
        Ok(Seconds(clamped(seconds)))
    }

    /// The duration.
    pub fn duration(self) -> Duration {
        self.0
    }

    /// The duration in seconds (at most [`MAX_SECONDS`]: exact enough in an `f64`).
    pub fn as_secs_f64(self) -> f64 {
        self.0.as_secs_f64()
    }
}

impl FromStr for Seconds {
    type Err = SecondsError;

    fn from_str(text: &str) -> Result<Seconds, SecondsError> {
        let word = text.trim();
        let number = word.parse::<f64>().map_err(|_| {
            SecondsError::NotANumber(txverify_core::format::echoed(word).into_owned())
        })?;
        Seconds::new(number).map_err(|_| {
            SecondsError::NotPositive(txverify_core::format::echoed(word).into_owned())
        })
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} s", self.0.as_secs_f64())
    }
}

impl From<Seconds> for Duration {
    fn from(seconds: Seconds) -> Duration {
        seconds.0
    }
}

/// A duration of `seconds` made from a number this crate was handed (a
/// cube's budget from another rank, a library caller's): 0 for a negative
/// number or NaN, [`MAX_SECONDS`] for a larger one. Never panics.
pub fn saturating(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else {
        clamped(seconds)
    }
}

/// A positive `seconds` (or `inf`) as a duration, at most [`MAX_SECONDS`].
fn clamped(seconds: f64) -> Duration {
    if seconds >= MAX_SECONDS as f64 {
        Duration::from_secs(MAX_SECONDS)
    } else {
        Duration::from_secs_f64(seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_positive_and_huge_values_mean_no_limit() {
        for bad in [
            "-1", "0", "-0", "NaN", "nan", "inf", "-inf", "", "3 s", "0x10",
        ] {
            assert!(bad.parse::<Seconds>().is_err(), "{bad}");
        }
        for huge in ["1e20", "18446744073709551616", "1e308", "1000000000"] {
            assert_eq!(huge.parse::<Seconds>(), Ok(Seconds::MAX), "{huge}");
        }
        let s: Seconds = " 2.5 ".parse().unwrap();
        assert_eq!(s.duration(), Duration::from_millis(2500));
        assert_eq!(saturating(f64::NAN), Duration::ZERO);
        assert_eq!(saturating(-3.0), Duration::ZERO);
        assert_eq!(saturating(f64::INFINITY), Seconds::MAX.duration());
        assert_eq!(saturating(1e-9), Duration::from_nanos(1));
    }
}
