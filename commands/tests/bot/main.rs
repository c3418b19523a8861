//! The bot's integration tests, in one test binary: each binary links serenity, poise, sqlx and
//! axum, so one link instead of ten keeps CI's build time and disk use down.

mod support;

mod cases;
mod command_names;
mod console_cli;
mod docs_pages;
mod e2e_campaign;
mod e2e_char_files;
mod e2e_help;
mod e2e_ja_words;
mod e2e_limits;
mod e2e_log;
mod e2e_luck;
mod e2e_mecha;
mod e2e_odds;
mod e2e_press_log;
mod e2e_press_walk;
mod e2e_rally;
mod e2e_recap;
mod e2e_registry;
mod e2e_roll;
mod e2e_session;
mod e2e_sr;
mod e2e_terminator;
mod e2e_warmachine;
mod e2e_wm_table;
mod outage_hang;
mod over_http;
mod over_http_replicas;
mod scale_metrics;
mod scale_proxy;
mod scale_reconnect;
mod scale_shards;
mod store_contract_postgres;
mod store_contract_sqlite;
