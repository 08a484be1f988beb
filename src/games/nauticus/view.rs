//! What players see: the text of the table, the observation tensor, action names and the
//! score report. Everything in Nauticus is open information, so every seat sees the whole
//! table; observations differ only in whose seat comes first.

use std::fmt::Write;

use crate::engine::{Action, ScoreReport};
use crate::engine::prelude::*;
use crate::engine::words::plural;

use super::actions::*;
use super::data::{tile_category, Category, CROWN_MAST, CROWN_SAIL, GOODS, KINDS, MAX_SHIPS, TILES};
use super::state::{Ship, State, Step, MAIN_DONE, MAX_PLAYERS, NONE};
use super::Nauticus;

const STEPS: usize = 9;
const GLOBAL: usize = 2 + MAX_PLAYERS + STEPS + 8 * 8 + 8 * 5 + KINDS;
const TURN: usize = MAX_PLAYERS + 3 + 8 + 1 + 1 + 4 + 1 + KINDS + 1 + 1 + 6 + 1 + 4 + 1;
const PER_PLAYER: usize = 8 + KINDS + 4;
const PER_SHIP: usize = 1 + MAX_PLAYERS + 4 + 5 + 5 + 4 + 1;

/// Length of the observation tensor.
pub const fn tensor_len() -> usize {
    GLOBAL + TURN + MAX_PLAYERS * PER_PLAYER + MAX_SHIPS * PER_SHIP
}

fn step_index(s: Step) -> usize {
    match s {
        Step::Deal => 0,
        Step::Choose => 1,
        Step::BonusTile => 2,
        Step::Turn => 3,
        Step::Place => 4,
        Step::Gift => 5,
        Step::Reward => 6,
        Step::RewardGood => 7,
        Step::GameOver => 8,
    }
}

impl Nauticus {
    /// A ship in words: "bow+centre, 1 whale mast, 1 crown sail, cargo coffee (complete)".
    pub fn ship_words(&self, sh: &Ship) -> String {
        let mut hull = Vec::new();
        if sh.single {
            hull.push("single hull");
        } else {
            if sh.bow {
                hull.push("bow");
            }
            for _ in 0..sh.centres {
                hull.push("centre");
            }
            if sh.stern {
                hull.push("stern");
            }
        }
        let mut out = hull.join("+");
        let coat = if sh.coat == NONE { String::new() } else { format!(" {}", self.data.coats[sh.coat as usize]) };
        if sh.masts > 0 {
            let _ = write!(out, ", {}{coat} mast{}", sh.masts, if sh.masts > 1 { "s" } else { "" });
        }
        if sh.crown_masts > 0 {
            let _ = write!(out, ", {} crown mast{}", sh.crown_masts, if sh.crown_masts > 1 { "s" } else { "" });
        }
        if sh.sails > 0 {
            let _ = write!(out, ", {}{coat} sail{}", sh.sails, if sh.sails > 1 { "s" } else { "" });
        }
        if sh.crown_sails > 0 {
            let _ = write!(out, ", {} crown sail{}", sh.crown_sails, if sh.crown_sails > 1 { "s" } else { "" });
            let r = sh.crown_sails_on_regular_masts;
            let on = if r > 1 { "regular masts" } else { "a regular mast" };
            if r == sh.crown_sails {
                let _ = write!(out, " on {on}");
            } else if r > 0 {
                let _ = write!(out, ", {r} on {on}");
            }
        }
        if sh.cargo() > 0 {
            let cargo: Vec<String> = (0..4)
                .filter(|&g| sh.goods[g] > 0)
                .map(|g| if sh.goods[g] > 1 { format!("{} {}", sh.goods[g], GOODS[g]) } else { GOODS[g].to_string() })
                .collect();
            let _ = write!(out, ", cargo {}", cargo.join(" and "));
        }
        if sh.complete() {
            out.push_str(" (complete)");
        }
        out
    }

    /// The player's `ord`-th ship in words, in parentheses (nothing when there is no such ship).
    fn ship_words_of(&self, s: &State, p: usize, ord: usize) -> String {
        match s.ship_index(p, ord) {
            Some(i) => format!(" ({})", self.ship_words(&s.ships[i])),
            None => String::new(),
        }
    }

    fn pending_name(&self, s: &State) -> String {
        if (s.turn.pending as usize) < KINDS {
            self.data.kind_name(s.turn.pending)
        } else {
            "tile".into()
        }
    }

    pub(crate) fn kind_with_article(&self, k: u8) -> String {
        let name = self.data.kind_name(k);
        if k >= super::data::GOOD {
            return name;
        }
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("{article} {name}")
    }

