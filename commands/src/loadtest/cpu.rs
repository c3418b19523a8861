//! The bot's own CPU time, apart from the fake Discord and the load driver sharing its process:
//! the bot runs on a runtime of its own whose threads carry a name, and the kernel keeps each
//! thread's time on CPU (`/proc/self/task/<tid>/schedstat`, nanoseconds).

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

/// Nanoseconds on CPU of the bot's threads so far (0 where `/proc` is not there). Threads that
/// ended are not counted, so sample while the bot runs.
pub fn bot_cpu_ns() -> u64 {
    match BOT_PROCESS.load(Ordering::SeqCst) {
        0 => tasks_cpu_ns("/proc/self/task", |comm| {
            comm.starts_with(BOT_THREADS) || comm.starts_with(SQLITE_THREADS)
        }),
        pid => tasks_cpu_ns(&format!("/proc/{pid}/task"), |_| true),
    }
}

/// The summed time on CPU of the threads under `task_dir` whose name (`comm`) `keep` takes.
fn tasks_cpu_ns(task_dir: &str, keep: impl Fn(&str) -> bool) -> u64 {
    let Ok(tasks) = std::fs::read_dir(task_dir) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| keep(&c)))
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// A runtime for the bot alone (as many workers as in production: one per core).
pub fn bot_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name(BOT_THREADS)
        // A blocking-pool thread that ends takes its CPU time out of the sum (its /proc entry
        // goes), which read as a phase costing nothing: they stay for the whole run.
        .thread_keep_alive(std::time::Duration::from_secs(24 * 3600))
        .enable_all()
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        rt.shutdown_background();
    }
}
