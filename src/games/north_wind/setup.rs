//! Positions from readable descriptions (setup helpers), and the validation of states that
//! come from outside.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

use crate::engine::offers::AnyOffer;
use crate::engine::{field_errors, Action, EngineError, Result};
use crate::engine::prelude::*;

use super::actions::{MERCHANT_BUY, MERCHANT_SELL};
use super::data::{Kind, CREW_SLOTS, GOODS, PORTS};
use super::state::{Phase, State, NONE, PUBLIC, VIEWS};
use super::NorthWind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipDesc {
    gold: Option<u16>,
    #[serde(default)]
    goods: BTreeMap<String, u8>,
    captains: Option<u8>,
    letters: Option<u8>,
    cannons: Option<u8>,
    sail: Option<u8>,
    crew: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Desc {
    #[serde(default)]
    active: u8,
    #[serde(default)]
    turn: u32,
    #[serde(default)]
    ships: Vec<ShipDesc>,
    /// Cards of each stack besides its destination, by card name (a name repeats for copies).
    stacks: Option<BTreeMap<String, Vec<String>>>,
    /// Who fulfilled each contract so far, per port, in order.
    #[serde(default)]
    contracts: BTreeMap<String, Vec<u8>>,
}

impl NorthWind {

    /// Invariants of every reachable state; a saved state that breaks one is rejected.
    pub(crate) fn validate(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.players;
        let r = &self.data.rules;
        let all_cards: u32 = if self.data.num_cards() == 32 { u32::MAX } else { (1u32 << self.data.num_cards()) - 1 };
        macro_rules! check {
            ($c:expr, $($a:tt)*) => { if !$c { return Err(format!($($a)*)); } };
        }
        check!(s.players as usize == n, "players {} but the game has {n}", s.players);
        check!((s.active as usize) < n, "active player {} out of range", s.active);
        check!(s.turn <= self.max_turns, "turn {} past the bound", s.turn);
        check!(s.deal_next as usize <= self.data.deal_cards.len(), "deal_next out of range");
        let dealing = s.phase == Phase::Deal;
        check!(dealing == ((s.deal_next as usize) < self.data.deal_cards.len()), "deal phase and dealt cards disagree");
        let mut union = 0u32;
        for st in 0..3 {
            check!(s.stack_cards[st] & !all_cards == 0, "stack {st} holds unknown cards");
            check!(union & s.stack_cards[st] == 0, "a card lies in two stacks");
            union |= s.stack_cards[st];
            check!(s.stack_cards[st] >> self.data.destination_card[st] & 1 == 1, "stack {st} lacks its destination card");
            check!(s.stack_cards[st].count_ones() <= self.data.slots_per_stack as u32 + 1, "stack {st} too large");
            if !dealing {
                check!(s.stack_cards[st].count_ones() == self.data.slots_per_stack as u32 + 1, "stack {st} has the wrong size");
            }
        }
        let dealt: u32 = self.data.deal_cards[..s.deal_next as usize].iter().map(|&c| 1u32 << c).sum::<u32>()
            | self.data.destination_card.iter().map(|&c| 1u32 << c).sum::<u32>();
        check!(union == dealt, "the stacks do not hold exactly the dealt cards");
        for p in 0..4 {
            let sh = &s.ships[p];
            if p >= n {
                check!(*sh == super::state::Ship::default(), "ship {p} exists in a {n}-player game");
                continue;
            }
            check!(sh.goods.iter().all(|&g| g <= r.max_per_kind), "P{p} holds too many of a good");
            check!(sh.hold() <= r.hold_slots, "P{p}'s hold overflows");
            check!(sh.captains <= r.prison_slots, "P{p}'s prison overflows");
            check!(sh.letters <= r.max_letters, "P{p} holds too many letters");
            check!(sh.cannons <= r.cannons_per_player, "P{p} has too many cannons");
            check!(sh.sail >= 1 && sh.sail <= r.max_sail, "P{p}'s sail level is out of range");
            check!(sh.crew < 32 && sh.crew_count() <= r.crew_per_player, "P{p} has too many crew");
            check!(!self.limited_gold || sh.gold <= r.gold_total, "P{p} holds more gold than there is");
            check!(self.placed(s, p) <= self.tokens, "P{p} placed more tokens than exist");
        }
        for g in 0..5 {
            let held: u32 = (0..n).map(|p| s.ships[p].goods[g] as u32).sum();
            check!(held + s.supply_goods[g] as u32 == r.goods_per_kind as u32, "{} pieces do not add up", GOODS[g]);
        }
        let held: u32 = (0..n).map(|p| s.ships[p].captains as u32).sum();
        check!(held + s.supply_captains as u32 == r.captains_total as u32, "pirate captains do not add up");
        let held: u32 = (0..n).map(|p| s.ships[p].letters as u32).sum();
        check!(held + s.supply_letters as u32 == r.letters_total as u32, "trade letters do not add up");
        if self.limited_gold {
            let held: u64 = (0..n).map(|p| s.ships[p].gold as u64).sum();
            check!(held + s.supply_gold as u64 == r.gold_total as u64, "gold does not add up");
        } else {
            check!(s.supply_gold == 0, "an unlimited bank keeps no count of its gold");
        }
        for port in 0..3 {
            let len = self.data.contracts[port].len();
            check!((s.done[port] as usize) <= len, "port {port}: too many contracts done");
            let mut counts = [0u8; 4];
            for i in 0..super::data::MAX_CONTRACTS {
                let o = s.fulfilled[port][i];
                if i < s.done[port] as usize {
                    check!((o as usize) < n, "port {port} contract {i}: no owner");
                    counts[o as usize] += 1;
                } else {
                    check!(o == NONE, "port {port} contract {i}: owner of an open contract");
                }
            }
            check!(counts == s.column[port], "port {port}: column tokens disagree with contracts");
            let m = s.majority[port];
            if m != NONE {
                check!((m as usize) < n, "majority holder out of range");
                let mine = s.column[port][m as usize];
                check!(mine > 0 && (0..n).all(|q| q == m as usize || s.column[port][q] < mine), "port {port}: majority bonus without majority");
            }
        }
        for p in 0..n {
            if s.ships[p].supply_bonus {
                check!((0..3).all(|port| s.column[port][p] > 0), "P{p}: supply bonus without a token in every column");
            }
            if s.ships[p].crew_bonus {
                check!(s.ships[p].crew_count() >= r.crew_per_player, "P{p}: crew bonus without a full crew");
            }
        }
        check!((s.phase == Phase::GameOver) == (s.winner != NONE || s.truncated), "game-over flags disagree");
        check!(s.winner == NONE || (s.winner as usize) < n, "winner out of range");
        check!(!(s.winner != NONE && s.truncated), "a truncated game has a winner");
        let types = self.data.types.len();
        let type_mask = if types >= 32 { u32::MAX } else { (1u32 << types) - 1 };
        for v in 0..VIEWS {
            for st in 0..3 {
                check!(s.seen[v][st] & !type_mask == 0, "knowledge names unknown card types");
            }
        }
        let _ = PUBLIC;
        let v = &s.voyage;
        // Card ids anywhere in the voyage record (also the last voyage of a finished game).
        let cards = self.data.num_cards();
        for c in [v.current, v.peeked, v.slid] {
            check!(c == NONE || (c as usize) < cards, "card {c} of the voyage is not a card");
        }
        check!(v.stack == NONE || v.stack < 3, "voyage stack out of range");
        check!((v.revealed as usize) <= v.order.len(), "too many revealed cards");
        for i in 0..v.revealed as usize {
            check!((v.order[i] as usize) < cards, "revealed card out of range");
        }
        check!(v.decider == NONE || (v.decider as usize) < n, "decider out of range");
        if s.phase.in_voyage() {
            check!(v.stack < 3, "voyage stack out of range");
            let stack = s.stack_cards[v.stack as usize];
            check!(v.drawn & !stack == 0, "drawn cards are not in the voyage's stack");
            check!((v.revealed as usize) <= v.order.len() && v.revealed <= r.max_sail, "too many revealed cards");
            let mut revealed = 0u32;
            for i in 0..v.revealed as usize {
                check!((v.order[i] as usize) < self.data.num_cards(), "revealed card out of range");
                revealed |= 1 << v.order[i];
            }
            check!(revealed.count_ones() == v.revealed as u32, "a card revealed twice");
            for c in [v.peeked, v.slid] {
                if c != NONE {
                    check!((c as usize) < self.data.num_cards() && revealed >> c & 1 == 0, "looked-at card is wrong");
                    revealed |= 1 << c;
                }
            }
            check!(revealed == v.drawn, "drawn cards disagree with the voyage");
            check!(v.actions <= r.actions_per_voyage, "too many actions");
            // Left over from an earlier fight of this voyage, the combat counters stay in range.
            check!(v.rolls_left <= s.ships[s.active as usize].cannons, "more rolls than cannons");
            check!(v.hits <= 2 * r.cannons_per_player && v.pirates <= 8, "combat counters out of range");
            check!(v.trades <= 2, "too many merchant trades");
            let first = v.first_trade as Action;
            check!(v.first_trade == NONE || (MERCHANT_BUY..MERCHANT_SELL + GOODS.len() as Action).contains(&first),
                "the first merchant trade is not a merchant's purchase or sale");
            if v.jettisoned > 0 {
                // Goods thrown overboard commit the decider to a purchase that must be open.
                check!(matches!(s.phase, Phase::Card | Phase::Letter | Phase::Boatswain)
                    && (v.decider as usize) < n && v.current != NONE && (v.current as usize) < cards
                    && v.jettisoned <= r.hold_slots,
                    "goods thrown overboard outside a purchase");
                let mut any = AnyOffer::default();
                if s.phase == Phase::Boatswain {
                    self.boatswain_options(s, &mut any);
                } else {
                    self.card_options(s, v.decider as usize, v.current, &mut any);
                }
                check!(any.0, "goods thrown overboard for a purchase that cannot be made");
            }
            check!(v.used.count_ones() == v.actions as u32 && (v.used as u32) < (1u32 << v.revealed), "used cards disagree with actions");
            let needs_card = matches!(s.phase, Phase::Event | Phase::Pirate | Phase::Combat | Phase::Card | Phase::Letter | Phase::Boatswain);
            if needs_card {
                check!(v.current != NONE && revealed >> v.current & 1 == 1, "no current card");
            }
            check!((s.phase == Phase::PeekDecision) == (v.peeked != NONE), "looked-at card and phase disagree");
            match s.phase {
                Phase::Event => check!(self.data.kind(v.current) == Kind::Fog, "event without fog"),
                Phase::Pirate | Phase::Combat => {
                    check!(v.pirates >= 1, "pirates without strength");
                    check!(v.rolls_left <= s.ships[s.active as usize].cannons, "more rolls than cannons");
                    if s.phase == Phase::Combat {
                        let mult: u16 = if s.ships[s.active as usize].has(super::data::GUNNER) { 2 } else { 1 };
                        check!(v.rolls_left >= 1 && v.hits < v.pirates
                            && v.hits as u16 + v.rolls_left as u16 * mult >= v.pirates as u16,
                            "a combat that is already decided");
                    }
                }
                Phase::Card | Phase::Letter | Phase::Boatswain => {
                    check!(self.data.kind(v.current) != Kind::Fog, "a fog card cannot be used");
                    check!((v.decider as usize) < n, "decider out of range");
                    let is_active = v.decider == s.active;
                    match s.phase {
                        Phase::Card => check!(is_active, "card decision by another player"),
                        Phase::Letter => {
                            check!(!is_active && self.data.kind(v.current).is_trade_card(), "letter offer to the active player");
                            check!(s.ships[v.decider as usize].letters > 0, "letter offer without a letter");
                        }
                        _ => {
                            check!(matches!(self.data.kind(v.current), Kind::Merchant { .. }), "boatswain away from a merchant");
                            check!(v.trades >= 1 && v.first_trade != NONE, "boatswain before a first trade");
                        }
                    }
                }
                _ => {}
            }
        } else if s.phase != Phase::GameOver {
            // (A game won during a voyage keeps the last voyage on the table.)
            check!(*v == super::state::Voyage::default(), "voyage data outside a voyage");
        }
        Ok(())
    }
}

impl Positions for NorthWind {
    fn validate_state(&self, state: &State) -> Result<()> {
        self.validate(state).map_err(EngineError::StateFormat)
    }

    /// Builds the position at the start of `active`'s turn (gold income for the poor is then
    /// applied as the rules say). Without `stacks`, the stacks are dealt by chance first.
    ///
    /// ```json
    /// {"active": 0, "turn": 0,
    ///  "ships": [{"gold": 5, "goods": {"wine": 1}, "captains": 0, "letters": 1,
    ///             "cannons": 1, "sail": 4, "crew": ["gunner"]}],
    ///  "stacks": {"Northcape": ["Fog", "Salt port (1)", ...], "Trutzhaven": [...], "Olesand": [...]},
    ///  "contracts": {"Northcape": [1], "Trutzhaven": [0, 2], "Olesand": []}}
    /// ```
    fn setup(&self, description: &Value) -> Result<State> {
        let desc: Desc = field_errors::from_json_value(description)
            .map_err(|e| EngineError::setup(e.field_or("."), e.message))?;
        let n = self.players;
        let r = &self.data.rules;
        let mut s = self.initial_state();
        if desc.active as usize >= n {
            return Err(EngineError::setup("active", format!("player {} does not exist in a {n}-player game", desc.active)));
        }
        if desc.turn >= self.max_turns {
            return Err(EngineError::setup("turn", "at or past the turn bound"));
        }
        s.active = desc.active;
        s.turn = desc.turn;
        if desc.ships.len() > n {
            return Err(EngineError::setup("ships", format!("{} ships for {n} players", desc.ships.len())));
        }
        for (p, d) in desc.ships.iter().enumerate() {
            let f = |x: &str| format!("ships[{p}].{x}");
            let sh = &mut s.ships[p];
            if let Some(g) = d.gold {
                let g = g as u32;
                if self.limited_gold && g > r.gold_total {
                    return Err(EngineError::setup(f("gold"), format!("more than the {} gold of the coins", r.gold_total)));
                }
                sh.gold = g;
            }
            for (name, &k) in &d.goods {
                let Some(g) = GOODS.iter().position(|x| x == name) else {
                    return Err(EngineError::setup(f(&format!("goods.{name}")), format!("goods are {GOODS:?}")));
                };
                if k > r.max_per_kind {
                    return Err(EngineError::setup(f(&format!("goods.{name}")), format!("at most {} of a kind", r.max_per_kind)));
                }
                sh.goods[g] = k;
            }
            if sh.hold() > r.hold_slots {
                return Err(EngineError::setup(f("goods"), format!("more than {} goods", r.hold_slots)));
            }
            if let Some(c) = d.captains {
                if c > r.prison_slots {
                    return Err(EngineError::setup(f("captains"), format!("the prison holds {}", r.prison_slots)));
                }
                sh.captains = c;
            }
            if let Some(l) = d.letters {
                if l > r.max_letters {
                    return Err(EngineError::setup(f("letters"), format!("at most {} letters", r.max_letters)));
                }
                sh.letters = l;
            }
            if let Some(c) = d.cannons {
                if c > r.cannons_per_player {
                    return Err(EngineError::setup(f("cannons"), format!("at most {}", r.cannons_per_player)));
                }
                sh.cannons = c;
            }
            if let Some(v) = d.sail {
                if v < r.starting_sail || v > r.max_sail {
                    return Err(EngineError::setup(f("sail"), format!("sail levels are {}..={}", r.starting_sail, r.max_sail)));
                }
                sh.sail = v;
            }
            if let Some(crew) = &d.crew {
                sh.crew = 0;
                for name in crew {
                    let Some(c) = CREW_SLOTS.iter().position(|x| x == name) else {
                        return Err(EngineError::setup(f("crew"), format!("{name:?} is not one of {CREW_SLOTS:?}")));
                    };
                    sh.crew |= 1 << c;
                }
                if sh.crew_count() > r.crew_per_player {
                    return Err(EngineError::setup(f("crew"), format!("at most {} crew members", r.crew_per_player)));
                }
            }
        }
        // Supplies hold what the ships do not.
        for g in 0..5 {
            let held: u32 = (0..n).map(|p| s.ships[p].goods[g] as u32).sum();
            if held > r.goods_per_kind as u32 {
                return Err(EngineError::setup("ships", format!("more {} than the {} pieces", GOODS[g], r.goods_per_kind)));
            }
            s.supply_goods[g] = r.goods_per_kind - held as u8;
        }
        let captains: u32 = (0..n).map(|p| s.ships[p].captains as u32).sum();
        if captains > r.captains_total as u32 {
            return Err(EngineError::setup("ships", "more captains than pieces"));
        }
        s.supply_captains = r.captains_total - captains as u8;
        let letters: u32 = (0..n).map(|p| s.ships[p].letters as u32).sum();
        if letters > r.letters_total as u32 {
            return Err(EngineError::setup("ships", "more trade letters than pieces"));
        }
        s.supply_letters = r.letters_total - letters as u8;
        if self.limited_gold {
            let gold: u32 = (0..n).map(|p| s.ships[p].gold).sum();
            if gold > r.gold_total {
                return Err(EngineError::setup("ships", format!("more gold than the {} of the coins", r.gold_total)));
            }
            s.supply_gold = r.gold_total - gold;
        }
        // Contracts.
        for (port_name, owners) in &desc.contracts {
            let Some(port) = PORTS.iter().position(|x| x == port_name) else {
                return Err(EngineError::setup(format!("contracts.{port_name}"), format!("ports are {PORTS:?}")));
            };
            if owners.len() > self.data.contracts[port].len() {
                return Err(EngineError::setup(format!("contracts.{port_name}"), "more than the column's contracts"));
            }
            for (i, &p) in owners.iter().enumerate() {
                if p as usize >= n {
                    return Err(EngineError::setup(format!("contracts.{port_name}[{i}]"), format!("no player {p}")));
                }
                s.fulfilled[port][i] = p;
                s.column[port][p as usize] += 1;
            }
            s.done[port] = owners.len() as u8;
        }
        self.refresh_bonuses(&mut s);
        for p in 0..n {
            if self.placed(&s, p) > self.tokens {
                return Err(EngineError::setup("contracts", format!("player {p} would place more than {} tokens", self.tokens)));
            }
        }
        // Stacks.
        match &desc.stacks {
            None => {}
            Some(stacks) => {
                let mut used = 0u32;
                for key in stacks.keys() {
                    if !PORTS.contains(&key.as_str()) {
                        return Err(EngineError::setup(format!("stacks.{key}"), format!("stacks are named by port: {PORTS:?}")));
                    }
                }
                for (port, name) in PORTS.iter().enumerate() {
                    let Some(cards) = stacks.get(*name) else {
                        return Err(EngineError::setup(format!("stacks.{name}"), "missing"));
                    };
                    if cards.len() != self.data.slots_per_stack as usize {
                        return Err(EngineError::setup(format!("stacks.{name}"), format!(
                            "{} cards; each stack has {} besides its port", cards.len(), self.data.slots_per_stack)));
                    }
                    for (i, cname) in cards.iter().enumerate() {
                        let Some(t) = self.data.types.iter().position(|t| &t.name == cname) else {
                            return Err(EngineError::setup(format!("stacks.{name}[{i}]"), format!("no card is named {cname:?}")));
                        };
                        if matches!(self.data.types[t].kind, Kind::Destination { .. }) {
                            return Err(EngineError::setup(format!("stacks.{name}[{i}]"), "destination cards lie under their own picture"));
                        }
                        let Some(&c) = self.data.types[t].cards.iter().find(|&&c| used >> c & 1 == 0) else {
                            return Err(EngineError::setup(format!("stacks.{name}[{i}]"), format!("more {cname:?} cards than exist")));
                        };
                        used |= 1 << c;
                        s.stack_cards[port] |= 1 << c;
                    }
                }
                s.deal_next = self.data.deal_cards.len() as u8;
                self.start_turn(&mut s);
            }
        }
        self.validate(&s).map_err(|e| EngineError::setup("(position)", e))?;
        Ok(s)
    }
}
