//! Returns derived from who won: the one rule every game shares unless it says otherwise.

use super::game::{Rules, MAX_SEATS};

/// Writes each seat's return for a game that `ended` by its rules (not truncated, not in
/// progress) with the seats `winners` winning:
/// * not ended (in progress or truncated): 0 for every seat;
/// * one seat (a solo game): +1 for a win, -1 for a loss;
/// * no seat won (an opponent that is not a seat won, or everyone lost): -1 for every seat;
/// * every seat won: 0 for every seat (a shared result is a draw);
/// * otherwise the winners share +1 and the losers share -1: each of `k` winners gets `1/k`,
///   each of the `n - k` losers `-1/(n - k)` (with one winner among n: 1 and `-1/(n-1)`).
///
/// The returns add up to zero whenever some but not all seats won.
pub fn returns_from_winners(winners: &[usize], ended: bool, out: &mut [f64]) {
    let n = out.len();
    let k = winners.len();
    out.fill(0.0);
    if !ended || (k == n && n > 1) {
        return;
    }
    if k == 0 {
        out.fill(-1.0);
        return;
    }
    let (win, loss) = (1.0 / k as f64, if n > k { -1.0 / (n - k) as f64 } else { 0.0 });
    for (p, o) in out.iter_mut().enumerate() {
        *o = if winners.contains(&p) { win } else { loss };
    }
}

/// The search agents' usual measure: each seat's `values[p]` less the best other seat's
/// value (its own value when it has no other), through `tanh` at `width` units, into `out`.
pub fn tanh_margins(values: &[f64], width: f64, out: &mut [f64]) {
    for (p, o) in out.iter_mut().enumerate().take(values.len()) {
        let best = values.iter().enumerate().filter(|&(q, _)| q != p).map(|(_, &v)| v).fold(None, |b: Option<f64>, v| {
            Some(b.map_or(v, |b| b.max(v)))
        });
        *o = ((values[p] - best.unwrap_or(0.0)) / width).tanh();
    }
}

/// A search agent's evaluation as most games write it: `game`'s returns once the game is
/// `over`, otherwise [`tanh_margins`] at `width` of each of the `seats` seats' `value`
/// (computed without allocating).
#[inline]
pub fn returns_or_margins<G: Rules>(
    game: &G,
    state: &G::State,
    over: bool,
    seats: usize,
    width: f64,
    out: &mut [f64],
    mut value: impl FnMut(usize) -> f64,
) {
    if over {
        game.returns(state, out);
        return;
    }
    let mut values = [0.0f64; MAX_SEATS];
    for (p, v) in values.iter_mut().enumerate().take(seats) {
        *v = value(p);
    }
    tanh_margins(&values[..seats], width, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn returns(n: usize, winners: &[usize], ended: bool) -> Vec<f64> {
        let mut out = vec![9.0; n];
        returns_from_winners(winners, ended, &mut out);
        out
    }

    #[test]
    fn a_solo_seat_gets_plus_one_for_a_win_and_minus_one_for_a_loss() {
        assert_eq!(returns(1, &[0], true), vec![1.0]);
        assert_eq!(returns(1, &[], true), vec![-1.0]);
        assert_eq!(returns(1, &[], false), vec![0.0]);
    }

    #[test]
    fn winners_and_losers_share_plus_and_minus_one() {
        assert_eq!(returns(4, &[2], true), vec![-1.0 / 3.0, -1.0 / 3.0, 1.0, -1.0 / 3.0]);
        assert_eq!(returns(2, &[0], true), vec![1.0, -1.0]);
        assert_eq!(returns(4, &[0, 3], true), vec![0.5, -0.5, -0.5, 0.5]);
        assert_eq!(returns(5, &[0, 1, 2, 3], true), vec![0.25, 0.25, 0.25, 0.25, -1.0]);
        for (n, w) in [(3usize, vec![1usize]), (5, vec![0, 4]), (4, vec![0, 1, 2])] {
            assert!(returns(n, &w, true).iter().sum::<f64>().abs() < 1e-12);
        }
    }

    #[test]
    fn no_seat_winning_is_a_loss_for_all_and_a_shared_win_a_draw() {
        assert_eq!(returns(3, &[], true), vec![-1.0; 3]);
        assert_eq!(returns(3, &[0, 1, 2], true), vec![0.0; 3]);
        assert_eq!(returns(3, &[1], false), vec![0.0; 3]);
    }

    #[test]
    fn tanh_margins_measure_each_seat_against_the_best_other() {
        let mut out = [9.0; 3];
        tanh_margins(&[3.0, 1.0, 5.0], 2.0, &mut out);
        assert_eq!(out, [(-1.0f64).tanh(), (-2.0f64).tanh(), 1.0f64.tanh()]);
        let mut solo = [9.0];
        tanh_margins(&[4.0], 4.0, &mut solo);
        assert_eq!(solo, [1.0f64.tanh()]);
    }
}
