//! Norsewind's rules: setup, legal moves, chance, the effect of every move, final scoring
//! and the winners. `docs/dev/norsewind-records.md` maps each rule to its code and test.

use crate::engine::prelude::*;
use crate::engine::rng::{below, Rng};
use crate::engine::{Action, Actor, GameSpec};

use super::actions::{self, decode, Move, PASS, PLACE_CASTLE, PLACE_TILE, RENEW};
use super::data::{
    is_green, Card, CardFacts, CASTLE, CHURCH, KINGDOMS, MAX_SPACES, NEUTRAL, SHIP, TILES, T_CASTLE_SEVEN, T_CITIZEN_COIN,
    T_CITIZEN_SPACE, T_COLOURS, T_DIFFERENT, T_FOURTH, T_PRESTIGE, T_SHIELD, T_TOLL, T_TWO,
};
use super::state::{After, Derived, Kingdom, Phase, Player, State, MAX_PLAYERS, NONE, SLOTS};
use super::Norsewind;

/// The sums of one kingdom that final scoring reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KingdomTally {
    pub helmets: u32,
    pub shields: u32,
    pub prestige: u32,
    /// Citizens as they score (a "colour-scoring" kingdom counts one figure per colour).
    pub citizens: u32,
    pub points: i64,
}

/// Every seat's kingdom points and total, and the Vikings' (solo), each kingdom tallied once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scoring {
    pub kingdoms: [[i64; KINGDOMS]; MAX_PLAYERS],
    pub totals: [i64; MAX_PLAYERS],
    pub vikings: [i64; KINGDOMS],
    pub viking_total: i64,
}

/// `SELECT_IN_BYTE[b * 8 + r]`: the position of the set bit of byte value `b` with `r` set
/// bits below it.
const SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut t = [0u8; 256 * 8];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                t[b * 8 + r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

const BYTES_LOW: u64 = 0x0101_0101_0101_0101;
const BYTES_HIGH: u64 = 0x8080_8080_8080_8080;

/// The running count of `x`'s set bits by bytes: byte `i` holds the set bits of bytes
/// `0..=i` (so the top byte holds them all).
pub(super) fn byte_counts(x: u64) -> u64 {
    let mut c = x - (x >> 1 & 0x5555_5555_5555_5555);
    c = (c & 0x3333_3333_3333_3333) + (c >> 2 & 0x3333_3333_3333_3333);
    c = (c + (c >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    c.wrapping_mul(BYTES_LOW)
}

/// The set bit of `word` with `n` set bits below it (`n` < its count), given
/// `byte_counts(word)`, without a branch.
pub(super) fn select(word: u64, counts: u64, n: u32) -> u32 {
    // The high bit of every byte whose running count exceeds n (no byte borrows: each
    // count is at most 64 and n + 1 at most 64).
    let past = ((counts | BYTES_HIGH) - (n as u64 + 1) * BYTES_LOW) & BYTES_HIGH;
    let byte = past.trailing_zeros() / 8;
    let before = ((counts << 8) >> (8 * byte)) as u32 & 0xff;
    let bits = (word >> (8 * byte)) as usize & 0xff;
    8 * byte + SELECT_IN_BYTE[bits * 8 + (n - before) as usize] as u32
}

/// A uniformly drawn card of the non-empty set `m`, drawn as the engine's draw does: one
/// `below` over the set's size, the cards in id order.
fn draw_card(m: u128, rng: &mut Rng) -> Action {
    let (low, high) = (m as u64, (m >> 64) as u64);
    let (cl, ch) = (byte_counts(low), byte_counts(high));
    let in_low = (cl >> 56) as u32;
    let n = below(rng, in_low + (ch >> 56) as u32);
    if n < in_low {
        select(low, cl, n)
    } else {
        64 + select(high, ch, n - in_low)
    }
}

/// Bit `i` of `x` (0..=4) moved to bit `8 * i`.
fn spread_bytes(x: u8) -> u64 {
    (x as u64 * 0x1020_4081) & 0x01_0101_0101
}

fn bits(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(c)
        }
    })
}

impl Norsewind {
    pub fn card(&self, c: u8) -> &Card {
        &self.data.cards[c as usize]
    }

    /// The card's compiled facts (what the hot paths read).
    pub fn facts(&self, c: u8) -> &CardFacts {
        &self.data.facts[c as usize]
    }

    pub fn solo(&self) -> bool {
        self.players == 1
    }

    // ----- setup ----------------------------------------------------------------------

    /// The green and red tiles to draw: the level's mix in the solo game, 2 and 2 otherwise.
    pub(crate) fn tile_mix(&self) -> (u8, u8) {
        if self.solo() {
            let l = self.data.levels[self.level as usize - 1];
            (l.green_tiles, l.red_tiles)
        } else {
            (2, 2)
        }
    }

    /// Green and red Viking cards still to turn up.
    fn viking_needs(&self, s: &State) -> (u32, u32) {
        let l = self.data.levels[self.level as usize - 1];
        let done = &s.viking_red[..s.setup_next as usize];
        let reds = done.iter().filter(|&&r| r).count() as u32;
        (l.green_vikings as u32 - (done.len() as u32 - reds), l.red_vikings as u32 - reds)
    }

    /// Where revealed cards come from: the draw deck, or the reserve deck once the end is
    /// triggered.
    pub fn source(&self, s: &State) -> u128 {
        if s.end_triggered {
            s.reserve
        } else {
            s.deck
        }
    }

    // ----- facts about a player's kingdoms ----------------------------------------------

    /// Buildings of type `t` in player `p`'s kingdoms other than `k`.
    pub fn count_type_elsewhere(&self, s: &State, p: usize, k: usize, t: u8) -> u32 {
        let kingdoms = &s.player[p].kingdoms;
        (0..KINGDOMS).filter(|&j| j != k).map(|j| kingdoms[j].derived.kinds[t as usize & 7] as u32).sum()
    }

