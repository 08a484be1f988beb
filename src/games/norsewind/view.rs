//! What players see: action names, the table as text, the observation tensor and the score
//! report. Everything on the table is open, so every seat sees the same table.

use crate::engine::prelude::*;
use crate::engine::{Action, OpponentRow, ScoreRecord, ScoreReport};
use crate::engine::words::plural;

use super::actions::{self, decode, Move, KEEP_NAMES, PLACE_CASTLE, PLACE_TILE};
use super::data::{is_green, Card, CASTLE, COLOURS, KINGDOMS, MAX_DISPLAY, MAX_SPACES, TILES, TYPES};
use super::rules::Scoring;
use super::state::{Phase, State, MAX_BUILDINGS, MAX_PLAYERS, NONE, SLOTS};
use super::Norsewind;

/// Numbers per card in the tensor.
pub const CARD_F: usize = 17;
/// Numbers per castle of the display.
pub const CASTLE_F: usize = 8;
/// Numbers per building position of a kingdom: the card, each citizen space's colour and
/// figure, the shield and prestige discs.
pub const BUILDING_F: usize = 3 + 2 * MAX_SPACES;
/// Numbers per kingdom of a player.
pub const KINGDOM_F: usize = 13 + 5 + MAX_BUILDINGS * BUILDING_F;
/// Numbers per player.
pub const PLAYER_F: usize = 6 + KINGDOMS * KINGDOM_F;
pub const PHASES: usize = 12;
/// Numbers of the turn under way: step 3's slot, the kingdom built in, the kingdom of a
/// replaced castle, its discs, the passes in a row, the rare case resolved.
pub const TURN_F: usize = SLOTS + 2 * KINGDOMS + 3;

/// The offsets of the tensor's blocks (`docs/games/norsewind.md`, "Observation tensor").
pub const O_PHASE: usize = 0;
pub const O_GLOBAL: usize = O_PHASE + PHASES;
pub const O_TURN: usize = O_GLOBAL + 6;
pub const O_SUPPLY: usize = O_TURN + TURN_F;
pub const O_TILES: usize = O_SUPPLY + 4 * 5;
pub const O_MARKET: usize = O_TILES + KINGDOMS * TILES.len();
pub const O_SHIP: usize = O_MARKET + SLOTS * CARD_F;
pub const O_DISPLAY: usize = O_SHIP + SLOTS;
pub const O_PLAYERS: usize = O_DISPLAY + MAX_DISPLAY * CASTLE_F;
pub const O_VIKINGS: usize = O_PLAYERS + MAX_PLAYERS * PLAYER_F;
pub const TENSOR_LEN: usize = O_VIKINGS + KINGDOMS * 4;

pub const fn tensor_len() -> usize {
    TENSOR_LEN
}

pub fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Colours => 0,
        Phase::Reveal => 1,
        Phase::Ship => 2,
        Phase::Tile => 3,
        Phase::VikingSide => 4,
        Phase::Deal => 5,
        Phase::StartPlacement => 6,
        Phase::Turn => 7,
        Phase::Take => 8,
        Phase::Reuse => 9,
        Phase::Neutral => 10,
        Phase::GameOver => 11,
    }
}

/// A name as it appears in action names: lower case, spaces as '-'.
/// Which card `c` is, as the tensor gives it: its position in the component data's list of
/// cards, from 1 (0: none).
fn card_number(c: u8) -> f32 {
    if c == NONE {
        0.0
    } else {
        c as f32 + 1.0
    }
}

/// A figure's or a space's colour as the tensor gives it: its colour's number from 1 (0: none).
fn colour_number(c: u8) -> f32 {
    if c == NONE {
        0.0
    } else {
        c as f32 + 1.0
    }
}

