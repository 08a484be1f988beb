//! Game-design metrics measured during play: how long a game lasts, how many moves a seat
//! chooses among, and, from the game's own evaluation ([`crate::engine::Evaluate`]) of every
//! decision point, who leads, how often the lead changes, how early the eventual winner leads
//! for good and how far behind it fell. `docs/balance.md` defines each one and the Python
//! side aggregates them with their intervals.
//!
//! A [`Trajectory`] follows one game: [`Trajectory::decision`] at each decision node (before
//! the decision is taken), [`Trajectory::finish`] at the end. It keeps a few numbers per seat,
//! never the game's history, so it costs the same at every step of any game.

use super::game::MAX_SEATS;

/// The game's evaluation is taken before every `EVALUATE_EVERY`-th decision of a game (the
/// 64th, the 128th, ...), and the returns at its end: evaluating a position costs many times
/// what a random decision does, and this keeps measuring within its budget
/// (`docs/balance.md` gives the cost). Turns and branching count every decision.
pub const EVALUATE_EVERY: u64 = 64;

/// Whether the decision after `decisions` decisions of a game is evaluated: the `every`-th,
/// the `2 * every`-th, ... (with `every` 1, each one).
pub fn evaluates(decisions: u64, every: u64) -> bool {
    (decisions + 1) % every.max(1) == 0
}

/// Bins of the branching histogram: bin `k` counts the decisions with `2^k .. 2^(k+1) - 1`
/// legal moves (1, 2-3, 4-7, ...), the last bin every decision with more.
pub const BRANCHING_BINS: usize = 12;

/// The bin of the branching histogram for a decision among `legal` moves.
pub fn branching_bin(legal: usize) -> usize {
    if legal == 0 {
        return 0;
    }
    ((usize::BITS - 1 - legal.leading_zeros()) as usize).min(BRANCHING_BINS - 1)
}

/// The metrics of one game. A game played without metrics holds [`GameMetrics::UNMEASURED`]:
/// -1 in `turns`, `lead_changes`, `lead_from` and `drama`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameMetrics {
    /// Turns: runs of consecutive decisions by the same seat (chance outcomes between them do
    /// not end a turn).
    pub turns: i64,
    /// How often the sole leader changed from one seat to another (a tie for the lead is no
    /// change: the lead stays with the seat that held it last).
    pub lead_changes: i64,
    /// The eventual sole winner leads (alone) at every evaluation from this decision on, to
    /// the end: 0 when it led from the first decision, the game's decisions when it led only
    /// at the end. -1 when no seat won alone.
    pub lead_from: i64,
    /// The eventual sole winner's largest deficit: the most by which the best other seat's
    /// evaluation exceeded its own, over 2 (the width of the evaluation's range), in 0..=1.
    /// 0 when it never trailed; -1 when no seat won alone.
    pub drama: f64,
    /// Legal moves summed over the game's decisions (their mean is this over the decisions).
    pub legal_moves: u64,
    /// Decisions by the number of legal moves, binned by [`branching_bin`].
    pub branching: [u32; BRANCHING_BINS],
}

impl GameMetrics {
    /// A game played without metrics.
    pub const UNMEASURED: GameMetrics = GameMetrics {
        turns: -1,
        lead_changes: -1,
        lead_from: -1,
        drama: -1.0,
        legal_moves: 0,
        branching: [0; BRANCHING_BINS],
    };
}

impl Default for GameMetrics {
    fn default() -> Self {
        GameMetrics::UNMEASURED
    }
}

/// The running state of one game's metrics: per seat, the last evaluation at which it was not
/// the sole leader and its largest deficit so far, so that whoever wins in the end, its
/// numbers are at hand.
#[derive(Debug, Clone)]
pub struct Trajectory {
    players: usize,
    /// Evaluations seen so far (decision points, then the end).
    samples: u64,
    decisions: u64,
    turns: u64,
    last_mover: Option<usize>,
    leader: Option<usize>,
    lead_changes: u64,
    /// `not_leading[p]`: one past the last sample at which seat p was not the sole leader
    /// (0 while it has led at every one), as the decisions taken before that sample.
    not_leading: [u64; MAX_SEATS],
    /// `deficit[p]`: the most by which the best other seat's evaluation exceeded p's.
    deficit: [f64; MAX_SEATS],
    legal_moves: u64,
    branching: [u32; BRANCHING_BINS],
}

impl Trajectory {
    /// A trajectory for a game of `players` seats (1 to [`MAX_SEATS`]).
    pub fn new(players: usize) -> Self {
        assert!((1..=MAX_SEATS).contains(&players), "a game has 1 to {MAX_SEATS} seats");
        Trajectory {
            players,
            samples: 0,
            decisions: 0,
            turns: 0,
            last_mover: None,
            leader: None,
            lead_changes: 0,
            not_leading: [0; MAX_SEATS],
            deficit: [0.0; MAX_SEATS],
            legal_moves: 0,
            branching: [0; BRANCHING_BINS],
        }
    }