    /// Income for a card placed in kingdom `k`: the kingdom card's type in the other kingdoms.
    pub fn income(&self, s: &State, p: usize, k: usize) -> u32 {
        let t = self.data.kingdom_income[k];
        self.data.income[t as usize] * self.count_type_elsewhere(s, p, k, t)
    }

    /// What building card `c` costs in kingdom `k` of player `p` (the inn's cost and the
    /// helmet toll), or None if the card may not be placed there.
    pub fn build_cost(&self, s: &State, p: usize, c: u8, k: usize) -> Option<u32> {
        let (room, types) = self.building_room(s, p, k);
        let card = self.facts(c);
        if !room || types & (1 << card.kind) != 0 {
            return None;
        }
        let cost = if s.tiles[k] == T_TOLL { card.toll_cost } else { card.cost };
        (cost <= s.player[p].coins).then_some(cost)
    }

    /// Whether kingdom `k` of player `p` has room for a building (its tile's limit), and the
    /// building types it may not take (those already there, on a "different-types" tile) as
    /// bits.
    fn building_room(&self, s: &State, p: usize, k: usize) -> (bool, u8) {
        let r = &self.data.rules;
        let kg = &s.player[p].kingdoms[k];
        let tile = s.tiles[k];
        let limit = if tile == T_TWO { r.red_limit.min(r.kingdom_limit) } else { r.kingdom_limit };
        let mut types = 0u8;
        if tile == T_DIFFERENT {
            for &b in &kg.buildings[..kg.count as usize] {
                types |= 1 << self.facts(b).kind;
            }
        }
        (kg.count < limit, types)
    }

    /// Whether castle `c` may be acquired for kingdom `k` by player `p`.
    pub fn castle_allowed(&self, s: &State, p: usize, c: u8, k: usize) -> bool {
        self.castle_kingdoms(s, p, c) >> k & 1 != 0
    }

    /// The kingdoms (bit `k`) for which player `p` may acquire castle `c`: he can pay, did
    /// not return it since the last building, and a "castle-seven" tile's minimum is met.
    pub fn castle_kingdoms(&self, s: &State, p: usize, c: u8) -> u8 {
        self.castle_kingdoms_given(s, p, c, Self::below_seven_kingdoms(s))
    }

    /// The kingdoms without a "castle-seven" tile (bit `k`).
    fn below_seven_kingdoms(s: &State) -> u8 {
        (0..KINGDOMS).filter(|&k| s.tiles[k] != T_CASTLE_SEVEN).fold(0, |m, k| m | 1 << k)
    }

    /// `castle_kingdoms`, given `below_seven_kingdoms`.
    fn castle_kingdoms_given(&self, s: &State, p: usize, c: u8, below_seven: u8) -> u8 {
        let card = self.facts(c);
        if card.cost > s.player[p].coins || (self.castle_lock && s.locked[p] & (1 << c) != 0) {
            return 0;
        }
        if card.cost >= self.data.rules.red_castle_min {
            return 0xf;
        }
        below_seven
    }

    /// The empty citizen space for a figure of `colour` (NEUTRAL: any) at place `q`
    /// (0: the tile, 1..=4: a building) of kingdom `k`, as a space index.
    pub fn free_space(&self, s: &State, p: usize, k: usize, q: u8, colour: u8) -> Option<usize> {
        let kg = &s.player[p].kingdoms[k];
        if q == PLACE_TILE {
            let ok = s.tiles[k] == T_CITIZEN_SPACE && kg.tile_figure == NONE && (colour == NEUTRAL || colour == p as u8);
            return ok.then_some(0);
        }
        let b = q as usize - 1;
        if b >= kg.count as usize {
            return None;
        }
        let spaces = &self.card(kg.buildings[b]).spaces;
        (0..spaces.len()).find(|&j| kg.figures[b][j] == NONE && (colour == NEUTRAL || spaces[j] == colour))
    }

    /// The places of kingdom `k` with an empty citizen space, for every colour at once:
    /// byte `colour` (0..=3, and 4 for a neutral figure, which takes any) has bit `q` set
    /// (0: the tile, 1..=4: the buildings) where `free_space` finds a space for that colour.
    fn citizen_places(&self, s: &State, p: usize, k: usize) -> u64 {
        s.player[p].kingdoms[k].derived.citizen
    }

    /// Building `b`'s empty citizen spaces, for every colour at once (as `citizen_places`,
    /// at bit 0).
    fn building_free(&self, kg: &Kingdom, b: usize) -> u64 {
        // All ones for an empty space, none for a figure.
        let empty = |f: u8| 0u64.wrapping_sub((f == NONE) as u64);
        let [s0, s1, s2] = self.facts(kg.buildings[b]).space_places;
        let [f0, f1, f2] = kg.figures[b];
        s0 & empty(f0) | s1 & empty(f1) | s2 & empty(f2)
    }

    /// Kingdom `k`'s derived values computed afresh from its cards, figures, discs and tile.
    pub fn derive(&self, s: &State, p: usize, k: usize) -> Derived {
        let kg = &s.player[p].kingdoms[k];
        let tile = s.tiles[k];
        let mut d = Derived::default();
        if tile == T_CITIZEN_SPACE && kg.tile_figure == NONE {
            d.citizen |= 1 << (8 * p) | 1 << (8 * NEUTRAL);
        }
        if !kg.tile_disc {
            d.shield |= (tile == T_SHIELD) as u8;
            d.prestige |= (tile == T_PRESTIGE) as u8;
        }
        for b in 0..kg.count as usize {
            let c = self.facts(kg.buildings[b]);
            d.citizen |= self.building_free(kg, b) << (b + 1);
            d.shield |= ((c.shield_space > 0 && !kg.shield_discs[b]) as u8) << (b + 1);
            d.prestige |= ((c.prestige_space > 0 && !kg.prestige_discs[b]) as u8) << (b + 1);
            d.kinds[c.kind as usize & 7] += 1;
        }
        if kg.castle != NONE {
            let c = self.facts(kg.castle);
            d.shield |= ((c.shield_space > 0 && !kg.castle_shield) as u8) << PLACE_CASTLE;
            d.prestige |= ((c.prestige_space > 0 && !kg.castle_prestige) as u8) << PLACE_CASTLE;
        }
        d
    }

