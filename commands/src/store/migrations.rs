//! The migrations of both backends, embedded from `migrations/<backend>/` as `build.rs` found
//! them: adding a `<version>_<name>.sql` file is all a new migration takes.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

mod found {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

fn migrator(list: &[(i64, &'static str, &'static str)]) -> Migrator {
    Migrator::with_migrations(
        list.iter()
            .map(|&(version, name, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(name),
                    MigrationType::Simple,
                    sqlx::SqlSafeStr::into_sql_str(sql),
                    false,
                )
            })
            .collect(),
    )
}

pub(super) fn postgres() -> Migrator {
    migrator(found::POSTGRES)
}

pub(super) fn sqlite() -> Migrator {
    migrator(found::SQLITE)
}

/// A backend's migrations up to and including `version`: a database as an older release left
/// it, for the upgrade tests.
pub fn until(backend: super::Backend, version: i64) -> Migrator {
    let all = match backend {
        super::Backend::Postgres => found::POSTGRES,
        super::Backend::Sqlite => found::SQLITE,
    };
    let kept: Vec<_> = all.iter().copied().filter(|m| m.0 <= version).collect();
    migrator(&kept)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The `.sql` files of `migrations/<backend>` on disk now, by name.
    fn on_disk(backend: &str) -> Vec<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../migrations")
            .join(backend);
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn embedded(list: &[(i64, &str, &str)]) -> Vec<String> {
        list.iter().map(|(v, n, _)| format!("{v}_{n}.sql")).collect()
    }

    #[test]
    fn every_file_in_the_folders_is_embedded_in_order() {
        assert_eq!(embedded(found::POSTGRES), on_disk("postgres"));
        assert_eq!(embedded(found::SQLITE), on_disk("sqlite"));
        let versions: Vec<i64> = postgres().iter().map(|m| m.version).collect();
        assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
        assert!(versions.len() >= 3, "{versions:?}");
    }

    /// Both backends share one list of versions (a version with nothing to do on one of them is
    /// a no-op file there): a deployment can move from one to the other.
    #[test]
    fn both_backends_have_the_same_versions() {
        assert_eq!(embedded(found::POSTGRES), embedded(found::SQLITE));
    }

    /// What the databases already migrated recorded: the name as written (not sqlx's
    /// underscores-to-spaces description) and the checksum of the file's text.
    #[test]
    fn a_migration_is_its_file() {
        let m = sqlite();
        let first = m.iter().next().unwrap();
        assert_eq!(first.version, 20250101000000);
        assert_eq!(first.description, "store");
        assert_eq!(
            first.sql.as_str(),
            include_str!("../../../migrations/sqlite/20250101000000_store.sql")
        );
        assert!(m.iter().any(|m| m.description == "change_feed"));
    }
}
