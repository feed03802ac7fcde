//! Abelianisation by Smith normal form: an independent check on coset enumeration.
//!
//! Placeholder: the real implementation replaces this file.