    /// Kingdom `k`'s derived values brought up to date after its tile is drawn.
    fn rederive(&self, s: &mut State, p: usize, k: usize) {
        s.player[p].kingdoms[k].derived = self.derive(s, p, k);
    }

    /// Calls `f` with every citizen action for a figure of each colour of `colours` (bits,
    /// 4: neutral), in id order.
    fn citizen_targets(&self, s: &State, p: usize, colours: u8, mut f: impl FnMut(Action)) {
        let table: [u64; KINGDOMS] = std::array::from_fn(|k| self.citizen_places(s, p, k));
        let mut colours = colours & 0x1f;
        while colours != 0 {
            let colour = colours.trailing_zeros() as u8;
            colours &= colours - 1;
            for (k, &t) in table.iter().enumerate() {
                let mut places = (t >> (8 * colour)) as u8;
                while places != 0 {
                    f(actions::citizen(colour, k, places.trailing_zeros() as u8));
                    places &= places - 1;
                }
            }
        }
    }

    /// The coins a disc costs on a shield (or prestige) space at place `q` of kingdom `k`,
    /// or None if there is no free space there.
    pub fn disc_cost(&self, s: &State, p: usize, k: usize, q: u8, prestige: bool) -> Option<u32> {
        let r = &self.data.rules;
        let kg = &s.player[p].kingdoms[k];
        let free = match q {
            PLACE_TILE => !kg.tile_disc && s.tiles[k] == if prestige { T_PRESTIGE } else { T_SHIELD },
            PLACE_CASTLE => {
                kg.castle != NONE && {
                    let c = self.facts(kg.castle);
                    if prestige {
                        c.prestige_space > 0 && !kg.castle_prestige
                    } else {
                        c.shield_space > 0 && !kg.castle_shield
                    }
                }
            }
            _ => {
                let b = q as usize - 1;
                b < kg.count as usize && {
                    let c = self.facts(kg.buildings[b]);
                    if prestige {
                        c.prestige_space > 0 && !kg.prestige_discs[b]
                    } else {
                        c.shield_space > 0 && !kg.shield_discs[b]
                    }
                }
            }
        };
        if !free {
            return None;
        }
        let cost = if prestige {
            r.prestige_cost
        } else if q == PLACE_TILE {
            r.green_shield_cost
        } else {
            0
        };
        (cost <= s.player[p].coins).then_some(cost)
    }

    /// The places of kingdom `k` (bit `q`, as in `disc_cost`) with a free shield space and
    /// with a free prestige space that the player can pay for: where `disc_cost` is not None.
    fn disc_places(&self, s: &State, p: usize, k: usize) -> (u8, u8) {
        let r = &self.data.rules;
        let d = &s.player[p].kingdoms[k].derived;
        let coins = s.player[p].coins;
        let shield = if r.green_shield_cost > coins { d.shield & !1 } else { d.shield };
        let prestige = if r.prestige_cost > coins { 0 } else { d.prestige };
        (shield, prestige)
    }

    /// Calls `f` with every disc action, in id order.
    fn disc_targets(&self, s: &State, p: usize, mut f: impl FnMut(Action)) {
        let table: [(u8, u8); KINGDOMS] = std::array::from_fn(|k| self.disc_places(s, p, k));
        for prestige in [false, true] {
            for (k, &(sh, pr)) in table.iter().enumerate() {
                let mut places = if prestige { pr } else { sh };
                while places != 0 {
                    let q = places.trailing_zeros() as u8;
                    f(if prestige { actions::prestige(k, q) } else { actions::shield(k, q) });
                    places &= places - 1;
                }
            }
        }
    }

    /// The two supplies next to market slot `slot` (supply `i` lies between slots `i` and `i + 1`).
    pub fn adjacent_supplies(slot: u8) -> [usize; 2] {
        [(slot as usize + SLOTS - 1) % SLOTS, slot as usize]
    }

    /// What a building at `slot` lets the player take: the colours of the figures next to
    /// it (bits) and whether discs are.
    fn take_sources(s: &State, slot: u8) -> (u8, bool) {
        let mut colours = 0u8;
        let mut discs = false;
        for sup in Self::adjacent_supplies(slot) {
            if sup == 4 {
                discs = s.discs > 0;
            } else if s.supply[sup] > 0 {
                colours |= 1 << s.supply_colour[sup];
            }
        }
        (colours, discs)
    }

    /// Calls `f` with every way to take a figure or disc next to `slot`, in id order and
    /// each once: the figures' actions by colour, then the discs'.
    fn take_options(&self, s: &State, p: usize, slot: u8, mut f: impl FnMut(Action)) {
        let (colours, discs) = Self::take_sources(s, slot);
        if colours != 0 {
            self.citizen_targets(s, p, colours, &mut f);
        }
        if discs {
            self.disc_targets(s, p, &mut f);
        }
    }

    /// Whether `take_options` has any option (stopping at the first kingdom that has one).
    fn can_take(&self, s: &State, p: usize, slot: u8) -> bool {
        let (colours, discs) = Self::take_sources(s, slot);
        let wanted = spread_bytes(colours & 0x1f) * 0xff;
        (0..KINGDOMS).any(|k| {
            (wanted != 0 && self.citizen_places(s, p, k) & wanted != 0)
                || (discs && self.disc_places(s, p, k) != (0, 0))
        })
    }

    fn has_empty_space(&self, s: &State, p: usize) -> bool {
        (0..KINGDOMS).any(|k| self.citizen_places(s, p, k) >> (8 * NEUTRAL) & 0xff != 0)
    }

    // ----- legal moves ------------------------------------------------------------------

    // ----- moves --------------------------------------------------------------------------

    /// Solo setup: the Viking cards' sides, by chance only while both sides are still wanted.
    fn turn_vikings(&self, s: &mut State) {
        while (s.setup_next as usize) < KINGDOMS {
            let (g, r) = self.viking_needs(s);
            if g > 0 && r > 0 {
                s.phase = Phase::VikingSide;
                return;
            }
            s.viking_red[s.setup_next as usize] = r > 0;
            s.setup_next += 1;
        }
        s.setup_next = 0;
        s.phase = Phase::Deal;
    }

