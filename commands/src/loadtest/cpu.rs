//! The bot's own CPU time, apart from the fake Discord and the load driver sharing its process:
//! the bot runs on a runtime of its own whose threads carry a name, and the kernel keeps each
//! thread's time on CPU (`/proc/self/task/<tid>/schedstat`, nanoseconds).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

/// The name of the bot's runtime threads (and the prefix their `comm` shows).
pub const BOT_THREADS: &str = "saikoro-bot";
/// SQLite's worker threads do the bot's database work (`sqlx-sqlite-worker-N`, cut to 15
/// bytes by the kernel).
const SQLITE_THREADS: &str = "sqlx-sqlite-wor";

/// The bot's own process when it runs in one (`--bot-process`); 0: this process.
static BOT_PROCESS: AtomicU32 = AtomicU32::new(0);

/// Count the CPU of process `pid` (every thread) as the bot's, or (`None`) this process's bot
/// threads again.
pub fn measure_process(pid: Option<u32>) {
    BOT_PROCESS.store(pid.unwrap_or(0), Ordering::SeqCst);
}

/// Nanoseconds on CPU of the bot's threads so far (0 where `/proc` is not there). Never less
/// than an earlier reading: a thread that ended keeps the time it was last seen with (a
/// blocking-pool thread of an earlier run's runtime ending during a measured window made the
/// window's CPU negative, read as 0, for a whole phase); only what it ran after that last
/// reading is lost, so sample while the bot runs.
pub fn bot_cpu_ns() -> u64 {
    let pid = BOT_PROCESS.load(Ordering::SeqCst);
    let threads = match pid {
        0 => tasks_cpu_ns("/proc/self/task", |comm| {
            comm.starts_with(BOT_THREADS) || comm.starts_with(SQLITE_THREADS)
        }),
        pid => tasks_cpu_ns(&format!("/proc/{pid}/task"), |_| true),
    };
    read(
        &mut LEDGER.lock().unwrap_or_else(|e| e.into_inner()),
        pid,
        threads,
    )
}

/// Each thread's time as last seen, and the time of threads gone since.
#[derive(Default)]
struct Ledger {
    pid: u32,
    seen: HashMap<u64, u64>,
    gone: u64,
}

static LEDGER: Mutex<Option<Ledger>> = Mutex::new(None);

/// The threads of `pid` now, (tid, ns), into the ledger (a new one for another process), and
/// the total.
fn read(ledger: &mut Option<Ledger>, pid: u32, threads: Vec<(u64, u64)>) -> u64 {
    let ledger = match ledger {
        Some(l) if l.pid == pid => l,
        _ => ledger.insert(Ledger {
            pid,
            ..Ledger::default()
        }),
    };
    let now: HashMap<u64, u64> = threads.into_iter().collect();
    // Gone, or its id taken by a new thread that has run less.
    let mut ended = 0;
    ledger.seen.retain(|tid, ns| match now.get(tid) {
        Some(&n) if n >= *ns => true,
        _ => {
            ended += *ns;
            false
        }
    });
    ledger.gone += ended;
    ledger.seen.extend(now);
    ledger.gone + ledger.seen.values().sum::<u64>()
}

/// The time on CPU of each thread under `task_dir` whose name (`comm`) `keep` takes: (tid, ns).
fn tasks_cpu_ns(task_dir: &str, keep: impl Fn(&str) -> bool) -> Vec<(u64, u64)> {
    let Ok(tasks) = std::fs::read_dir(task_dir) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| keep(&c)))
        .filter_map(|t| {
            let tid = t.file_name().to_str()?.parse::<u64>().ok()?;
            let stat = std::fs::read_to_string(t.path().join("schedstat")).ok()?;
            Some((tid, stat.split_whitespace().next()?.parse::<u64>().ok()?))
        })
        .collect()
}

/// A runtime for the bot alone (as many workers as in production: one per core).
pub fn bot_runtime() -> std::io::Result<BotRuntime> {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name(BOT_THREADS)
        // A blocking-pool thread that ends takes its CPU time out of the sum (its /proc entry
        // goes), which read as a phase costing nothing: they stay for the whole run.
        .thread_keep_alive(std::time::Duration::from_secs(24 * 3600))
        .enable_all()
        .build()
        .map(|rt| BotRuntime(Some(rt)))
}

/// The bot's runtime, shut down without waiting for its tasks when dropped. The load tool
/// holds it inside its own async code, where dropping a plain `Runtime` panics: a run that
/// failed early (a database that does not exist) ended in that panic instead of its error.
pub struct BotRuntime(Option<tokio::runtime::Runtime>);

impl std::ops::Deref for BotRuntime {
    type Target = tokio::runtime::Runtime;

    fn deref(&self) -> &tokio::runtime::Runtime {
        // Taken only by `drop`.
        self.0.as_ref().expect("the bot's runtime is there until dropped")
    }
}

impl Drop for BotRuntime {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread that ends keeps the time it was last seen with; a new one (an id taken again
    /// included) adds its own; another process starts a ledger of its own.
    #[test]
    fn the_total_never_goes_back() {
        let mut ledger = None;
        assert_eq!(read(&mut ledger, 0, vec![(1, 100), (2, 50)]), 150);
        assert_eq!(read(&mut ledger, 0, vec![(1, 120)]), 170, "thread 2 ended");
        assert_eq!(
            read(&mut ledger, 0, vec![(1, 130), (2, 5)]),
            185,
            "id 2 taken again"
        );
        assert_eq!(read(&mut ledger, 0, vec![(2, 9)]), 189);
        assert_eq!(read(&mut ledger, 7, vec![(1, 10)]), 10, "another process");
    }

    #[test]
    fn only_the_bots_threads_count() {
        let rt = bot_runtime().expect("runtime");
        let before = bot_cpu_ns();
        // Work on this (unnamed) thread is not the bot's.
        let mut x = 0u64;
        for i in 0..3_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let idle = bot_cpu_ns();
        rt.block_on(async {
            tokio::spawn(async {
                let mut y = 0u64;
                for i in 0..30_000_000u64 {
                    y = y.wrapping_mul(31).wrapping_add(i);
                }
                std::hint::black_box(y);
            })
            .await
            .expect("task");
        });
        let busy = bot_cpu_ns();
        assert!(busy > idle, "the bot's work is counted ({idle} -> {busy})");
        assert!(
            idle.saturating_sub(before) < (busy - idle),
            "the driver's work is not"
        );
    }

    /// Dropped inside async code (a run's early return), the bot's runtime stops instead of
    /// panicking as a `Runtime` dropped there does.
    #[tokio::test]
    async fn the_bots_runtime_may_be_dropped_inside_async_code() {
        let rt = bot_runtime().expect("runtime");
        let answer = rt.handle().spawn(async { 6 * 7 }).await.expect("task");
        assert_eq!(answer, 42);
        drop(rt);
        let plain = tokio::runtime::Runtime::new().expect("runtime");
        let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(plain)));
        assert!(
            dropped.is_err(),
            "a plain runtime dropped here panics: the guard is needed"
        );
    }
}
