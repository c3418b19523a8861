//! Field names as players type them: each system's table of stored keys and every name (English,
//! Japanese) a player may use for one. Apart from `sheet` (which reaches every system through the
//! registry) so that a system's own sheet needs nothing above it.

/// A system's field names: `(stored key, every name a player may type for it)`.
pub type FieldNames = &'static [(&'static str, &'static [&'static str])];

/// The stored key a typed field name means, in a system's table.
pub fn field_named(table: FieldNames, typed: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(_, names)| names.contains(&typed))
        .map(|(key, _)| *key)
}