    fn deal(&self, s: &mut State, c: u8) {
        let p = s.setup_next as usize;
        s.start_pool &= !(1 << c);
        s.player[p].start_card = c;
        s.player[p].coins += self.card(c).start_coins;
        if !self.free_start {
            self.place_building(s, p, c, self.card(c).row as usize);
        }
        s.setup_next += 1;
        if s.setup_next < s.players {
            return;
        }
        // Unused starting cards go back to the box; the lowest number starts.
        s.out |= s.start_pool;
        s.start_pool = 0;
        let n = s.players as usize;
        s.starting = (0..n).min_by_key(|&q| self.card(s.player[q].start_card).order).unwrap_or(0) as u8;
        if self.free_start {
            s.setup_next = 0;
            s.current = s.starting;
            s.phase = Phase::StartPlacement;
        } else {
            self.begin_turn(s, s.starting);
        }
    }

    fn place_building(&self, s: &mut State, p: usize, c: u8, k: usize) {
        let kg = &mut s.player[p].kingdoms[k];
        let b = kg.count as usize;
        kg.buildings[b] = c;
        kg.figures[b] = [NONE; MAX_SPACES];
        kg.shield_discs[b] = false;
        kg.prestige_discs[b] = false;
        kg.count += 1;
        let f = self.facts(c);
        let d = &mut kg.derived;
        d.citizen |= (f.space_places[0] | f.space_places[1] | f.space_places[2]) << (b + 1);
        d.shield |= ((f.shield_space > 0) as u8) << (b + 1);
        d.prestige |= ((f.prestige_space > 0) as u8) << (b + 1);
        d.kinds[f.kind as usize & 7] += 1;
    }

    fn player_move(&self, s: &mut State, a: Action) {
        let p = s.current as usize;
        let Some(m) = decode(a) else { return };
        match m {
            Move::Start { kingdom } => {
                let c = s.player[p].start_card;
                let cost = self.build_cost(s, p, c, kingdom).unwrap_or(0);
                s.player[p].coins -= cost;
                self.place_building(s, p, c, kingdom);
                s.setup_next += 1;
                if s.setup_next < s.players {
                    s.current = (s.current + 1) % s.players;
                } else {
                    self.begin_turn(s, s.starting);
                }
            }
            Move::Build { slot, kingdom } => self.build(s, p, slot, kingdom),
            Move::Castle { index, kingdom } => self.acquire_castle(s, p, index, kingdom),
            Move::Citizen { colour, kingdom, place } => {
                if colour == NEUTRAL {
                    s.neutral -= 1;
                } else if let Some(sup) = (0..4).find(|&i| s.supply_colour[i] == colour) {
                    s.supply[sup] -= 1;
                }
                let space = self.free_space(s, p, kingdom, place, colour);
                let kg = &mut s.player[p].kingdoms[kingdom];
                // The place's bit in every colour's byte.
                let place_bits = 0x01_0101_0101u64 << place;
                match (place, space) {
                    (PLACE_TILE, _) => {
                        kg.tile_figure = colour;
                        kg.derived.citizen &= !place_bits;
                    }
                    (q, Some(j)) => {
                        kg.figures[q as usize - 1][j] = colour;
                        let free = self.building_free(kg, q as usize - 1);
                        kg.derived.citizen = kg.derived.citizen & !place_bits | free << q;
                    }
                    _ => {}
                }
                if s.tiles[kingdom] == T_CITIZEN_COIN {
                    s.player[p].coins += self.data.rules.citizen_coins;
                }
                if s.phase == Phase::Neutral {
                    self.end_turn(s);
                } else {
                    self.replenish(s);
                }
            }
            Move::Shield { kingdom, place } | Move::Prestige { kingdom, place } => {
                let prestige = matches!(m, Move::Prestige { .. });
                let cost = self.disc_cost(s, p, kingdom, place, prestige).unwrap_or(0);
                s.player[p].coins -= cost;
                s.discs -= 1;
                let kg = &mut s.player[p].kingdoms[kingdom];
                match (place, prestige) {
                    (PLACE_TILE, _) => kg.tile_disc = true,
                    (PLACE_CASTLE, false) => kg.castle_shield = true,
                    (PLACE_CASTLE, true) => kg.castle_prestige = true,
                    (q, false) => kg.shield_discs[q as usize - 1] = true,
                    (q, true) => kg.prestige_discs[q as usize - 1] = true,
                }
                if place == PLACE_TILE {
                    kg.derived.shield &= !1;
                    kg.derived.prestige &= !1;
                } else if prestige {
                    kg.derived.prestige &= !(1 << place);
                } else {
                    kg.derived.shield &= !(1 << place);
                }
                self.replenish(s);
            }
            Move::Keep { shield, prestige } => {
                let kg = &mut s.player[p].kingdoms[s.reuse_kingdom as usize];
                kg.castle_shield = shield;
                kg.castle_prestige = prestige;
                let c = self.facts(kg.castle);
                kg.derived.set_castle(c.shield_space > 0 && !shield, c.prestige_space > 0 && !prestige);
                s.discs += s.reuse_discs - shield as u8 - prestige as u8;
                s.reuse_discs = 0;
                s.reuse_kingdom = NONE;
                self.end_turn(s);
            }
            Move::Renew => self.renew(s),
            Move::Pass => {
                s.passes += 1;
                if s.passes >= s.players {
                    s.end_triggered = true;
                }
                self.end_turn(s);
            }
        }
    }