    pub(crate) fn bonus_words(&self, space: usize) -> String {
        let b = &self.data.bonuses[space];
        let mut parts = Vec::new();
        if b.workers > 0 {
            parts.push(format!("{} worker{}", b.workers, if b.workers > 1 { "s" } else { "" }));
        }
        match b.choice {
            Some(Category::Mast) => parts.push("a mast".into()),
            Some(Category::Sail) => parts.push("a sail".into()),
            Some(_) => parts.push("a good".into()),
            None => {}
        }
        if b.points > 0 {
            parts.push(format!("{} victory point{}", b.points, if b.points > 1 { "s" } else { "" }));
        }
        if b.taler > 0 {
            parts.push(format!("{} Taler", b.taler));
        }
        parts.join(" + ")
    }

    fn kinds_words(&self, counts: &[u8; KINDS]) -> String {
        let parts: Vec<String> = (0..KINDS)
            .filter(|&k| counts[k] > 0)
            .map(|k| format!("{} {}", counts[k], self.data.kind_name(k as u8)))
            .collect();
        if parts.is_empty() {
            "empty".into()
        } else {
            parts.join(", ")
        }
    }

    pub(super) fn situation(&self, s: &State) -> String {
        let t = &s.turn;
        match s.step {
            Step::Deal => format!("The action tiles are being laid out ({} of 8).", s.dealt),
            Step::GameOver => "Final scoring.".into(),
            Step::Choose => format!("P{} chooses an action.", s.start),
            Step::BonusTile => format!("P{} chooses the bonus tile.", s.start),
            _ => {
                let tile = TILES[s.spaces[s.space as usize] as usize];
                let mut line = format!("Action: {tile}. P{} ", t.actor);
                if t.session != NONE {
                    let _ = write!(
                        line,
                        "is carrying out {}{}",
                        if t.extra { "the extra action " } else { "" },
                        TILES[t.session as usize]
                    );
                    if !t.extra {
                        let _ = write!(line, " ({} left)", plural(t.blue as u32, "blue worker", "blue workers"));
                    }
                    if !t.used {
                        line.push_str(", no use yet");
                    }
                    if let Some(category) = tile_category(t.session) {
                        // What was bought in this action sets the price of another of it.
                        let bought: Vec<String> = (0..4u8)
                            .filter(|&i| t.bought[i as usize] > 0)
                            .map(|i| format!("{} {}", t.bought[i as usize], self.data.kind_name(category.first() + i)))
                            .collect();
                        if !bought.is_empty() {
                            let _ = write!(line, ", bought {}", bought.join(", "));
                        }
                    }
                } else if t.main == MAIN_DONE {
                    line.push_str("has finished the action");
                } else {
                    let _ = write!(line, "decides ({})", plural(t.blue as u32, "blue worker", "blue workers"));
                }
                match s.step {
                    Step::Place => {
                        let _ = write!(line, "; places the {}", self.data.kind_name(t.pending));
                    }
                    Step::Gift => line.push_str("; chooses the gift"),
                    Step::Reward | Step::RewardGood => {
                        let _ = write!(line, "; chooses {} more", plural(t.rewards_left as u32, "reward", "rewards"));
                    }
                    _ => {}
                }
                line.push('.');
                line
            }
        }
    }

    /// One seat's final scoring as the rulebook counts it (at any moment: what the end would
    /// give now), without allocating.
    pub(crate) fn tally(&self, s: &State, p: usize) -> Tally {
        let r = &self.data.rules;
        let pl = &s.players[p];
        let goods: u32 = pl.delivered.iter().map(|&n| self.data.set_value(n as u32)).sum();
        let mut ships = 0;
        let mut material = pl.workers + pl.warehouse.iter().map(|&n| n as u32).sum::<u32>();
        for (_, sh) in s.ships_of(p) {
            if sh.complete() {
                ships += self.data.ship_points[sh.parts() as usize - 1];
            } else {
                material += sh.material();
            }
            material += sh.cargo() as u32;
        }
        let taler = pl.taler + material;
        Tally {
            track: pl.points,
            goods,
            ships,
            material: taler / r.taler_per_point,
            left_over: taler % r.taler_per_point,
            taler,
        }
    }
}

/// One seat's final scoring, category by category, and its tie-breakers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    pub track: i32,
    pub goods: u32,
    pub ships: u32,
    /// Points for remaining material and money.
    pub material: u32,
    /// Taler left after the conversion into points (0 to 2).
    pub left_over: u32,
    /// Taler in all, the converted material included.
    pub taler: u32,
}

impl Tally {
    pub fn total(&self) -> i64 {
        self.track as i64 + (self.goods + self.ships + self.material) as i64
    }
}

