//! What players see: action names, observations (string and tensor), the table rendering
//! and the score report.

use std::fmt::Write;

use crate::engine::{Action, Actor, ScoreReport};
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{CombatOutcome, EventOutcome, Kind, CREW_SLOTS, GOODS, MAX_MULTI_TYPES, PORTS, RUN_LEN};
use super::state::{Phase, State, NONE, PUBLIC};
use super::NorthWind;

/// Per-player block of the tensor.
const SHIP_LEN: usize = 1 + 5 + 1 + 1 + 1 + 1 + 5 + 1 + 1 + 1 + 1;
const PHASES: usize = 12;

/// Length of the observation tensor (documented field by field in `docs/games/north-wind.md`).
pub fn tensor_len(players: usize, types: usize) -> usize {
    let _ = players;
    4 // which seat is the observer
        + 4 // whose turn
        + 4 * SHIP_LEN
        + 3 * 4 // column tokens per port and player
        + 3 // contracts done per port
        + 3 * 5 // majority holder per port (4 seats + none)
        + 5 + 1 + 1 + 1 // supply: goods, captains, letters, the bank's gold
        + PHASES
        + 4 // decider
        + 3 // voyage stack
        + types // revealed cards this voyage, by type
        + types // current card
        + types // the card the observer looks at or slid under (lookout, private)
        + 6 // actions, revealed, pirates, hits, rolls left, goods thrown overboard
        + 10 // the boatswain's first trade: bought, then sold, each good
        + 3 * types // types the observer has seen in each stack
        + 3 * MAX_MULTI_TYPES * RUN_LEN // the observer's run statistics
        + 1 // turn / max turns
}

fn phase_index(p: Phase) -> usize {
    p as usize
}

impl NorthWind {
    pub(crate) fn card_name(&self, card: u8) -> &str {
        &self.data.types[self.data.card_type[card as usize] as usize].name
    }

    pub(super) fn describe_card(&self, card: u8) -> String {
        let name = self.card_name(card).to_string();
        match self.data.kind(card) {
            Kind::Destination { port } => {
                format!("{name} (destination)", name = PORTS[port as usize])
            }
            _ => name,
        }
    }

    pub(super) fn contract_text(&self, port: usize, i: usize) -> String {
        let Some(c) = self.data.contracts[port].get(i) else { return "all fulfilled".into() };
        let mut parts = Vec::new();
        for g in 0..5 {
            if c.goods[g] > 0 {
                parts.push(format!("{} {}", c.goods[g], GOODS[g]));
            }
        }
        if c.captains > 0 {
            parts.push(format!("{} captain{}", c.captains, if c.captains > 1 { "s" } else { "" }));
        }
        if c.gold > 0 {
            parts.push(format!("{} gold", c.gold));
        }
        parts.join(" + ")
    }

    pub(super) fn phase_text(&self, s: &State) -> String {
        match s.phase {
            Phase::Deal => "setup: dealing the sea cards".into(),
            Phase::ChooseStack => format!("P{} chooses a stack", s.active),
            Phase::Peek => format!("P{}'s lookout looks at the top card", s.active),
            Phase::PeekDecision => format!("P{} keeps the top card or slides it under", s.active),
            Phase::Reveal => format!("P{} reveals the next card", s.active),
            Phase::Event => format!("P{} rolls the event die", s.active),
            Phase::Pirate => format!("P{} meets pirates of strength {}: pay or fight", s.active, s.voyage.pirates),
            Phase::Combat => format!(
                "P{} fights pirates of strength {}: {} hit(s), {} roll(s) left",
                s.active, s.voyage.pirates, s.voyage.hits, s.voyage.rolls_left
            ),
            Phase::Card | Phase::Letter | Phase::Boatswain if s.voyage.jettisoned > 0 => format!(
                "P{} has thrown {} good(s) overboard and must buy at {}",
                s.voyage.decider,
                s.voyage.jettisoned,
                self.describe_card(s.voyage.current)
            ),
            Phase::Card => format!("P{} may use {}", s.active, self.describe_card(s.voyage.current)),
            Phase::Letter => format!(
                "P{} may use {} with a trade letter",
                s.voyage.decider,
                self.describe_card(s.voyage.current)
            ),
            Phase::Boatswain => {
                // His first trade decides what the second may be ("1 other good").
                let first = s.voyage.first_trade as Action;
                let (done, g) = if first >= MERCHANT_SELL { ("sold", first - MERCHANT_SELL) } else { ("bought", first - MERCHANT_BUY) };
                format!("P{}'s boatswain may trade once more (he {done} {})", s.voyage.decider, GOODS[g as usize])
            }
            Phase::GameOver => {
                if s.truncated {
                    "game over: truncated at the turn bound".into()
                } else {
                    format!("game over: P{} wins", s.winner)
                }
            }
        }
    }

