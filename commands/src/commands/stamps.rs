//! The times a transcript and a page print, in UTC (on every row, and when the session began
//! and ended). Written from the date's fields:
//! chrono's `format("%Y-…")` parses its pattern again for every call, a few percent of an
//! export's CPU with one stamp or two per row (issue 32).

use chrono::{DateTime, Datelike, Timelike, Utc};

fn utc(ms: i64) -> Option<DateTime<Utc>> {
    DateTime::<Utc>::from_timestamp_millis(ms)
}

/// `2026-11-26` (empty for a time chrono cannot represent).
pub fn date(ms: i64) -> String {
    utc(ms).map_or_else(String::new, |t| {
        format!("{:04}-{:02}-{:02}", t.year(), t.month(), t.day())
    })
}

/// `06:02:31` (empty for a time chrono cannot represent).
pub fn clock(ms: i64) -> String {
    utc(ms).map_or_else(String::new, |t| {
        format!("{:02}:{:02}:{:02}", t.hour(), t.minute(), t.second())
    })
}

/// `2026-11-26 06:02:31` (the milliseconds as written for a time chrono cannot represent).
pub fn date_and_clock(ms: i64) -> String {
    match utc(ms) {
        Some(_) => format!("{} {}", date(ms), clock(ms)),
        None => ms.to_string(),
    }
}

/// `2026-11-26 06:02 UTC`: when a session began or ended (the milliseconds as written for a
/// time chrono cannot represent).
pub fn minute_utc(ms: i64) -> String {
    match utc(ms) {
        Some(t) => format!("{} {:02}:{:02} UTC", date(ms), t.hour(), t.minute()),
        None => ms.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_read_as_chrono_formats_them() {
        for ms in [
            0,
            1_764_137_000_123,
            1_795_829_540_999,
            -1_000,
            // Years outside four digits are written as chrono writes them.
            253_402_300_799_000,
            -62_167_219_200_000,
        ] {
            let t = utc(ms).unwrap();
            assert_eq!(date(ms), t.format("%Y-%m-%d").to_string(), "{ms}");
            assert_eq!(clock(ms), t.format("%H:%M:%S").to_string(), "{ms}");
            assert_eq!(
                date_and_clock(ms),
                t.format("%Y-%m-%d %H:%M:%S").to_string(),
                "{ms}"
            );
        }
        assert_eq!((date(i64::MAX), clock(i64::MAX)), (String::new(), String::new()));
        assert_eq!(date_and_clock(i64::MAX), i64::MAX.to_string());
        assert_eq!(minute_utc(i64::MAX), i64::MAX.to_string());
    }
}