    /// A) Acquire a building: place and pay (step 1), income (step 2), then step 3 or the
    /// market's replenishment.
    fn build(&self, s: &mut State, p: usize, slot: usize, k: usize) {
        let r = &self.data.rules;
        let c = s.market[slot];
        // The move is legal: the card fits the kingdom and the player can pay.
        let card = self.facts(c);
        let cost = if s.tiles[k] == T_TOLL { card.toll_cost } else { card.cost };
        s.player[p].coins = s.player[p].coins.saturating_sub(cost);
        s.market[slot] = NONE;
        self.place_building(s, p, c, k);
        s.locked = [0; MAX_PLAYERS];
        s.passes = 0;
        let mut gain = 0;
        if s.tiles[k] == T_FOURTH && s.player[p].kingdoms[k].count == r.kingdom_limit {
            gain += r.fourth_coins;
        }
        if card.kind == SHIP {
            gain += card.coins;
        }
        gain += self.income(s, p, k);
        s.player[p].coins += gain;
        s.slot = slot as u8;
        s.built_kingdom = k as u8;
        if self.can_take(s, p, slot as u8) {
            s.phase = Phase::Take;
        } else {
            self.replenish(s);
        }
    }

    /// B) Acquire a castle: pay, replace (discs), income, the neutral figure.
    fn acquire_castle(&self, s: &mut State, p: usize, index: usize, k: usize) {
        let c = s.display[index];
        let len = s.display_len as usize;
        s.display.copy_within(index + 1..len, index);
        s.display[len - 1] = NONE;
        s.display_len -= 1;
        s.passes = 0;
        s.player[p].coins -= self.facts(c).cost;
        let kg = &mut s.player[p].kingdoms[k];
        let old = kg.castle;
        let discs = kg.castle_shield as u8 + kg.castle_prestige as u8;
        kg.castle = c;
        kg.castle_shield = false;
        kg.castle_prestige = false;
        let f = self.facts(c);
        kg.derived.set_castle(f.shield_space > 0, f.prestige_space > 0);
        let gain = self.income(s, p, k);
        s.player[p].coins += gain;
        if old != NONE {
            if self.castle_lock {
                s.locked[p] |= 1 << old;
            }
            self.add_castle(s, old);
            let new = self.facts(c);
            if discs > 0 && (new.shield_space > 0 || new.prestige_space > 0) {
                s.reuse_discs = discs;
                s.reuse_kingdom = k as u8;
                s.phase = Phase::Reuse;
            } else {
                s.discs += discs;
                self.end_turn(s);
            }
        } else if s.neutral > 0 && self.has_empty_space(s, p) {
            s.phase = Phase::Neutral;
        } else {
            self.end_turn(s);
        }
    }

    /// A castle goes to the castle display (solo: at most 4, the leftmost leaves the game).
    fn add_castle(&self, s: &mut State, c: u8) {
        if self.solo() && s.display_len as usize >= self.data.rules.solo_display {
            s.out |= 1 << s.display[0];
            let len = s.display_len as usize;
            s.display.copy_within(1..len, 0);
            s.display_len -= 1;
            s.display[s.display_len as usize] = NONE;
        }
        s.display[s.display_len as usize] = c;
        s.display_len += 1;
    }

    /// Step 4: the market's empty slot is refilled; then the Vikings' turn or the next turn.
    fn replenish(&self, s: &mut State) {
        s.after = After::Building;
        s.revealed = NONE;
        self.fill(s);
    }

    /// Reveals cards into the empty slots while a card can be revealed; triggers the end
    /// when the draw deck is exhausted; then goes on with `s.after`.
    fn fill(&self, s: &mut State) {
        if s.market.iter().any(|&m| m == NONE) {
            if !s.end_triggered && s.deck == 0 {
                s.end_triggered = true;
            }
            if self.source(s) != 0 {
                s.phase = Phase::Reveal;
                return;
            }
        }
        match s.after {
            After::Setup => {
                s.setup_next = 0;
                s.phase = if self.solo() { Phase::Ship } else { Phase::Tile };
            }
            After::Refresh => {
                s.deck |= s.refresh_pool;
                s.refresh_pool = 0;
                s.phase = Phase::Turn;
                // A renewed market (and castles it revealed) that gives another player
                // something to acquire ends the passes in a row: they no longer show that
                // nothing can change (ruling 7). One that gives nobody else anything does not,
                // so renewals alone cannot keep a game from ending.
                let p = s.current as usize;
                if (0..self.players).any(|q| q != p && self.can_acquire(s, q)) {
                    s.passes = 0;
                }
            }
            After::Building => {
                if self.solo() {
                    self.vikings(s);
                } else {
                    self.end_turn(s);
                }
            }
            After::Vikings => self.end_turn(s),
        }
    }

    fn reveal(&self, s: &mut State, c: u8) {
        if s.end_triggered {
            s.reserve &= !(1 << c);
        } else {
            s.deck &= !(1 << c);
        }
        if self.facts(c).kind == CASTLE {
            self.add_castle(s, c);
        } else {
            let slot = s.market.iter().position(|&m| m == NONE).unwrap_or(0);
            s.market[slot] = c;
            if s.after == After::Building {
                s.revealed = c;
            }
        }
        self.fill(s);
    }

    /// The Vikings' turn (solo): the ship moves by the helmets of the card revealed, the
    /// Vikings take the active card, and the market is replenished.
    fn vikings(&self, s: &mut State) {
        let steps = if s.revealed == NONE { 0 } else { self.facts(s.revealed).helmets };
        s.ship = ((s.ship as u32 + steps) % SLOTS as u32) as u8;
        s.revealed = NONE;
        let c = s.market[s.ship as usize];
        if c != NONE {
            s.market[s.ship as usize] = NONE;
            let row = self.viking_row(s, c);
            s.viking_rows[row] |= 1 << c;
        }
        s.after = After::Vikings;
        self.fill(s);
    }

    /// The Viking display's kingdom for card `c`: the Viking card of its type, or for a
    /// church the topmost kingdom with the fewest cards.
    pub fn viking_row(&self, s: &State, c: u8) -> usize {
        let kind = self.facts(c).kind;
        if kind == CHURCH {
            (0..KINGDOMS).min_by_key(|&i| (s.viking_rows[i].count_ones(), i)).unwrap_or(0)
        } else {
            (0..KINGDOMS).find(|&i| self.data.kingdom_income[i] == kind).unwrap_or(0)
        }
    }