    /// The public part of the table, shared by the rendering and the observations.
    fn public_text(&self, s: &State, out: &mut String) {
        let _ = writeln!(out, "North Wind, {} players, turn {} - {}", self.players, s.turn + 1, self.phase_text(s));
        let _ = write!(out, "Supply:");
        for g in 0..5 {
            let _ = write!(out, " {} {}", GOODS[g], s.supply_goods[g]);
        }
        if self.limited_gold {
            let _ = writeln!(out, " | captains {} | trade letters {} | gold {}", s.supply_captains, s.supply_letters, s.supply_gold);
        } else {
            let _ = writeln!(out, " | captains {} | trade letters {} | gold unlimited", s.supply_captains, s.supply_letters);
        }
        for port in 0..3 {
            let tokens: Vec<String> = (0..self.players)
                .filter(|&p| s.column[port][p] > 0)
                .map(|p| format!("P{p}:{}", s.column[port][p]))
                .collect();
            let maj = if s.majority[port] == NONE { "-".to_string() } else { format!("P{}", s.majority[port]) };
            let _ = writeln!(
                out,
                "{:<10} contract {}/{}: {:<24} tokens [{}] majority {}",
                PORTS[port],
                (s.done[port] as usize + 1).min(self.data.contracts[port].len()),
                self.data.contracts[port].len(),
                self.contract_text(port, s.done[port] as usize),
                tokens.join(" "),
                maj
            );
        }
        for p in 0..self.players {
            let sh = &s.ships[p];
            let goods: Vec<String> =
                (0..5).filter(|&g| sh.goods[g] > 0).map(|g| format!("{} {}", sh.goods[g], GOODS[g])).collect();
            let crew: Vec<&str> = (0..5).filter(|&c| sh.has(c as u8)).map(|c| CREW_SLOTS[c]).collect();
            let mut bonus = Vec::new();
            if sh.supply_bonus {
                bonus.push("supply");
            }
            if sh.crew_bonus {
                bonus.push("full crew");
            }
            let _ = writeln!(
                out,
                "{}P{p}: gold {}, hold [{}], prison {}, letters {}, cannons {}, sail {}, crew [{}], tokens {}/{}{}",
                if p == s.active as usize && s.phase != Phase::GameOver { "> " } else { "  " },
                sh.gold,
                goods.join(", "),
                sh.captains,
                sh.letters,
                sh.cannons,
                sh.sail,
                crew.join(", "),
                self.placed(s, p),
                self.tokens,
                if bonus.is_empty() { String::new() } else { format!(" (bonus: {})", bonus.join(", ")) }
            );
        }
        if s.phase.in_voyage() {
            let v = &s.voyage;
            let cards: Vec<String> = (0..v.revealed as usize)
                .map(|i| {
                    let used = if v.used >> i & 1 == 1 { " (used)" } else { "" };
                    format!("{}{used}", self.describe_card(v.order[i]))
                })
                .collect();
            let _ = writeln!(
                out,
                "Voyage of P{} into the {} stack: revealed [{}], {} action(s), range {}{}",
                s.active,
                PORTS[v.stack as usize],
                cards.join(", "),
                v.actions,
                s.ships[s.active as usize].sail,
                if v.slid != NONE { ", one card slid under" } else { "" }
            );
        }
    }

    fn knowledge_text(&self, s: &State, view: usize, out: &mut String) {
        for st in 0..3 {
            let mut parts = Vec::new();
            for (t, ty) in self.data.types.iter().enumerate() {
                if s.seen[view][st] & (1 << t) == 0 || matches!(ty.kind, Kind::Destination { .. }) {
                    continue;
                }
                match ty.multi {
                    None => parts.push(ty.name.clone()),
                    Some(m) => {
                        let runs = &s.runs[view][st][m as usize];
                        let min = (1..RUN_LEN).rev().find(|&j| runs[j] > 0).unwrap_or(0);
                        let stats: Vec<String> =
                            (1..RUN_LEN).filter(|&j| runs[j] > 0).map(|j| format!("{j}x{}", runs[j])).collect();
                        parts.push(format!("{} >={} (seen {})", ty.name, min, stats.join(" ")));
                    }
                }
            }
            let _ = writeln!(out, "  {} stack: {}", PORTS[st], if parts.is_empty() { "-".into() } else { parts.join(", ") });
        }
    }
}

