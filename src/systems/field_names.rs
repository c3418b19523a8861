//! Name tables as players type them: stored keys and every name (English, Japanese) a player may
//! use for one — Shadowrun's skill names. Sheet fields are declared in each system's
//! `sheet_decl.rs` (see [`super::sheet_decl`]).

/// A system's field names: `(stored key, every name a player may type for it)`.
pub type FieldNames = &'static [(&'static str, &'static [&'static str])];

/// The stored key a typed field name means, in a system's table.
pub fn field_named(table: FieldNames, typed: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(_, names)| names.contains(&typed))
        .map(|(key, _)| *key)
}
