//! The trusted checking kernel.
