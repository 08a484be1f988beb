//! A tiny game for the engine's own tests: two players take turns adding 1 or 2 to a shared
//! count, then a coin adds 0 or 1; whoever's move (with its coin) brings the count to
//! `target` or more wins. It has chance, decisions and a terminal, and no scoring categories,
//! so engine code that must not assume a game's shape is tested on something besides the
//! real games.

use serde::{Deserialize, Serialize};

use super::error::{EngineError, Result};
use super::game::{Action, Actor, Describe, Evaluate, Positions, Resample, Rules, View, GameSpec};
use super::report::ScoreReport;
use super::svg::{palette, Svg, Viewer};
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

/// The count as a row of spaces up to the target, the count's space marked.
impl Picture for Race {
    fn svg(&self, s: &RaceState, viewer: Viewer) -> String {
        let mut svg = Svg::new(40.0 + 24.0 * (self.target as f64 + 1.0), 70.0, palette::BOARD);
        svg.text(8.0, 16.0, &format!("count {} of {} ({})", s.count, self.target, viewer.caption()));
        for i in 0..=self.target {
            let fill = if i == s.count.min(self.target) { palette::seat(s.mover) } else { palette::SEA };
            svg.rect(20.0 + 24.0 * i as f64, 28.0, 22.0, 22.0).fill(fill).class("space");
        }
        svg.finish()
    }
}

impl Resample for Race {}

impl Positions for Race {
    fn validate_state(&self, s: &RaceState) -> Result<()> {
        if s.mover > 1 {
            return Err(EngineError::InvalidRequest("mover out of range".into()));
        }
        Ok(())
    }

    fn setup(&self, _: &serde_json::Value) -> Result<RaceState> {
        Ok(self.initial_state())
    }
}

impl Describe for Race {
    fn describe_move(&self, before: &RaceState, a: Action, after: &RaceState, _: Option<usize>) -> String {
        if before.coin_next {
            format!("The coin adds {a}: the count is {}.", after.count)
        } else {
            format!("P{} adds {}: the count is {}.", after.mover, a + 1, after.count)
        }
    }
}

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
}
