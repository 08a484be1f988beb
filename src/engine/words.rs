//! Words every game's texts share: a count with its noun.

/// `n` with its noun, the singular for exactly one: "1 worker", "2 workers", "0 workers",
/// "-1 points".
pub fn plural(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn one_takes_the_singular_every_other_count_the_plural() {
        assert_eq!(plural(1u32, "worker", "workers"), "1 worker");
        assert_eq!(plural(0u32, "worker", "workers"), "0 workers");
        assert_eq!(plural(2u32, "blue worker", "blue workers"), "2 blue workers");
        assert_eq!(plural(u32::MAX, "coin", "coins"), "4294967295 coins");
        assert_eq!(plural(-1i32, "point", "points"), "-1 points");
        assert_eq!(plural(1i32, "point", "points"), "1 point");
    }
}
