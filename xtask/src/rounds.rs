//! The order of the targets in each round: round `r` starts `r` targets
//! further along the list and wraps around, so that the machine's drift
//! and the order itself hit every target (and both builds) alike.

/// The items in round `round`'s order (rounds count from 0).
pub fn rotated<T: Clone>(round: usize, items: &[T]) -> Vec<T> {
    if items.is_empty() {
        return Vec::new();
    }
    let k = round % items.len();
    items[k..].iter().chain(&items[..k]).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::rotated;

    #[test]
    fn each_round_starts_one_further_on() {
        let items = ["a", "b", "c"];
        assert_eq!(rotated(0, &items), ["a", "b", "c"]);
        assert_eq!(rotated(1, &items), ["b", "c", "a"]);
        assert_eq!(rotated(3, &items), ["a", "b", "c"]);
    }
}