impl View for NorthWind {
    /// The cards dealt at setup lie face down, and the card a lookout looks at is his alone.
    fn action_string_for(&self, state: &State, action: Action, observer: usize) -> String {
        match state.phase {
            Phase::Deal => "deal:face-down".into(),
            Phase::Peek if observer != state.active as usize => "peek:unseen".into(),
            _ => self.action_to_string(state, action),
        }
    }

    fn action_to_string(&self, s: &State, a: Action) -> String {
        if self.actor(s) == Actor::Chance {
            return match s.phase {
                Phase::Deal => format!(
                    "deal:{}>{}",
                    self.data.card_label[self.data.deal_cards[s.deal_next as usize] as usize],
                    PORTS.get(a as usize).unwrap_or(&"?")
                ),
                Phase::Peek => format!("peek:{}", self.data.card_label.get(a as usize).map_or("?", |s| s)),
                Phase::Reveal => format!("reveal:{}", self.data.card_label.get(a as usize).map_or("?", |s| s)),
                Phase::Event => match self.data.event_faces.get(a as usize).map(|f| f.0) {
                    Some(EventOutcome::Treasure) => "event:treasure".into(),
                    Some(EventOutcome::Pirates(k)) => format!("event:pirates-{k}"),
                    None => format!("event:{a}?"),
                },
                Phase::Combat => match self.data.combat_faces.get(a as usize).map(|f| f.0) {
                    Some(CombatOutcome::Hit) => "combat:hit".into(),
                    Some(CombatOutcome::Double) => "combat:double".into(),
                    Some(CombatOutcome::Miss) => "combat:miss".into(),
                    None => format!("combat:{a}?"),
                },
                _ => format!("chance:{a}"),
            };
        }
        let base = base_name(a);
        if (BUY_1..=SELL_2).contains(&a) && s.voyage.current != NONE {
            if let Kind::TradingPort { good, .. } = self.data.kind(s.voyage.current) {
                return format!("{base}:{}", GOODS[good as usize]);
            }
        }
        base
    }

    /// A seat sees the public part, its own lookout card and what it knows of the stacks; the
    /// table, what everyone has seen of them (no player's lookout card); the spectator, every
    /// card of the stacks.
    fn text(&self, s: &State, viewer: Viewer) -> String {
        let mut out = String::new();
        if let Viewer::Seat(player) = viewer {
            let _ = writeln!(out, "You are P{player}.");
        }
        self.public_text(s, &mut out);
        match viewer {
            Viewer::Seat(player) => {
                if player == s.active as usize && s.phase.in_voyage() {
                    if s.voyage.peeked != NONE {
                        let _ = writeln!(out, "Your lookout sees on top: {}", self.describe_card(s.voyage.peeked));
                    }
                    if s.voyage.slid != NONE {
                        let _ = writeln!(out, "Your lookout slid under: {}", self.describe_card(s.voyage.slid));
                    }
                }
                let _ = writeln!(out, "What you know of the stacks:");
                self.knowledge_text(s, player, &mut out);
            }
            Viewer::Table => {
                let _ = writeln!(out, "What everyone has seen of the stacks:");
                self.knowledge_text(s, PUBLIC, &mut out);
            }
            Viewer::All => {
                if s.phase.in_voyage() {
                    if s.voyage.peeked != NONE {
                        let _ = writeln!(out, "Lookout's card (seen by P{} only): {}", s.active, self.describe_card(s.voyage.peeked));
                    }
                    if s.voyage.slid != NONE {
                        let _ = writeln!(out, "Slid under (seen by P{} only): {}", s.active, self.describe_card(s.voyage.slid));
                    }
                }
                if s.phase != Phase::Deal {
                    let _ = writeln!(out, "Stacks (face down):");
                    for st in 0..3 {
                        let mut names: Vec<&str> = Vec::new();
                        let mut m = s.stack_cards[st];
                        while m != 0 {
                            let c = m.trailing_zeros() as u8;
                            if !matches!(self.data.kind(c), Kind::Destination { .. }) {
                                names.push(self.card_name(c));
                            }
                            m &= m - 1;
                        }
                        let _ = writeln!(out, "  {} stack: {}", PORTS[st], names.join(", "));
                    }
                }
            }
        }
        out
    }