    /// Starts a new game of the same seats.
    pub fn reset(&mut self) {
        *self = Trajectory::new(self.players);
    }

    /// A decision node: seat `mover` chooses among `legal` moves; `evaluation` is the game's
    /// evaluation of the position for each seat, when the position is evaluated (see
    /// [`evaluates`]).
    pub fn decision(&mut self, mover: usize, legal: usize, evaluation: Option<&[f64]>) {
        if self.last_mover != Some(mover) {
            self.turns += 1;
            self.last_mover = Some(mover);
        }
        if let Some(values) = evaluation {
            self.observe(values);
        }
        self.decisions += 1;
        self.legal_moves += legal as u64;
        self.branching[branching_bin(legal)] += 1;
    }

    /// The decisions taken so far in this game.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// One evaluation of the position, for each seat.
    fn observe(&mut self, evaluation: &[f64]) {
        let n = self.players;
        let values = &evaluation[..n];
        // The best and second-best values, and the seat holding the best alone.
        let (mut best, mut second, mut top) = (f64::NEG_INFINITY, f64::NEG_INFINITY, None);
        for (p, &v) in values.iter().enumerate() {
            if v > best {
                second = best;
                best = v;
                top = Some(p);
            } else {
                second = second.max(v);
                if v == best {
                    top = None;
                }
            }
        }
        self.samples += 1;
        for (p, &v) in values.iter().enumerate() {
            let best_other = if top == Some(p) { second } else { best };
            if n > 1 {
                self.deficit[p] = self.deficit[p].max(best_other - v);
            }
            if top != Some(p) {
                // It leads for good at the earliest from the next decision on.
                self.not_leading[p] = self.decisions + 1;
            }
        }
        if n > 1 {
            if let Some(t) = top {
                if self.leader.is_some_and(|l| l != t) {
                    self.lead_changes += 1;
                }
                self.leader = Some(t);
            }
        }
    }

