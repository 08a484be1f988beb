//! Regatta: a small test game that exercises every point of the engine contract the five
//! rulebooks need, so the shared checks are proven on something besides North Wind. It is
//! registered but not listed in `tw.GAMES`.
//!
//! Rules. 1 to 5 seats race boats along a course of `course` spaces. Each round every seat,
//! in seat order, secretly sets its sails to 1, 2 or 3 (a secret simultaneous choice made as
//! sequential hidden decisions). Then the wind is rolled (0, 1 or 2 with probabilities 1/4,
//! 1/2, 1/4) and every boat moves its setting plus the wind, except that boats with the same
//! setting take each other's wind (one space less) and a boat at 3 capsizes in a wind of 2
//! (it does not move). With `pace_boat`, an opponent that is not a seat, the pace boat, then
//! moves 2 or 3 spaces (a chance node). The race ends after the round in which a boat reaches
//! the finish, or after `course` rounds. Each boat scores its distance plus 2 for finishing.
//! With several seats the highest score wins, ties shared (the pace boat competes too). A
//! solo seat races the pace boat (required) and wins only by beating it; the margin earns
//! the tier bronze (1-2 points), silver (3-4) or gold (5 or more). With `gusts`, the wind
//! blows 0, 1, 2 or 3 (weights 1, 2, 2, 1): sails 3 capsize in a wind of 2 or 3, and sails 2
//! in a wind of 3.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::options::{Flag, Int, Opt};
use crate::engine::rng::{below, Rng};
use crate::engine::{
    Action, Actor, EngineError, Describe, Evaluate, Positions, Resample, Rules, View, GameDefinition, GameSpec, OpponentRow, OptionDecl, Options, Result,
    ScoreReport, Tensor, Viewer, MAX_SEATS,
};

mod picture;
#[cfg(test)]
mod tests;

/// Points for reaching the finish.
const FINISH_BONUS: u32 = 2;
/// Wind strengths 0, 1, 2 are drawn with these weights (out of 4).
const WIND_WEIGHTS: [u32; 3] = [1, 2, 1];
/// With `gusts`, wind strengths 0 to 3, with these weights (out of 6).
const GUST_WEIGHTS: [u32; 4] = [1, 2, 2, 1];
/// The pace boat moves 2 or 3 spaces, equally likely.
const PACE_MOVES: [u32; 2] = [2, 3];
const TIERS: [(&str, u32); 3] = [("bronze", 1), ("silver", 3), ("gold", 5)];

#[derive(Debug, Clone)]
pub struct Regatta {
    players: usize,
    course: u32,
    pace_boat: bool,
    gusts: bool,
    spec: GameSpec,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Seat `0` sets its sails in secret.
    Choose(u8),
    Wind,
    Pace,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub phase: Phase,
    pub position: [u32; MAX_SEATS],
    pub pace: u32,
    /// This round's settings (0: not chosen yet); hidden from the other seats until the wind.
    pub setting: [u8; MAX_SEATS],
    /// Last round's settings, revealed.
    pub revealed: [u8; MAX_SEATS],
}

/// The options, each declared once and read by its constant.
const PLAYERS: Opt<Int> =
    Opt::int("players", 1, MAX_SEATS as i64, 2).configuration().doc("seats, 1 to 5 (a solo seat needs the pace boat)");
const PACE_BOAT: Opt<Flag> =
    Opt::flag("pace_boat", false).configuration().doc("adds the pace boat, an opponent that is not a seat");
const COURSE: Opt<Int> = Opt::int("course", 4, 60, 12).doc("spaces to the finish");
const GUSTS: Opt<Flag> = Opt::flag("gusts", false).doc("the wind may blow 3, which capsizes sails 2 and 3");

