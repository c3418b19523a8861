//! Discord invalidates the gateway session (op 9): how long until rolls are answered again.
//! serenity 0.12 resumes a resumable session at once; a session that cannot be resumed is
//! re-identified through its shard queuer, which keeps 5 s between IDENTIFYs (a constant, as
//! Discord's identify rate limit asks) — measured here from the bot's start, and printed
//! (`cargo test -p saikoro-bot --test bot scale_reconnect -- --nocapture`).

use std::time::{Duration, Instant};

use saikoro_bot::console::{Console, ConsoleOptions};

/// Invalidate, then type `/roll` until it is answered: the gap the players see.
async fn gap_after_invalidation(resumable: bool, settle: Duration) -> Duration {
    let mut c = Console::start(ConsoleOptions {
        seed: Some(3),
        ..Default::default()
    })
    .await
    .expect("bot starts");
    c.send("/roll dice:1d6").await.expect("answers before");
    tokio::time::sleep(settle).await;
    let identified = c.fake.identifies();
    let started = Instant::now();
    c.fake.invalidate_sessions(resumable);
    // The invalidation reaches the bot before the next roll is typed.
    while c.fake.identifies() == identified && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let gap = loop {
        if c.send("/roll dice:1d6").await.is_ok() {
            break started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never answered again"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    c.shutdown().await;
    gap
}

#[tokio::test]
async fn after_an_invalid_session_rolls_are_answered_again() {
    let resumed = gap_after_invalidation(true, Duration::ZERO).await;
    let reidentified = gap_after_invalidation(false, Duration::ZERO).await;
    let later = gap_after_invalidation(false, Duration::from_secs(6)).await;
    println!(
        "op 9 resumable: answered again after {resumed:?}; not resumable, just after start: {reidentified:?}; not resumable, 6 s after start: {later:?}"
    );
    assert!(resumed < Duration::from_secs(2), "{resumed:?}");
    assert!(reidentified < Duration::from_secs(8), "{reidentified:?}");
}