    /// The end of the game: `evaluation` is the final position's returns, `winners` the seats that won and `opponent_won` whether an opponent that is
    /// not a seat won too. Writes the game's metrics into `out`.
    pub fn finish(&mut self, evaluation: &[f64], winners: &[usize], opponent_won: bool, out: &mut GameMetrics) {
        self.observe(evaluation);
        let sole = match winners {
            [w] if !opponent_won && self.players > 1 => Some(*w),
            _ => None,
        };
        out.turns = self.turns as i64;
        out.lead_changes = if self.players > 1 { self.lead_changes as i64 } else { -1 };
        out.lead_from = sole.map_or(-1, |w| self.not_leading[w].min(self.decisions) as i64);
        out.drama = sole.map_or(-1.0, |w| (self.deficit[w] / 2.0).clamp(0.0, 1.0));
        out.legal_moves = self.legal_moves;
        out.branching = self.branching;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a scripted game of `players` seats: each step is (mover, legal moves,
    /// evaluations); then the end, with its evaluations and winners.
    fn scripted(players: usize, steps: &[(usize, usize, &[f64])], end: &[f64], winners: &[usize]) -> GameMetrics {
        let mut t = Trajectory::new(players);
        for (mover, legal, values) in steps {
            t.decision(*mover, *legal, Some(values));
        }
        let mut out = GameMetrics::UNMEASURED;
        t.finish(end, winners, false, &mut out);
        out
    }

    #[test]
    fn a_winner_who_leads_throughout_has_no_lead_change_no_drama_and_leads_from_the_start() {
        let m = scripted(2, &[(0, 3, &[0.2, -0.2]), (1, 3, &[0.3, -0.3]), (0, 3, &[0.5, -0.5])], &[1.0, -1.0], &[0]);
        assert_eq!((m.lead_changes, m.lead_from, m.drama), (0, 0, 0.0));
        assert_eq!((m.turns, m.legal_moves), (3, 9));
    }

    #[test]
    fn lead_changes_count_each_new_sole_leader_and_ties_keep_the_lead() {
        // Leaders: 0, tie, 0, 1, 1, 0 (the end): changes 0 -> 1 and 1 -> 0.
        let steps: &[(usize, usize, &[f64])] = &[
            (0, 2, &[0.1, 0.0]),
            (1, 2, &[0.0, 0.0]),
            (0, 2, &[0.2, 0.0]),
            (1, 2, &[-0.4, 0.4]),
            (0, 2, &[-0.2, 0.2]),
        ];
        let m = scripted(2, steps, &[1.0, -1.0], &[0]);
        assert_eq!(m.lead_changes, 2);
        // Seat 0 leads for good only at the end: after all 5 decisions.
        assert_eq!(m.lead_from, 5);
        // Its largest deficit: 0.4 - (-0.4) = 0.8, over 2.
        assert!((m.drama - 0.4).abs() < 1e-12);
    }

    #[test]
    fn the_winner_leads_for_good_from_the_decision_after_it_last_trailed_or_tied() {
        let steps: &[(usize, usize, &[f64])] = &[
            (0, 1, &[-0.5, 0.5, 0.0]),
            (1, 1, &[0.0, 0.0, 0.0]),
            (2, 1, &[0.3, 0.0, 0.1]),
            (0, 1, &[0.6, 0.0, 0.1]),
        ];
        let m = scripted(3, steps, &[1.0, -0.5, -0.5], &[0]);
        assert_eq!(m.lead_from, 2);
        assert!((m.drama - 0.5).abs() < 1e-12);
        // Leaders: 1, (tie), 0, 0, 0: one change.
        assert_eq!(m.lead_changes, 1);
    }

    #[test]
    fn a_shared_win_or_no_winner_has_no_winner_metrics() {
        let steps: &[(usize, usize, &[f64])] = &[(0, 2, &[0.0, 0.0])];
        for winners in [&[0usize, 1][..], &[][..]] {
            let m = scripted(2, steps, &[0.0, 0.0], winners);
            assert_eq!((m.lead_from, m.drama), (-1, -1.0));
            assert_eq!(m.lead_changes, 0);
        }
        let mut t = Trajectory::new(2);
        t.decision(0, 2, Some(&[0.5, -0.5]));
        let mut out = GameMetrics::UNMEASURED;
        t.finish(&[1.0, -1.0], &[0], true, &mut out);
        assert_eq!((out.lead_from, out.drama), (-1, -1.0), "an opponent that is not a seat shared the win");
    }

    #[test]
    fn turns_are_runs_of_one_seats_decisions() {
        let e: &[f64] = &[0.0, 0.0];
        let m = scripted(2, &[(0, 1, e), (0, 1, e), (1, 1, e), (1, 1, e), (1, 1, e), (0, 1, e)], &[0.0, 0.0], &[]);
        assert_eq!(m.turns, 3);
    }

    #[test]
    fn branching_bins_are_powers_of_two() {
        let expected = [(1, 0), (2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (1000, 9), (2048, 11), (1 << 20, 11)];
        for (legal, bin) in expected {
            assert_eq!(branching_bin(legal), bin, "{legal} legal moves");
        }
        let m = scripted(2, &[(0, 1, &[0.0, 0.0]), (1, 3, &[0.0, 0.0]), (0, 2, &[0.0, 0.0])], &[0.0, 0.0], &[]);
        assert_eq!(&m.branching[..3], &[1, 2, 0]);
        assert_eq!(m.legal_moves, 6);
    }

    #[test]
    fn a_solo_game_has_turns_and_branching_but_no_lead() {
        let m = scripted(1, &[(0, 4, &[0.1]), (0, 4, &[0.9])], &[1.0], &[0]);
        assert_eq!((m.turns, m.lead_changes, m.lead_from, m.drama), (1, -1, -1, -1.0));
        assert_eq!(m.branching[2], 2);
    }

    #[test]
    fn evaluated_one_decision_in_k_the_winner_leads_for_good_after_the_last_sample_it_did_not_lead() {
        // Evaluated before the 4th and the 8th decision (after 3 and 7) and at the end.
        assert!(!evaluates(0, 4) && evaluates(3, 4) && !evaluates(4, 4) && evaluates(7, 4) && evaluates(0, 1));
        let mut t = Trajectory::new(2);
        for d in 0..8u64 {
            let values: &[f64] = if d < 4 { &[-0.5, 0.5] } else { &[0.5, -0.5] };
            t.decision(0, 2, evaluates(d, 4).then_some(values));
        }
        let mut out = GameMetrics::UNMEASURED;
        t.finish(&[1.0, -1.0], &[0], false, &mut out);
        // Trailing after 3 decisions, leading after 7: it leads for good from the 5th decision
        // (after 4) on, as far as the samples tell.
        assert_eq!((out.lead_from, out.lead_changes, out.turns, out.legal_moves), (4, 1, 1, 16));
        assert!((out.drama - 0.5).abs() < 1e-12);
    }

    #[test]
    fn reset_forgets_the_last_game() {
        let mut t = Trajectory::new(2);
        t.decision(0, 5, Some(&[-1.0, 1.0]));
        t.reset();
        t.decision(0, 1, Some(&[1.0, -1.0]));
        let mut out = GameMetrics::UNMEASURED;
        t.finish(&[1.0, -1.0], &[0], false, &mut out);
        assert_eq!((out.turns, out.legal_moves, out.lead_from, out.drama), (1, 1, 0, 0.0));
    }
}