impl GameDefinition for Regatta {
    const NAME: &'static str = "regatta";
    const TITLE: &'static str = "Regatta";
    const HOW_TO_PLAY: &'static str = "\
Race your boat to the finish, `course` spaces away (12 by default).
Each round every seat, in seat order, sets its sails to 1, 2 or 3 in secret. Then the wind
blows 0, 1 or 2 (1 is twice as likely) and every boat moves its sails plus the wind, except:
boats with the same sails take each other's wind (one space less), and sails 3 capsize in a
wind of 2 (the boat does not move). With the pace boat, it then moves 2 or 3 spaces.
With `gusts`, the wind blows 0 to 3 (1 and 2 twice as likely as 0 and 3), and a wind of 3
capsizes sails 2 and 3.
The race ends after the round in which a boat reaches the finish, or after `course` rounds.
Each boat scores its distance, plus 2 for finishing; the highest score wins (ties share).
A solo seat races the pace boat and wins only by beating it: by 1-2 points bronze, 3-4
silver, 5 or more gold.
";
    const NOTATION: &'static str = "\
Moves: set sails to 1, set sails to 2, set sails to 3 (secret until the wind blows).
Chance: wind 0, wind 1, wind 2 (and wind 3 with `gusts`); pace boat moves 2, pace boat moves 3.
The table: \"round 3/12 course 12\": the round of the most and the spaces to the finish;
\"P0 at 5 sails set (last 2)\": a boat's position, this round's sails (a number once you may
see them, \"set\" when set in secret, \"-\" before), and last round's sails; \"pace boat at 7\".
";
    const OPTIONS: &'static [OptionDecl] = &[PLAYERS.decl, PACE_BOAT.decl, COURSE.decl, GUSTS.decl];

    fn from_options(options: &Options) -> Result<Self> {
        let players = options.get(&PLAYERS) as usize;
        let pace_boat = options.get(&PACE_BOAT);
        let course = options.get(&COURSE) as u32;
        let gusts = options.get(&GUSTS);
        if players == 1 && !pace_boat {
            return Err(EngineError::option("pace_boat", "a solo seat races the pace boat: set pace_boat=true"));
        }
        let solo = players == 1;
        let spec = GameSpec {
            name: Self::NAME,
            players,
            opponents: if pace_boat { vec!["pace boat".into()] } else { Vec::new() },
            tiers: if solo { TIERS.iter().map(|t| t.0.to_string()).collect() } else { Vec::new() },
            num_distinct_actions: 3,
            max_chance_outcomes: if gusts { GUST_WEIGHTS.len() } else { WIND_WEIGHTS.len() },
            max_game_length: course as usize * (players + 2),
            observation_tensor_shape: vec![OBS_LEN],
            zero_sum: !pace_boat,
            min_return: -1.0,
            max_return: 1.0,
            config: options.config(Self::NAME, None),
            options: Self::OPTIONS,
        };
        Ok(Regatta { players, course, pace_boat, gusts, spec })
    }
}

/// round, positions (5), pace boat, own setting (one-hot 3), who has chosen (5), revealed settings (5).
const OBS_LEN: usize = 1 + MAX_SEATS + 1 + 3 + MAX_SEATS + MAX_SEATS;

impl Regatta {
    fn score(&self, position: u32) -> [f64; 2] {
        let finished = position >= self.course;
        [position.min(self.course) as f64, if finished { FINISH_BONUS as f64 } else { 0.0 }]
    }

