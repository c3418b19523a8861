//! The figures of `saikoro loadtest --game`: one row per command (or button) of each system's
//! script, next to the floor of the same run.

use serde::Serialize;

use super::LoadOptions;

/// One phase: `count` interactions of one command (or press).
#[derive(Debug, Clone, Serialize)]
pub struct PhaseFigures {
    pub game: &'static str,
    /// The line sent, or `press LABEL (after LINE)`.
    pub command: String,
    /// Measured interactions answered.
    pub count: u64,
    /// Answered with an ephemeral message (our refusals).
    pub errors: u64,
    pub unanswered: u64,
    /// The first refusal's text (or why one was not answered).
    pub first_error: Option<String>,
    pub seconds: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// The bot's own CPU per interaction (µs).
    pub bot_cpu_us: f64,
    /// PostgreSQL's backends' CPU per interaction (µs), on PostgreSQL.
    pub pg_cpu_us: Option<f64>,
    /// The floor this phase is compared with (µs; with `--floor`): the mean of the floor's
    /// bursts before and after its system's phases.
    pub floor_us: Option<f64>,
    /// `bot_cpu_us` over `floor_us`.
    pub floor_ratio: Option<f64>,
    /// The process's RSS (MiB) before and after the phase.
    pub rss_before_mb: f64,
    pub rss_after_mb: f64,
}

/// Every phase of a `--game` run.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    pub backend: &'static str,
    pub sessions: u64,
    pub concurrency: usize,
    /// Interactions measured per phase (asked for).
    pub count: u64,
    pub phases: Vec<PhaseFigures>,
    pub floor: Option<PhaseFigures>,
    /// Peak and current RSS of the whole process (bot, fake, driver), MiB.
    pub peak_rss_mb: f64,
    pub rss_mb: f64,
    pub notes: Vec<String>,
}

impl PhaseFigures {
    /// Compares the phase with a floor of `floor_us` (ignored when the floor read nothing).
    pub fn set_floor(&mut self, floor_us: f64) {
        if floor_us > 0.0 {
            self.floor_us = Some(floor_us);
            self.floor_ratio = Some(self.bot_cpu_us / floor_us);
        }
    }
}

impl GameReport {
    pub fn new(opts: &LoadOptions) -> GameReport {
        GameReport {
            backend: "sqlite",
            sessions: opts.sessions.max(1),
            concurrency: opts.concurrency,
            count: opts.count,
            phases: Vec::new(),
            floor: None,
            peak_rss_mb: 0.0,
            rss_mb: 0.0,
            notes: Vec::new(),
        }
    }

    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Refusals and unanswered interactions over every phase.
    pub fn failures(&self) -> u64 {
        self.phases.iter().map(|p| p.errors + p.unanswered).sum()
    }

    /// The report for people: a Markdown table.
    pub fn text(&self) -> String {
        let mut s = format!(
            "saikoro loadtest --game: {} on {}, {} sessions, concurrency {}, {} interactions per command\n\n",
            self.phases.first().map_or("", |p| p.game),
            self.backend,
            self.sessions,
            self.concurrency,
            self.count
        );
        s.push_str(
            "| system | command | n | bot CPU µs | floor µs | × floor | p50 ms | p99 ms | PG CPU µs | errors |\n",
        );
        s.push_str("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        let rows = self.phases.iter().chain(self.floor.as_ref());
        for p in rows {
            s.push_str(&format!(
                "| {} | `{}` | {} | {:.0} | {} | {} | {:.2} | {:.2} | {} | {} |\n",
                p.game,
                p.command,
                p.count,
                p.bot_cpu_us,
                p.floor_us.map_or("–".to_string(), |f| format!("{f:.0}")),
                p.floor_ratio.map_or("–".to_string(), |r| format!("{r:.2}")),
                p.p50_ms,
                p.p99_ms,
                p.pg_cpu_us.map_or("–".to_string(), |c| format!("{c:.0}")),
                p.errors + p.unanswered,
            ));
        }
        s.push_str(&format!(
            "\nmemory: peak RSS {:.1} MiB, now {:.1} MiB (whole process: bot + fake + driver)\n",
            self.peak_rss_mb, self.rss_mb
        ));
        for p in self.phases.iter().filter(|p| p.command.starts_with("/session ")) {
            s.push_str(&format!(
                "RSS around {} `{}`: {:.1} -> {:.1} MiB\n",
                p.game, p.command, p.rss_before_mb, p.rss_after_mb
            ));
        }
        for n in &self.notes {
            s.push_str(&format!("{n}\n"));
        }
        for p in self.phases.iter().filter(|p| p.first_error.is_some()) {
            s.push_str(&format!(
                "FAILED {} `{}`: {}\n",
                p.game,
                p.command,
                p.first_error.as_deref().unwrap_or("")
            ));
        }
        s
    }
}
