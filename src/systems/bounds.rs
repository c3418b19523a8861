//! The range check every system makes on the numbers users type: one check, each system its own
//! error (which names the field in that system's words).

/// `Ok` when `value` is within `min..=max`, else the error `error` builds.
pub fn within<E>(value: i64, min: i64, max: i64, error: impl FnOnce() -> E) -> Result<(), E> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(error())
    }
}

#[cfg(test)]
mod tests {
    use super::within;

    #[test]
    fn bounds_are_inclusive() {
        assert_eq!(within(1, 1, 3, || "low"), Ok(()));
        assert_eq!(within(3, 1, 3, || "high"), Ok(()));
        assert_eq!(within(0, 1, 3, || "low"), Err("low"));
        assert_eq!(within(4, 1, 3, || "high"), Err("high"));
    }
}