    /// The wind's strengths and their weights.
    fn winds(&self) -> &'static [u32] {
        if self.gusts { &GUST_WEIGHTS } else { &WIND_WEIGHTS }
    }

    /// Whether sails `set` capsize in a wind of `wind`: sails 3 in a wind of 2 or more, and with
    /// gusts sails 2 in a wind of 3.
    fn capsizes(set: u32, wind: u32) -> bool {
        (set == 3 && wind >= 2) || (set == 2 && wind >= 3)
    }

    fn total(&self, position: u32) -> f64 {
        self.score(position).iter().sum()
    }

    fn end_round(&self, s: &mut State) {
        s.round += 1;
        let leader = s.position[..self.players].iter().copied().chain(self.pace_boat.then_some(s.pace)).max().unwrap_or(0);
        s.setting = [0; MAX_SEATS];
        s.phase = if leader >= self.course || s.round >= self.course { Phase::Over } else { Phase::Choose(0) };
    }

    /// The winning seats, and whether the pace boat won.
    fn outcome(&self, s: &State) -> (Vec<usize>, bool) {
        if s.phase != Phase::Over {
            return (Vec::new(), false);
        }
        let pace = self.total(s.pace);
        if self.players == 1 {
            return if self.total(s.position[0]) > pace { (vec![0], false) } else { (Vec::new(), true) };
        }
        let best = (0..self.players).map(|p| self.total(s.position[p])).fold(f64::MIN, f64::max);
        let best = if self.pace_boat { best.max(pace) } else { best };
        let seats = (0..self.players).filter(|&p| self.total(s.position[p]) == best).collect();
        (seats, self.pace_boat && pace == best)
    }

}

impl Rules for Regatta {
    type State = State;

    const STATE_FORMAT: u32 = 1;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self) -> State {
        State {
            round: 0,
            phase: Phase::Choose(0),
            position: [0; MAX_SEATS],
            pace: 0,
            setting: [0; MAX_SEATS],
            revealed: [0; MAX_SEATS],
        }
    }

    fn actor(&self, s: &State) -> Actor {
        match s.phase {
            Phase::Choose(p) => Actor::Player(p as usize),
            Phase::Wind | Phase::Pace => Actor::Chance,
            Phase::Over => Actor::Terminal,
        }
    }

    fn player_actions(&self, _: &State, out: &mut Vec<Action>) {
        out.extend([0, 1, 2]);
    }

    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        match s.phase {
            Phase::Wind => self.winds().iter().enumerate().for_each(|(a, &w)| f(a as Action, w)),
            Phase::Pace => [0, 1].into_iter().for_each(|a| f(a, 1)),
            _ => {}
        }
    }


    fn apply(&self, s: &mut State, a: Action) {
        match s.phase {
            Phase::Choose(p) => {
                s.setting[p as usize] = a as u8 + 1;
                s.phase = if (p as usize) + 1 < self.players { Phase::Choose(p + 1) } else { Phase::Wind };
            }
            Phase::Wind => {
                let wind = a;
                for p in 0..self.players {
                    let set = s.setting[p] as u32;
                    let shared = (0..self.players).any(|q| q != p && s.setting[q] == s.setting[p]);
                    let moved = if Self::capsizes(set, wind) { 0 } else { set + wind - shared as u32 };
                    s.position[p] += moved;
                }
                s.revealed = s.setting;
                if self.pace_boat {
                    s.phase = Phase::Pace;
                } else {
                    self.end_round(s);
                }
            }
            Phase::Pace => {
                s.pace += PACE_MOVES[a as usize];
                self.end_round(s);
            }
            Phase::Over => {}
        }
    }

    fn decision_is_secret(&self, s: &State) -> bool {
        matches!(s.phase, Phase::Choose(_))
    }

    fn winners(&self, s: &State) -> Vec<usize> {
        self.outcome(s).0
    }

}

impl View for Regatta {
    fn action_to_string(&self, s: &State, a: Action) -> String {
        match s.phase {
            Phase::Wind => format!("wind {a}"),
            Phase::Pace => format!("pace boat moves {}", PACE_MOVES.get(a as usize).copied().unwrap_or(0)),
            _ => format!("set sails to {}", a + 1),
        }
    }

    fn action_string_for(&self, s: &State, a: Action, observer: usize) -> String {
        match s.phase {
            Phase::Choose(p) if p as usize != observer => format!("P{p} sets sails in secret"),
            _ => self.action_to_string(s, a),
        }
    }