impl View for Nauticus {
    /// Everything is open information: every viewer sees the whole table.
    fn text(&self, s: &State, _viewer: Viewer) -> String {
        let mut o = String::new();
        let rounds = self.rounds;
        if s.step == Step::GameOver {
            let _ = writeln!(o, "Nauticus: the game is over after {rounds} rounds");
        } else {
            let _ = writeln!(
                o,
                "Nauticus: round {} of {rounds}, action phase {} of {}; start player P{}",
                s.round + 1,
                (s.phases + 1).min(self.data.rules.phases_per_round),
                self.data.rules.phases_per_round,
                s.start
            );
        }
        let _ = writeln!(o, "The turntable's anchor points to space {}.", s.pointing + 1);
        for sp in 0..8 {
            let tile = s.spaces[sp];
            let name = if tile == NONE { "(no tile yet)" } else { TILES[tile as usize] };
            let mut marks = Vec::new();
            if s.face_down & (1 << sp) != 0 {
                marks.push("turned over");
            }
            if s.anchor as usize == sp {
                marks.push("anchor tile");
            }
            if s.space as usize == sp {
                marks.push("chosen");
            }
            let prices = self.data.prices[sp].map(|p| p.to_string()).join("/");
            let _ = writeln!(
                o,
                "  space {}: {:<16} bonus {:<31} blue workers {}  prices {}{}",
                sp + 1,
                name,
                self.bonus_words(sp),
                self.blue_workers(s, sp as u8),
                prices,
                if marks.is_empty() { String::new() } else { format!("  [{}]", marks.join(", ")) }
            );
        }
        let _ = writeln!(o, "Supply: {}", self.kinds_words(&s.stock));
        for p in 0..self.players {
            let pl = &s.players[p];
            let _ = writeln!(
                o,
                "P{p}: {} {}, {} Taler, {}, {} of 3 pass tiles turned, {}{}",
                pl.points,
                if pl.points == 1 { "point" } else { "points" },
                pl.taler,
                plural(pl.workers, "worker", "workers"),
                pl.passes,
                plural(s.crowns(p), "crown", "crowns"),
                if pl.extra { ", holds the extra action" } else { "" }
            );
            let _ = writeln!(
                o,
                "    warehouse ({} of {} spaces): {}",
                s.warehouse_used(p, self.data.rules.mast_spaces),
                self.data.rules.warehouse_spaces,
                self.kinds_words(&pl.warehouse)
            );
            for (ord, (_, sh)) in s.ships_of(p).enumerate() {
                let _ = writeln!(o, "    ship {}: {}", ord + 1, self.ship_words(sh));
            }
            if pl.delivered.iter().any(|&n| n > 0) {
                let d: Vec<String> = (0..4).filter(|&g| pl.delivered[g] > 0).map(|g| format!("{} {}", pl.delivered[g], GOODS[g])).collect();
                let _ = writeln!(o, "    delivered: {}", d.join(", "));
            }
        }
        let _ = writeln!(o, "{}", self.situation(s));
        o
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.tally(state, p).total() as f64;
        }
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        let p = s.turn.actor as usize;
        if s.step == Step::Deal {
            let space = (s.dealt as usize).min(7);
            return match TILES.get(a as usize) {
                Some(t) => format!("lay on space {}: {t} (bonus {})", space + 1, self.bonus_words(space)),
                None => format!("chance outcome {a}"),
            };
        }
        match a {
            a if a < PICK => format!("choose: {}", TILES[(a - CHOOSE) as usize]),
            a if a < BUY => {
                let k = (a - PICK) as u8;
                let why = match s.step {
                    Step::BonusTile => "as the bonus",
                    Step::Gift => "as the gift",
                    _ => "as a reward",
                };
                format!("take {why}: {}", self.kind_with_article(k))
            }
            a if a < TAKE => {
                let k = (a - BUY) as u8;
                let buying = s.step == Step::Turn && s.space != NONE && k != CROWN_MAST && k != CROWN_SAIL;
                if buying {
                    format!("buy: {} for {} Taler", self.kind_with_article(k), self.price(s, k))
                } else {
                    format!("buy: {}", self.kind_with_article(k))
                }
            }
            a if a < TO_WAREHOUSE => format!("transport: {} from the warehouse", self.kind_with_article((a - TAKE) as u8)),
            TO_WAREHOUSE => format!("put in the warehouse: the {}", self.pending_name(s)),
            NEW_SHIP => format!("begin a new ship: the {}", self.pending_name(s)),
            a if a < WITHDRAW_ONE => {
                let verb = if s.turn.pending >= super::data::GOOD && s.turn.pending != NONE { "load" } else { "put" };
                let ord = (a - TO_SHIP) as usize;
                format!("{verb} on ship {}: the {}{}", ord + 1, self.pending_name(s), self.ship_words_of(s, p, ord))
            }
            WITHDRAW_ONE => format!("withdraw {} Taler for a worker", self.data.rules.taler_per_worker),
            SCORE_ONE if s.step == Step::Turn => {
                format!("score the crowns with a worker: {}", plural(self.crown_gain(s), "point", "points"))
            }
            SCORE_ONE => "score the crowns with a worker".into(),
            a if a < REWARD => {
                let ord = (a - DELIVER_SHIP) as usize;
                match s.ship_index(p, ord) {
                    Some(i) => format!("deliver the cargo of ship {}: {}", ord + 1, self.ship_words(&s.ships[i])),
                    None => format!("deliver the cargo of ship {}", ord + 1),
                }
            }
            a if a < PASS => {
                let w = &self.data.rewards;
                match a - REWARD {
                    0 => "reward: a crown mast".into(),
                    1 => "reward: a crown sail".into(),
                    2 => format!("reward: {}", plural(w.points, "victory point", "victory points")),
                    3 => format!("reward: {} Taler", w.taler),
                    4 => format!("reward: {}", plural(w.workers, "worker", "workers")),
                    _ => format!("reward: {} different goods", w.goods),
                }
            }
            PASS => "pass".into(),
            FINISH => if s.turn.extra { "finish the extra action".into() } else { "finish the action".into() },
            END_TURN => "end the turn".into(),
            a if a < NUM_ACTIONS as Action => format!("use the extra action: {}", TILES[(a - EXTRA) as usize]),
            _ => format!("action {a}"),
        }
    }

    /// The fields of `docs/games/nauticus.md`, "Observation tensor". The flags and one-hot
    /// fields are 0 or 1; a count is bounded by what its state field holds (points, which
    /// penalties can take below 0, by an `i32`'s range), the blue workers of a space by the
    /// turntable's largest number.
    fn observation(&self, s: &State, player: usize, t: &mut Tensor<'_>) {
        let (byte, word) = (u8::MAX as f32, u32::MAX as f32);
        let n = self.players;
        let rel = |p: usize| (p + n - player) % n;
        t.field("round", 1, 0.0, byte).put(s.round as f32);
        t.field("action phases", 1, 0.0, byte).put(s.phases as f32);
        t.field("start player", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, rel(s.start as usize));
        t.field("step", STEPS, 0.0, 1.0).one_hot(STEPS, step_index(s.step));
        let mut f = t.field("spaces", 8 * 8, 0.0, 1.0);
        for sp in 0..8 {
            f.one_hot(8, s.spaces[sp] as usize);
        }
        let mut f = t.field("turned over", 8, 0.0, 1.0);
        for sp in 0..8 {
            f.put((s.face_down >> sp & 1) as f32);
        }
        t.field("anchor tile", 8, 0.0, 1.0).one_hot(8, s.anchor as usize);
        t.field("turntable", 8, 0.0, 1.0).one_hot(8, s.pointing as usize);
        t.field("chosen space", 8, 0.0, 1.0).one_hot(8, s.space as usize);
        let most_blue = self.data.turntable.iter().copied().max().unwrap_or(0) as f32;
        let mut f = t.field("blue workers", 8, 0.0, most_blue);
        for sp in 0..8u8 {
            f.put(self.blue_workers(s, sp) as f32);
        }
        let mut f = t.field("supply", KINDS, 0.0, byte);
        for k in 0..KINDS {
            f.put(s.stock[k] as f32);
        }
        let tn = &s.turn;
        let in_turn = !matches!(s.step, Step::Deal | Step::Choose | Step::BonusTile | Step::GameOver);
        t.field("actor", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, if in_turn { rel(tn.actor as usize) } else { usize::MAX });
        t.field("chosen action", 3, 0.0, 1.0).one_hot(3, if in_turn { tn.main as usize } else { usize::MAX });
        t.field("action in hand", 8, 0.0, 1.0).one_hot(8, tn.session as usize);
        t.field("extra action in hand", 1, 0.0, 1.0).put(tn.extra as u8 as f32);
        t.field("blue workers left", 1, 0.0, byte).put(if in_turn { tn.blue as f32 } else { 0.0 });
        let mut f = t.field("bought", 4, 0.0, byte);
        for i in 0..4 {
            f.put(tn.bought[i] as f32);
        }
        t.field("gift owed", 1, 0.0, 1.0).put(tn.gift_due as u8 as f32);
        t.field("pending tile", KINDS, 0.0, 1.0).one_hot(KINDS, tn.pending as usize);
        t.field("paid", 1, 0.0, 1.0).put(tn.paid as u8 as f32);
        t.field("rewards left", 1, 0.0, byte).put(tn.rewards_left as f32);
        let mut f = t.field("rewards taken", 6, 0.0, byte);
        for r in 0..6 {
            f.put(tn.rewards_taken[r] as f32);
        }
        t.field("reward goods left", 1, 0.0, byte).put(tn.reward_goods_left as f32);
        let mut f = t.field("reward goods taken", 4, 0.0, 1.0);
        for g in 0..4 {
            f.put((tn.reward_goods_taken >> g & 1) as f32);
        }
        t.field("used", 1, 0.0, 1.0).put(tn.used as u8 as f32);
        let mut f = t.field_with("players", MAX_PLAYERS * PER_PLAYER, |b| {
            for _ in 0..MAX_PLAYERS {
                b.put(2, 0.0, word);
                b.put(1, i32::MIN as f32, i32::MAX as f32);
                b.put(1, 0.0, byte);
                b.put(1, 0.0, 1.0);
                b.put(3, 0.0, word);
                b.put(KINDS + 4, 0.0, byte);
            }
        });
        for slot in 0..MAX_PLAYERS {
            if slot >= n {
                f.skip(PER_PLAYER);
                continue;
            }
            let p = (player + slot) % n;
            let pl = &s.players[p];
            f.put(pl.taler as f32);
            f.put(pl.workers as f32);
            f.put(pl.points as f32);
            f.put(pl.passes as f32);
            f.put(pl.extra as u8 as f32);
            f.put(pl.crown_points as f32);
            f.put(pl.extra_crown_points as f32);
            f.put(s.crowns(p) as f32);
            for k in 0..KINDS {
                f.put(pl.warehouse[k] as f32);
            }
            for g in 0..4 {
                f.put(pl.delivered[g] as f32);
            }
        }
        let mut f = t.field_with("ships", MAX_SHIPS * PER_SHIP, |b| {
            for _ in 0..MAX_SHIPS {
                b.put(1 + MAX_PLAYERS + 3, 0.0, 1.0);
                b.put(1, 0.0, byte);
                b.put(5, 0.0, 1.0);
                b.put(5 + 4, 0.0, byte);
                b.put(1, 0.0, 1.0);
            }
        });
        for i in 0..MAX_SHIPS {
            let sh = &s.ships[i];
            if i >= s.num_ships as usize {
                f.skip(PER_SHIP);
                continue;
            }
            f.put(1.0);
            f.one_hot(MAX_PLAYERS, rel(sh.owner as usize));
            f.put(sh.single as u8 as f32);
            f.put(sh.bow as u8 as f32);
            f.put(sh.stern as u8 as f32);
            f.put(sh.centres as f32);
            f.one_hot(5, if sh.coat == NONE { 4 } else { sh.coat as usize });
            f.put(sh.masts as f32);
            f.put(sh.crown_masts as f32);
            f.put(sh.sails as f32);
            f.put(sh.crown_sails as f32);
            f.put(sh.crown_sails_on_regular_masts as f32);
            for g in 0..4 {
                f.put(sh.goods[g] as f32);
            }
            f.put(sh.complete() as u8 as f32);
        }
    }

    fn score_report(&self, s: &State) -> ScoreReport {
        let r = &self.data.rules;
        let categories = ["victory point track", "delivered goods", "completed ships", "remaining material"]
            .map(String::from)
            .to_vec();
        let tallies: Vec<Tally> = (0..self.players).map(|p| self.tally(s, p)).collect();
        let points: Vec<Vec<f64>> = tallies
            .iter()
            .map(|t| vec![t.track as f64, t.goods as f64, t.ships as f64, t.material as f64])
            .collect();
        ScoreReport {
            categories,
            totals: tallies.iter().map(|t| t.total() as f64).collect(),
            points,
            tie_breakers: vec!["Taler left after the conversion (0 to 2)".into(), "Taler in all".into()],
            tie_breaker_values: tallies.iter().map(|t| vec![t.left_over as f64, t.taler as f64]).collect(),
            winners: self.winners(s),
            terminal: s.step == Step::GameOver,
            truncated: false,
            notes: vec![format!(
                "remaining material: workers, warehouse tiles, parts of unfinished ships and undelivered goods are 1 Taler each; 1 point per {} Taler",
                r.taler_per_point
            )],
            ..ScoreReport::default()
        }
    }
}

/// Nothing is hidden: the state itself is the only consistent one (the default).
impl Resample for Nauticus {}
