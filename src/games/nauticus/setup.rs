//! Positions from readable descriptions (the setup helper), and the validation of states
//! that come from outside.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::engine::{field_errors, EngineError, Result};
use crate::engine::prelude::*;

use super::data::{tile_category, Category, BOW, CENTRE, COATS, CROWN_MAST, CROWN_SAIL, GOOD, GOODS, KINDS, MAST, MAX_SHIPS, SAIL, SINGLE, STERN, TILES};
use super::state::{Ship, State, Step, Turn, MAIN_ACTING, MAIN_DONE, MAIN_OPEN, NONE};
use super::Nauticus;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipDesc {
    /// Hull tiles: ["single hull"], or some of "bow", "centre", "stern".
    hull: Vec<String>,
    /// The coat of arms of its regular masts (and of its regular sails, which sit on them).
    coat: Option<String>,
    #[serde(default)]
    masts: u8,
    #[serde(default)]
    crown_masts: u8,
    #[serde(default)]
    sails: u8,
    #[serde(default)]
    crown_sails: u8,
    /// Of the crown sails, those standing on regular masts; by default those the crown masts
    /// cannot carry (a crown sail stands on a crown mast while one is free; ruling 1).
    crown_sails_on_regular_masts: Option<u8>,
    #[serde(default)]
    goods: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerDesc {
    taler: Option<u32>,
    workers: Option<u32>,
    points: Option<i32>,
    #[serde(default)]
    passes: u8,
    extra: Option<bool>,
    #[serde(default)]
    crown_points: u32,
    #[serde(default)]
    extra_crown_points: u32,
    /// Tiles by name ("bow", "whale mast", "crown sail", "coffee").
    #[serde(default)]
    warehouse: BTreeMap<String, u8>,
    #[serde(default)]
    delivered: BTreeMap<String, u8>,
    #[serde(default)]
    ships: Vec<ShipDesc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Desc {
    #[serde(default)]
    round: u8,
    #[serde(default)]
    phases: u8,
    #[serde(default)]
    start: u8,
    /// The action space (1..=8) the turntable's anchor points to.
    pointing: Option<u8>,
    /// The action tile on each space, by name, in space order.
    spaces: Option<Vec<String>>,
    /// Action tiles already turned over this round.
    #[serde(default)]
    turned: Vec<String>,
    /// The tile carrying the anchor tile (the first action of the round).
    anchor: Option<String>,
    /// The action just chosen (its bonus already taken): the turn of `actor` begins.
    chosen: Option<String>,
    actor: Option<u8>,
    #[serde(default)]
    players: Vec<PlayerDesc>,
}

fn tile_of(field: &str, name: &str) -> Result<u8> {
    TILES
        .iter()
        .position(|t| *t == name)
        .map(|t| t as u8)
        .ok_or_else(|| EngineError::setup(field, format!("{name:?} is not an action tile; tiles are {TILES:?}")))
}

impl Nauticus {
    fn kind_of(&self, field: &str, name: &str) -> Result<u8> {
        (0..KINDS as u8)
            .find(|&k| self.data.kind_name(k) == name)
            .ok_or_else(|| EngineError::setup(field, format!("{name:?} is not a tile (\"bow\", \"whale mast\", \"crown sail\", \"coffee\", ...)")))
    }

    fn ship_from(&self, owner: u8, d: &ShipDesc, at: &str) -> Result<Ship> {
        let f = |x: &str| format!("{at}.{x}");
        let mut sh = Ship { owner, ..Ship::default() };
        let mut hull = [0u8; 4];
        for (i, name) in d.hull.iter().enumerate() {
            match super::data::HULLS.iter().position(|h| h == name) {
                Some(k) => hull[k] += 1,
                None => return Err(EngineError::setup(f(&format!("hull[{i}]")), format!("hull parts are {:?}", super::data::HULLS))),
            }
        }
        if hull[SINGLE as usize] > 0 {
            if d.hull.len() != 1 {
                return Err(EngineError::setup(f("hull"), "a single hull is a ship of its own"));
            }
            sh.single = true;
        } else {
            if d.hull.is_empty() {
                return Err(EngineError::setup(f("hull"), "a ship has at least one hull part"));
            }
            if hull[BOW as usize] > 1 || hull[STERN as usize] > 1 || hull[CENTRE as usize] > 2 {
                return Err(EngineError::setup(f("hull"), "at most a bow, 2 centres and a stern"));
            }
            sh.bow = hull[BOW as usize] == 1;
            sh.stern = hull[STERN as usize] == 1;
            sh.centres = hull[CENTRE as usize];
        }
        if d.sails > d.masts {
            return Err(EngineError::setup(f("sails"), "a regular sail sits on a regular mast of its coat of arms: no more regular sails than regular masts"));
        }
        sh.masts = d.masts;
        sh.crown_masts = d.crown_masts;
        sh.sails = d.sails;
        sh.crown_sails = d.crown_sails;
        let on_regular = d.crown_sails_on_regular_masts.unwrap_or(d.crown_sails.saturating_sub(d.crown_masts));
        let field = if d.crown_sails_on_regular_masts.is_some() { "crown_sails_on_regular_masts" } else { "crown_sails" };
        if on_regular > d.crown_sails {
            return Err(EngineError::setup(f(field), "more crown sails on regular masts than crown sails"));
        }
        if d.crown_sails - on_regular > d.crown_masts {
            return Err(EngineError::setup(f(field), "a crown mast carries one crown sail: no more crown sails on crown masts than crown masts"));
        }
        if d.sails + on_regular > d.masts {
            return Err(EngineError::setup(f(field), "a regular mast carries one sail: no more regular sails and crown sails on regular masts than regular masts"));
        }
        sh.crown_sails_on_regular_masts = on_regular;
        match &d.coat {
            Some(c) => match self.data.coats.iter().position(|x| x == c) {
                Some(i) if d.masts > 0 => sh.coat = i as u8,
                Some(_) => return Err(EngineError::setup(f("coat"), "a coat of arms comes with a regular mast")),
                None => return Err(EngineError::setup(f("coat"), format!("coats of arms are {:?}", self.data.coats))),
            },
            None if d.masts + d.sails > 0 => return Err(EngineError::setup(f("coat"), "regular masts and sails need their coat of arms")),
            None => {}
        }
        for (name, &c) in &d.goods {
            let Some(g) = GOODS.iter().position(|x| x == name) else {
                return Err(EngineError::setup(f(&format!("goods.{name}")), format!("goods are {GOODS:?}")));
            };
            sh.goods[g] = c;
        }
        ship_problem(&sh).map_or(Ok(sh), |m| Err(EngineError::setup(at, m)))
    }

    /// Tiles of each kind outside the supply: in warehouses, on ships, delivered, and the
    /// tile waiting to be placed.
    fn held(&self, s: &State) -> [u32; KINDS] {
        let mut held = [0u32; KINDS];
        for pl in s.players.iter() {
            for k in 0..KINDS {
                held[k] += pl.warehouse[k] as u32;
            }
            for g in 0..4 {
                held[GOOD as usize + g] += pl.delivered[g] as u32;
            }
        }
        for sh in &s.ships[..(s.num_ships as usize).min(MAX_SHIPS)] {
            held[SINGLE as usize] += sh.single as u32;
            held[BOW as usize] += sh.bow as u32;
            held[STERN as usize] += sh.stern as u32;
            held[CENTRE as usize] += sh.centres as u32;
            held[CROWN_MAST as usize] += sh.crown_masts as u32;
            held[CROWN_SAIL as usize] += sh.crown_sails as u32;
            if (sh.coat as usize) < COATS {
                held[(MAST + sh.coat) as usize] += sh.masts as u32;
                held[(SAIL + sh.coat) as usize] += sh.sails as u32;
            }
            for g in 0..4 {
                held[GOOD as usize + g] += sh.goods[g] as u32;
            }
        }
        if s.step == Step::Place && (s.turn.pending as usize) < KINDS {
            held[s.turn.pending as usize] += 1;
        }
        held
    }

    /// The invariants of a state that came from outside.
    pub(crate) fn validate(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.players;
        let r = &self.data.rules;
        if s.round >= self.rounds && s.step != Step::GameOver {
            return Err(format!("round {} of a {}-round game", s.round, self.rounds));
        }
        if s.round > self.rounds {
            return Err("past the last round".into());
        }
        if s.phases >= r.phases_per_round {
            return Err(format!("{} action phases in a round of {}", s.phases, r.phases_per_round));
        }
        if s.start as usize >= n || s.pointing >= 8 {
            return Err("start player or turntable out of range".into());
        }
        // The action tiles.
        if s.dealt > 8 || s.dealt == 7 {
            return Err(format!("{} tiles dealt", s.dealt));
        }
        for i in 0..8 {
            let t = s.spaces[i];
            if (i < s.dealt as usize) != (t != NONE) || (t != NONE && (t >= 8 || s.spaces[..i].contains(&t))) {
                return Err(format!("space {} holds {t}", i + 1));
            }
        }
        let dealing = s.step == Step::Deal;
        if dealing != (s.dealt < 8) && s.step != Step::GameOver {
            return Err("the tiles are laid out exactly when the dealing is over".into());
        }
        if s.face_down.count_ones() != s.phases as u32 || (s.dealt < 8 && s.face_down != 0) {
            return Err("the tiles turned over do not match the action phases".into());
        }
        if (s.phases == 0) != (s.anchor == NONE) || (s.anchor != NONE && (s.anchor >= 8 || s.face_down & (1 << s.anchor) == 0)) {
            return Err("the anchor tile lies on the first action of the round".into());
        }
        let in_phase = !matches!(s.step, Step::Deal | Step::Choose | Step::GameOver);
        if in_phase != (s.space != NONE) || (s.space != NONE && (s.space >= 8 || s.face_down & (1 << s.space) != 0)) {
            return Err("the chosen action lies on a face-up space exactly during an action phase".into());
        }
        // Players.
        for (p, pl) in s.players.iter().enumerate() {
            if p >= n {
                if *pl != super::state::Player::default() {
                    return Err(format!("player {p} does not exist"));
                }
                continue;
            }
            if pl.passes > 3 || pl.crown_points > r.crown_cap || pl.extra_crown_points > r.crown_cap {
                return Err(format!("player {p}: pass tiles or crown points out of range"));
            }
            if pl.taler > 1 << 24 || pl.workers > 1 << 24 || pl.points.unsigned_abs() > 1 << 24 {
                return Err(format!("player {p}: counts out of range"));
            }
            if s.warehouse_used(p, r.mast_spaces) > r.warehouse_spaces {
                return Err(format!("player {p}: the warehouse is over full"));
            }
        }
        // Ships.
        if s.num_ships as usize > MAX_SHIPS {
            return Err("too many ships".into());
        }
        for (i, sh) in s.ships.iter().enumerate() {
            if i >= s.num_ships as usize {
                if *sh != Ship::default() {
                    return Err(format!("ship slot {i} is not empty"));
                }
                continue;
            }
            if sh.owner as usize >= n {
                return Err(format!("ships[{i}] has no owner"));
            }
            if let Some(m) = ship_problem(sh) {
                return Err(format!("ships[{i}]: {m}"));
            }
        }
        // Limited tiles are conserved.
        let held = self.held(s);
        for k in 0..KINDS {
            if held[k] + s.stock[k] as u32 != self.data.stock[k] as u32 {
                return Err(format!("{} in play and {} in the supply, of {}", held[k], s.stock[k], self.data.stock[k]));
            }
        }
        // The turn.
        let t = &s.turn;
        if in_phase && !matches!(s.step, Step::BonusTile) {
            if t.actor as usize >= n || t.done as usize >= n || (t.actor as usize + n - s.start as usize) % n != t.done as usize {
                return Err("the player in turn does not follow the start player".into());
            }
            if t.main > MAIN_DONE {
                return Err("the state of the chosen action is out of range".into());
            }
            if t.session != NONE {
                if t.session >= 8 || (!t.extra && (t.main != MAIN_ACTING || t.session != s.spaces[s.space as usize])) {
                    return Err("the action being carried out is not the chosen one".into());
                }
            } else if t.extra || t.main == MAIN_ACTING || t.used {
                return Err("no action is being carried out".into());
            }
            if t.session != NONE && !t.extra && !t.used {
                return Err("the chosen action is being carried out without a use".into());
            }
            if t.extra && s.players[t.actor as usize].extra {
                return Err("the extra action is under way but its tile is still held".into());
            }
            if t.blue > self.data.turntable.iter().copied().max().unwrap_or(0) {
                return Err("more blue workers than the turntable shows".into());
            }
            if t.main == MAIN_DONE && t.session == NONE && s.step == Step::Turn && !s.players[t.actor as usize].extra {
                return Err("the turn is over but not ended".into());
            }
        } else if *t != Turn::default() {
            return Err("a turn is recorded outside an action phase".into());
        }
        if t.extra && t.main == MAIN_ACTING {
            return Err("the chosen action and the extra action at once".into());
        }
        if t.bought.iter().any(|&n| n as u32 > super::data::MAX_STACK) {
            return Err("more tiles bought than a stack holds".into());
        }
        let buying = t.session != NONE && tile_category(t.session).is_some();
        if !buying && (t.bought != [0; 4] || t.gift_due) {
            return Err("tiles bought outside a buying action".into());
        }
        match s.step {
            Step::Place => {
                if t.pending as usize >= KINDS || t.session == NONE {
                    return Err("a tile to place without an action".into());
                }
                let from = if t.paid { tile_category(t.session) } else { None };
                let ok = if t.paid { from == Some(Category::of(t.pending)) && t.pending != CROWN_MAST && t.pending != CROWN_SAIL } else { t.session == super::data::TRANSPORT };
                if !ok {
                    return Err("the tile to place does not come from the action".into());
                }
            }
            Step::Gift if !buying => return Err("a gift outside a buying action".into()),
            Step::Reward | Step::RewardGood => {
                if t.reward_ship as usize >= s.num_ships as usize || t.session == NONE {
                    return Err("a reward for no ship".into());
                }
                let sh = &s.ships[t.reward_ship as usize];
                if sh.owner != t.actor || !sh.complete() {
                    return Err("a reward for a ship that is not the player's completed ship".into());
                }
                let taken: u8 = t.rewards_taken.iter().sum();
                if t.rewards_taken.iter().any(|&c| c > r.reward_repeats) || taken + t.rewards_left != sh.all_masts() {
                    return Err("the rewards do not add up to the ship's masts".into());
                }
                let goods_step = s.step == Step::RewardGood;
                if goods_step != (t.reward_goods_left > 0) || t.reward_goods_left as u32 > self.data.rewards.goods {
                    return Err("the goods of the reward are out of step".into());
                }
                if s.step == Step::Reward && t.rewards_left == 0 {
                    return Err("no reward left to choose".into());
                }
                if t.reward_goods_taken.count_ones() + t.reward_goods_left as u32 != if goods_step { self.data.rewards.goods } else { 0 }
                    || t.reward_goods_taken >> 4 != 0
                {
                    return Err("the goods of the reward do not add up".into());
                }
            }
            _ => {
                if t.pending != NONE || t.paid || t.reward_ship != NONE || t.rewards_left != 0 || t.rewards_taken != [0; 6] || t.reward_goods_left != 0 || t.reward_goods_taken != 0 {
                    return Err("a tile or reward is pending outside its step".into());
                }
            }
        }
        if s.step != Step::Place && (t.pending != NONE || t.paid) {
            return Err("a tile to place outside the placing step".into());
        }
        if !matches!(s.step, Step::Reward | Step::RewardGood)
            && (t.reward_ship != NONE || t.rewards_left != 0 || t.rewards_taken != [0; 6] || t.reward_goods_left != 0 || t.reward_goods_taken != 0)
        {
            return Err("a reward outside the reward step".into());
        }
        if s.step == Step::BonusTile {
            match self.data.bonuses[s.space as usize].choice {
                Some(c) if c != Category::Hull => {}
                _ => return Err("no bonus tile to choose here".into()),
            }
        }
        if s.step == Step::GameOver && (s.round != self.rounds || s.phases != 0) {
            return Err("the game is over only after the last round".into());
        }
        if s.step == Step::Turn && t.session == NONE && t.main == MAIN_OPEN && t.extra {
            return Err("the extra action is under way without being carried out".into());
        }
        // A tile to place, a tile to choose: there must be somewhere for it to go.
        if matches!(s.step, Step::Place | Step::Gift | Step::BonusTile | Step::RewardGood) {
            let mut legal = Vec::new();
            self.player_actions(s, &mut legal);
            if legal.is_empty() {
                return Err("no choice is left for the tile under way".into());
            }
        }
        // The extra action before its first use: a use must be possible.
        if s.step == Step::Turn && t.session != NONE && !t.used {
            let mut legal = Vec::new();
            self.player_actions(s, &mut legal);
            if legal.is_empty() {
                return Err("the extra action is under way and cannot be used".into());
            }
        }
        Ok(())
    }
}

/// What is wrong with a ship, if anything.
fn ship_problem(sh: &Ship) -> Option<String> {
    let counts = [sh.masts, sh.crown_masts, sh.sails, sh.crown_sails, sh.goods[0], sh.goods[1], sh.goods[2], sh.goods[3]];
    if counts.iter().any(|&n| n > 4) {
        return Some("more than 4 masts, sails or goods of a kind".into());
    }
    if sh.single && (sh.bow || sh.stern || sh.centres > 0) {
        return Some("a single hull has no other parts".into());
    }
    if sh.centres > 2 {
        return Some("at most 2 centres".into());
    }
    let parts = sh.parts();
    if parts == 0 {
        return Some("a ship has at least one hull part".into());
    }
    if sh.all_masts() > parts {
        return Some("more masts than hull parts".into());
    }
    if sh.all_sails() > sh.all_masts() {
        return Some("more sails than masts".into());
    }
    if sh.cargo() > parts {
        return Some("more goods than hull parts".into());
    }
    if sh.sails > sh.masts {
        return Some("more regular sails than regular masts (a regular sail sits on a mast of its coat of arms)".into());
    }
    if sh.crown_sails_on_regular_masts > sh.crown_sails {
        return Some("field `crown_sails_on_regular_masts`: more than the ship's crown sails".into());
    }
    if sh.sails + sh.crown_sails_on_regular_masts > sh.masts {
        return Some("field `crown_sails_on_regular_masts`: the regular sails and the crown sails on regular masts outnumber the regular masts".into());
    }
    if sh.crown_sails - sh.crown_sails_on_regular_masts > sh.crown_masts {
        return Some("field `crown_sails_on_regular_masts`: the crown sails on crown masts outnumber the crown masts (a crown mast carries only a crown sail)".into());
    }
    if (sh.coat == NONE) != (sh.masts == 0) || (sh.coat != NONE && sh.coat as usize >= COATS) {
        return Some("the coat of arms does not match the regular masts".into());
    }
    None
}

impl Positions for Nauticus {
    fn validate_state(&self, state: &State) -> Result<()> {
        self.validate(state).map_err(EngineError::StateFormat)
    }

    /// Builds a position from a description. Without `spaces` the position is at the deal of
    /// the action tiles; with them, the start player is about to choose, or, with `chosen`,
    /// the action is chosen (its bonus taken) and the turn of `actor` (default the start
    /// player) begins. The supply holds what the players do not.
    ///
    /// ```json
    /// {"round": 0, "phases": 0, "start": 0, "pointing": 1,
    ///  "spaces": ["buy hull parts", "buy masts", "buy sails", "buy goods",
    ///             "transport", "withdraw money", "deliver goods", "score the crowns"],
    ///  "turned": [], "anchor": null, "chosen": "buy hull parts", "actor": 1,
    ///  "players": [{"taler": 15, "workers": 4, "points": 10, "passes": 0, "extra": true,
    ///               "warehouse": {"bow": 1, "whale mast": 1},
    ///               "delivered": {"coffee": 2},
    ///               "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 2,
    ///                          "sails": 1, "goods": {"fish": 1}}]}]}
    /// ```
    fn setup(&self, description: &Value) -> Result<State> {
        let d: Desc = field_errors::from_json_value(description).map_err(|e| EngineError::setup(e.field_or("."), e.message))?;
        let n = self.players;
        let mut s = self.initial_state();
        if d.round >= self.rounds {
            return Err(EngineError::setup("round", format!("the game has {} rounds (0..{})", self.rounds, self.rounds)));
        }
        s.round = d.round;
        if d.phases >= self.data.rules.phases_per_round {
            return Err(EngineError::setup("phases", format!("a round has {} action phases", self.data.rules.phases_per_round)));
        }
        s.phases = d.phases;
        if d.start as usize >= n {
            return Err(EngineError::setup("start", format!("player {} does not exist in a {n}-player game", d.start)));
        }
        s.start = d.start;
        if let Some(pt) = d.pointing {
            if !(1..=8).contains(&pt) {
                return Err(EngineError::setup("pointing", "an action space from 1 to 8"));
            }
            s.pointing = pt - 1;
        }
        if d.players.len() > n {
            return Err(EngineError::setup("players", format!("{} players described for {n}", d.players.len())));
        }
        for (p, pd) in d.players.iter().enumerate() {
            let f = |x: &str| format!("players[{p}].{x}");
            let pl = &mut s.players[p];
            if let Some(t) = pd.taler {
                pl.taler = t;
            }
            if let Some(w) = pd.workers {
                pl.workers = w;
            }
            if let Some(v) = pd.points {
                pl.points = v;
            }
            if pd.passes > 3 {
                return Err(EngineError::setup(f("passes"), "a player has 3 pass tiles"));
            }
            pl.passes = pd.passes;
            if let Some(e) = pd.extra {
                pl.extra = e;
            }
            let cap = self.data.rules.crown_cap;
            if pd.crown_points > cap || pd.extra_crown_points > cap {
                return Err(EngineError::setup(f("crown_points"), format!("at most {cap} a round")));
            }
            pl.crown_points = pd.crown_points;
            pl.extra_crown_points = pd.extra_crown_points;
            for (name, &c) in &pd.warehouse {
                let k = self.kind_of(&f(&format!("warehouse.{name}")), name)?;
                s.players[p].warehouse[k as usize] = c;
            }
            let cap = self.data.rules.warehouse_spaces;
            if s.warehouse_used(p, self.data.rules.mast_spaces) > cap {
                return Err(EngineError::setup(f("warehouse"), format!("more than the {cap} spaces of a warehouse")));
            }
            for (name, &c) in &pd.delivered {
                let Some(g) = GOODS.iter().position(|x| x == name) else {
                    return Err(EngineError::setup(f(&format!("delivered.{name}")), format!("goods are {GOODS:?}")));
                };
                s.players[p].delivered[g] = c;
            }
            for (i, sd) in pd.ships.iter().enumerate() {
                let ship = self.ship_from(p as u8, sd, &format!("players[{p}].ships[{i}]"))?;
                if s.num_ships as usize >= MAX_SHIPS {
                    return Err(EngineError::setup(f("ships"), format!("more than {MAX_SHIPS} ships")));
                }
                s.ships[s.num_ships as usize] = ship;
                s.num_ships += 1;
            }
        }
        // The supply holds what the players do not.
        let held = self.held(&s);
        for k in 0..KINDS {
            if held[k] > self.data.stock[k] as u32 {
                return Err(EngineError::setup("players", format!(
                    "{} {} held, but the game has {}", held[k], self.data.kind_name(k as u8), self.data.stock[k])));
            }
            s.stock[k] = self.data.stock[k] - held[k] as u8;
        }
        let Some(spaces) = d.spaces else {
            if d.chosen.is_some() || !d.turned.is_empty() || d.anchor.is_some() {
                return Err(EngineError::setup("spaces", "lay out the action tiles to choose one or turn them over"));
            }
            if d.phases != 0 {
                return Err(EngineError::setup("phases", "the tiles are laid out before the first action phase"));
            }
            return Ok(s);
        };
        if spaces.len() != 8 {
            return Err(EngineError::setup("spaces", "name the tile on each of the 8 spaces"));
        }
        for (i, name) in spaces.iter().enumerate() {
            let t = tile_of(&format!("spaces[{i}]"), name)?;
            if s.spaces[..i].contains(&t) {
                return Err(EngineError::setup(format!("spaces[{i}]"), format!("{name:?} lies on two spaces")));
            }
            s.spaces[i] = t;
        }
        s.dealt = 8;
        let space_of = |t: u8| s.spaces.iter().position(|&x| x == t).unwrap() as u8;
        for (i, name) in d.turned.iter().enumerate() {
            let sp = space_of(tile_of(&format!("turned[{i}]"), name)?);
            s.face_down |= 1 << sp;
        }
        if s.face_down.count_ones() != d.phases as u32 {
            return Err(EngineError::setup("turned", format!("{} tiles turned over after {} action phases", s.face_down.count_ones(), d.phases)));
        }
        match (&d.anchor, d.phases) {
            (None, 0) => {}
            (Some(a), p) if p > 0 => {
                let sp = space_of(tile_of("anchor", a)?);
                if s.face_down & (1 << sp) == 0 {
                    return Err(EngineError::setup("anchor", "the anchor tile lies on a tile turned over"));
                }
                s.anchor = sp;
            }
            _ => return Err(EngineError::setup("anchor", "the anchor tile lies on the first action of the round, once it is over")),
        }
        s.step = Step::Choose;
        if let Some(c) = &d.chosen {
            let sp = space_of(tile_of("chosen", c)?);
            if s.face_down & (1 << sp) != 0 {
                return Err(EngineError::setup("chosen", "that action tile is turned over"));
            }
            s.space = sp;
            let actor = d.actor.unwrap_or(s.start);
            if actor as usize >= n {
                return Err(EngineError::setup("actor", format!("player {actor} does not exist in a {n}-player game")));
            }
            let done = (actor as usize + n - s.start as usize) % n;
            s.turn = Turn { actor, done: done as u8, blue: self.blue_workers(&s, sp), ..Turn::default() };
            s.step = Step::Turn;
        } else if d.actor.is_some() {
            return Err(EngineError::setup("actor", "an actor needs a chosen action"));
        }
        self.validate(&s).map_err(|m| EngineError::setup(".", m))?;
        Ok(s)
    }
}