    fn score_report(&self, s: &State) -> ScoreReport {
        let (winners, pace_won) = self.outcome(s);
        let points: Vec<Vec<f64>> = (0..self.players).map(|p| self.score(s.position[p]).to_vec()).collect();
        let tier = if self.players == 1 && winners == [0] {
            let margin = (self.total(s.position[0]) - self.total(s.pace)) as u32;
            TIERS.iter().rev().find(|t| margin >= t.1).map(|t| t.0.to_string())
        } else {
            None
        };
        ScoreReport {
            categories: vec!["distance".into(), "finish".into()],
            totals: points.iter().map(|r| r.iter().sum()).collect(),
            points,
            opponents: if self.pace_boat {
                vec![OpponentRow { name: "pace boat".into(), points: self.score(s.pace).to_vec(), total: self.total(s.pace) }]
            } else {
                Vec::new()
            },
            tie_breaker_values: vec![Vec::new(); self.players],
            winners,
            opponent_winners: if pace_won { vec![0] } else { Vec::new() },
            tier,
            terminal: s.phase == Phase::Over,
            ..ScoreReport::default()
        }
    }

    fn text(&self, s: &State, viewer: Viewer) -> String {
        let mut out = format!("round {}/{} course {}", s.round + 1, self.course, self.course);
        for p in 0..self.players {
            let choice = match s.setting[p] {
                0 => "-".to_string(),
                c if viewer.sees_private(p) => c.to_string(),
                _ => "set".to_string(),
            };
            out.push_str(&format!(" | P{p} at {} sails {choice} (last {})", s.position[p], s.revealed[p]));
        }
        if self.pace_boat {
            out.push_str(&format!(" | pace boat at {}", s.pace));
        }
        out
    }

    /// A round moves a boat at most 3 + 2 spaces (the pace boat 3), over at most `course`
    /// rounds; settings are 1 to 3.
    fn observation(&self, s: &State, player: usize, t: &mut Tensor<'_>) {
        let (rounds, course) = (self.course as f32, (5 * self.course) as f32);
        t.field("round", 1, 0.0, rounds).put(s.round as f32);
        let mut positions = t.field("positions", MAX_SEATS, 0.0, course);
        for p in 0..self.players {
            positions.put(s.position[p] as f32);
        }
        t.field("pace boat", 1, 0.0, course).put(s.pace as f32);
        t.field("own setting", 3, 0.0, 1.0).one_hot(3, (s.setting[player] as usize).wrapping_sub(1));
        let mut set = t.field("set", MAX_SEATS, 0.0, 1.0);
        for p in 0..self.players {
            set.put((s.setting[p] != 0) as u8 as f32);
        }
        let mut revealed = t.field("revealed", MAX_SEATS, 0.0, 3.0);
        for p in 0..self.players {
            revealed.put(s.revealed[p] as f32);
        }
    }
}

impl Resample for Regatta {
    /// The other seats' settings of this round are hidden: drawn uniformly.
    fn resample(&self, s: &State, player: usize, rng: &mut Rng) -> State {
        let mut r = s.clone();
        for p in (0..self.players).filter(|&p| p != player && s.setting[p] != 0) {
            r.setting[p] = below(rng, 3) as u8 + 1;
        }
        r
    }
}

