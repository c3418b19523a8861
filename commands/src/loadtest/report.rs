//! The figures of a run ([`Report`]): the tally's latencies as percentiles, throughput, the
//! process's memory and the bot's CPU per interaction, and the report for people.

use std::time::Instant;

use serde::Serialize;

use super::{LoadOptions, Mix, Tally};

/// The figures of one run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub mix: Mix,
    pub backend: &'static str,
    /// `gateway` or `http` (`--http`), and the replicas serving.
    pub transport: &'static str,
    pub replicas: usize,
    pub sessions: u64,
    pub concurrency: usize,
    pub rate: Option<f64>,
    /// Measured interactions sent and answered (after the warm-up).
    pub sent: u64,
    pub answered: u64,
    /// Answered with an ephemeral message (our error replies).
    pub errors: u64,
    pub unanswered: u64,
    pub seconds: f64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Peak and current resident memory of this process (the bot, the fake and the driver), or
    /// of the bot's own process with `--bot-process`, at the end of the run, before
    /// verification.
    pub peak_rss_mb: f64,
    pub rss_mb: f64,
    /// Resident memory after the sessions were created, before the bot started.
    pub rss_before_bot_mb: f64,
    /// Resident memory with the bot running and its read caches warm (every session's channel
    /// read once), before the load.
    pub rss_warm_mb: f64,
    /// Edits acknowledged but missing from the stored sessions (`None`: no edits sent).
    pub lost_updates: Option<u64>,
    /// Reads the store's cache answered, and reads it passed to the database, during the load.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// The bot ran in a process of its own (`--bot-process`): memory and CPU are its alone,
    /// and the store reads are not counted (its cache is in that process).
    pub bot_process: bool,
    /// The lines sent (empty: the mix).
    pub lines: Vec<String>,
    /// CPU time of the bot's own threads per measured interaction, in microseconds.
    pub bot_cpu_us: f64,
    /// The floor's figures from the same run (`--floor`).
    pub floor: Option<FloorFigures>,
    /// What happened during `--rolling-restart`.
    pub restart: Option<RestartFigures>,
    /// Why interactions went unanswered, as the fake recorded it (the first few): a request the
    /// bot's endpoint failed, a body Discord would refuse.
    pub refusals: Vec<String>,
}

/// A rolling restart under load: how long it took, what was sent meanwhile and how it fared.
#[derive(Debug, Clone, Serialize)]
pub struct RestartFigures {
    pub seconds: f64,
    /// Measured interactions sent between the first new replica's start and the last old
    /// one's drain (plus the settling time after it).
    pub sent_during: u64,
    /// Of those, answered (the rest were lost).
    pub answered_during: u64,
    pub p50_during_ms: f64,
    pub p99_during_ms: f64,
    /// Requests a stopping replica refused (503 or no connection) that the balancer moved on.
    pub moved_by_balancer: u64,
}

impl RestartFigures {
    pub(super) fn of(start: Instant, end: Instant, tally: &Tally, moved: u64) -> RestartFigures {
        let mut during: Vec<u64> = tally
            .by_send_time
            .iter()
            .filter(|(at, _)| *at >= start && *at <= end)
            .map(|&(_, us)| us)
            .collect();
        during.sort_unstable();
        RestartFigures {
            seconds: (end - start).as_secs_f64(),
            sent_during: tally
                .sent_at
                .iter()
                .filter(|at| **at >= start && **at <= end)
                .count() as u64,
            answered_during: during.len() as u64,
            p50_during_ms: percentile(&during, 50.0),
            p99_during_ms: percentile(&during, 99.0),
            moved_by_balancer: moved,
        }
    }
}

/// The stack's floor, measured like the bot.
#[derive(Debug, Clone, Serialize)]
pub struct FloorFigures {
    pub bot_cpu_us: f64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// The bot's CPU per interaction divided by the floor's.
    pub cpu_ratio: f64,
}

/// `VmHWM` and `VmRSS` of this process in MiB (0 where /proc is not there).
pub fn rss_mb() -> (f64, f64) {
    rss_mb_of(None)
}

/// [`rss_mb`] of process `pid` (`None`: this one).
pub fn rss_mb_of(pid: Option<u32>) -> (f64, f64) {
    let path = pid.map_or_else(
        || "/proc/self/status".to_string(),
        |p| format!("/proc/{p}/status"),
    );
    let status = std::fs::read_to_string(path).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

pub(super) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}

