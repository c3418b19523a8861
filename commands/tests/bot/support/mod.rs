//! Helpers for the store tests: PostgreSQL discovery and throwaway servers (`pg`), and the
//! contract suite both store backends must pass (`store_contract`).

#![allow(dead_code)]

pub mod e2e;
pub mod freeze_proxy;
pub mod harness;
pub mod http;
pub mod pg;
pub mod store_contract;