impl Positions for Regatta {
    fn validate_state(&self, s: &State) -> Result<()> {
        let bad = |m: String| Err(EngineError::StateFormat(m));
        if s.round > self.course {
            return bad(format!("round {} is past the last round {}", s.round, self.course));
        }
        let leader = s.position[..self.players].iter().copied().chain([s.pace]).max().unwrap_or(0);
        let over = leader >= self.course || s.round >= self.course;
        // Sails are set and the wind blows only in a race that is not over; it is over exactly
        // when a boat has finished or the last round is played.
        let racing = matches!(s.phase, Phase::Choose(_) | Phase::Wind);
        if (racing && over) || (s.phase == Phase::Over && !over) || (s.phase == Phase::Pace && s.round >= self.course) {
            return bad(format!("the phase {:?} does not fit round {} with the leader at {leader}", s.phase, s.round));
        }
        // A boat moves at most 4 spaces a round (sails 3 capsize in a wind of 2); 5 bounds it.
        if s.position[..self.players].iter().chain([&s.pace]).any(|&x| x > 5 * self.course) {
            return bad("a boat is further than any race can take it".into());
        }
        if s.position[self.players..].iter().any(|&x| x != 0) || s.revealed[self.players..].iter().any(|&x| x != 0) {
            return bad("a seat beyond the players has a boat".into());
        }
        if !self.pace_boat && s.pace != 0 {
            return bad("the pace boat moved in a race without it".into());
        }
        if s.setting.iter().chain(&s.revealed).any(|&c| c > 3) {
            return bad("a sail setting is not 1, 2 or 3".into());
        }
        let chosen = match s.phase {
            Phase::Choose(p) if (p as usize) < self.players => p as usize,
            Phase::Choose(p) => return bad(format!("seat {p} chooses in a game of {} seats", self.players)),
            Phase::Wind => self.players,
            Phase::Pace if self.pace_boat => self.players,
            Phase::Pace => return bad("the pace boat moves in a race without it".into()),
            Phase::Over => 0,
        };
        if (0..MAX_SEATS).any(|p| (s.setting[p] != 0) != (p < chosen)) {
            return bad("the seats that have set their sails do not match whose turn it is".into());
        }
        Ok(())
    }

    /// `{"positions": [..], "pace": n, "round": r}`: a round about to begin.
    fn setup(&self, d: &Value) -> Result<State> {
        let obj = d.as_object().ok_or_else(|| EngineError::setup("(description)", "a JSON object"))?;
        let mut s = self.initial_state();
        let num = |v: &Value, field: &str| v.as_u64().filter(|&n| n <= 1000).map(|n| n as u32)
            .ok_or_else(|| EngineError::setup(field, "an integer in 0..=1000"));
        for (key, v) in obj {
            match key.as_str() {
                "positions" => {
                    let list = v.as_array().filter(|l| l.len() == self.players)
                        .ok_or_else(|| EngineError::setup("positions", format!("a list of {} positions", self.players)))?;
                    for (p, x) in list.iter().enumerate() {
                        s.position[p] = num(x, &format!("positions[{p}]"))?;
                    }
                }
                "pace" => s.pace = num(v, "pace")?,
                "round" => s.round = num(v, "round")?,
                other => return Err(EngineError::setup(other, "unknown field; fields: positions, pace, round")),
            }
        }
        let leader = s.position[..self.players].iter().copied().chain([s.pace]).max().unwrap_or(0);
        if leader >= self.course || s.round >= self.course {
            s.phase = Phase::Over;
        }
        self.validate_state(&s).map_err(|e| EngineError::setup("(description)", e.to_string()))?;
        Ok(s)
    }
}

impl Describe for Regatta {
    fn describe_move(&self, before: &State, a: Action, after: &State, observer: Option<usize>) -> String {
        match before.phase {
            Phase::Choose(p) if observer.is_none_or(|o| o == p as usize) => {
                format!("P{p} sets sails to {} in secret.", a + 1)
            }
            Phase::Choose(p) => format!("P{p} sets sails in secret."),
            Phase::Wind => {
                let mut parts = Vec::new();
                for p in 0..self.players {
                    let set = before.setting[p];
                    let (from, to) = (before.position[p], after.position[p]);
                    let shares: Vec<String> =
                        (0..self.players).filter(|&q| q != p && before.setting[q] == set).map(|q| format!("P{q}")).collect();
                    let why = if Self::capsizes(set as u32, a) {
                        format!(" (sails {set} capsize in a wind of {a})")
                    } else if !shares.is_empty() {
                        format!(" (same sails as {}: one less)", shares.join(", "))
                    } else {
                        String::new()
                    };
                    parts.push(format!("P{p} at sails {set} moves {} to {to}{why}", to - from));
                }
                format!("The wind blows {a}: {}.", parts.join("; "))
            }
            Phase::Pace => format!("The pace boat moves {} to {}.", after.pace - before.pace, after.pace),
            Phase::Over => String::new(),
        }
    }
}

impl Evaluate for Regatta {}