    fn begin_turn(&self, s: &mut State, p: u8) {
        s.current = p;
        s.turn += 1;
        s.refreshed = false;
        s.slot = NONE;
        s.built_kingdom = NONE;
        if s.turn > self.max_turns {
            s.truncated = true;
            s.phase = Phase::GameOver;
            return;
        }
        s.phase = Phase::Turn;
    }

    /// Whether the current player may take action A's rare case: every card of the market
    /// costs more than he has, and the market was not renewed this turn (ruling 8).
    pub fn rare_case_applies(&self, s: &State) -> bool {
        let coins = s.player[s.current as usize].coins;
        let mut cards = s.market.iter().filter(|&&c| c != NONE).peekable();
        !s.refreshed && cards.peek().is_some() && cards.all(|&c| self.facts(c).cost > coins)
    }

    /// Whether player `p` could acquire a building of the market or a castle of the display.
    fn can_acquire(&self, s: &State, p: usize) -> bool {
        s.market.iter().any(|&c| c != NONE && (0..KINGDOMS).any(|k| self.build_cost(s, p, c, k).is_some()))
            || s.display[..s.display_len as usize].iter().any(|&c| self.castle_kingdoms(s, p, c) != 0)
    }

    /// The rare case: the market is discarded and 5 new cards are revealed; the discarded
    /// ones go back into the deck.
    fn renew(&self, s: &mut State) {
        s.refreshed = true;
        for m in s.market.iter_mut() {
            if *m != NONE {
                s.refresh_pool |= 1 << *m;
                *m = NONE;
            }
        }
        s.after = After::Refresh;
        self.fill(s);
    }

    fn end_turn(&self, s: &mut State) {
        let p = s.current as usize;
        s.player[p].turns += 1;
        s.phase = Phase::Turn;
        let next = if self.solo() { 0 } else { (s.current + 1) % s.players };
        if s.end_triggered && (self.solo() || next == s.starting) {
            s.phase = Phase::GameOver;
            return;
        }
        self.begin_turn(s, next);
    }

    /// The effect of a chance outcome or a player's move.
    fn apply_move(&self, s: &mut State, a: Action) {
        match s.phase {
            Phase::Colours => {
                s.supply_colour = actions::permutation(a);
                s.after = After::Setup;
                self.fill(s);
            }
            Phase::Reveal => self.reveal(s, a as u8),
            Phase::Ship => {
                s.ship = a as u8;
                s.phase = Phase::Tile;
                s.setup_next = 0;
            }
            Phase::Tile => {
                let k = s.setup_next as usize;
                s.tiles[k] = a as u8;
                for p in 0..self.players {
                    self.rederive(s, p, k);
                }
                s.setup_next += 1;
                if s.setup_next as usize == KINGDOMS {
                    s.setup_next = 0;
                    if self.solo() {
                        self.turn_vikings(s);
                    } else {
                        s.phase = Phase::Deal;
                    }
                }
            }
            Phase::VikingSide => {
                s.viking_red[s.setup_next as usize] = a == 1;
                s.setup_next += 1;
                self.turn_vikings(s);
            }
            Phase::Deal => self.deal(s, a as u8),
            _ => self.player_move(s, a),
        }
    }

    // ----- scoring ----------------------------------------------------------------------

    pub fn kingdom_tally(&self, s: &State, p: usize, k: usize) -> KingdomTally {
        let r = &self.data.rules;
        let kg: &Kingdom = &s.player[p].kingdoms[k];
        let tile = s.tiles[k];
        let mut t = KingdomTally::default();
        if tile != NONE {
            t.helmets += if is_green(tile) { r.green_helmets } else { r.red_helmets };
        }
        if kg.castle != NONE {
            let c = self.facts(kg.castle);
            t.helmets += c.helmets;
            t.shields += c.shields + if kg.castle_shield { c.shield_space } else { 0 };
            t.prestige += c.prestige + if kg.castle_prestige { c.prestige_space } else { 0 };
        }
        let mut preprinted = 0;
        let mut figures = 0;
        let mut colours = 0u8;
        for b in 0..kg.count as usize {
            let c = self.facts(kg.buildings[b]);
            t.helmets += c.helmets;
            t.shields += c.shields + if kg.shield_discs[b] { c.shield_space } else { 0 };
            t.prestige += c.prestige + if kg.prestige_discs[b] { c.prestige_space } else { 0 };
            preprinted += c.citizens;
            let [f0, f1, f2] = kg.figures[b];
            figures += (f0 != NONE) as u32 + (f1 != NONE) as u32 + (f2 != NONE) as u32;
            // A colour's bit (NONE's lands past bit 7 and is dropped).
            colours |= (1u32 << (f0 & 15) | 1u32 << (f1 & 15) | 1u32 << (f2 & 15)) as u8;
        }
        match tile {
            T_CITIZEN_SPACE => {
                preprinted += 1;
                if kg.tile_figure != NONE {
                    figures += 1;
                    colours |= 1 << kg.tile_figure;
                }
            }
            T_SHIELD if kg.tile_disc => t.shields += r.green_shield,
            T_PRESTIGE if kg.tile_disc => t.prestige += r.green_prestige,
            _ => {}
        }
        t.citizens = preprinted + if tile == T_COLOURS { colours.count_ones() } else { figures };
        t.points = if t.shields < t.helmets { -r.unprotected } else { t.prestige as i64 * t.citizens as i64 };
        t
    }

    /// A player's final score: coins plus each kingdom's points.
    pub fn total(&self, s: &State, p: usize) -> i64 {
        s.player[p].coins as i64 + (0..KINGDOMS).map(|k| self.kingdom_tally(s, p, k).points).sum::<i64>()
    }

    /// The Vikings' helmets in kingdom `k` (their card's side and the cards placed there).
    pub fn viking_helmets(&self, s: &State, k: usize) -> u32 {
        let side = self.data.vikings[k][s.viking_red[k] as usize];
        side.helmets + bits(s.viking_rows[k]).map(|c| self.facts(c).helmets).sum::<u32>()
    }