pub fn slug(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

impl Norsewind {
    pub fn kingdom_slug(&self, k: usize) -> String {
        slug(&self.data.kingdom_names[k])
    }

    /// The card at place `q` of kingdom `k` of player `p`, as an action name says it:
    /// "tile", "castle" or the building's card id.
    pub fn place_name(&self, s: &State, p: usize, k: usize, q: u8) -> String {
        let kg = &s.player[p].kingdoms[k];
        match q {
            PLACE_TILE => "tile".into(),
            PLACE_CASTLE => "castle".into(),
            _ => {
                let c = kg.buildings[q as usize - 1];
                if c == NONE {
                    format!("building-{q}")
                } else {
                    self.card(c).id.clone()
                }
            }
        }
    }

    fn card_id(&self, a: Action) -> String {
        self.data.cards.get(a as usize).map_or_else(|| format!("card-{a}"), |c| c.id.clone())
    }

    /// A card in words: "inn-3 (inn, 2 helmets, costs 2, 2 citizens, spaces blue)".
    pub fn card_words(&self, c: u8) -> String {
        let card: &Card = self.card(c);
        let mut parts = vec![if card.kind == CASTLE { "castle".to_string() } else { TYPES[card.kind as usize].to_string() }];
        if card.kind == CASTLE {
            parts.push(format!("costs {}", card.cost));
        }
        parts.push(plural(card.helmets, "helmet", "helmets"));
        if card.cost > 0 && card.kind != CASTLE {
            parts.push(format!("costs {}", card.cost));
        }
        if card.coins > 0 {
            parts.push(plural(card.coins, "coin", "coins"));
        }
        if card.citizens > 0 {
            parts.push(plural(card.citizens, "citizen", "citizens"));
        }
        if !card.spaces.is_empty() {
            let cols: Vec<&str> = card.spaces.iter().map(|&c| COLOURS[c as usize]).collect();
            parts.push(format!("spaces {}", cols.join(" ")));
        }
        if card.shields > 0 || card.shield_space > 0 {
            let space = if card.shield_space > 0 { format!(" (+{} space)", card.shield_space) } else { String::new() };
            parts.push(format!("{}{space}", plural(card.shields, "shield", "shields")));
        }
        if card.prestige > 0 || card.prestige_space > 0 {
            let space = if card.prestige_space > 0 { format!(" (+{} space)", card.prestige_space) } else { String::new() };
            parts.push(format!("{} prestige{space}", card.prestige));
        }
        format!("{} ({})", card.id, parts.join(", "))
    }

    pub(super) fn situation(&self, s: &State) -> String {
        let p = s.current;
        match s.phase {
            Phase::Turn => format!("P{p} to play: acquire a building or a castle"),
            Phase::Take => format!("P{p} takes a citizen figure or an upgrade disc next to slot {}", s.slot + 1),
            Phase::Reuse => format!("P{p} keeps the replaced castle's discs or returns them"),
            Phase::Neutral => format!("P{p} places the neutral citizen figure"),
            Phase::StartPlacement => format!("P{p} places the starting card"),
            Phase::GameOver if s.truncated => "game over (cut off at the turn limit)".into(),
            Phase::GameOver => "game over".into(),
            _ => "setting up / revealing cards".into(),
        }
    }

    /// One kingdom: its castle, buildings with what lies on them, its tile and its sums.
    pub fn kingdom_line(&self, s: &State, p: usize, k: usize) -> String {
        let kg = &s.player[p].kingdoms[k];
        let mut parts = Vec::new();
        if kg.castle != NONE {
            let mut discs = Vec::new();
            if kg.castle_shield {
                discs.push("shield disc");
            }
            if kg.castle_prestige {
                discs.push("prestige disc");
            }
            let d = if discs.is_empty() { String::new() } else { format!(" [{}]", discs.join(", ")) };
            parts.push(format!("castle {}{d}", self.card(kg.castle).id));
        }
        for b in 0..kg.count as usize {
            let c = kg.buildings[b];
            let mut extra: Vec<String> = kg.figures[b][..self.card(c).spaces.len()]
                .iter()
                .map(|&f| if f == NONE { "_".to_string() } else { COLOURS[f as usize].to_string() })
                .collect();
            if kg.shield_discs[b] {
                extra.push("shield disc".into());
            }
            if kg.prestige_discs[b] {
                extra.push("prestige disc".into());
            }
            let e = if extra.is_empty() { String::new() } else { format!(" [{}]", extra.join(", ")) };
            parts.push(format!("{}{e}", self.card(c).id));
        }
        let t = s.tiles[k];
        if t != NONE {
            let mut tile = format!("tile {}", TILES[t as usize]);
            if kg.tile_figure != NONE {
                tile.push_str(&format!(" [{}]", COLOURS[kg.tile_figure as usize]));
            } else if kg.tile_disc {
                tile.push_str(" [disc]");
            }
            parts.push(tile);
        }
        let tally = self.kingdom_tally(s, p, k);
        format!(
            "{} (pays for {}s): {} | {}, {}, {} prestige, {}: {} points",
            self.data.kingdom_names[k],
            TYPES[self.data.kingdom_income[k] as usize],
            if parts.is_empty() { "-".to_string() } else { parts.join(", ") },
            plural(tally.helmets, "helmet", "helmets"),
            plural(tally.shields, "shield", "shields"),
            tally.prestige,
            plural(tally.citizens, "citizen", "citizens"),
            tally.points
        )
    }

    /// The largest of each market card feature and of each castle display feature over the
    /// data's cards.
    fn card_highs(&self) -> ([f32; CARD_F], [f32; CASTLE_F]) {
        let mut card = [0.0f32; CARD_F];
        let mut castle = [0.0f32; CASTLE_F];
        for c in 0..self.data.cards.len() {
            let mut one = [0.0f32; CARD_F];
            self.card_features(c as u8, &mut one);
            card.iter_mut().zip(one).for_each(|(m, v)| *m = m.max(v));
            let k = self.card(c as u8);
            let row = [1.0, k.cost as f32, k.shields as f32, k.shield_space as f32, k.prestige as f32, k.prestige_space as f32, 1.0, card_number(c as u8)];
            castle.iter_mut().zip(row).for_each(|(m, v)| *m = m.max(v));
        }
        (card, castle)
    }

    fn card_features(&self, c: u8, out: &mut [f32]) {
        if c == NONE {
            return;
        }
        let card = self.card(c);
        out[0] = 1.0;
        out[1 + card.kind as usize] = 1.0;
        out[7] = card.helmets as f32;
        out[8] = card.cost as f32;
        out[9] = card.coins as f32;
        out[10] = card.citizens as f32;
        out[11] = card.spaces.len() as f32;
        out[12] = card.shields as f32;
        out[13] = card.prestige as f32;
        out[14] = card.shield_space as f32;
        out[15] = card.prestige_space as f32;
        out[16] = card_number(c);
    }

    /// Calls `f` with the place of every empty citizen space of kingdom `k`.
    pub fn for_each_empty_space(&self, s: &State, p: usize, k: usize, mut f: impl FnMut(u8)) {
        let kg = &s.player[p].kingdoms[k];
        if s.tiles[k] == super::data::T_CITIZEN_SPACE && kg.tile_figure == NONE {
            f(PLACE_TILE);
        }
        for b in 0..kg.count as usize {
            let spaces = self.card(kg.buildings[b]).spaces.len();
            for j in 0..spaces {
                if kg.figures[b][j] == NONE {
                    f(b as u8 + 1);
                }
            }
        }
    }
}

impl View for Norsewind {
    /// Everything is open information: every viewer sees the whole table.
    fn text(&self, s: &State, _viewer: Viewer) -> String {
        let mut out = String::new();
        let mode = if self.solo() { format!("solo, level {}", s.level) } else { format!("{} players", s.players) };
        out.push_str(&format!("Norsewind ({mode}), turn {}: {}\n", s.turn, self.situation(s)));
        out.push_str(&format!(
            "Draw deck {}, reserve deck {}{}\n",
            plural(s.deck.count_ones(), "card", "cards"),
            plural(s.reserve.count_ones(), "card", "cards"),
            if s.end_triggered { "; the end is triggered" } else { "" }
        ));
        out.push_str("Market:\n");
        for slot in 0..SLOTS {
            let c = s.market[slot];
            let ship = if self.solo() && s.ship as usize == slot { " <- Viking ship" } else { "" };
            let card = if c == NONE { "(empty)".to_string() } else { self.card_words(c) };
            out.push_str(&format!("  slot {}: {card}{ship}\n", slot + 1));
            if slot < 4 {
                out.push_str(&format!("  supply {}: {} {} citizens\n", slot + 1, s.supply[slot], COLOURS[s.supply_colour[slot] as usize]));
            } else {
                out.push_str(&format!("  supply 5: {} upgrade discs\n", s.discs));
            }
        }
        out.push_str("Castle display:");
        if s.display_len == 0 {
            out.push_str(" (empty)");
        }
        for &c in &s.display[..s.display_len as usize] {
            out.push_str(&format!("\n  {}", self.card_words(c)));
            for p in (0..s.players as usize).filter(|&p| s.locked[p] & (1 << c) != 0) {
                out.push_str(&format!(" [P{p} returned it: not for P{p} before the next building]"));
            }
        }
        out.push_str(&format!("\nNeutral figures on the castle tile: {}\n", s.neutral));
        let tiles: Vec<String> = (0..KINGDOMS)
            .map(|k| {
                let t = s.tiles[k];
                if t == NONE {
                    format!("{} ?", self.data.kingdom_names[k])
                } else {
                    format!("{} {} ({})", self.data.kingdom_names[k], TILES[t as usize], if is_green(t) { "green" } else { "red" })
                }
            })
            .collect();
        out.push_str(&format!("Kingdom tiles: {}\n", tiles.join(", ")));
        for p in 0..s.players as usize {
            let pl = &s.player[p];
            let first = if p == s.starting as usize { ", starting player" } else { "" };
            out.push_str(&format!(
                "P{p} ({}){first}: {}, {}\n",
                COLOURS[p],
                plural(pl.coins, "coin", "coins"),
                plural(pl.turns, "turn", "turns")
            ));
            for k in 0..KINGDOMS {
                out.push_str(&format!("  {}\n", self.kingdom_line(s, p, k)));
            }
        }
        if self.solo() {
            out.push_str(&format!("Vikings (ship over slot {}):\n", s.ship + 1));
            for k in 0..KINGDOMS {
                let side = self.data.vikings[k][s.viking_red[k] as usize];
                let mut cards = Vec::new();
                let mut m = s.viking_rows[k];
                while m != 0 {
                    let c = m.trailing_zeros() as u8;
                    m &= m - 1;
                    cards.push(self.card(c).id.clone());
                }
                out.push_str(&format!(
                    "  {} ({} side: {} helmets, {} a card): {} | {} helmets, {} points\n",
                    self.data.kingdom_names[k],
                    if s.viking_red[k] { "red" } else { "green" },
                    side.helmets,
                    side.points,
                    if cards.is_empty() { "-".to_string() } else { cards.join(", ") },
                    self.viking_helmets(s, k),
                    self.viking_points(s, k)
                ));
            }
        }
        if s.phase == Phase::GameOver {
            out.push_str(&self.score_report(s).to_table());
        }
        out
    }


    fn action_to_string(&self, s: &State, a: Action) -> String {
        match s.phase {
            Phase::Colours if a >= 24 => return format!("action-{a}"),
            Phase::Colours => {
                let order = actions::permutation(a);
                return format!("colours:{}", order.map(|c| COLOURS[c as usize]).join("-"));
            }
            Phase::Reveal => return format!("reveal:{}", self.card_id(a)),
            Phase::Deal => return format!("deal:{}", self.card_id(a)),
            Phase::Ship => return format!("viking-ship:{}", a + 1),
            Phase::Tile => return format!("tile:{}", TILES.get(a as usize).copied().unwrap_or("unknown")),
            Phase::VikingSide => return format!("viking-side:{}", if a == 1 { "red" } else { "green" }),
            _ => {}
        }
        let p = s.current as usize;
        match decode(a) {
            Some(Move::Build { slot, kingdom }) => {
                let c = s.market[slot];
                let card = if c == NONE { format!("slot-{}", slot + 1) } else { self.card(c).id.clone() };
                format!("build:{card}:{}", self.kingdom_slug(kingdom))
            }
            Some(Move::Castle { index, kingdom }) => {
                let c = s.display.get(index).copied().unwrap_or(NONE);
                let card = if c == NONE { format!("display-{}", index + 1) } else { self.card(c).id.clone() };
                format!("castle:{card}:{}", self.kingdom_slug(kingdom))
            }
            Some(Move::Citizen { colour, kingdom, place }) => format!(
                "citizen:{}:{}:{}",
                COLOURS[colour as usize],
                self.kingdom_slug(kingdom),
                self.place_name(s, p, kingdom, place)
            ),
            Some(Move::Shield { kingdom, place }) => {
                format!("shield:{}:{}", self.kingdom_slug(kingdom), self.place_name(s, p, kingdom, place))
            }
            Some(Move::Prestige { kingdom, place }) => {
                format!("prestige:{}:{}", self.kingdom_slug(kingdom), self.place_name(s, p, kingdom, place))
            }
            Some(Move::Keep { shield, prestige }) => {
                format!("keep-discs:{}", KEEP_NAMES[shield as usize + 2 * prestige as usize])
            }
            Some(Move::Start { kingdom }) => format!("start:{}", self.kingdom_slug(kingdom)),
            Some(Move::Pass) => "pass".into(),
            Some(Move::Renew) => "renew".into(),
            None => format!("action-{a}"),
        }
    }

    /// The fields of `docs/games/norsewind.md`, "Observation tensor": the players' blocks
    /// start with the observer and go on in seat order. The flags and one-hot fields are 0 or
    /// 1; a card's features at most the largest of the data's cards; a card's or a colour's
    /// number at most 256 (an id + 1); the decks at most 128 cards; any other count at most
    /// what its state field holds (a kingdom's points, which a Viking majority can take below
    /// 0, within an `i64`'s range).
    fn observation(&self, s: &State, player: usize, t: &mut Tensor<'_>) {
        let (byte, word, id) = (u8::MAX as f32, u32::MAX as f32, 256.0);
        t.field("phase", PHASES, 0.0, 1.0).one_hot(PHASES, phase_index(s.phase));
        t.field_with("table", 6, |b| b.highs(&[128.0, 128.0, 1.0, MAX_DISPLAY as f32, byte, byte]))
            .put(s.deck.count_ones() as f32)
            .put(s.reserve.count_ones() as f32)
            .put(s.end_triggered as u8 as f32)
            .put(s.display_len as f32)
            .put(s.neutral as f32)
            .put(s.discs as f32);
        let (take, reuse) = (s.phase == Phase::Take, s.phase == Phase::Reuse);
        t.field("step-3 slot", SLOTS, 0.0, 1.0).one_hot(SLOTS, if take { s.slot as usize } else { SLOTS });
        t.field("built kingdom", KINGDOMS, 0.0, 1.0).one_hot(KINGDOMS, if take { s.built_kingdom as usize } else { KINGDOMS });
        t.field("replaced castle", KINGDOMS, 0.0, 1.0).one_hot(KINGDOMS, if reuse { s.reuse_kingdom as usize } else { KINGDOMS });
        t.field_with("turn", 3, |b| b.highs(&[byte, byte, 1.0]))
            .put(if reuse { s.reuse_discs as f32 } else { 0.0 })
            .put(s.passes as f32)
            .put(s.refreshed as u8 as f32);
        let mut f = t.field_with("supplies", 4 * 5, |b| {
            for _ in 0..4 {
                b.highs(&[1.0, 1.0, 1.0, 1.0, byte]);
            }
        });
        for i in 0..4 {
            f.one_hot(4, s.supply_colour[i] as usize).put(s.supply[i] as f32);
        }
        let mut f = t.field("kingdom tiles", KINGDOMS * TILES.len(), 0.0, 1.0);
        for k in 0..KINGDOMS {
            f.one_hot(TILES.len(), if s.tiles[k] != NONE { s.tiles[k] as usize } else { TILES.len() });
        }
        let mut f = t.field_with("market", SLOTS * CARD_F, |b| {
            let (card, _) = self.card_highs();
            for _ in 0..SLOTS {
                b.highs(&card);
            }
        });
        for slot in 0..SLOTS {
            self.card_features(s.market[slot], f.next(CARD_F));
        }
        t.field("Viking ship", SLOTS, 0.0, 1.0).one_hot(SLOTS, if self.solo() { s.ship as usize } else { SLOTS });
        let mut f = t.field_with("castle display", MAX_DISPLAY * CASTLE_F, |b| {
            let (_, castle) = self.card_highs();
            for _ in 0..MAX_DISPLAY {
                b.highs(&castle);
            }
        });
        for i in 0..s.display_len as usize {
            let c = s.display[i];
            let card = self.card(c);
            f.next(CASTLE_F).copy_from_slice(&[
                1.0,
                card.cost as f32,
                card.shields as f32,
                card.shield_space as f32,
                card.prestige as f32,
                card.prestige_space as f32,
                (s.locked[player] & (1 << c) != 0) as u8 as f32,
                card_number(c),
            ]);
        }
        let mut f = t.field_with("players", MAX_PLAYERS * PLAYER_F, |b| {
            for _ in 0..MAX_PLAYERS {
                b.highs(&[1.0, 1.0, word, word, 1.0, id]);
                for _ in 0..KINGDOMS {
                    b.highs(&[byte, word, word, word, word]);
                    b.put(1, i64::MIN as f32, i64::MAX as f32);
                    b.put(1, 0.0, 1.0);
                    b.put(6, 0.0, byte);
                    b.highs(&[id, 1.0, 1.0, id, 1.0]);
                    for _ in 0..MAX_BUILDINGS {
                        b.put(1 + 2 * MAX_SPACES, 0.0, id);
                        b.put(2, 0.0, 1.0);
                    }
                }
            }
        });
        let n = s.players as usize;
        for rel in 0..n {
            let p = (player + rel) % n;
            let pl = &s.player[p];
            f.put(1.0)
                .put((s.current as usize == p && s.phase != Phase::GameOver) as u8 as f32)
                .put(pl.coins as f32)
                .put(pl.turns as f32)
                .put((s.starting as usize == p) as u8 as f32)
                .put(card_number(pl.start_card));
            for k in 0..KINGDOMS {
                let kg = &pl.kingdoms[k];
                let tally = self.kingdom_tally(s, p, k);
                let mut empty = 0;
                self.for_each_empty_space(s, p, k, |_| empty += 1);
                f.put(kg.count as f32)
                    .put(tally.helmets as f32)
                    .put(tally.shields as f32)
                    .put(tally.prestige as f32)
                    .put(tally.citizens as f32)
                    .put(tally.points as f32)
                    .put((kg.castle != NONE) as u8 as f32)
                    .put(empty as f32);
                let kinds = f.next(5);
                for &c in &kg.buildings[..kg.count as usize] {
                    kinds[self.card(c).kind as usize] += 1.0;
                }
                f.put(card_number(kg.castle))
                    .put(kg.castle_shield as u8 as f32)
                    .put(kg.castle_prestige as u8 as f32)
                    .put(colour_number(kg.tile_figure))
                    .put(kg.tile_disc as u8 as f32);
                for b in 0..MAX_BUILDINGS {
                    if b >= kg.count as usize {
                        f.skip(BUILDING_F);
                        continue;
                    }
                    let c = kg.buildings[b];
                    let spaces = &self.card(c).spaces;
                    f.put(card_number(c));
                    for j in 0..MAX_SPACES {
                        match spaces.get(j) {
                            Some(&colour) => f.put(colour_number(colour)).put(colour_number(kg.figures[b][j])),
                            None => f.skip(2),
                        };
                    }
                    f.put(kg.shield_discs[b] as u8 as f32).put(kg.prestige_discs[b] as u8 as f32);
                }
            }
        }
        let mut f = t.field_with("Vikings", KINGDOMS * 4, |b| {
            for _ in 0..KINGDOMS {
                b.highs(&[1.0, 128.0, word, word]);
            }
        });
        if self.solo() {
            for k in 0..KINGDOMS {
                let side = self.data.vikings[k][s.viking_red[k] as usize];
                f.put(s.viking_red[k] as u8 as f32)
                    .put(s.viking_rows[k].count_ones() as f32)
                    .put(self.viking_helmets(s, k) as f32)
                    .put(side.points as f32);
            }
        }
    }

    fn score_report(&self, s: &State) -> ScoreReport {
        let mut categories = Vec::with_capacity(1 + KINGDOMS);
        categories.push("coins".to_string());
        categories.extend(self.data.kingdom_names.iter().cloned());
        // Each kingdom is tallied once: the points, the totals and the winners read the tallies.
        let sc = self.scoring(s);
        let points: Vec<Vec<f64>> = (0..self.players).map(|p| score_row(s, &sc, p).to_vec()).collect();
        let totals: Vec<f64> = points.iter().map(|r| r.iter().sum()).collect();
        let mut winners = Vec::new();
        self.winners_of(s, &sc, &mut winners);
        let mut report = ScoreReport {
            categories,
            totals,
            points,
            winners,
            terminal: s.phase == Phase::GameOver,
            truncated: s.truncated,
            ..ScoreReport::default()
        };
        if self.solo() {
            let row = viking_row(&sc);
            report.opponents = vec![OpponentRow { name: "Vikings".into(), points: row.to_vec(), total: row.iter().sum() }];
            let margin = sc.totals[0] - sc.viking_total;
            if let Some((vikings_won, tier)) = self.solo_outcome(s, &sc, !report.winners.is_empty()) {
                if vikings_won {
                    report.opponent_winners = vec![0];
                }
                if report.winners.is_empty() {
                    report.notes.push(format!("the Vikings are not beaten (margin {margin})"));
                }
                if let Some(t) = tier {
                    report.tier = Some(self.data.tiers[t].0.clone());
                    report.notes.push(format!("margin over the Vikings: {margin}"));
                }
            }
        } else {
            report.tie_breakers = vec!["most remaining coins".into()];
            report.tie_breaker_values = (0..self.players).map(|p| vec![s.player[p].coins as f64]).collect();
        }
        report
    }

    /// The report's numbers without its names and notes, from the same tallies.
    fn score_record(&self, s: &State, out: &mut ScoreRecord) {
        out.clear();
        let sc = self.scoring(s);
        for p in 0..self.players {
            let row = score_row(s, &sc, p);
            out.points.extend_from_slice(&row);
            out.totals.push(row.iter().sum());
        }
        self.winners_of(s, &sc, &mut out.winners);
        if self.solo() {
            out.opponent_totals.push(viking_row(&sc).iter().sum());
            if let Some((vikings_won, tier)) = self.solo_outcome(s, &sc, !out.winners.is_empty()) {
                if vikings_won {
                    out.opponent_winners.push(0);
                }
                out.tier = tier;
            }
        }
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.total(state, p) as f64;
        }
    }
}

/// A seat's row of the score report: its coins, then its points in each kingdom.
fn score_row(s: &State, sc: &Scoring, p: usize) -> [f64; 1 + KINGDOMS] {
    let k = &sc.kingdoms[p];
    [s.player[p].coins as f64, k[0] as f64, k[1] as f64, k[2] as f64, k[3] as f64]
}

/// The Vikings' row of the score report: no coins, then their points in each kingdom.
fn viking_row(sc: &Scoring) -> [f64; 1 + KINGDOMS] {
    let v = &sc.vikings;
    [0.0, v[0] as f64, v[1] as f64, v[2] as f64, v[3] as f64]
}

/// Nothing is hidden (the decks are sets of known cards, each drawn when it is revealed): the
/// state itself is the only consistent one (the default).
impl Resample for Norsewind {}
