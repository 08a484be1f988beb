//! Positions from readable descriptions (the setup helper), and the validation of states
//! that come from outside.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::engine::prelude::*;
use crate::engine::{field_errors, EngineError, Result};

use super::data::*;
use super::state::*;
use super::rules::{bits, ALL_CHIPS};
use super::view::{PHASES, STEPS};
use super::Mistwind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WhaleDesc {
    port: String,
    cargo: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PlayerDesc {
    wood: Option<u16>,
    steel: Option<u16>,
    krill: Option<u16>,
    coins: Option<u16>,
    /// Chips not yet played this round (default all five), and those discarded in Phase A.
    chips: Option<Vec<u8>>,
    #[serde(default)]
    discarded: Vec<u8>,
    #[serde(default)]
    used_resource_board: bool,
    #[serde(default)]
    used_worker_board: bool,
    #[serde(default)]
    outposts: Vec<String>,
    /// Phase C: those of `outposts` that this round's port bonuses built (ruling 7).
    #[serde(default)]
    bonus_outposts: Vec<String>,
    #[serde(default)]
    whales: Vec<WhaleDesc>,
    #[serde(default)]
    characters: Vec<String>,
    /// Characters already turned face down.
    #[serde(default)]
    used: Vec<String>,
    /// Demand tiles collected, by region: territory and capital.
    #[serde(default)]
    territory_tiles: BTreeMap<String, u8>,
    #[serde(default)]
    capital_tiles: BTreeMap<String, u8>,
    /// Achievement letters taken.
    #[serde(default)]
    achievements: Vec<String>,
    /// Control markers by region: "upper" or "lower".
    #[serde(default)]
    markers: BTreeMap<String, String>,
    /// Network cards by number (1-based, in the data file's order): held, revealed, discarded.
    network_cards: Option<Vec<u8>>,
    #[serde(default)]
    claimed: Vec<u8>,
    #[serde(default)]
    card_discards: Vec<u8>,
    /// Resource board side B: the income fields (numbers 1 to 5) whose income the player
    /// receives this round through worker board side B's field 5 (ruling 33).
    #[serde(default)]
    income_rights: Vec<u8>,
}

/// An automa player: the chips left in its deck this round, and (solo) the territory demand
/// tiles given to it, by region.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AutomaDesc {
    chips: Option<Vec<u8>>,
    #[serde(default)]
    territory_tiles: BTreeMap<String, u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Desc {
    #[serde(default)]
    round: u8,
    /// "place-whales", "discard", "turns" (the default), "end-round-claims",
    /// "discard-network-card", "game-over".
    phase: Option<String>,
    /// In "turns": "chip" (the default), "move", "cargo", "claim".
    step: Option<String>,
    /// A table position: the seats, then the automa players (2 and 3 in the 2-player game, 1
    /// to 3 solo).
    /// By default the first position of the table (AUT1 in the 2-player game).
    start_player: Option<u8>,
    current: Option<u8>,
    #[serde(default)]
    players: Vec<PlayerDesc>,
    /// The automa players (2 in the 2-player game, 3 solo), AUT1 first.
    #[serde(default)]
    automa: Vec<AutomaDesc>,
    /// The rows, by card: character names, port card numbers (1-based); `null` for an
    /// empty field. By default the first cards of the decks.
    character_row: Option<Vec<Option<String>>>,
    port_row: Option<Vec<Option<u8>>>,
    /// Chips on the port cards: the stack height and the top chip's owner, per field.
    #[serde(default)]
    stacks: Vec<(u8, u8)>,
    #[serde(default)]
    resource_fields: BTreeMap<String, u8>,
    #[serde(default)]
    worker_fields: BTreeMap<String, u8>,
    /// Chips on the character row's fields (an automa player's chip blocks a card it leaves).
    #[serde(default)]
    character_chips: BTreeMap<String, u8>,
    /// Achievement tile numbers (1-based), one per letter; network tile numbers, one per region.
    achievements: Option<Vec<u8>>,
    network_tiles: Option<Vec<u8>>,
    /// Demand tiles shown, by region (cargo names; the territory row bottom first).
    #[serde(default)]
    capital_display: BTreeMap<String, Vec<Option<String>>>,
    #[serde(default)]
    territory_display: BTreeMap<String, Vec<Option<String>>>,
    #[serde(default)]
    free_moves: bool,
}

fn err(field: impl Into<String>, message: impl Into<String>) -> EngineError {
    EngineError::setup(field, message)
}

/// A saved state that breaks an invariant.
impl Mistwind {
    /// What is wrong with position `q`'s income rights (ruling 33), if anything: a right is
    /// held on an income field where another position's chip lies, by the position whose chip
    /// lies on worker board side B's field 5 (one right a round), and only with the
    /// `field5_income_fields` option on.
    fn income_rights_problem(&self, s: &State, q: usize) -> Option<String> {
        let r = s.players[q].income_rights;
        if r == 0 {
            return None;
        }
        if q >= self.positions || self.is_automa(q) {
            return Some("only a seat receives an income".into());
        }
        if !self.field5_income_fields {
            return Some("worker board side B's field 5 cannot use an income field with field5_income_fields off".into());
        }
        let field5 = self.worker_board.iter().position(|f| f.ability == WorkerAbility::UseOccupied);
        if field5.is_none_or(|i| s.worker_fields[i] as usize != q) {
            return Some("an income right is had through worker board side B's field 5, where the player's chip lies".into());
        }
        if r.count_ones() > 1 {
            return Some("field 5 is used once a round: one income right at most".into());
        }
        let f = r.trailing_zeros() as usize;
        if f >= ROW || self.resource_board[f].ability != ResourceAbility::Income {
            return Some(format!("resource field {} is not an income field", f + 1));
        }
        if s.resource_fields[f] == NONE || s.resource_fields[f] as usize == q {
            return Some(format!("resource field {} holds no chip of another position", f + 1));
        }
        None
    }
}

fn bad(message: String) -> EngineError {
    EngineError::StateFormat(message)
}

impl Mistwind {
    fn port_of(&self, field: &str, name: &str) -> Result<u8> {
        self.data.port_names.iter().position(|n| n == name).map(|i| i as u8).ok_or_else(|| err(field, format!("{name:?} is not a port")))
    }
    fn region_of(&self, field: &str, name: &str) -> Result<usize> {
        self.data.regions.iter().position(|n| n == name).ok_or_else(|| err(field, format!("{name:?} is not a region ({:?})", self.data.regions)))
    }
    fn cargo_of(&self, field: &str, name: &str) -> Result<u8> {
        self.data.cargo.iter().position(|n| n == name).map(|i| i as u8).ok_or_else(|| err(field, format!("{name:?} is not a cargo type ({:?})", self.data.cargo)))
    }
    fn character_of(&self, field: &str, name: &str) -> Result<usize> {
        self.data.characters.iter().position(|c| c.name == name).ok_or_else(|| err(field, format!("{name:?} is not a character")))
    }
    fn chips(field: &str, list: &[u8]) -> Result<u8> {
        let mut m = 0u8;
        for &n in list {
            if !(1..=5).contains(&n) {
                return Err(err(field, format!("chip {n}: chips are numbered 1 to 5")));
            }
            m |= 1 << (n - 1);
        }
        Ok(m)
    }


}

impl Positions for Mistwind {
    /// Builds a position from a description (every key optional):
    ///
    /// ```json
    /// {"round": 1, "phase": "turns", "step": "chip", "start_player": 0, "current": 1,
    ///  "players": [{"wood": 3, "steel": 2, "krill": 1, "coins": 4, "chips": [1, 2, 4], "discarded": [5],
    ///               "outposts": ["Fernwick"], "whales": [{"port": "Mossgate", "cargo": "coal"}],
    ///               "characters": ["Forester"], "used": [], "territory_tiles": {"green": 2},
    ///               "capital_tiles": {"green": 1}, "achievements": ["A"], "markers": {"green": "upper"},
    ///               "network_cards": [1, 6, 11], "claimed": [], "card_discards": []}],
    ///  "character_row": ["Forester", null, ...], "port_row": [1, 2, 3, 4, 5], "stacks": [[2, 1]],
    ///  "resource_fields": {"3": 1}, "worker_fields": {"4": 0},
    ///  "achievements": [1, 7, 13, 19], "network_tiles": [1, 4, 7, 10],
    ///  "capital_display": {"green": ["coffee", "oil"]}, "territory_display": {"green": ["coal", "oil", "coffee", "textiles"]}}
    /// ```
    ///
    /// Unnamed displays take the first components in data-file order; the demand stacks
    /// hold what is neither shown nor collected (collected tiles leave the stacks in cargo
    /// order); the decks hold every card not placed.
    fn setup(&self, description: &Value) -> Result<State> {
        let dsc: Desc = field_errors::from_json_value(description).map_err(|e| err(e.field_or("."), e.message))?;
        let d = &self.data;
        let n = self.players;
        let mut s = self.initial_state();
        // Start from a clean table: no draws pending, everything back in the decks.
        s.draw = Draw::None;
        if dsc.round >= self.rounds {
            return Err(err("round", format!("the game has {} rounds (0..{})", self.rounds, self.rounds)));
        }
        s.round = dsc.round;
        s.phase = match dsc.phase.as_deref().unwrap_or("turns") {
            "place-whales" => Phase::PlaceWhales,
            "discard" => Phase::Discard,
            "turns" => Phase::Turns,
            "end-round-claims" => Phase::EndRoundClaims,
            "discard-network-card" => Phase::DiscardNetworkCard,
            "game-over" => Phase::GameOver,
            p => return Err(err("phase", format!("{p:?} is not one of {:?}", &PHASES[1..]))),
        };
        if s.phase == Phase::GameOver {
            s.round = self.rounds;
        }
        s.step = match dsc.step.as_deref().unwrap_or("chip") {
            "chip" => Step::Chip,
            "move" => Step::Move,
            "cargo" => Step::Cargo,
            "claim" => Step::Claim,
            x => return Err(err("step", format!("{x:?} is not one of [\"chip\", \"move\", \"cargo\", \"claim\"] ({:?} are reached by moves)", STEPS))),
        };
        let start_player = dsc.start_player.unwrap_or(self.order[0]);
        if start_player as usize >= self.positions {
            return Err(err("start_player", format!("position {start_player} does not exist in a {n}-player game ({} positions)", self.positions)));
        }
        s.start_player = start_player;
        s.round_lead = start_player;
        // By default the starting player, or the first seat from it where automa players do
        // not act (they act only at the start of their turns).
        let current = dsc.current.unwrap_or(if s.phase == Phase::Turns && s.step == Step::Chip {
            start_player
        } else {
            self.seat_order(start_player as usize, 0) as u8
        });
        if current as usize >= self.positions {
            return Err(err("current", format!("position {current} does not exist in a {n}-player game ({} positions)", self.positions)));
        }
        if self.is_automa(current as usize) && !(s.phase == Phase::Turns && s.step == Step::Chip) {
            return Err(err("current", format!("{} is an automa player: it acts only at the start of its turn", self.who(current as usize))));
        }
        if dsc.automa.len() > self.automa {
            return Err(err("automa", format!("{} automa players described for {}", dsc.automa.len(), self.automa)));
        }
        for (k, ad) in dsc.automa.iter().enumerate() {
            if let Some(c) = &ad.chips {
                s.players[n + k].hand = Self::chips(&format!("automa[{k}].chips"), c)?;
            }
            if !ad.territory_tiles.is_empty() && n != 1 {
                return Err(err(format!("automa[{k}].territory_tiles"), "only the solo mode gives the automa players demand tiles"));
            }
            for (r, x) in &ad.territory_tiles {
                s.players[n + k].territory_tiles[self.region_of(&format!("automa[{k}].territory_tiles"), r)?] = *x;
            }
        }
        s.current = current;
        s.turn = current;
        s.free_moves = dsc.free_moves;
        if dsc.players.len() > n {
            return Err(err("players", format!("{} players described for {n}", dsc.players.len())));
        }
        // Network cards: described, or the first card of each difficulty not yet dealt.
        let mut dealt = 0u16;
        for (p, pd) in dsc.players.iter().enumerate() {
            for list in [pd.network_cards.as_deref().unwrap_or(&[]), &pd.claimed, &pd.card_discards] {
                for &c in list {
                    if c == 0 || c as usize > d.network_cards.len() {
                        return Err(err(format!("players[{p}].network_cards"), format!("card {c}: cards are numbered 1 to {}", d.network_cards.len())));
                    }
                    if dealt & (1 << (c - 1)) != 0 {
                        return Err(err(format!("players[{p}].network_cards"), format!("card {c} is placed twice")));
                    }
                    dealt |= 1 << (c - 1);
                }
            }
        }
        let mut hired = 0u64;
        let phase = s.phase;
        let mut bonus_outposts = [0u32; MAX_PLAYERS];
        for p in 0..n {
            let default = PlayerDesc::default();
            let pd = dsc.players.get(p).unwrap_or(&default);
            let f = |x: &str| format!("players[{p}].{x}");
            let pl = &mut s.players[p];
            let start = pl.res;
            pl.res = [pd.wood.unwrap_or(start[0]), pd.steel.unwrap_or(start[1]), pd.krill.unwrap_or(start[2]), pd.coins.unwrap_or(start[3])];
            pl.hand = match &pd.chips {
                Some(c) => Self::chips(&f("chips"), c)?,
                None => 0b1_1111,
            };
            pl.discarded = Self::chips(&f("discarded"), &pd.discarded)?;
            if pl.discarded & !pl.hand != 0 {
                return Err(err(f("discarded"), "a discarded chip is one not played"));
            }
            pl.used_resource_board = pd.used_resource_board;
            pl.used_worker_board = pd.used_worker_board;
            for (i, &k) in pd.income_rights.iter().enumerate() {
                if !(1..=ROW as u8).contains(&k) {
                    return Err(err(format!("{}[{i}]", f("income_rights")), format!("a resource field, 1 to {ROW}")));
                }
                pl.income_rights |= 1 << (k - 1);
            }
            for (i, o) in pd.outposts.iter().enumerate() {
                let q = self.port_of(&format!("{}[{i}]", f("outposts")), o)?;
                // "only one outpost per player is allowed there"
                if pl.outposts & (1 << q) != 0 {
                    return Err(err(format!("{}[{i}]", f("outposts")), format!("{o} is named twice: one outpost per player per port")));
                }
                pl.outposts |= 1 << q;
            }
            for (i, o) in pd.bonus_outposts.iter().enumerate() {
                let field = format!("{}[{i}]", f("bonus_outposts"));
                let q = self.port_of(&field, o)?;
                if phase != Phase::EndRoundClaims || pl.outposts & (1 << q) == 0 {
                    return Err(err(field, format!("{o}: a port bonus's outpost is one of the player's outposts, in phase end-round-claims")));
                }
                bonus_outposts[p] |= 1 << q;
            }
            if pd.whales.len() > d.rules.whales as usize {
                return Err(err(f("whales"), format!("a player has {} whales", d.rules.whales)));
            }
            for (w, wd) in pd.whales.iter().enumerate() {
                pl.whales[w] = self.port_of(&format!("{}[{w}].port", f("whales")), &wd.port)?;
                if let Some(c) = &wd.cargo {
                    pl.cargo[w] = self.cargo_of(&format!("{}[{w}].cargo", f("whales")), c)?;
                }
            }
            for (i, c) in pd.characters.iter().enumerate() {
                let c = self.character_of(&format!("{}[{i}]", f("characters")), c)?;
                if hired & (1 << c) != 0 {
                    return Err(err(f("characters"), format!("{} is owned twice", d.characters[c].name)));
                }
                hired |= 1 << c;
                pl.characters |= 1 << c;
                if d.characters[c].kind == CharKind::Immediate {
                    pl.used |= 1 << c;
                }
            }
            for (i, c) in pd.used.iter().enumerate() {
                let c = self.character_of(&format!("{}[{i}]", f("used")), c)?;
                if pl.characters & (1 << c) == 0 {
                    return Err(err(f("used"), format!("{} is not the player's", d.characters[c].name)));
                }
                pl.used |= 1 << c;
            }
            for (r, k) in &pd.territory_tiles {
                pl.territory_tiles[self.region_of(&f("territory_tiles"), r)?] = *k;
            }
            for (r, k) in &pd.capital_tiles {
                pl.capital_tiles[self.region_of(&f("capital_tiles"), r)?] = *k;
            }
            for l in &pd.achievements {
                let i = LETTERS.iter().position(|x| x == l).ok_or_else(|| err(f("achievements"), format!("{l:?} is not a letter A-D")))?;
                pl.achievements |= 1 << i;
            }
            for (r, m) in &pd.markers {
                let ri = self.region_of(&f("markers"), r)?;
                pl.markers[ri] = match m.as_str() {
                    "upper" => 1,
                    "lower" => 2,
                    _ => return Err(err(f("markers"), format!("{m:?} is not \"upper\" or \"lower\""))),
                };
            }
            pl.cards = 0;
            if let Some(cards) = &pd.network_cards {
                for &c in cards {
                    pl.cards |= 1 << (c - 1);
                }
            } else {
                let have = |diff: u8, m: u16| (0..d.network_cards.len()).any(|c| m & (1 << c) != 0 && d.network_cards[c].difficulty == diff);
                let own = pd.claimed.iter().chain(&pd.card_discards).fold(0u16, |m, &c| m | 1 << (c - 1));
                if s.round < d.rules.discard_after_round {
                    for diff in 0..3u8 {
                        if have(diff, own) {
                            continue;
                        }
                        let c = (0..d.network_cards.len()).find(|&c| dealt & (1 << c) == 0 && d.network_cards[c].difficulty == diff)
                            .ok_or_else(|| err(f("network_cards"), "no card of this difficulty is left to deal"))?;
                        dealt |= 1 << c;
                        pl.cards |= 1 << c;
                    }
                }
            }
            for &c in &pd.claimed {
                pl.claimed |= 1 << (c - 1);
            }
            for &c in &pd.card_discards {
                pl.card_discards |= 1 << (c - 1);
            }
            // "give one of each difficulty level to every player": held, revealed and
            // discarded together hold at most one card of each difficulty.
            let all = pl.cards | pl.claimed | pl.card_discards;
            for diff in 0..3u8 {
                if (0..d.network_cards.len()).filter(|&c| all & (1 << c) != 0 && d.network_cards[c].difficulty == diff).count() > 1 {
                    return Err(err(f("network_cards"), format!("two {} network cards: each player is dealt one of each difficulty", DIFFICULTIES[diff as usize])));
                }
            }
        }
        s.network_deck &= !dealt;
        // Markers on the upper fields and achievements taken.
        for r in 0..REGIONS {
            let up: Vec<usize> = (0..n).filter(|&p| s.players[p].markers[r] == 1).collect();
            if up.len() > 1 {
                return Err(err("players", format!("two control markers on the upper field of the {} tile", d.regions[r])));
            }
            s.upper[r] = up.first().map_or(NONE, |&p| p as u8);
        }
        for l in 0..4 {
            let by: Vec<usize> = (0..n).filter(|&p| s.players[p].achievements & (1 << l) != 0).collect();
            if by.len() > 1 {
                return Err(err("players", format!("achievement {} taken twice", LETTERS[l])));
            }
            s.achievement_taken[l] = by.first().map_or(NONE, |&p| p as u8);
        }
        // Tiles.
        let letters = dsc.achievements.clone().unwrap_or_else(|| (0..4u8).map(|l| d.achievements.iter().position(|a| a.letter == l).unwrap() as u8 + 1).collect());
        if letters.len() != 4 {
            return Err(err("achievements", "one tile per letter A, B, C, D"));
        }
        for (l, &a) in letters.iter().enumerate() {
            if a == 0 || a as usize > d.achievements.len() || d.achievements[a as usize - 1].letter as usize != l {
                return Err(err(format!("achievements[{l}]"), format!("tile {a} is not a tile of letter {}", LETTERS[l])));
            }
            s.achievements[l] = a - 1;
        }
        let tiles = dsc.network_tiles.clone().unwrap_or_else(|| (0..REGIONS as u8).map(|r| d.network_tiles.iter().position(|t| t.region == r).unwrap() as u8 + 1).collect());
        if tiles.len() != REGIONS {
            return Err(err("network_tiles", "one tile per region"));
        }
        for (r, &t) in tiles.iter().enumerate() {
            if t == 0 || t as usize > d.network_tiles.len() || d.network_tiles[t as usize - 1].region as usize != r {
                return Err(err(format!("network_tiles[{r}]"), format!("tile {t} is not a tile of the {} region", d.regions[r])));
            }
            s.network_tiles[r] = t - 1;
        }
        // Demand tiles: described displays, collected tiles, then default displays.
        s.capital_stack = d.capital_tiles;
        s.territory_stack = d.territory_tiles;
        s.capital_display = [[NONE; 2]; REGIONS];
        s.territory_display = [[NONE; MAX_TERRITORY_ROW]; REGIONS];
        let take = |stack: &mut [u8; CARGO_TYPES], c: u8, field: &str| -> Result<()> {
            if stack[c as usize] == 0 {
                return Err(err(field, format!("no {} tile is left", d.cargo[c as usize])));
            }
            stack[c as usize] -= 1;
            Ok(())
        };
        for (name, row) in &dsc.capital_display {
            let r = self.region_of("capital_display", name)?;
            if row.len() > d.capital_row as usize {
                return Err(err(format!("capital_display.{name}"), format!("{} tiles are shown", d.capital_row)));
            }
            for (k, c) in row.iter().enumerate() {
                if let Some(c) = c {
                    let c = self.cargo_of(&format!("capital_display.{name}[{k}]"), c)?;
                    take(&mut s.capital_stack[r], c, &format!("capital_display.{name}[{k}]"))?;
                    s.capital_display[r][k] = c;
                }
            }
        }
        for (name, row) in &dsc.territory_display {
            let r = self.region_of("territory_display", name)?;
            if row.len() > d.territory_row as usize {
                return Err(err(format!("territory_display.{name}"), format!("{} tiles are shown", d.territory_row)));
            }
            for (k, c) in row.iter().enumerate() {
                if let Some(c) = c {
                    let c = self.cargo_of(&format!("territory_display.{name}[{k}]"), c)?;
                    take(&mut s.territory_stack[r], c, &format!("territory_display.{name}[{k}]"))?;
                    s.territory_display[r][k] = c;
                }
            }
        }
        // The field of table position `q`'s collected tiles.
        let tiles_field = |q: usize, what: &str| if q < n { format!("players[{q}].{what}_tiles") } else { format!("automa[{}].{what}_tiles", q - n) };
        for r in 0..REGIONS {
            for (stack, holders, what) in [(&mut s.territory_stack[r], self.positions, "territory"), (&mut s.capital_stack[r], n, "capital")] {
                for q in 0..holders {
                    let mut k = if what == "territory" { s.players[q].territory_tiles[r] } else { s.players[q].capital_tiles[r] } as u32;
                    for c in 0..CARGO_TYPES {
                        let t = (stack[c] as u32).min(k);
                        stack[c] -= t as u8;
                        k -= t;
                    }
                    if k > 0 {
                        return Err(err(tiles_field(q, what), format!("more {} {what} demand tiles collected than the game has", d.regions[r])));
                    }
                }
            }
            if !dsc.capital_display.contains_key(&d.regions[r]) {
                for k in 0..d.capital_row as usize {
                    if let Some(c) = (0..CARGO_TYPES).find(|&c| s.capital_stack[r][c] > 0) {
                        s.capital_stack[r][c] -= 1;
                        s.capital_display[r][k] = c as u8;
                    }
                }
            }
            if !dsc.territory_display.contains_key(&d.regions[r]) {
                for k in 0..d.territory_row as usize {
                    if let Some(c) = (0..CARGO_TYPES).find(|&c| s.territory_stack[r][c] > 0) {
                        s.territory_stack[r][c] -= 1;
                        s.territory_display[r][k] = c as u8;
                    }
                }
            }
        }
        // Cargo on whales leaves the supply.
        s.cargo_supply = [d.cargo_markers; CARGO_TYPES];
        for p in 0..n {
            for w in 0..MAX_WHALES {
                let c = s.players[p].cargo[w];
                if c != NONE {
                    if s.cargo_supply[c as usize] == 0 {
                        return Err(err(format!("players[{p}].whales"), format!("no {} marker is left", d.cargo[c as usize])));
                    }
                    s.cargo_supply[c as usize] -= 1;
                }
            }
        }
        s.bonus_outposts = bonus_outposts;
        // Rows and decks.
        s.character_deck &= !hired;
        let chars: Vec<Option<usize>> = match &dsc.character_row {
            Some(row) => row.iter().enumerate().map(|(i, c)| c.as_ref().map(|c| self.character_of(&format!("character_row[{i}]"), c)).transpose()).collect::<Result<_>>()?,
            None => {
                let mut v = Vec::new();
                let mut m = s.character_deck;
                for _ in 0..ROW {
                    let c = m.trailing_zeros() as usize;
                    m &= m.wrapping_sub(1);
                    v.push((c < d.characters.len()).then_some(c));
                }
                v
            }
        };
        if chars.len() > ROW {
            return Err(err("character_row", "5 fields"));
        }
        for (i, c) in chars.iter().enumerate() {
            if let Some(c) = *c {
                if s.character_deck & (1 << c) == 0 {
                    return Err(err(format!("character_row[{i}]"), format!("{} is already placed", d.characters[c].name)));
                }
                s.character_deck &= !(1 << c);
                s.character_row[i] = c as u8;
            }
        }
        let ports: Vec<Option<u8>> = match &dsc.port_row {
            Some(row) => row.clone(),
            None => (1..=ROW as u8).map(Some).collect(),
        };
        if ports.len() > ROW {
            return Err(err("port_row", "5 fields"));
        }
        for (i, c) in ports.iter().enumerate() {
            if let Some(c) = *c {
                if c == 0 || c as usize > d.port_cards.len() || s.port_deck & (1 << (c - 1)) == 0 {
                    return Err(err(format!("port_row[{i}]"), format!("port card {c} does not exist or is placed twice")));
                }
                s.port_deck &= !(1 << (c - 1));
                s.port_row[i] = c - 1;
            }
        }
        if dsc.stacks.len() > ROW {
            return Err(err("stacks", "5 fields"));
        }
        for (i, &(h, top)) in dsc.stacks.iter().enumerate() {
            if h > 0 && top as usize >= self.positions {
                return Err(err(format!("stacks[{i}]"), "a stack's top chip belongs to a table position"));
            }
            s.stack_height[i] = h;
            s.stack_top[i] = if h == 0 { NONE } else { top };
        }
        let positions = self.positions;
        for (field, map, name) in [
            (&mut s.resource_fields, &dsc.resource_fields, "resource_fields"),
            (&mut s.worker_fields, &dsc.worker_fields, "worker_fields"),
            (&mut s.character_chips, &dsc.character_chips, "character_chips"),
        ] {
            for (k, &p) in map {
                let i: usize = k.parse().ok().filter(|i| (1..=ROW).contains(i)).ok_or_else(|| err(name, format!("{k:?} is not a field 1 to 5")))?;
                if p as usize >= positions {
                    return Err(err(format!("{name}.{k}"), format!("player {p} does not exist")));
                }
                field[i - 1] = p;
            }
        }
        // "only one action chip per player per round" on the resource and worker boards, and an
        // automa player "may only ever place one action chip in zones 1-3": one in each (the
        // zones are the three boards, ruling 18), the character row included.
        for (fields, name, board) in [
            (&s.resource_fields, "resource_fields", "the resource board"),
            (&s.worker_fields, "worker_fields", "the worker board"),
            (&s.character_chips, "character_chips", "the character row"),
        ] {
            for q in 0..positions {
                let automa = self.is_automa(q);
                if (automa || name != "character_chips") && fields.iter().filter(|&&f| f == q as u8).count() > 1 {
                    let why = if automa { "an automa player places one chip in each of zones 1-3 a round" } else { "one chip per player per round there" };
                    return Err(err(name, format!("{} has two chips on {board}: {why}", self.who(q))));
                }
            }
        }
        // The chip on the starting player field took the marker, and no other field gives it;
        // on worker board side B the chip on field 5 may have used the field since (ruling 33).
        let used_since = (0..ROW).any(|j| s.worker_fields[j] != NONE && self.worker_board[j].ability == WorkerAbility::UseOccupied);
        for i in 0..ROW {
            let q = s.worker_fields[i];
            if q != NONE && self.worker_board[i].ability.takes_marker() && s.start_player != q && !used_since {
                return Err(err(format!("worker_fields.{}", i + 1), format!("{}'s chip lies on the field that gives the starting player marker, which {} holds", self.who(q as usize), self.who(s.start_player as usize))));
            }
        }
        // A chip on the board is its position's chip of the field's number, played this round:
        // it is not in that position's hand (by default a hand is the chips not on the board),
        // and it marks the board the position used.
        for q in 0..positions {
            let who = self.who(q);
            let mut placed = 0u8;
            for i in 0..ROW {
                let mine = [s.resource_fields[i], s.worker_fields[i], s.character_chips[i], s.stack_top[i]].map(|f| f == q as u8);
                if mine.iter().filter(|&&m| m).count() > 1 {
                    return Err(err(".", format!("{who}'s chip {} lies on two fields", i + 1)));
                }
                if mine.contains(&true) {
                    placed |= 1 << i;
                }
                s.players[q].used_resource_board |= mine[0];
                s.players[q].used_worker_board |= mine[1];
            }
            let (field, described) = if q < n {
                (format!("players[{q}].chips"), dsc.players.get(q).is_some_and(|pd| pd.chips.is_some()))
            } else {
                (format!("automa[{}].chips", q - n), dsc.automa.get(q - n).is_some_and(|ad| ad.chips.is_some()))
            };
            let hand = &mut s.players[q].hand;
            if !described {
                *hand &= !placed;
            } else if *hand & placed != 0 {
                let c = (*hand & placed).trailing_zeros() + 1;
                return Err(err(field, format!("chip {c} lies on the board: it is not in {who}'s hand")));
            }
        }
        for q in 0..n {
            if let Some(m) = self.income_rights_problem(&s, q) {
                return Err(err(format!("players[{q}].income_rights"), m));
            }
        }
        s.draw = self.next_draw(&s);
        self.validate_state(&s).map_err(|e| err(".", e.to_string()))?;
        Ok(s)
    }

    /// Checks the invariants of a state from outside.
    fn validate_state(&self, s: &State) -> Result<()> {
        let d = &self.data;
        let n = self.players;
        let nports = d.ports.len();
        if s.round > self.rounds || (s.round == self.rounds) != (s.phase == Phase::GameOver) {
            return Err(bad(format!("round {} of a {}-round game in phase {:?}", s.round, self.rounds, s.phase)));
        }
        if s.current as usize >= self.positions || s.turn as usize >= self.positions || s.start_player as usize >= self.positions || s.round_lead as usize >= self.positions {
            return Err(bad("a table position out of range".into()));
        }
        // Resource board side B: the income rights, the pending incomes, the steps of its
        // fields, and who decides.
        for q in 0..MAX_PLAYERS {
            if let Some(m) = self.income_rights_problem(s, q) {
                return Err(bad(format!("field `players[{q}].income_rights`: {m}")));
            }
        }
        if s.income != 0 {
            let due = if s.phase == Phase::Turns { self.income_due(s, s.turn as usize) } else { 0 };
            if s.income & !due != 0 {
                return Err(bad("an income due on a field that pays none to a player".into()));
            }
        }
        let field_side = |i: u8, a: ResourceAbility| (i as usize) < ROW && self.resource_board[i as usize].ability == a;
        let side_b_step = match s.step {
            Step::Name(n) => Some(n >= 1 && n <= 20 && self.resource_board.iter().any(|f| f.ability == ResourceAbility::NamedByLeft && f.amounts[0] == n)),
            Step::Receive(n, named) => Some(n >= 1 && n <= 20 && named < 4),
            Step::FromLeft => Some(self.resource_board.iter().any(|f| f.ability == ResourceAbility::GainAndFromLeft) && self.left_holds(s, s.turn as usize)),
            Step::Split(i) => Some(field_side(i, ResourceAbility::ThreeAndTwo)),
            Step::Share(k, x, y) => Some(x < 4 && y < 4 && x != y && (k as usize) + 1 < n),
            _ => None,
        };
        if side_b_step == Some(false) {
            return Err(bad(format!("step {:?} on this resource board", s.step)));
        }
        self.validate_worker_b(s)?;
        if s.phase == Phase::Turns {
            if side_b_step.is_some() && self.is_automa(s.turn as usize) {
                return Err(bad(format!("{} carries out no field's action", self.who(s.turn as usize))));
            }
            if s.current != self.decider(s) {
                return Err(bad(format!("{} is to move where {} decides", self.who(s.current as usize), self.who(self.decider(s) as usize))));
            }
        }
        // An automa player holds nothing but its deck and acts only by its chance draw.
        for q in n..self.positions {
            let pl = &s.players[q];
            let mut bare = Player::new();
            bare.hand = pl.hand;
            bare.used_resource_board = pl.used_resource_board;
            bare.used_worker_board = pl.used_worker_board;
            if n == 1 {
                bare.territory_tiles = pl.territory_tiles;
            }
            if *pl != bare || pl.hand & !0b1_1111 != 0 {
                return Err(bad(format!("{} holds more than its chips", self.who(q))));
            }
        }
        if s.draw == Draw::None && s.phase != Phase::GameOver && self.is_automa(s.current as usize) {
            return Err(bad(format!("{} is to move without its draw", self.who(s.current as usize))));
        }
        if let Draw::Automa(q) = s.draw {
            if !self.is_automa(q as usize) {
                return Err(bad(format!("an automa player's draw at table position {q}, which is none")));
            }
            if s.step != Step::Chip || self.playable(s, q as usize) == 0 {
                return Err(bad(format!("{} draws a chip out of its turn's start, or with none left to play", self.who(q as usize))));
            }
        }
        let all_characters = if d.characters.len() >= 64 { u64::MAX } else { (1u64 << d.characters.len()) - 1 };
        let mut chars = s.character_deck;
        let mut cards = s.network_deck;
        let mut cargo = s.cargo_supply;
        for p in 0..n {
            let pl = &s.players[p];
            if pl.hand & !0b1_1111 != 0 || pl.discarded & !pl.hand != 0 {
                return Err(bad(format!("P{p}'s chips")));
            }
            if pl.outposts >> nports != 0 || pl.outposts.count_ones() > d.rules.outposts as u32 {
                return Err(bad(format!("P{p}'s outposts")));
            }
            for w in 0..MAX_WHALES {
                let (q, c) = (pl.whales[w], pl.cargo[w]);
                if (q != NONE && q as usize >= nports) || (w >= d.rules.whales as usize && q != NONE) || (q == NONE && c != NONE) {
                    return Err(bad(format!("P{p}'s whale {}", w + 1)));
                }
                if c != NONE {
                    if c as usize >= CARGO_TYPES {
                        return Err(bad(format!("P{p}'s whale {} carries cargo {c}", w + 1)));
                    }
                    cargo[c as usize] += 1;
                }
            }
            if pl.characters & chars != 0 || pl.characters & !all_characters != 0 || pl.used & !pl.characters != 0 {
                return Err(bad(format!("P{p}'s characters")));
            }
            chars |= pl.characters;
            let all = pl.cards | pl.claimed | pl.card_discards;
            if all & cards != 0 || (pl.cards & pl.claimed) | (pl.cards & pl.card_discards) | (pl.claimed & pl.card_discards) != 0 || (all as u32) >> d.network_cards.len() != 0 {
                return Err(bad(format!("P{p}'s network cards")));
            }
            cards |= all;
            if pl.achievements & !0b1111 != 0 || pl.markers.iter().any(|&m| m > 2) || pl.markers.iter().filter(|&&m| m != 0).count() > d.rules.markers as usize {
                return Err(bad(format!("P{p}'s achievements or control markers")));
            }
        }
        if cargo.iter().any(|&c| c != d.cargo_markers) {
            return Err(bad(format!("the cargo markers do not add up to {} of each type", d.cargo_markers)));
        }
        for r in 0..REGIONS {
            let shown_t = s.territory_display[r].iter().filter(|&&c| c != NONE).count() as u32;
            let shown_c = s.capital_display[r].iter().filter(|&&c| c != NONE).count() as u32;
            if s.territory_display[r].iter().chain(&s.capital_display[r]).any(|&c| c != NONE && c as usize >= CARGO_TYPES)
                || s.territory_display[r][d.territory_row as usize..].iter().any(|&c| c != NONE)
                || s.capital_display[r][d.capital_row as usize..].iter().any(|&c| c != NONE)
            {
                return Err(bad(format!("the {} demand displays", d.regions[r])));
            }
            for c in 0..CARGO_TYPES {
                if s.territory_stack[r][c] > d.territory_tiles[r][c] || s.capital_stack[r][c] > d.capital_tiles[r][c] {
                    return Err(bad(format!("the {} demand stacks", d.regions[r])));
                }
            }
            let collected_t: u32 = (0..self.positions).map(|p| s.players[p].territory_tiles[r] as u32).sum();
            let collected_c: u32 = (0..n).map(|p| s.players[p].capital_tiles[r] as u32).sum();
            let total_t: u32 = d.territory_tiles[r].iter().map(|&c| c as u32).sum();
            let total_c: u32 = d.capital_tiles[r].iter().map(|&c| c as u32).sum();
            let st: u32 = s.territory_stack[r].iter().map(|&c| c as u32).sum();
            let sc: u32 = s.capital_stack[r].iter().map(|&c| c as u32).sum();
            if shown_t + st + collected_t != total_t || shown_c + sc + collected_c != total_c {
                return Err(bad(format!("the {} demand tiles do not add up", d.regions[r])));
            }
            let t = s.network_tiles[r];
            if (t != NONE && (t as usize >= d.network_tiles.len() || d.network_tiles[t as usize].region as usize != r))
                || (t == NONE && (0..n).any(|p| s.players[p].markers[r] != 0))
                || (s.upper[r] != NONE && (s.upper[r] as usize >= n || s.players[s.upper[r] as usize].markers[r] != 1))
                || (0..n).filter(|&p| s.players[p].markers[r] == 1).count() != (s.upper[r] != NONE) as usize
            {
                return Err(bad(format!("the {} network tile", d.regions[r])));
            }
        }
        for l in 0..4 {
            let a = s.achievements[l];
            let t = s.achievement_taken[l];
            if (a != NONE && (a as usize >= d.achievements.len() || d.achievements[a as usize].letter as usize != l))
                || (t != NONE && (a == NONE || t as usize >= n || s.players[t as usize].achievements & (1 << l) == 0))
                || (0..n).filter(|&p| s.players[p].achievements & (1 << l) != 0).count() != (t != NONE) as usize
            {
                return Err(bad(format!("achievement {}", LETTERS[l])));
            }
        }
        for c in s.drawn {
            if c != NONE && (c as usize >= d.characters.len() || chars & (1 << c) != 0 || s.character_deck & (1 << c) != 0) {
                return Err(bad(format!("a drawn character ({c}) that is held, in the deck or not in the game")));
            }
            if c != NONE {
                chars |= 1 << c;
            }
        }
        for i in 0..ROW {
            let c = s.character_row[i];
            if c != NONE && (c as usize >= d.characters.len() || chars & (1 << c) != 0) {
                return Err(bad(format!("character field {}", i + 1)));
            }
            if c != NONE {
                chars |= 1 << c;
            }
            let pc = s.port_row[i];
            if pc != NONE && (pc as usize >= d.port_cards.len() || s.port_deck & (1 << pc) != 0) {
                return Err(bad(format!("port field {}", i + 1)));
            }
            for (f, what) in [(s.resource_fields[i], "resource"), (s.worker_fields[i], "worker"), (s.character_chips[i], "character"), (s.stack_top[i], "port")] {
                if f != NONE && f as usize >= self.positions {
                    return Err(bad(format!("{what} field {} holds a chip of no player", i + 1)));
                }
            }
            if (s.stack_height[i] == 0) != (s.stack_top[i] == NONE) {
                return Err(bad(format!("the stack on port field {}", i + 1)));
            }
        }
        if s.character_deck & !all_characters != 0 || (s.port_deck as u64) >> d.port_cards.len() != 0 || (s.network_deck as u64) >> d.network_cards.len() != 0 {
            return Err(bad("a deck holds cards the game does not have".into()));
        }
        if s.moved >> MAX_WHALES != 0 || s.cargo_done >> MAX_WHALES != 0 {
            return Err(bad("whale flags".into()));
        }
        match s.step {
            Step::PortChoice(i) if i as usize >= ROW || s.port_row[i as usize] == NONE => return Err(bad("port choice on an empty field".into())),
            Step::WorkerBuild(i)
                if !matches!(self.worker_board.get(i as usize).map(|f| f.ability), Some(WorkerAbility::BuildOutpost | WorkerAbility::BuildWhale | WorkerAbility::BuyOutpost)) =>
            {
                return Err(bad("a build on a worker field that builds nothing".into()))
            }
            Step::BottomChoice(i) if i >= 2 => return Err(bad("a choice below the two bottom spaces".into())),
            _ => {}
        }
        if s.phase != Phase::Turns && s.step != Step::Chip && !(s.phase == Phase::EndRoundClaims && s.step == Step::Claim) {
            return Err(bad(format!("step {:?} outside the turns", s.step)));
        }
        if s.phase == Phase::Turns && s.step == Step::Chip && matches!(s.draw, Draw::None | Draw::Automa(_)) && self.playable(s, s.current as usize) == 0 {
            return Err(bad("the player to move has no chip".into()));
        }
        if s.draw == Draw::None && s.phase != Phase::GameOver {
            // The player to move has a move (a position that can go on).
            let mut moves = Vec::new();
            self.player_actions(s, &mut moves);
            if moves.is_empty() {
                return Err(bad(format!("P{} is to move in phase {:?}, step {:?} and has no move", s.current, s.phase, s.step)));
            }
        }
        if s.draw != Draw::None && s.draw != self.next_draw(s) {
            return Err(bad("a pending draw that the table does not call for".into()));
        }
        self.validate_play_ahead(s)
    }
}

impl Mistwind {
    /// What the rest of the game needs from a state: the action chips where the board says
    /// they are, the rows refilled only at a round's start, the port row full while chips are
    /// played (every chip can then always go on it) and the decks holding what the draws still
    /// to come will take. A state that breaks one of these may look well formed, yet its play
    /// reaches a player with no move or a chance draw with no outcome.
    fn validate_play_ahead(&self, s: &State) -> Result<()> {
        let d = &self.data;
        // Every chip on a field numbered i is chip i of a position that no longer has it in
        // hand (a field holds one chip and a port stack its height; only its top chip's owner
        // is kept). Play keeps this: a chip leaves a hand as it goes on a field.
        for i in 0..ROW {
            let singles = [s.resource_fields[i], s.worker_fields[i], s.character_chips[i]].iter().filter(|&&f| f != NONE).count();
            let on_fields = singles + s.stack_height[i] as usize;
            let out = (0..self.positions).filter(|&q| s.players[q].hand & (1 << i) == 0).count();
            if out < on_fields {
                return Err(bad(format!(
                    "chip {}: {out} table positions have it out of hand and the fields numbered {} hold {on_fields} chips",
                    i + 1,
                    i + 1
                )));
            }
        }
        // The outposts this round's port bonuses built: the player's own, kept only for Phase C's claims.
        for (q, &b) in s.bonus_outposts.iter().enumerate() {
            let own = if q < self.positions { s.players[q].outposts } else { 0 };
            if b & !own != 0 || (b != 0 && s.phase != Phase::EndRoundClaims) {
                return Err(bad(format!("bonus outposts of table position {q} that are not its outposts built in this Phase C")));
            }
        }
        // Chips are played only in Phase B; before it every position holds all five.
        if matches!(s.phase, Phase::Setup | Phase::PlaceWhales | Phase::Discard | Phase::DiscardNetworkCard) {
            if let Some(q) = (0..self.positions).find(|&q| s.players[q].hand != ALL_CHIPS) {
                return Err(bad(format!("{} lacks action chips in phase {:?}, before any is played", self.who(q), s.phase)));
            }
        }
        // The seat counter of the phases that go round the table: one seat a step (Phase A's
        // discards, the discards of each seat's chips one after another).
        let seats_to_go = match s.phase {
            Phase::PlaceWhales | Phase::DiscardNetworkCard | Phase::EndRoundClaims => Some(self.players),
            Phase::Discard => Some(self.players * self.discards() as usize),
            _ => None,
        };
        if let Some(end) = seats_to_go {
            if s.cursor as usize >= end {
                return Err(bad(format!("the turn counter {} of phase {:?} is past its last step ({})", s.cursor, s.phase, end - 1)));
            }
        }
        if s.refilling && (s.phase != Phase::Discard || s.draw == Draw::None) {
            return Err(bad(format!("the rows are being refilled in phase {:?} with no draw pending", s.phase)));
        }
        let drawing = s.phase == Phase::Setup || s.refilling;
        let played = matches!(s.phase, Phase::PlaceWhales | Phase::Discard | Phase::Turns | Phase::EndRoundClaims) && !s.refilling;
        if played {
            if let Some(i) = s.port_row.iter().position(|&c| c == NONE) {
                return Err(bad(format!("port field {} is empty in phase {:?}", i + 1, s.phase)));
            }
        }
        // Port cards the rest of the game draws: this round's empty fields while the row is
        // being filled, then a full row for every round after this one.
        let rounds_after = match s.phase {
            Phase::GameOver => 0,
            Phase::DiscardNetworkCard => self.rounds.saturating_sub(s.round) as usize,
            _ => self.rounds.saturating_sub(s.round + 1) as usize,
        };
        let now = if drawing { s.port_row.iter().filter(|&&c| c == NONE).count() } else { 0 };
        let needed = now + ROW * rounds_after;
        if (s.port_deck.count_ones() as usize) < needed {
            return Err(bad(format!(
                "the port deck holds {} cards and round {} of {} needs {needed} more",
                s.port_deck.count_ones(),
                s.round + 1,
                self.rounds
            )));
        }
        // The network cards of each difficulty the setup still deals.
        if s.phase == Phase::Setup {
            for diff in 0..3u8 {
                let wanted = (0..self.players)
                    .filter(|&p| !bits(s.players[p].cards as u64).any(|c| d.network_cards[c].difficulty == diff))
                    .count();
                let left = bits(s.network_deck as u64).filter(|&c| d.network_cards[c].difficulty == diff).count();
                if left < wanted {
                    return Err(bad(format!("the network deck holds {left} cards of difficulty {diff} and the setup deals {wanted}")));
                }
            }
        }
        // A pending draw has an outcome.
        if s.draw != Draw::None {
            let mut outcomes = 0u32;
            self.chance_weights(s, |_, w| outcomes += w);
            if outcomes == 0 {
                return Err(bad(format!("the pending draw {:?} has nothing to draw", s.draw)));
            }
        }
        Ok(())
    }

    /// Worker board side B's pending decisions: the steps of its fields, the characters drawn,
    /// the long move under way and the trades, each only where its field is on the board and
    /// its step calls for it.
    fn validate_worker_b(&self, s: &State) -> Result<()> {
        let has = |a: WorkerAbility| self.worker_board.iter().any(|f| f.ability == a);
        let t = s.turn as usize;
        let pl = &s.players[t];
        let step_ok = match s.step {
            Step::Keep => Some(has(WorkerAbility::DrawAndGive) && (s.drawn[0] != NONE || s.character_deck != 0) && (s.drawn[1] == NONE || s.drawn[0] != NONE)),
            Step::Give(c) => Some(has(WorkerAbility::DrawAndGive) && self.players > 1 && s.drawn == [c, NONE] && c != NONE),
            Step::LongMove => Some(has(WorkerAbility::LongMove)),
            Step::PayField(k) => {
                let [free, per] = self.worker_amounts(WorkerAbility::LongMove);
                Some(has(WorkerAbility::LongMove) && k >= 1 && k <= per && s.long.whale != NONE && s.long.fields > free && pl.res.iter().map(|&r| r as u32).sum::<u32>() >= k as u32)
            }
            Step::Trade => Some(has(WorkerAbility::StartPlayerAndTrade)),
            Step::Offer(q) | Step::Answer(q, _, _) => Some(
                has(WorkerAbility::StartPlayerAndTrade)
                    && (q as usize) < self.players
                    && q != s.turn
                    && s.asked & (1 << q) == 0
                    && self.trade_partners(s, t) & (1 << q) != 0
                    && match s.step {
                        Step::Answer(_, g, w) => g < 4 && w < 4 && self.offers(s, t, q as usize) & (1 << (4 * g + w)) != 0,
                        _ => true,
                    },
            ),
            Step::PayToUse | Step::UseField => Some(has(WorkerAbility::UseOccupied)),
            _ => None,
        };
        if step_ok == Some(false) {
            return Err(bad(format!("step {:?} on this worker board, or with a table that does not allow it", s.step)));
        }
        if step_ok.is_some() && (s.phase != Phase::Turns || self.is_automa(t)) {
            return Err(bad(format!("step {:?} outside a player's turn", s.step)));
        }
        if s.drawn != [NONE; 2] && !matches!(s.step, Step::Keep | Step::Give(_)) {
            return Err(bad("characters drawn outside worker board side B's draw".into()));
        }
        let lm = s.long;
        if lm != LongMove::NONE {
            let in_move = matches!(s.step, Step::LongMove | Step::PayField(_) | Step::BottomChoice(_));
            let w = lm.whale as usize;
            let ok = in_move
                && w < MAX_WHALES
                && pl.whales[w] != NONE
                && lm.fields >= 1
                && (lm.visited as u64) >> self.data.ports.len() == 0
                && lm.visited & (1 << pl.whales[w]) != 0
                && lm.fields as u32 >= lm.visited.count_ones() - 1;
            if !ok {
                return Err(bad("a long whale move that no move of the turn made".into()));
            }
        } else if matches!(s.step, Step::PayField(_)) {
            return Err(bad("a field of the long move to pay for without the move".into()));
        }
        let most = self.worker_amounts(WorkerAbility::StartPlayerAndTrade)[0];
        if (s.asked as usize) >> self.players != 0 || s.asked & (1 << t) != 0 || s.trades > most || s.trades as u32 > s.asked.count_ones() {
            return Err(bad("trades asked of a position that is not another seat, or more than the field allows".into()));
        }
        Ok(())
    }
}