    /// The fields of `docs/games/north-wind.md`, "Observation tensor". The shares of a limited
    /// quantity are at most the most its state field holds over the limit (the rules keep them
    /// at 1 or below; the bound is what the field can hold, as is the gold's, which no rule
    /// limits with an unlimited bank); the flags are 0 or 1; a type's cards revealed are at
    /// most the voyage's 8.
    fn observation(&self, s: &State, player: usize, t: &mut Tensor<'_>) {
        let types = self.data.types.len();
        let r = &self.data.rules;
        let byte = u8::MAX as f32;
        let mut f = t.field("observer", 4, 0.0, 1.0);
        for p in 0..4 {
            f.put((p == player) as u8 as f32);
        }
        let mut f = t.field("on turn", 4, 0.0, 1.0);
        for p in 0..4 {
            f.put((p == s.active as usize && s.phase != Phase::GameOver) as u8 as f32);
        }
        let mut f = t.field_with("ships", 4 * SHIP_LEN, |b| {
            for _ in 0..4 {
                b.put(1, 0.0, u32::MAX as f32 / 10.0);
                b.put(5, 0.0, byte / r.max_per_kind as f32);
                b.put(1, 0.0, byte / r.prison_slots.max(1) as f32);
                b.put(1, 0.0, byte / r.max_letters.max(1) as f32);
                b.put(1, 0.0, byte / r.cannons_per_player.max(1) as f32);
                b.put(1, 0.0, byte / r.max_sail as f32);
                b.put(5, 0.0, 1.0);
                b.put(1, 0.0, byte / self.tokens as f32);
                b.put(3, 0.0, 1.0);
            }
        });
        for p in 0..4 {
            if p >= self.players {
                f.skip(SHIP_LEN);
                continue;
            }
            let sh = &s.ships[p];
            f.put(sh.gold as f32 / 10.0);
            for g in 0..5 {
                f.put(sh.goods[g] as f32 / r.max_per_kind as f32);
            }
            f.put(sh.captains as f32 / r.prison_slots.max(1) as f32);
            f.put(sh.letters as f32 / r.max_letters.max(1) as f32);
            f.put(sh.cannons as f32 / r.cannons_per_player.max(1) as f32);
            f.put(sh.sail as f32 / r.max_sail as f32);
            for c in 0..5 {
                f.put(sh.has(c) as u8 as f32);
            }
            f.put(self.placed(s, p) as f32 / self.tokens as f32);
            f.put(sh.supply_bonus as u8 as f32);
            f.put(sh.crew_bonus as u8 as f32);
            f.put(1.0);
        }
        let mut f = t.field("columns", 3 * 4, 0.0, byte / 9.0);
        for port in 0..3 {
            for p in 0..4 {
                f.put(s.column[port][p] as f32 / 9.0);
            }
        }
        let mut f = t.field_with("contracts done", 3, |b| {
            for port in 0..3 {
                b.put(1, 0.0, byte / self.data.contracts[port].len() as f32);
            }
        });
        for port in 0..3 {
            f.put(s.done[port] as f32 / self.data.contracts[port].len() as f32);
        }
        let mut f = t.field("majority", 3 * 5, 0.0, 1.0);
        for port in 0..3 {
            f.one_hot(5, if s.majority[port] == NONE { 4 } else { s.majority[port] as usize });
        }
        let gold_high = if self.limited_gold { u32::MAX as f32 / r.gold_total.max(1) as f32 } else { 1.0 };
        let mut f = t.field_with("supply", 8, |b| {
            b.put(5, 0.0, byte / r.goods_per_kind.max(1) as f32);
            b.put(1, 0.0, byte / r.captains_total.max(1) as f32);
            b.put(1, 0.0, byte / r.letters_total.max(1) as f32);
            b.put(1, 0.0, gold_high);
        });
        for g in 0..5 {
            f.put(s.supply_goods[g] as f32 / r.goods_per_kind.max(1) as f32);
        }
        f.put(s.supply_captains as f32 / r.captains_total.max(1) as f32);
        f.put(s.supply_letters as f32 / r.letters_total.max(1) as f32);
        // The bank's gold as a share of the box's coins; an unlimited bank always shows full.
        f.put(if self.limited_gold { s.supply_gold as f32 / r.gold_total.max(1) as f32 } else { 1.0 });
        t.field("phase", PHASES, 0.0, 1.0).one_hot(PHASES, phase_index(s.phase));
        let v = &s.voyage;
        let in_v = s.phase.in_voyage();
        t.field("decider", 4, 0.0, 1.0).one_hot(4, if in_v { v.decider as usize } else { 4 });
        t.field("voyage stack", 3, 0.0, 1.0).one_hot(3, if in_v { v.stack as usize } else { 3 });
        let mut f = t.field("revealed", types, 0.0, 8.0);
        if in_v {
            for k in 0..v.revealed as usize {
                f.add(self.data.card_type[v.order[k] as usize] as usize, 1.0);
            }
        }
        let mut f = t.field("current card", types, 0.0, 1.0);
        if in_v && v.current != NONE {
            f.set(self.data.card_type[v.current as usize] as usize, 1.0);
        }
        let mut f = t.field("lookout", types, 0.0, 1.0);
        if in_v && player == s.active as usize {
            for c in [v.peeked, v.slid] {
                if c != NONE {
                    f.set(self.data.card_type[c as usize] as usize, 1.0);
                }
            }
        }
        let mut f = t.field_with("voyage numbers", 6, |b| {
            b.highs(&[byte / 2.0, 8.0 / r.max_sail as f32, byte / 3.0, byte / 3.0, byte / 4.0, byte / 2.0]);
        });
        if in_v {
            f.put(v.actions as f32 / 2.0);
            f.put(v.revealed as f32 / r.max_sail as f32);
            f.put(v.pirates as f32 / 3.0);
            f.put(v.hits as f32 / 3.0);
            f.put(v.rolls_left as f32 / 4.0);
            f.put(v.jettisoned as f32 / 2.0);
        }
        let mut f = t.field("boatswain's first trade", 10, 0.0, 1.0);
        if s.phase == Phase::Boatswain {
            f.set((v.first_trade as Action - MERCHANT_BUY) as usize, 1.0);
        }
        let mut f = t.field("seen", 3 * types, 0.0, 1.0);
        for st in 0..3 {
            for ty in 0..types {
                f.put((s.seen[player][st] >> ty & 1) as f32);
            }
        }
        let mut f = t.field("runs", 3 * MAX_MULTI_TYPES * RUN_LEN, 0.0, u16::MAX as f32 / 16.0);
        for st in 0..3 {
            for m in 0..MAX_MULTI_TYPES {
                for j in 0..RUN_LEN {
                    f.put(s.runs[player][st][m][j] as f32 / 16.0);
                }
            }
        }
        t.field("turn", 1, 0.0, u32::MAX as f32 / self.max_turns as f32).put(s.turn as f32 / self.max_turns as f32);
    }