    /// The Vikings' points in kingdom `k`: its card's coin value per card when their helmets
    /// exceed the player's shields there.
    pub fn viking_points(&self, s: &State, k: usize) -> i64 {
        self.viking_points_against(s, k, self.kingdom_tally(s, 0, k).shields)
    }

    /// The Vikings' points in kingdom `k` against the player's `shields` there.
    fn viking_points_against(&self, s: &State, k: usize, shields: u32) -> i64 {
        let side = self.data.vikings[k][s.viking_red[k] as usize];
        if self.viking_helmets(s, k) > shields {
            side.points as i64 * s.viking_rows[k].count_ones() as i64
        } else {
            0
        }
    }

    pub fn viking_total(&self, s: &State) -> i64 {
        (0..KINGDOMS).map(|k| self.viking_points(s, k)).sum()
    }

    /// Every kingdom of every seat tallied once, and in the solo game the Vikings' points:
    /// what the scores, the score report and the winners read.
    pub fn scoring(&self, s: &State) -> Scoring {
        let mut sc = Scoring::default();
        for p in 0..self.players {
            let mut total = s.player[p].coins as i64;
            for k in 0..KINGDOMS {
                let t = self.kingdom_tally(s, p, k);
                sc.kingdoms[p][k] = t.points;
                total += t.points;
                if self.solo() {
                    sc.vikings[k] = self.viking_points_against(s, k, t.shields);
                    sc.viking_total += sc.vikings[k];
                }
            }
            sc.totals[p] = total;
        }
        sc
    }

    /// The winners, added to `out`: the highest total, ties broken by the most coins; in the
    /// solo game the player if his total beats the Vikings'.
    pub fn winners_of(&self, s: &State, sc: &Scoring, out: &mut Vec<usize>) {
        if s.phase != Phase::GameOver || s.truncated {
            return;
        }
        if self.solo() {
            if sc.totals[0] > sc.viking_total {
                out.push(0);
            }
            return;
        }
        let n = s.players as usize;
        let key = |p: usize| (sc.totals[p], s.player[p].coins as i64);
        let best = (0..n).map(key).max().unwrap_or((0, 0));
        out.extend((0..n).filter(|&p| key(p) == best));
    }

    /// A solo game against the Vikings, once finished (not truncated): whether the Vikings
    /// won (the player did not, by a negative margin), or the tier the player's margin
    /// reached when he won (`won`). None while the game goes on.
    pub fn solo_outcome(&self, s: &State, sc: &Scoring, won: bool) -> Option<(bool, Option<usize>)> {
        if s.phase != Phase::GameOver || s.truncated {
            return None;
        }
        let margin = sc.totals[0] - sc.viking_total;
        Some(if won { (false, self.tier(margin)) } else { (margin < 0, None) })
    }

    /// The tier a solo margin reaches.
    pub fn tier(&self, margin: i64) -> Option<usize> {
        self.data.tiers.iter().rposition(|&(_, from)| margin >= from as i64)
    }
}

impl Rules for Norsewind {
    type State = State;

