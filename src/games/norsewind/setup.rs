//! Positions from readable descriptions (the setup helper), and the validation of states
//! that come from outside.

use serde::Deserialize;
use serde_json::Value;

use crate::engine::prelude::*;
use crate::engine::{field_errors, EngineError, Result};

use super::data::{CASTLE, COLOURS, KINGDOMS, MAX_DISPLAY, MAX_SPACES, NEUTRAL, TILES, T_CASTLE_SEVEN, T_CITIZEN_SPACE, T_DIFFERENT, T_PRESTIGE, T_SHIELD, T_TWO};
use super::state::{After, Phase, State, MAX_BUILDINGS, NONE, SLOTS};
use super::Norsewind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildingDesc {
    card: String,
    /// The figure on each citizen space, in the card's order (a colour, "white" or null).
    #[serde(default)]
    figures: Vec<Option<String>>,
    /// Upgrade discs on the card: "shield", "prestige".
    #[serde(default)]
    discs: Vec<String>,
}

/// A building of a kingdom: its card's id, or an object with the card and what is on it.
enum BuildingOrId {
    Id(String),
    Full(BuildingDesc),
}

impl<'de> Deserialize<'de> for BuildingOrId {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(de)? {
            Value::String(id) => Ok(BuildingOrId::Id(id)),
            v @ Value::Object(_) => field_errors::from_json_value(&v)
                .map(BuildingOrId::Full)
                .map_err(|e| D::Error::custom(if e.field.is_empty() { e.message } else { format!("{}: {}", e.field, e.message) })),
            other => Err(D::Error::custom(format!(
                "a building is a card id (a string such as \"ship-3\") or an object with `card` and, if wanted, `figures` and `discs`, not {}",
                match other {
                    Value::Null => "null",
                    Value::Bool(_) => "true or false",
                    Value::Number(_) => "a number",
                    Value::Array(_) => "a list",
                    _ => "that",
                }
            ))),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct KingdomDesc {
    castle: Option<String>,
    /// Discs on the castle: "shield", "prestige".
    #[serde(default)]
    castle_discs: Vec<String>,
    #[serde(default)]
    buildings: Vec<BuildingOrId>,
    /// On the kingdom tile: a figure's colour (a "citizen-space" tile) or "disc".
    tile: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PlayerDesc {
    #[serde(default)]
    coins: u32,
    start_card: Option<String>,
    #[serde(default)]
    turns: u32,
    #[serde(default)]
    kingdoms: Vec<KingdomDesc>,
    /// Castles of the display this player returned since the last building (ruling 6).
    #[serde(default)]
    locked: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VikingsDesc {
    /// The side of each Viking card, "green" or "red", in row order.
    sides: Option<Vec<String>>,
    /// The cards in each kingdom of the Viking display.
    #[serde(default)]
    rows: Vec<Vec<String>>,
    /// The market slot (1..=5) under the Viking ship tile.
    ship: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Desc {
    /// "turn" (the default), "take" (step 3 after a building), "neutral" or "game-over".
    phase: Option<String>,
    #[serde(default)]
    current: u8,
    starting: Option<u8>,
    #[serde(default)]
    turn: u32,
    /// The card just built (phase "take"): its slot (1..=5) stays empty until step 4.
    slot: Option<u8>,
    /// The five market slots: card ids or null (default: the first buildings of the deck).
    market: Option<Vec<Option<String>>>,
    #[serde(default)]
    display: Vec<String>,
    /// The kingdom tile of each row, by kind (default: the first green tiles, then the first
    /// red ones, as many of each as the configuration draws).
    tiles: Option<Vec<String>>,
    supply_colours: Option<Vec<String>>,
    supply: Option<Vec<u8>>,
    discs: Option<u8>,
    neutral: Option<u8>,
    deck: Option<Vec<String>>,
    reserve: Option<Vec<String>>,
    #[serde(default)]
    end_triggered: bool,
    #[serde(default)]
    passes: u8,
    vikings: Option<VikingsDesc>,
    #[serde(default)]
    players: Vec<PlayerDesc>,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> EngineError {
    EngineError::setup(field, message)
}

fn colour(field: &str, name: &str) -> Result<u8> {
    COLOURS.iter().position(|&c| c == name).map(|c| c as u8).ok_or_else(|| bad(field, format!("{name:?} is not a colour: purple, red, yellow, blue or white")))
}

impl Norsewind {
    fn card_named(&self, field: &str, id: &str) -> Result<u8> {
        self.data.card_index(id).ok_or_else(|| bad(field, format!("there is no card {id:?}")))
    }

    fn claim(&self, used: &mut u128, field: &str, c: u8) -> Result<()> {
        if *used & (1 << c) != 0 {
            return Err(bad(field, format!("card {:?} is in two places", self.card(c).id)));
        }
        *used |= 1 << c;
        Ok(())
    }

    /// The cards a list names (or `default` when there is no list).
    fn named_set(&self, used: &mut u128, field: &str, list: &Option<Vec<String>>, default: u128) -> Result<u128> {
        let Some(ids) = list else { return Ok(default) };
        let mut set = 0u128;
        for (i, id) in ids.iter().enumerate() {
            let c = self.card_named(&format!("{field}[{i}]"), id)?;
            self.claim(used, &format!("{field}[{i}]"), c)?;
            set |= 1 << c;
        }
        Ok(set)
    }
}

const MAX_PLAYERS_CHECK: usize = super::state::MAX_PLAYERS;

impl Positions for Norsewind {
    /// The derived values of each kingdom of the game's seats (`Kingdom::derived`), which
    /// are not saved.
    fn restore(&self, s: &mut State) {
        for p in 0..self.players {
            for k in 0..KINGDOMS {
                s.player[p].kingdoms[k].derived = self.derive(s, p, k);
            }
        }
    }

    /// The invariants of a state that came from outside.
    fn validate_state(&self, s: &State) -> Result<()> {
        let check = || -> std::result::Result<(), String> {
        let n = self.players;
        if s.players as usize != n {
            return Err(format!("the state is for {} players, the game for {n}", s.players));
        }
        if s.level != self.level {
            return Err(format!("the state is of level {}, the game of level {}", s.level, self.level));
        }
        if s.current as usize >= n || s.starting as usize >= n {
            return Err("the current or starting seat is not a seat of this game".into());
        }
        if s.truncated && s.phase != Phase::GameOver {
            return Err("the game is marked cut off at the turn limit but has not ended".into());
        }
        if s.turn > self.max_turns + 1 {
            return Err(format!("turn {} is past the turn limit {}", s.turn, self.max_turns));
        }
        let cards = self.data.cards.len();
        let all = if cards == 128 { u128::MAX } else { (1u128 << cards) - 1 };
        let mut seen = 0u128;
        let mut add = |what: &str, set: u128| -> std::result::Result<(), String> {
            if set & !all != 0 {
                return Err(format!("{what} holds a card that does not exist"));
            }
            if seen & set != 0 {
                return Err(format!("{what} holds a card that is also elsewhere"));
            }
            seen |= set;
            Ok(())
        };
        add("the draw deck", s.deck)?;
        add("the reserve deck", s.reserve)?;
        add("the starting deck", s.start_pool)?;
        add("the box", s.out)?;
        add("the new market's discards", s.refresh_pool)?;
        for (i, &c) in s.market.iter().enumerate() {
            if c != NONE {
                if c as usize >= cards || self.card(c).kind == CASTLE {
                    return Err(format!("market slot {} does not hold a building", i + 1));
                }
                add("the market", 1 << c)?;
            }
        }
        let len = s.display_len as usize;
        if len > MAX_DISPLAY || s.display[len..].iter().any(|&c| c != NONE) {
            return Err("the castle display's length and cards disagree".into());
        }
        if self.solo() && len > self.data.rules.solo_display {
            return Err("the solo castle display holds at most 4 castles".into());
        }
        for &c in &s.display[..len] {
            if c as usize >= cards || self.card(c).kind != CASTLE {
                return Err("the castle display holds a card that is not a castle".into());
            }
            add("the castle display", 1 << c)?;
        }
        let castles = (0..cards).filter(|&c| self.card(c as u8).kind == CASTLE).fold(0u128, |m, c| m | 1 << c);
        if s.locked.iter().any(|&l| l & !castles != 0) || s.locked[n..].iter().any(|&l| l != 0) {
            return Err("a card that is not a castle is locked (ruling 6), or a seat this game lacks has a lock".into());
        }
        if s.deck & !self.data.deck_cards(n) != 0 {
            return Err("the draw deck holds a card of a deck this game does not use".into());
        }
        if s.reserve & !self.data.deck_of(super::data::RESERVE_DECK) != 0 {
            return Err("the reserve deck holds a card that is not a reserve card".into());
        }
        for k in 0..KINGDOMS {
            if !self.solo() && s.viking_rows[k] != 0 {
                return Err("only the solo game has a Viking display".into());
            }
            add("the Viking display", s.viking_rows[k])?;
            let mut m = s.viking_rows[k];
            while m != 0 {
                if self.card(m.trailing_zeros() as u8).kind == CASTLE {
                    return Err("the Viking display holds a castle".into());
                }
                m &= m - 1;
            }
        }
        for (k, &t) in s.tiles.iter().enumerate() {
            if t != NONE && (t as usize >= TILES.len() || s.tiles[..k].contains(&t)) {
                return Err(format!("the kingdom tile of row {} is not a tile, or a second copy", k + 1));
            }
        }
        let mut cols = s.supply_colour;
        cols.sort_unstable();
        if cols != [0, 1, 2, 3] {
            return Err("the citizen supplies do not have the four colours".into());
        }
        let r = &self.data.rules;
        let mut figures = [0u32; 5];
        let mut discs = s.discs as u32 + s.reuse_discs as u32;
        for p in 0..MAX_PLAYERS_CHECK {
            let pl = &s.player[p];
            if p >= n {
                if *pl != super::state::Player::default() {
                    return Err(format!("seat {p} is not in this game but has material"));
                }
                continue;
            }
            for k in 0..KINGDOMS {
                let kg = &pl.kingdoms[k];
                let tile = s.tiles[k];
                let count = kg.count as usize;
                let limit = if tile == T_TWO { r.red_limit } else { r.kingdom_limit } as usize;
                if count > MAX_BUILDINGS || count > limit {
                    return Err(format!("P{p}'s kingdom {} has {count} buildings, more than its limit", k + 1));
                }
                if kg.castle != NONE {
                    if kg.castle as usize >= cards || self.card(kg.castle).kind != CASTLE {
                        return Err(format!("P{p}'s castle in kingdom {} is not a castle", k + 1));
                    }
                    add("a player's castle", 1 << kg.castle)?;
                    if tile == T_CASTLE_SEVEN && self.card(kg.castle).cost < r.red_castle_min {
                        return Err(format!("P{p}'s castle in kingdom {} costs less than the red tile allows", k + 1));
                    }
                    let c = self.card(kg.castle);
                    if (kg.castle_shield && c.shield_space == 0) || (kg.castle_prestige && c.prestige_space == 0) {
                        return Err(format!("P{p}'s castle in kingdom {} has a disc where it has no space", k + 1));
                    }
                } else if kg.castle_shield || kg.castle_prestige {
                    return Err(format!("P{p}'s kingdom {} has castle discs but no castle", k + 1));
                }
                discs += kg.castle_shield as u32 + kg.castle_prestige as u32;
                for b in 0..MAX_BUILDINGS {
                    if b >= count {
                        if kg.buildings[b] != NONE || kg.figures[b] != [NONE; MAX_SPACES] || kg.shield_discs[b] || kg.prestige_discs[b] {
                            return Err(format!("P{p}'s kingdom {} has material past its last building", k + 1));
                        }
                        continue;
                    }
                    let c = kg.buildings[b];
                    if c as usize >= cards || self.card(c).kind == CASTLE {
                        return Err(format!("P{p}'s kingdom {} holds a card that is not a building", k + 1));
                    }
                    add("a player's kingdom", 1 << c)?;
                    let card = self.card(c);
                    if tile == T_DIFFERENT && kg.buildings[..b].iter().any(|&o| self.card(o).kind == card.kind) {
                        return Err(format!("P{p}'s kingdom {} has two buildings of one type under a different-types tile", k + 1));
                    }
                    for j in 0..MAX_SPACES {
                        let f = kg.figures[b][j];
                        if f == NONE {
                            continue;
                        }
                        if j >= card.spaces.len() || f > NEUTRAL || (f != NEUTRAL && f != card.spaces[j]) {
                            return Err(format!("P{p}'s {} has a figure on no matching space", card.id));
                        }
                        figures[f as usize] += 1;
                    }
                    if (kg.shield_discs[b] && card.shield_space == 0) || (kg.prestige_discs[b] && card.prestige_space == 0) {
                        return Err(format!("P{p}'s {} has a disc where it has no space", card.id));
                    }
                    discs += kg.shield_discs[b] as u32 + kg.prestige_discs[b] as u32;
                }
                if kg.tile_figure != NONE {
                    if tile != T_CITIZEN_SPACE || (kg.tile_figure != NEUTRAL && kg.tile_figure as usize != p) {
                        return Err(format!("P{p}'s kingdom tile {} holds a figure it has no space for", k + 1));
                    }
                    figures[kg.tile_figure as usize] += 1;
                }
                if kg.tile_disc {
                    if tile != T_SHIELD && tile != T_PRESTIGE {
                        return Err(format!("P{p}'s kingdom tile {} holds a disc it has no space for", k + 1));
                    }
                    discs += 1;
                }
            }
            let sc = pl.start_card;
            if sc != NONE {
                if sc as usize >= cards || self.card(sc).deck != super::data::START_DECK {
                    return Err(format!("P{p}'s starting card is not a starting card"));
                }
                let placed = pl.kingdoms.iter().any(|kg| kg.buildings[..kg.count as usize].contains(&sc));
                if !placed {
                    add("a dealt starting card", 1 << sc)?;
                }
            }
        }
        if seen != all {
            return Err("some cards are nowhere".into());
        }
        let initial = self.initial_state();
        for i in 0..4 {
            let col = s.supply_colour[i] as usize;
            if s.supply[i] as u32 + figures[col] != initial.supply[i] as u32 {
                return Err(format!("{} figures: the supply and the kingdoms do not add up to the game's {}", COLOURS[col], initial.supply[i]));
            }
        }
        if s.neutral as u32 + figures[NEUTRAL as usize] != initial.neutral as u32 {
            return Err("neutral figures: the castle tile and the kingdoms do not add up".into());
        }
        if discs != r.discs as u32 {
            return Err(format!("upgrade discs: {discs} in play, the game has {}", r.discs));
        }
        if s.ship as usize >= SLOTS {
            return Err("the Viking ship is not over a market slot".into());
        }
        match s.phase {
            Phase::Take if s.slot as usize >= SLOTS || s.market[s.slot as usize] != NONE => {
                return Err("step 3 without the empty slot of the card just built".into())
            }
            Phase::Reuse if s.reuse_kingdom as usize >= KINGDOMS || s.reuse_discs == 0 || s.reuse_discs > 2 => {
                return Err("keeping discs without a replaced castle's discs".into())
            }
            Phase::StartPlacement if !self.free_start => return Err("placing a starting card without the variant".into()),
            Phase::VikingSide | Phase::Ship if !self.solo() => return Err("a solo setup step in a game of several players".into()),
            _ => {}
        }
        // The setup's own steps come before the first turn.
        if matches!(s.phase, Phase::Colours | Phase::Tile | Phase::VikingSide | Phase::Deal | Phase::StartPlacement) && s.turn != 0 {
            return Err(format!("a setup step ({:?}) after {} turns of play", s.phase, s.turn));
        }
        if s.revealed != NONE && s.revealed as usize >= cards {
            return Err("the card revealed last is not a card".into());
        }
        // The setup counter names the kingdom row of the tile or Viking card to place, or the
        // seat to deal or place a starting card next.
        let setup_bound = match s.phase {
            Phase::Tile | Phase::VikingSide => KINGDOMS - 1,
            Phase::Deal | Phase::StartPlacement => n - 1,
            _ => KINGDOMS,
        };
        if s.setup_next as usize > setup_bound {
            return Err(format!("the setup counter {} is out of range in phase {:?}", s.setup_next, s.phase));
        }
        if s.phase == Phase::Take && s.built_kingdom as usize >= KINGDOMS {
            return Err(format!("step 3 names kingdom {} as the one just built in, which is none", s.built_kingdom as u16 + 1));
        }
        if s.phase == Phase::StartPlacement && s.player[s.current as usize].start_card == NONE {
            return Err("placing a starting card that was not dealt".into());
        }
        if s.phase == Phase::Neutral && s.neutral == 0 {
            return Err("placing a neutral figure with none on the castle tile".into());
        }
        // Every decision has a move, every chance node an outcome (the moves read the
        // kingdoms' derived values, which a loaded state gets once it is valid).
        let mut restored = s.clone();
        self.restore(&mut restored);
        let s = &restored;
        let mut weight = 0u32;
        self.chance_weights(s, |_, w| weight += w);
        let mut legal = Vec::new();
        self.player_actions(s, &mut legal);
        let stuck = match self.actor(s) {
            crate::engine::Actor::Chance => weight == 0,
            crate::engine::Actor::Player(_) => legal.is_empty(),
            crate::engine::Actor::Terminal => false,
        };
        if stuck {
            return Err("nothing can happen in this state".into());
        }
        Ok(())
        };
        check().map_err(EngineError::StateFormat)
    }

    /// Builds a position from a description (see `docs/games/norsewind.md`, "Setting up
    /// positions"): the cards not named go where they would be (the game's decks into the draw
    /// deck, the reserve into the reserve deck, the rest out of the game).
    fn setup(&self, description: &Value) -> Result<State> {
        let d: Desc = field_errors::from_json_value(description).map_err(|e| bad(e.field_or("(description)"), e.message))?;
        let mut s = self.initial_state();
        let n = self.players;
        let mut used = 0u128;
        let tiles: Vec<String> = match d.tiles {
            Some(tiles) => tiles,
            None => {
                let (green, red) = self.tile_mix();
                let red_first = super::data::GREEN_TILES as usize;
                let firsts = TILES[..green as usize].iter().chain(&TILES[red_first..red_first + red as usize]);
                firsts.map(|t| t.to_string()).collect()
            }
        };
        if tiles.len() != KINGDOMS {
            return Err(bad("tiles", "one kingdom tile for each of the 4 rows"));
        }
        for (k, t) in tiles.iter().enumerate() {
            let i = TILES.iter().position(|&x| x == t).ok_or_else(|| bad(format!("tiles[{k}]"), format!("{t:?} is not a kingdom tile: {}", TILES.join(", "))))?;
            if s.tiles[..k].contains(&(i as u8)) {
                return Err(bad(format!("tiles[{k}]"), "the players draw each kind of tile once"));
            }
            s.tiles[k] = i as u8;
        }
        if let Some(cols) = &d.supply_colours {
            if cols.len() != 4 {
                return Err(bad("supply_colours", "four citizen supplies"));
            }
            for (i, c) in cols.iter().enumerate() {
                let col = colour(&format!("supply_colours[{i}]"), c)?;
                if col == NEUTRAL || s.supply_colour[..i].contains(&col) {
                    return Err(bad(format!("supply_colours[{i}]"), "each supply has its own colour (purple, red, yellow, blue)"));
                }
                s.supply_colour[i] = col;
            }
        }
        // No players described: each seat starts with nothing (no coins, no buildings).
        let players = if d.players.is_empty() { (0..n).map(|_| PlayerDesc::default()).collect() } else { d.players };
        if players.len() != n {
            return Err(bad("players", format!("this game has {n} players; the description lists {}", players.len())));
        }
        let mut figures = [0u32; 5];
        let mut discs_placed = 0u32;
        for (p, pd) in players.iter().enumerate() {
            let f = |x: &str| format!("players[{p}].{x}");
            s.player[p].coins = pd.coins;
            s.player[p].turns = pd.turns;
            if let Some(id) = &pd.start_card {
                let c = self.card_named(&f("start_card"), id)?;
                if self.card(c).deck != super::data::START_DECK {
                    return Err(bad(f("start_card"), format!("{id:?} is not a starting card")));
                }
                s.player[p].start_card = c;
            }
            if pd.kingdoms.len() > KINGDOMS {
                return Err(bad(f("kingdoms"), "a player has 4 kingdoms"));
            }
            for (k, kd) in pd.kingdoms.iter().enumerate() {
                let fk = |x: &str| format!("players[{p}].kingdoms[{k}].{x}");
                let kg = &mut s.player[p].kingdoms[k];
                if let Some(id) = &kd.castle {
                    let c = self.card_named(&fk("castle"), id)?;
                    if self.card(c).kind != CASTLE {
                        return Err(bad(fk("castle"), format!("{id:?} is not a castle")));
                    }
                    self.claim(&mut used, &fk("castle"), c)?;
                    kg.castle = c;
                }
                for disc in &kd.castle_discs {
                    match disc.as_str() {
                        "shield" => kg.castle_shield = true,
                        "prestige" => kg.castle_prestige = true,
                        _ => return Err(bad(fk("castle_discs"), "discs are \"shield\" or \"prestige\"")),
                    }
                    discs_placed += 1;
                }
                if kd.buildings.len() > MAX_BUILDINGS {
                    return Err(bad(fk("buildings"), format!("at most {MAX_BUILDINGS} buildings in a kingdom")));
                }
                for (b, bd) in kd.buildings.iter().enumerate() {
                    let fb = |x: &str| format!("players[{p}].kingdoms[{k}].buildings[{b}]{x}");
                    let full = match bd {
                        BuildingOrId::Id(id) => BuildingDesc { card: id.clone(), figures: Vec::new(), discs: Vec::new() },
                        BuildingOrId::Full(x) => BuildingDesc { card: x.card.clone(), figures: x.figures.clone(), discs: x.discs.clone() },
                    };
                    let c = self.card_named(&fb(".card"), &full.card)?;
                    if self.card(c).kind == CASTLE {
                        return Err(bad(fb(".card"), format!("{:?} is a castle, not a building", full.card)));
                    }
                    self.claim(&mut used, &fb(".card"), c)?;
                    kg.buildings[b] = c;
                    kg.count += 1;
                    if full.figures.len() > self.card(c).spaces.len() {
                        return Err(bad(fb(".figures"), format!("{:?} has {} citizen spaces", full.card, self.card(c).spaces.len())));
                    }
                    for (j, fig) in full.figures.iter().enumerate() {
                        if let Some(name) = fig {
                            let col = colour(&fb(&format!(".figures[{j}]")), name)?;
                            kg.figures[b][j] = col;
                            figures[col as usize] += 1;
                        }
                    }
                    for disc in &full.discs {
                        match disc.as_str() {
                            "shield" => kg.shield_discs[b] = true,
                            "prestige" => kg.prestige_discs[b] = true,
                            _ => return Err(bad(fb(".discs"), "discs are \"shield\" or \"prestige\"")),
                        }
                        discs_placed += 1;
                    }
                }
                if let Some(t) = &kd.tile {
                    if t == "disc" {
                        kg.tile_disc = true;
                        discs_placed += 1;
                    } else {
                        let col = colour(&fk("tile"), t)?;
                        kg.tile_figure = col;
                        figures[col as usize] += 1;
                    }
                }
            }
        }
        let game_cards = self.data.deck_cards(n) | self.data.deck_of(super::data::RESERVE_DECK) | self.data.deck_of(super::data::START_DECK);
        let mut market = [NONE; SLOTS];
        if let Some(m) = &d.market {
            if m.len() != SLOTS {
                return Err(bad("market", "five market slots"));
            }
            for (i, id) in m.iter().enumerate() {
                if let Some(id) = id {
                    let c = self.card_named(&format!("market[{i}]"), id)?;
                    if self.card(c).kind == CASTLE {
                        return Err(bad(format!("market[{i}]"), "castles go to the castle display, not the market"));
                    }
                    self.claim(&mut used, &format!("market[{i}]"), c)?;
                    market[i] = c;
                }
            }
        }
        if d.display.len() > MAX_DISPLAY {
            return Err(bad("display", "too many castles"));
        }
        for (i, id) in d.display.iter().enumerate() {
            let c = self.card_named(&format!("display[{i}]"), id)?;
            if self.card(c).kind != CASTLE {
                return Err(bad(format!("display[{i}]"), format!("{id:?} is not a castle")));
            }
            self.claim(&mut used, &format!("display[{i}]"), c)?;
            s.display[i] = c;
        }
        s.display_len = d.display.len() as u8;
        for (p, pd) in players.iter().enumerate() {
            for (i, id) in pd.locked.iter().enumerate() {
                let field = format!("players[{p}].locked[{i}]");
                let c = self.card_named(&field, id)?;
                if self.card(c).kind != CASTLE {
                    return Err(bad(field, format!("{id:?} is not a castle")));
                }
                s.locked[p] |= 1 << c;
            }
        }
        if let Some(v) = &d.vikings {
            if !self.solo() {
                return Err(bad("vikings", "the Vikings play only in the solo game"));
            }
            if let Some(sides) = &v.sides {
                if sides.len() != KINGDOMS {
                    return Err(bad("vikings.sides", "one side for each of the 4 Viking cards"));
                }
                for (k, side) in sides.iter().enumerate() {
                    s.viking_red[k] = match side.as_str() {
                        "green" => false,
                        "red" => true,
                        _ => return Err(bad(format!("vikings.sides[{k}]"), "a side is \"green\" or \"red\"")),
                    };
                }
            }
            if v.rows.len() > KINGDOMS {
                return Err(bad("vikings.rows", "the Viking display has 4 kingdoms"));
            }
            for (k, row) in v.rows.iter().enumerate() {
                for (i, id) in row.iter().enumerate() {
                    let field = format!("vikings.rows[{k}][{i}]");
                    let c = self.card_named(&field, id)?;
                    if self.card(c).kind == CASTLE {
                        return Err(bad(field, "the Vikings take buildings"));
                    }
                    self.claim(&mut used, &field, c)?;
                    s.viking_rows[k] |= 1 << c;
                }
            }
            if let Some(ship) = v.ship {
                if !(1..=SLOTS as u8).contains(&ship) {
                    return Err(bad("vikings.ship", "a market slot, 1 to 5"));
                }
                s.ship = ship - 1;
            }
        }
        for p in 0..n {
            let c = s.player[p].start_card;
            if c != NONE {
                let on_table = s.player[p].kingdoms.iter().any(|kg| kg.buildings[..kg.count as usize].contains(&c));
                if !on_table {
                    return Err(bad(format!("players[{p}].start_card"), "the starting card lies in one of the player's kingdoms"));
                }
            }
        }
        let reserve_all = self.data.deck_of(super::data::RESERVE_DECK);
        let deck_all = self.data.deck_cards(n);
        // Cards placed so far cannot be in the decks.
        let mut placed = 0u128;
        for p in 0..n {
            for kg in &s.player[p].kingdoms {
                if kg.castle != NONE {
                    placed |= 1 << kg.castle;
                }
                for &c in &kg.buildings[..kg.count as usize] {
                    placed |= 1 << c;
                }
            }
        }
        for &c in market.iter().chain(&s.display[..s.display_len as usize]) {
            if c != NONE {
                placed |= 1 << c;
            }
        }
        for row in s.viking_rows {
            placed |= row;
        }
        let outside = game_cards & !placed;
        s.deck = self.named_set(&mut used, "deck", &d.deck, deck_all & outside)?;
        s.reserve = self.named_set(&mut used, "reserve", &d.reserve, reserve_all & outside)?;
        if s.deck & !deck_all != 0 || s.reserve & !reserve_all != 0 {
            return Err(bad("deck", "the draw deck holds cards of this game's decks, the reserve deck reserve cards"));
        }
        if d.market.is_none() {
            // The first buildings of the draw deck.
            let mut i = 0;
            let mut m = s.deck;
            while m != 0 && i < SLOTS {
                let c = m.trailing_zeros() as u8;
                m &= m - 1;
                if self.card(c).kind != CASTLE {
                    market[i] = c;
                    s.deck &= !(1 << c);
                    i += 1;
                }
            }
        }
        s.market = market;
        s.start_pool = 0;
        let all = if self.data.cards.len() == 128 { u128::MAX } else { (1u128 << self.data.cards.len()) - 1 };
        let mut everything = s.deck | s.reserve;
        for &c in &s.market {
            if c != NONE {
                everything |= 1 << c;
            }
        }
        s.out = all & !(everything | placed);
        let initial = self.initial_state();
        for i in 0..4 {
            let col = s.supply_colour[i] as usize;
            let default = initial.supply[i] as i64 - figures[col] as i64;
            s.supply[i] = match &d.supply {
                Some(v) => *v.get(i).ok_or_else(|| bad("supply", "four counts, one a supply"))?,
                None if default < 0 => return Err(bad("supply", format!("more {} figures placed than the supply holds", COLOURS[col]))),
                None => default as u8,
            };
        }
        let nd = initial.neutral as i64 - figures[NEUTRAL as usize] as i64;
        s.neutral = match d.neutral {
            Some(v) => v,
            None if nd < 0 => return Err(bad("neutral", "more neutral figures placed than the castle tile holds")),
            None => nd as u8,
        };
        let dd = initial.discs as i64 - discs_placed as i64;
        s.discs = match d.discs {
            Some(v) => v,
            None if dd < 0 => return Err(bad("discs", "more upgrade discs placed than there are")),
            None => dd as u8,
        };
        s.end_triggered = d.end_triggered;
        if d.passes >= n as u8 {
            return Err(bad("passes", format!("passes in a row, fewer than the {n} players (as many end the game)")));
        }
        s.passes = d.passes;
        s.turn = d.turn;
        s.setup_next = 0;
        if d.current as usize >= n {
            return Err(bad("current", "a seat of this game"));
        }
        s.current = d.current;
        s.starting = match d.starting {
            Some(x) if (x as usize) < n => x,
            Some(_) => return Err(bad("starting", "a seat of this game")),
            None => 0,
        };
        s.phase = match d.phase.as_deref().unwrap_or("turn") {
            "turn" => Phase::Turn,
            "take" => Phase::Take,
            "neutral" => Phase::Neutral,
            "game-over" => Phase::GameOver,
            other => return Err(bad("phase", format!("{other:?}: one of \"turn\", \"take\", \"neutral\", \"game-over\""))),
        };
        if s.phase == Phase::Take {
            let slot = d.slot.ok_or_else(|| bad("slot", "the phase \"take\" needs the slot of the card just built"))?;
            if !(1..=SLOTS as u8).contains(&slot) || s.market[slot as usize - 1] != NONE {
                return Err(bad("slot", "the empty market slot (1..=5) of the card just built"));
            }
            s.slot = slot - 1;
            s.after = After::Building;
        } else {
            s.after = After::Building;
        }
        self.validate_state(&s).map_err(|e| match e {
            EngineError::StateFormat(m) => bad("(description)", m),
            other => other,
        })?;
        self.restore(&mut s);
        Ok(s)
    }
}