    fn score_report(&self, s: &State) -> ScoreReport {
        let mut categories: Vec<String> = PORTS.iter().map(|p| format!("contracts {p}")).collect();
        categories.push("majority bonuses".into());
        categories.push("supply bonus".into());
        categories.push("full crew bonus".into());
        let mut points = Vec::new();
        let mut totals = Vec::new();
        for p in 0..self.players {
            let mut row: Vec<f64> = (0..3).map(|port| s.column[port][p] as f64).collect();
            row.push((0..3).filter(|&port| s.majority[port] as usize == p).count() as f64);
            row.push(s.ships[p].supply_bonus as u8 as f64);
            row.push(s.ships[p].crew_bonus as u8 as f64);
            totals.push(row.iter().sum());
            points.push(row);
        }
        let mut notes = vec![format!(
            "victory point tokens placed; {} wins on the owner's turn",
            self.tokens
        )];
        if s.truncated {
            notes.push(format!("cut off after {} turns", self.max_turns));
        }
        ScoreReport {
            categories,
            points,
            totals,
            tie_breakers: Vec::new(),
            tie_breaker_values: vec![Vec::new(); self.players],
            winners: if s.winner == NONE { Vec::new() } else { vec![s.winner as usize] },
            terminal: s.phase == Phase::GameOver,
            truncated: s.truncated,
            notes,
            ..ScoreReport::default()
        }
    }
}
