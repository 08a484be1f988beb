//! A tiny game for the engine's own tests: two players take turns adding 1 or 2 to a shared
//! count, then a coin adds 0 or 1; whoever's move (with its coin) brings the count to
//! `target` or more wins. It has chance, decisions and a terminal, and no scoring categories,
//! so engine code that must not assume a game's shape is tested on something besides the
//! real games.

use serde::{Deserialize, Serialize};

use super::error::{EngineError, Result};
use super::game::{Action, Actor, Describe, Evaluate, Positions, Resample, Rules, View, GameSpec};
use super::report::ScoreReport;
use super::svg::Viewer;
use super::tensor::Tensor;
use super::game::Picture;

pub(crate) struct Race {
    spec: GameSpec,
    target: u32,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub(crate) struct RaceState {
    count: u32,
    /// Who moved last; the coin follows every move.
    mover: usize,
    coin_next: bool,
    winner: Option<usize>,
}

impl Race {
    pub(crate) fn new(target: u32) -> Self {
        Race {
            spec: GameSpec {
                name: "race",
                players: 2,
                opponents: Vec::new(),
                tiers: Vec::new(),
                num_distinct_actions: 2,
                max_chance_outcomes: 2,
                max_game_length: 2 * target as usize + 2,
                observation_tensor_shape: vec![1],
                zero_sum: true,
                min_return: -1.0,
                max_return: 1.0,
                config: serde_json::json!({"game": "race", "target": target}),
                options: &[],
            },
            target,
        }
    }
}

impl Rules for Race {
    type State = RaceState;

    const STATE_FORMAT: u32 = 1;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self) -> RaceState {
        RaceState { count: 0, mover: 1, coin_next: false, winner: None }
    }

    fn actor(&self, s: &RaceState) -> Actor {
        match (s.winner, s.coin_next) {
            (Some(_), _) => Actor::Terminal,
            (None, true) => Actor::Chance,
            (None, false) => Actor::Player(1 - s.mover),
        }
    }

    fn player_actions(&self, _: &RaceState, out: &mut Vec<Action>) {
        out.extend([0, 1]);
    }

    fn chance_weights(&self, _: &RaceState, mut f: impl FnMut(Action, u32)) {
        f(0, 1);
        f(1, 1);
    }

    fn apply(&self, s: &mut RaceState, a: Action) {
        if s.coin_next {
            s.count += a;
            s.coin_next = false;
            if s.count >= self.target {
                s.winner = Some(s.mover);
            }
        } else {
            s.mover = 1 - s.mover;
            s.count += a + 1;
            s.coin_next = true;
        }
    }

    fn returns(&self, s: &RaceState, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = match s.winner {
                Some(w) if w == p => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
    }

    fn winners(&self, s: &RaceState) -> Vec<usize> {
        s.winner.into_iter().collect()
    }

    fn is_truncated(&self, _: &RaceState) -> bool {
        false
    }
}

impl View for Race {
    fn action_to_string(&self, s: &RaceState, a: Action) -> String {
        if s.coin_next { format!("coin {a}") } else { format!("add {}", a + 1) }
    }

    /// No points in this game: only who got there first.
    fn scores(&self, _: &RaceState, out: &mut [f64]) {
        out.fill(0.0);
    }

    fn score_report(&self, s: &RaceState) -> ScoreReport {
        ScoreReport {
            categories: Vec::new(),
            points: vec![Vec::new(); 2],
            totals: vec![0.0; 2],
            tie_breakers: Vec::new(),
            tie_breaker_values: vec![Vec::new(); 2],
            winners: self.winners(s),
            terminal: s.winner.is_some(),
            ..ScoreReport::default()
        }
    }

    /// Nothing is hidden: every viewer sees the count.
    fn text(&self, s: &RaceState, _: Viewer) -> String {
        format!("count {}", s.count)
    }

    /// The count is below the target before a move, which adds at most 2 and its coin 1.
    fn observation(&self, s: &RaceState, _: usize, t: &mut Tensor<'_>) {
        t.field("count", 1, 0.0, (self.target + 2) as f32).put(s.count as f32);
    }
}

/// The engine's defaults: the text view as the picture, no setup descriptions, the move as
/// the log's sentence.
impl Picture for Race {}

impl Resample for Race {}

impl Positions for Race {
    fn validate_state(&self, s: &RaceState) -> Result<()> {
        if s.mover > 1 {
            return Err(EngineError::InvalidRequest("mover out of range".into()));
        }
        Ok(())
    }
}

impl Describe for Race {}

impl Evaluate for Race {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_game_passes_the_shared_conformance_checks() {
        let stats = crate::harness::conformance::check_random_games(std::sync::Arc::new(Race::new(7)), 200, 3, 5)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stats.games, 200);
    }

    #[test]
    fn a_game_without_a_picture_is_drawn_as_its_text() {
        let g = Race::new(7);
        let svg = g.svg(&g.initial_state(), Viewer::Seat(1));
        assert!(svg.contains(">race (as P1 sees it)</text>") && svg.contains(">count 0</text>"), "{svg}");
        assert!(svg.contains("font-family=\"monospace\" xml:space=\"preserve\""), "{svg}");
    }

    #[test]
    fn a_game_without_setup_descriptions_says_so() {
        let err = Race::new(7).setup(&serde_json::json!({})).unwrap_err();
        assert_eq!(err.to_string(), "invalid request: race has no setup descriptions");
    }

    #[test]
    fn a_game_without_sentences_of_its_own_logs_the_mover_and_the_move() {
        let g = Race::new(7);
        let s = g.initial_state();
        let mut t = s.clone();
        g.apply(&mut t, 1);
        assert_eq!(g.describe_move(&s, 1, &t, None), "P0: add 2.");
        assert_eq!(g.describe_move(&t, 0, &t, Some(1)), "Chance: coin 0.");
    }
}