    const STATE_FORMAT: u32 = 3;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self) -> State {
        let d = &self.data;
        let r = &d.rules;
        let all = if d.cards.len() == 128 { u128::MAX } else { (1u128 << d.cards.len()) - 1 };
        let deck = d.deck_cards(self.players);
        let reserve = d.deck_of(super::data::RESERVE_DECK);
        let start_pool = d.deck_of(super::data::START_DECK);
        let (per_supply, neutral) = if self.solo() {
            (r.solo_citizens, r.solo_neutral)
        } else {
            (d.citizens[&self.players], r.neutral_per_player * self.players as u8)
        };
        State {
            phase: Phase::Colours,
            players: self.players as u8,
            level: self.level,
            current: 0,
            starting: 0,
            turn: 0,
            player: [Player::default(); MAX_PLAYERS],
            deck,
            reserve,
            start_pool,
            out: all & !(deck | reserve | start_pool),
            market: [NONE; SLOTS],
            display: [NONE; super::data::MAX_DISPLAY],
            display_len: 0,
            supply_colour: [0, 1, 2, 3],
            supply: [per_supply; 4],
            discs: r.discs,
            neutral,
            tiles: [NONE; 4],
            setup_next: 0,
            viking_red: [false; 4],
            viking_rows: [0; 4],
            ship: 0,
            revealed: NONE,
            slot: NONE,
            after: After::Setup,
            built_kingdom: NONE,
            refresh_pool: 0,
            refreshed: false,
            reuse_discs: 0,
            reuse_kingdom: NONE,
            locked: [0; MAX_PLAYERS],
            passes: 0,
            end_triggered: false,
            truncated: false,
        }
    }

    fn actor(&self, s: &State) -> Actor {
        match s.phase {
            Phase::Colours | Phase::Reveal | Phase::Ship | Phase::Tile | Phase::VikingSide | Phase::Deal => Actor::Chance,
            Phase::GameOver => Actor::Terminal,
            _ => Actor::Player(s.current as usize),
        }
    }

    fn player_actions(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.current as usize;
        match s.phase {
            Phase::Turn => {
                // `build_cost` for every card and kingdom, with each kingdom read once into
                // sets of kingdoms (bit k): those with room, those each building type is
                // barred from, those with the toll.
                let pl = &s.player[p];
                let coins = pl.coins;
                let r = &self.data.rules;
                let (mut room, mut barred, mut toll) = (0u8, [0u8; 8], 0u8);
                for (k, kg) in pl.kingdoms.iter().enumerate() {
                    let tile = s.tiles[k];
                    let limit = if tile == T_TWO { r.red_limit.min(r.kingdom_limit) } else { r.kingdom_limit };
                    room |= ((kg.count < limit) as u8) << k;
                    if tile == T_DIFFERENT {
                        for &b in &kg.buildings[..kg.count as usize] {
                            barred[self.facts(b).kind as usize & 7] |= 1 << k;
                        }
                    }
                    toll |= ((tile == T_TOLL) as u8) << k;
                }
                if room != 0 {
                    // Each slot writes its four moves and keeps those of its kingdoms (no
                    // branch a move); the kept ones are copied out at once.
                    let mut moves = [0 as Action; 4 * SLOTS];
                    let mut n = 0;
                    for slot in 0..SLOTS {
                        let c = s.market[slot];
                        if c == NONE {
                            continue;
                        }
                        let card = self.facts(c);
                        let mut kingdoms = if card.cost > coins { 0 } else { room & !barred[card.kind as usize & 7] };
                        if card.toll_cost > coins {
                            kingdoms &= !toll;
                        }
                        for k in 0..KINGDOMS {
                            moves[n] = actions::build(slot, k);
                            n += (kingdoms >> k & 1) as usize;
                        }
                    }
                    out.extend_from_slice(&moves[..n]);
                }
                // Action A's rare case (ruling 8): the player takes action A with a market
                // of cards he cannot afford, and it is renewed (RENEW, listed last: the
                // largest id); once renewed, the turn is action A's: he places a card of the
                // new market if he can, and passes if not.
                let renew = self.rare_case_applies(s);
                if s.refreshed {
                    if out.is_empty() {
                        out.push(PASS);
                    }
                    return;
                }
                let below_seven = if s.display_len > 0 { Self::below_seven_kingdoms(s) } else { 0 };
                for i in 0..s.display_len as usize {
                    let mut kingdoms = self.castle_kingdoms_given(s, p, s.display[i], below_seven);
                    while kingdoms != 0 {
                        out.push(actions::castle(i, kingdoms.trailing_zeros() as usize));
                        kingdoms &= kingdoms - 1;
                    }
                }
                if renew {
                    out.push(RENEW);
                }
                if out.is_empty() {
                    out.push(PASS);
                }
            }
            Phase::Take => self.take_options(s, p, s.slot, |a| out.push(a)),
            Phase::Neutral => self.citizen_targets(s, p, 1 << NEUTRAL, |a| out.push(a)),
            Phase::Reuse => {
                let c = self.facts(s.player[p].kingdoms[s.reuse_kingdom as usize].castle);
                for (i, (sh, pr)) in [(false, false), (true, false), (false, true), (true, true)].into_iter().enumerate() {
                    let n = sh as u8 + pr as u8;
                    if n <= s.reuse_discs && (!sh || c.shield_space > 0) && (!pr || c.prestige_space > 0) {
                        out.push(actions::KEEP + i as Action);
                    }
                }
            }
            Phase::StartPlacement => {
                let c = s.player[p].start_card;
                for k in 0..KINGDOMS {
                    if self.build_cost(s, p, c, k).is_some() {
                        out.push(actions::START + k as Action);
                    }
                }
            }
            _ => {}
        }
    }

    /// Every chance outcome with its weight, in increasing order.
    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        match s.phase {
            Phase::Colours => (0..24).for_each(|i| f(i, 1)),
            Phase::Reveal => bits(self.source(s)).for_each(|c| f(c as Action, 1)),
            Phase::Ship => (0..SLOTS as Action).for_each(|i| f(i, 1)),
            Phase::Deal => bits(s.start_pool).for_each(|c| f(c as Action, 1)),
            Phase::Tile => {
                let taken = s.tiles.iter().fold(0u32, |m, &t| m | 1u32.checked_shl(t as u32).unwrap_or(0));
                let used = |t: u8| taken >> t & 1 != 0;
                if self.random_tiles {
                    (0..TILES.len() as u8).filter(|&t| !used(t)).for_each(|t| f(t as Action, 1));
                    return;
                }
                let (g, r) = self.tile_mix();
                let placed = &s.tiles[..s.setup_next as usize];
                let g_need = g as u32 - placed.iter().filter(|&&t| is_green(t)).count() as u32;
                let r_need = r as u32 - placed.iter().filter(|&&t| !is_green(t)).count() as u32;
                let g_free = (0..5u8).filter(|&t| !used(t)).count() as u32;
                let r_free = (5..10u8).filter(|&t| !used(t)).count() as u32;
                for t in 0..TILES.len() as u8 {
                    let w = if is_green(t) { g_need * r_free } else { r_need * g_free };
                    if !used(t) && w > 0 {
                        f(t as Action, w);
                    }
                }
            }
            Phase::VikingSide => {
                let (g, r) = self.viking_needs(s);
                f(0, g);
                f(1, r);
            }
            _ => {}
        }
    }

    /// The engine's draw (one `below` over the total weight, the outcomes in id order) in one
    /// pass: a revealed or dealt card is the drawn number's card among the set's, in id order.
    fn sample_chance(&self, s: &State, rng: &mut Rng) -> Action {
        match s.phase {
            Phase::Reveal => draw_card(self.source(s), rng),
            Phase::Deal => draw_card(s.start_pool, rng),
            Phase::Colours => below(rng, 24),
            Phase::Ship => below(rng, SLOTS as u32),
            _ => {
                // The kingdom tiles and the Viking sides: a few weighted outcomes.
                let mut outcomes = [(0 as Action, 0u32); TILES.len()];
                let mut n = 0;
                let mut total = 0;
                self.chance_weights(s, |a, w| {
                    outcomes[n] = (a, w);
                    n += 1;
                    total += w;
                });
                let mut pick = below(rng, total);
                for &(a, w) in &outcomes[..n] {
                    if pick < w {
                        return a;
                    }
                    pick -= w;
                }
                panic!("a chance node has outcomes")
            }
        }
    }

    fn apply(&self, s: &mut State, a: Action) {
        self.apply_move(s, a);
        // The unit tests, which play every configuration, check the kept values after every move.
        #[cfg(test)]
        for p in 0..self.players {
            for k in 0..KINGDOMS {
                assert_eq!(s.player[p].kingdoms[k].derived, self.derive(s, p, k), "player {p} kingdom {k}");
            }
        }
    }

    fn winners(&self, s: &State) -> Vec<usize> {
        let mut winners = Vec::new();
        if s.phase == Phase::GameOver && !s.truncated {
            self.winners_of(s, &self.scoring(s), &mut winners);
        }
        winners
    }

    fn is_truncated(&self, state: &State) -> bool {
        state.truncated
    }
}
