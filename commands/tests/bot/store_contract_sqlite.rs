//! The store contract on SQLite (a fresh file per test).

use crate::{contract_tests, support};

use std::sync::Arc;

use saikoro_bot::store::{Backend, Store, connect};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use support::store_contract::Harness;

struct Sqlite {
    dir: tempfile::TempDir,
}

impl Sqlite {
    fn new() -> Sqlite {
        Sqlite {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn data_dir(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }
}

impl Harness for Sqlite {
    async fn open(&self) -> Arc<dyn Store> {
        connect(None, &self.data_dir()).await.expect("open SQLite store")
    }

    async fn raw(&self, sql: &'static str) -> Result<u64, String> {
        let options = SqliteConnectOptions::new().filename(self.data_dir().join("saikoro.db"));
        let pool = SqlitePool::connect_with(options)
            .await
            .map_err(|e| e.to_string())?;
        let result = sqlx::query(sql)
            .execute(&pool)
            .await
            .map(|r| r.rows_affected())
            .map_err(|e| e.to_string());
        pool.close().await;
        result
    }

    async fn migrate_until(&self, version: i64) -> Result<(), String> {
        std::fs::create_dir_all(self.data_dir()).map_err(|e| e.to_string())?;
        let options = SqliteConnectOptions::new()
            .filename(self.data_dir().join("saikoro.db"))
            .create_if_missing(true);
        let pool = SqlitePool::connect_with(options)
            .await
            .map_err(|e| e.to_string())?;
        let result = saikoro_bot::store::migrations_until(Backend::Sqlite, version)
            .run(&pool)
            .await
            .map_err(|e| e.to_string());
        pool.close().await;
        result
    }
}

contract_tests!(Sqlite::new());

#[tokio::test]
async fn no_url_means_sqlite_in_a_created_data_dir() {
    let h = Sqlite::new();
    let nested = h.dir.path().join("a/b/c");
    let store = connect(None, &nested).await.unwrap();
    assert_eq!(store.backend(), Backend::Sqlite);
    assert!(nested.join("saikoro.db").is_file());
}

#[tokio::test]
async fn an_unusable_data_dir_is_unavailable_not_a_panic() {
    let h = Sqlite::new();
    let file = h.dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let err = connect(None, &file).await.err().expect("must fail");
    assert!(
        matches!(err, saikoro_bot::store::StoreError::Unavailable(_)),
        "{err:?}"
    );
}