/// The figures of a tally (the caller fills in what only it knows).
pub(super) fn report(opts: &LoadOptions, sent: u64, tally: Tally) -> Report {
    let mut lat = tally.latencies_us;
    lat.sort_unstable();
    let seconds = match (tally.first_sent, tally.last_answer) {
        (Some(a), Some(b)) if b > a => (b - a).as_secs_f64(),
        _ => 0.0,
    };
    let cpu_ns = tally.cpu_end_ns.saturating_sub(tally.cpu_start_ns);
    Report {
        mix: opts.mix,
        backend: "sqlite",
        transport: if opts.http { "http" } else { "gateway" },
        replicas: if opts.http { opts.replicas.max(1) } else { 1 },
        sessions: 1,
        concurrency: opts.concurrency,
        rate: opts.rate,
        sent,
        answered: tally.answered,
        errors: tally.errors,
        unanswered: sent.saturating_sub(tally.answered),
        seconds,
        per_second: if seconds > 0.0 {
            tally.answered as f64 / seconds
        } else {
            0.0
        },
        p50_ms: percentile(&lat, 50.0),
        p95_ms: percentile(&lat, 95.0),
        p99_ms: percentile(&lat, 99.0),
        max_ms: lat.last().map_or(0.0, |&m| m as f64 / 1000.0),
        peak_rss_mb: 0.0,
        rss_mb: 0.0,
        rss_before_bot_mb: 0.0,
        rss_warm_mb: 0.0,
        lost_updates: None,
        cache_hits: 0,
        cache_misses: 0,
        bot_process: false,
        lines: opts.lines.clone(),
        bot_cpu_us: if tally.answered > 0 {
            cpu_ns as f64 / 1000.0 / tally.answered as f64
        } else {
            0.0
        },
        floor: None,
        restart: None,
        refusals: Vec::new(),
    }
}

impl Report {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut s = format!(
            "saikoro loadtest: {} on {} ({} session{}), concurrency {}{}, over {}{}\n",
            if self.lines.is_empty() {
                format!("{:?}", self.mix)
            } else {
                self.lines.join(" | ")
            },
            self.backend,
            self.sessions,
            if self.sessions == 1 { "" } else { "s" },
            self.concurrency,
            self.rate.map_or(String::new(), |r| format!(", rate {r}/s")),
            self.transport,
            if self.replicas > 1 {
                format!(" ({} replicas)", self.replicas)
            } else {
                String::new()
            },
        );
        s.push_str(&format!(
            "  interactions  {} sent, {} answered ({} errors), {} unanswered, in {:.2} s\n",
            self.sent, self.answered, self.errors, self.unanswered, self.seconds
        ));
        s.push_str(&format!(
            "  throughput    {:.0} interactions/s\n",
            self.per_second
        ));
        s.push_str(&format!(
            "  latency       p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms (delivery -> the reply the user sees)\n",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms
        ));
        if self.bot_process {
            s.push_str(&format!(
                "  memory        peak RSS {:.1} MiB, now {:.1} MiB, {:.1} MiB once connected (the bot's own process)\n",
                self.peak_rss_mb, self.rss_mb, self.rss_before_bot_mb
            ));
        } else {
            s.push_str(&format!(
                "  memory        peak RSS {:.1} MiB, now {:.1} MiB, {:.1} MiB before the bot started, {:.1} MiB with the caches warm (whole process: bot + fake + driver)\n",
                self.peak_rss_mb, self.rss_mb, self.rss_before_bot_mb, self.rss_warm_mb
            ));
            s.push_str(&format!(
                "  store reads   {} from the cache, {} from the database\n",
                self.cache_hits, self.cache_misses
            ));
        }
        s.push_str(&format!(
            "  bot CPU       {:.1} us per interaction (the bot's own threads, not the fake's or the driver's)\n",
            self.bot_cpu_us
        ));
        if let Some(f) = &self.floor {
            s.push_str(&format!(
                "  floor         {:.1} us per interaction, {:.0}/s, p50 {:.2} ms, p99 {:.2} ms (bare serenity + poise, one embed): the bot costs {:.2}x the floor\n",
                f.bot_cpu_us, f.per_second, f.p50_ms, f.p99_ms, f.cpu_ratio
            ));
        }
        if let Some(r) = &self.restart {
            s.push_str(&format!(
                "  restart       {:.1} s: {} sent meanwhile, {} answered, {} lost; p50 {:.2} ms, p99 {:.2} ms meanwhile; {} requests moved on by the balancer\n",
                r.seconds,
                r.sent_during,
                r.answered_during,
                r.sent_during.saturating_sub(r.answered_during),
                r.p50_during_ms,
                r.p99_during_ms,
                r.moved_by_balancer
            ));
        }
        for why in &self.refusals {
            s.push_str(&format!("  refused       {why}\n"));
        }
        if let Some(lost) = self.lost_updates {
            s.push_str(&format!(
                "  consistency   {lost} lost updates{}\n",
                if lost == 0 {
                    " (every acknowledged edit is stored)"
                } else {
                    "  <-- FAILED"
                }
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::{LoadOptions, Tally};
    use super::report;

    #[test]
    fn a_report_says_why_interactions_went_unanswered() {
        let mut r = report(&LoadOptions::default(), 3, Tally::default());
        assert_eq!(r.unanswered, 3);
        assert!(!r.text().contains("refused"), "{}", r.text());
        r.refusals = vec!["the bot's interactions endpoint failed interaction 7: closed".into()];
        assert!(
            r.text()
                .contains("  refused       the bot's interactions endpoint failed interaction 7: closed\n"),
            "{}",
            r.text()
        );
    }
}
