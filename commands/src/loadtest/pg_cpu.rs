//! PostgreSQL's own CPU while the load runs: the backends serving the load's database, read
//! from `/proc` (the server runs on this machine: the load tool only talks to loopback). A
//! backend's command line is `postgres: USER DATABASE HOST(PORT) STATE`, so the backends of
//! other databases on the same server (other people's tests) are not counted; the WAL writer,
//! checkpointer and autovacuum are not either.

/// The kernel's clock ticks per second for `/proc/*/stat` times (100 on Linux everywhere).
const TICKS_PER_SECOND: u64 = 100;

/// The database name of a PostgreSQL URL (`None` for SQLite or an unreadable URL).
pub fn database_of(url: &str) -> Option<String> {
    if !url.starts_with("postgres") {
        return None;
    }
    let opts: sqlx::postgres::PgConnectOptions = url.parse().ok()?;
    Some(opts.get_database().unwrap_or("postgres").to_string())
}

/// Nanoseconds on CPU so far of the backends connected to `database` (user and system time of
/// the live ones; a backend that exits between two readings takes its time with it, and the
/// pools keep their connections for the whole run).
pub fn backends_cpu_ns(database: &str) -> u64 {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut ticks = 0u64;
    for p in procs.flatten() {
        let path = p.path();
        if !p
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        if !serves(&String::from_utf8_lossy(&cmdline), database) {
            continue;
        }
        if let Ok(stat) = std::fs::read_to_string(path.join("stat")) {
            ticks += stat_ticks(&stat);
        }
    }
    ticks * (1_000_000_000 / TICKS_PER_SECOND)
}

/// A backend of `database`: `postgres: USER DATABASE …`.
fn serves(cmdline: &str, database: &str) -> bool {
    let Some(rest) = cmdline.strip_prefix("postgres: ") else {
        return false;
    };
    // Debian's clusters put their name first (`postgres: 15/main: USER DATABASE …`).
    let mut words = rest.split_whitespace().skip_while(|w| w.ends_with(':'));
    let _user = words.next();
    words.next() == Some(database)
}

/// utime + stime of a `/proc/PID/stat` line (fields 14 and 15, after the `(comm)`).
fn stat_ticks(stat: &str) -> u64 {
    let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return 0;
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    // `after` starts at field 3 (state): utime is field 14, stime 15.
    let num = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    num(14) + num(15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_loads_database_backends_count() {
        assert!(serves("postgres: postgres load 127.0.0.1(5012) idle", "load"));
        assert!(!serves("postgres: postgres test 127.0.0.1(5012) idle", "load"));
        assert!(!serves("postgres: checkpointer ", "load"));
        assert!(serves(
            "postgres: 15/main: postgres load 127.0.0.1(5012) idle",
            "load"
        ));
        assert!(!serves("postgres: 15/main: checkpointer ", "load"));
        assert!(!serves("/usr/lib/postgresql/16/bin/postgres -D x", "load"));
        let stat = "2233 (postgres) S 1 2233 2233 0 -1 4194560 900 0 0 0 17 5 0 0 20 0 1 0";
        assert_eq!(stat_ticks(stat), 22);
        assert_eq!(
            database_of("postgres://postgres@127.0.0.1:5432/load").as_deref(),
            Some("load")
        );
        assert_eq!(database_of("sqlite:/tmp/x.db"), None);
    }
}
