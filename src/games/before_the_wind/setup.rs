//! Positions from readable descriptions (setup helpers), and the validation of states that
//! come from outside.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::engine::offers::AnyOffer;
use crate::engine::{field_errors, EngineError, Result};
use crate::engine::prelude::*;

use super::data::{Kind, GOODS, MAX_HARBOUR, MAX_SPECIALS};
use super::state::{Counts, Phase, Standing, State, NONE};
use super::BeforeTheWind;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerDesc {
    money: Option<u32>,
    #[serde(default)]
    hand: BTreeMap<String, u8>,
    #[serde(default)]
    warehouse: BTreeMap<String, u8>,
    /// Victory points (by default those of the ships loaded).
    vp: Option<u32>,
    /// The ships the player has loaded, by name (taken out of the ship decks).
    #[serde(default)]
    ships: Vec<String>,
    /// Special cards kept in the hand, by name.
    #[serde(default)]
    kept: Vec<String>,
    /// Preservation cards placed next to the warehouse, by name.
    #[serde(default)]
    placed: Vec<String>,
    /// With `"play": true`: the Action card obtained this turn, by name.
    card: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Desc {
    #[serde(default)]
    active: u8,
    #[serde(default = "one")]
    turn: u32,
    #[serde(default)]
    players: Vec<PlayerDesc>,
    /// The ships in the harbour, by name.
    harbour: Option<Vec<String>>,
    /// The Action cards laid out this turn, by name: the auction begins with them.
    display: Option<Vec<String>>,
    /// The auction is over: each player plays the card named in his `card`.
    #[serde(default)]
    play: bool,
}

fn one() -> u32 {
    1
}

fn err(field: impl Into<String>, message: impl Into<String>) -> EngineError {
    EngineError::setup(field, message)
}

/// The cards of each of the first `kinds` kinds in a draw pile and its discard pile, plus
/// those laid out in `laid_out` (`NONE` for an empty place); `None` when a laid-out card is
/// of no kind.
fn pile_counts<const N: usize>(kinds: usize, deck: &Counts<N>, discard: &Counts<N>, laid_out: &[u8]) -> Option<Vec<u32>> {
    let mut count: Vec<u32> = (0..kinds).map(|k| deck[k] as u32 + discard[k] as u32).collect();
    for &k in laid_out.iter().filter(|&&k| k != NONE) {
        *count.get_mut(k as usize)? += 1;
    }
    Some(count)
}

impl BeforeTheWind {
    fn design_named(&self, name: &str) -> Option<u8> {
        self.data.designs.iter().position(|d| d.name == name).map(|i| i as u8)
    }

    fn special_named(&self, name: &str) -> Option<usize> {
        self.data.specials.iter().position(|&d| self.data.designs[d as usize].name == name)
    }

    fn goods_of(&self, field: &str, m: &BTreeMap<String, u8>) -> Result<[u8; 4]> {
        let mut out = [0u8; 4];
        for (k, &v) in m {
            let Some(g) = GOODS.iter().position(|x| x == k) else {
                return Err(err(format!("{field}.{k}"), format!("not a good; goods are {GOODS:?}")));
            };
            out[g] = v;
        }
        Ok(out)
    }

    /// Takes a card of `design` out of its deck for a description.
    fn take_card(&self, s: &mut State, design: u8, field: &str) -> Result<()> {
        if s.deck[design as usize] == 0 {
            return Err(err(field, format!("no {} is left in its deck", self.data.name(design))));
        }
        s.deck[design as usize] -= 1;
        Ok(())
    }

    fn enter(&self, s: &mut State, desc: &Desc) {
        s.cursor = s.active;
        if desc.display.is_some() {
            self.next_chooser(s, s.active);
        } else if desc.play {
            self.begin_play(s, s.active);
        } else {
            s.phase = Phase::ChooseDeck;
        }
    }

    /// Checks a state's invariants (a saved state, a described position).
    pub(crate) fn validate(&self, s: &State) -> std::result::Result<(), String> {
        let n = self.players;
        let r = &self.data.rules;
        if s.players as usize != n {
            return Err(format!("players is {}, the game has {n}", s.players));
        }
        if s.active as usize >= n || s.cursor as usize >= n {
            return Err("active or cursor out of range".into());
        }
        if s.turn > self.max_turns {
            return Err(format!("turn {} is past the bound {}", s.turn, self.max_turns));
        }
        for g in 0..4 {
            let total: u32 = s.stacks[g] as u32 + s.seats.iter().map(|p| p.hand[g] as u32 + p.warehouse[g] as u32).sum::<u32>();
            if total != r.goods_per_kind as u32 {
                return Err(format!("{} goods of {} in the game, not {}", total, GOODS[g], r.goods_per_kind));
            }
        }
        for (p, pl) in s.seats.iter().enumerate() {
            if p >= n && *pl != super::state::Player::default() {
                return Err(format!("seat {p} does not exist but holds something"));
            }
            if pl.stored() > r.warehouse_capacity {
                return Err(format!("P{p}'s warehouse holds more than {}", r.warehouse_capacity));
            }
            if pl.card != NONE && pl.card as usize >= self.data.designs.len() {
                return Err(format!("P{p}'s card is out of range"));
            }
            for k in self.data.specials.len()..MAX_SPECIALS {
                if pl.kept[k] != 0 || pl.placed[k] != 0 {
                    return Err(format!("P{p} keeps a special card that does not exist"));
                }
            }
            for k in 0..self.data.specials.len() {
                if pl.placed[k] > 0 && !matches!(self.data.kind(self.data.specials[k]), Kind::Preservation { .. }) {
                    return Err(format!("P{p} placed a card that is not a Preservation card"));
                }
            }
            // Far beyond any game (profits of 13 a turn over the turn bound), so that nothing overflows.
            if pl.money > 10_000_000 || pl.vp > 10_000_000 {
                return Err(format!("P{p}'s guilders or victory points are out of range"));
            }
            if pl.bid > pl.money {
                return Err(format!("P{p}'s bid is more than he may offer"));
            }
        }
        for d in self.data.designs.len()..s.deck.0.len() {
            if s.deck[d] != 0 || s.discard[d] != 0 {
                return Err("cards of a design that does not exist".into());
            }
        }
        for d in self.data.ships.len()..s.ship_deck.0.len() {
            if s.ship_deck[d] != 0 || s.ship_discard[d] != 0 {
                return Err("ships of a design that does not exist".into());
            }
        }
        // Action cards: in a deck, a discard pile, the display, a hand, by a warehouse or in
        // front of a player who has not yet played it.
        let Some(mut count) = pile_counts(self.data.designs.len(), &s.deck, &s.discard, &s.display) else {
            return Err("a laid-out card is out of range".into());
        };
        for (p, pl) in s.seats.iter().enumerate().take(n) {
            for k in 0..self.data.specials.len() {
                count[self.data.specials[k] as usize] += pl.kept[k] as u32 + pl.placed[k] as u32;
            }
            if pl.card != NONE && self.card_in_front(s, p) {
                count[pl.card as usize] += 1;
            }
        }
        for (d, x) in self.data.designs.iter().enumerate() {
            if count[d] != x.count as u32 {
                return Err(format!("{} cards of {:?} in the game, not {}", count[d], x.name, x.count));
            }
        }
        let Some(ships) = pile_counts(self.data.ships.len(), &s.ship_deck, &s.ship_discard, &s.harbour) else {
            return Err("a harbour ship is out of range".into());
        };
        for (d, x) in self.data.ships.iter().enumerate() {
            if ships[d] > x.count as u32 {
                return Err(format!("more than {} of the {}", x.count, x.name));
            }
        }
        let loaded: u32 = s.seats.iter().map(|p| p.ships as u32).sum();
        let total: u32 = self.data.ships.iter().map(|x| x.count as u32).sum();
        if ships.iter().sum::<u32>() + loaded > total {
            return Err(format!("more than the {total} ships of the game"));
        }
        for p in 0..n {
            if s.winners & (1 << p) != 0 && (s.phase != Phase::GameOver || s.truncated) {
                return Err("winners before the end".into());
            }
        }
        if s.winners >> n != 0 {
            return Err("a winner that is not a seat".into());
        }
        // Only the turn bound cuts a game off, and it ends the game.
        if s.truncated && (s.phase != Phase::GameOver || s.turn < self.max_turns) {
            return Err(format!("a game cut off before the end or before its turn bound ({} turns)", self.max_turns));
        }
        if s.deal[0] as usize + s.deal[1] as usize + s.harbour.iter().filter(|&&h| h != NONE).count() > MAX_HARBOUR {
            return Err("more ships to lay out than the harbour holds".into());
        }
        if s.draw_deck > 2 {
            return Err("drawing from a deck that does not exist".into());
        }
        // The auction's fields agree with the phase.
        let auction = matches!(s.phase, Phase::ChooseDeck | Phase::Draw | Phase::Choose | Phase::Bid | Phase::Resolve);
        let laid = s.drawn.iter().map(|&x| x as usize).sum::<usize>();
        for (slot, &d) in s.display.iter().enumerate() {
            let expected = auction && slot < laid;
            if d != NONE && !expected {
                return Err(format!("a card is laid out in slot {slot} that no draw put there"));
            }
            if matches!(s.phase, Phase::ChooseDeck | Phase::Draw) && expected && d == NONE {
                return Err(format!("the card drawn into slot {slot} is missing"));
            }
        }
        for (p, pl) in s.seats.iter().enumerate().take(n) {
            let holds = pl.card != NONE;
            let bidding = matches!(s.phase, Phase::Bid | Phase::Resolve);
            if auction {
                let ok = match pl.standing {
                    Standing::Nothing | Standing::Guilders => !holds,
                    Standing::FaceUp | Standing::FaceDown => holds,
                };
                if !ok || (matches!(s.phase, Phase::ChooseDeck | Phase::Draw) && (holds || pl.standing != Standing::Nothing)) {
                    return Err(format!("P{p}'s card disagrees with where he stands in the auction"));
                }
            }
            if pl.bid > 0 && !(bidding && pl.standing == Standing::Nothing) {
                return Err(format!("P{p} has a bid outside an auction"));
            }
        }
        if matches!(s.phase, Phase::Choose | Phase::Bid) && s.seats[s.cursor as usize].standing != Standing::Nothing {
            return Err("the player to choose or bid already has a card or guilders".into());
        }
        // Phase-specific fields.
        match s.phase {
            Phase::Bid | Phase::Resolve => {
                if s.owner as usize >= n || s.challenger as usize >= n || s.owner == s.challenger {
                    return Err("an auction without its owner and challenger".into());
                }
                if s.seats[s.owner as usize].card == NONE || s.seats[s.owner as usize].standing != Standing::FaceUp {
                    return Err("an auction for a card nobody holds face up".into());
                }
                if s.seats[s.challenger as usize].standing != Standing::Nothing || s.cursor == s.owner {
                    return Err("an auction opened by a player who may not bid".into());
                }
            }
            Phase::Draw | Phase::ChooseDeck => {
                if s.drawn.iter().map(|&x| x as usize).sum::<usize>() >= n {
                    return Err("every card of the turn is already drawn".into());
                }
            }
            Phase::Ships if s.deal[0] + s.deal[1] == 0 => return Err("no ship is left to lay out".into()),
            Phase::Play | Phase::Store | Phase::Load | Phase::TakeGoods | Phase::Exchange | Phase::Sell => {
                if !s.card_done && s.seats[s.cursor as usize].card == NONE {
                    return Err("the card to play is missing".into());
                }
                if s.phase != Phase::Play && (s.playing as usize) >= self.data.designs.len() {
                    return Err("the card being played is out of range".into());
                }
                let left_ok = match s.phase {
                    Phase::Store | Phase::TakeGoods => s.left > 0,
                    Phase::Exchange => (1..=2).contains(&s.left),
                    _ => true,
                };
                if !left_ok {
                    return Err("no goods are left to store, take or exchange".into());
                }
            }
            Phase::Preserve => {
                let pl = &s.seats[s.cursor as usize];
                for g in 0..4 {
                    if s.spoiling[g] > pl.warehouse[g] || s.preserved_hand[g] > pl.hand[g] {
                        return Err("more goods spoiling or preserved than the player has".into());
                    }
                }
            }
            _ => {}
        }
        if s.drawn.iter().map(|&x| x as usize).sum::<usize>() > n || s.drawn.iter().any(|&x| x > r.max_from_deck) {
            return Err("more cards drawn this turn than the rules allow".into());
        }
        if self.limited_bank {
            let held: u64 = s.seats.iter().take(n).map(|p| p.money as u64).sum();
            if held > r.bank_guilders as u64 {
                return Err(format!("the players hold {held} guilders, more than the bank's {}", r.bank_guilders));
            }
        }
        if s.kept_now {
            let pl = &s.seats[s.cursor as usize];
            let kept = self.data.designs.get(pl.card as usize).and_then(|d| d.special).map_or(0, |k| pl.kept[k as usize]);
            let playing = matches!(s.phase, Phase::Play | Phase::Store | Phase::Load | Phase::TakeGoods | Phase::Exchange | Phase::Sell);
            if !playing || !s.card_done || kept == 0 {
                return Err("a card kept this turn that the player to play does not keep".into());
            }
        }
        if s.spoil_done as usize > n {
            return Err("more players spoiled than there are".into());
        }
        if s.phase != Phase::GameOver {
            let mut any = AnyOffer::default();
            match self.actor(s) {
                crate::engine::Actor::Chance => self.chance_weights(s, |_, _| any.0 = true),
                _ => self.options(s, &mut any),
            }
            if !any.0 {
                return Err(format!("nothing can happen in phase {:?}", s.phase));
            }
        }
        Ok(())
    }

    /// Whether player `p`'s card still lies in front of him (not yet played, set aside or kept).
    fn card_in_front(&self, s: &State, p: usize) -> bool {
        match s.phase {
            Phase::ChooseDeck | Phase::Draw | Phase::Choose | Phase::Bid | Phase::Resolve => true,
            Phase::Play | Phase::Store | Phase::Load | Phase::TakeGoods | Phase::Exchange | Phase::Sell => {
                let pos = |q: usize| (q + self.players - s.active as usize) % self.players;
                pos(p) > pos(s.cursor as usize) || (p == s.cursor as usize && !s.card_done)
            }
            _ => false,
        }
    }
}

impl Positions for BeforeTheWind {
    fn validate_state(&self, state: &State) -> Result<()> {
        self.validate(state).map_err(EngineError::StateFormat)
    }

    /// Builds a position from a description. Without `harbour` the ships are laid out by
    /// chance first (and at turn 1 the players take their starting goods). With `display` the auction begins with those cards laid out; with `"play":
    /// true` the cards are played (each player's `card`); otherwise the active player begins
    /// his turn by drawing.
    ///
    /// ```json
    /// {"active": 0, "turn": 1,
    ///  "players": [{"money": 22, "hand": {"apples": 1}, "warehouse": {"cheese": 2}, "vp": 16,
    ///               "ships": ["small ship (1 apple) worth 5 VP"], "kept": ["Safe"], "placed": ["Preservation of 2 goods"],
    ///               "card": "Load Goods or Profit 8"}],
    ///  "harbour": ["large ship (1 apple, 1 cheese, 1 spice, 1 silk) worth 16 VP"],
    ///  "display": ["Receive 2 apples, 1 spice", "Load Goods or Profit 8"],
    ///  "play": false}
    /// ```
    fn setup(&self, description: &Value) -> Result<State> {
        let desc: Desc =
            field_errors::from_json_value(description).map_err(|e| EngineError::setup(e.field_or("."), e.message))?;
        let n = self.players;
        if desc.active as usize >= n {
            return Err(err("active", format!("player {} does not exist in a {n}-player game", desc.active)));
        }
        if desc.turn == 0 || desc.turn > self.max_turns {
            return Err(err("turn", format!("turns run from 1 to the bound {}", self.max_turns)));
        }
        if desc.players.len() > n {
            return Err(err("players", format!("{} players described for {n} players", desc.players.len())));
        }
        if desc.display.is_some() && desc.play {
            return Err(err("play", "a position is either in the auction (display) or in the playing phase (play)"));
        }
        let mut s = self.initial_state();
        s.active = desc.active;
        s.turn = desc.turn;
        s.stacks = [self.data.rules.goods_per_kind; 4];
        for (p, d) in desc.players.iter().enumerate() {
            let f = |x: &str| format!("players[{p}].{x}");
            let pl = &mut s.seats[p];
            if let Some(m) = d.money {
                pl.money = m;
            }
            pl.hand = self.goods_of(&f("hand"), &d.hand)?;
            pl.warehouse = self.goods_of(&f("warehouse"), &d.warehouse)?;
            if pl.stored() > self.data.rules.warehouse_capacity {
                return Err(err(f("warehouse"), format!("more than {} goods", self.data.rules.warehouse_capacity)));
            }
            pl.ships = d.ships.len() as u8;
            if d.card.is_some() && !desc.play {
                return Err(err(f("card"), "a card in front of a player needs \"play\": true"));
            }
        }
        for g in 0..4 {
            let used: u32 = s.seats.iter().map(|p| p.hand[g] as u32 + p.warehouse[g] as u32).sum();
            if used > self.data.rules.goods_per_kind as u32 {
                return Err(err("players", format!("more {} than the {} of the game", GOODS[g], self.data.rules.goods_per_kind)));
            }
            s.stacks[g] = self.data.rules.goods_per_kind - used as u8;
        }
        for (p, d) in desc.players.iter().enumerate() {
            for (i, name) in d.kept.iter().enumerate() {
                let field = format!("players[{p}].kept[{i}]");
                let Some(k) = self.special_named(name) else { return Err(err(field, format!("{name:?} is not a special card"))) };
                self.take_card(&mut s, self.data.specials[k], &field)?;
                s.seats[p].kept[k] += 1;
            }
            for (i, name) in d.placed.iter().enumerate() {
                let field = format!("players[{p}].placed[{i}]");
                let k = self.special_named(name).filter(|&k| matches!(self.data.kind(self.data.specials[k]), Kind::Preservation { .. }));
                let Some(k) = k else { return Err(err(field, format!("{name:?} is not a Preservation card"))) };
                self.take_card(&mut s, self.data.specials[k], &field)?;
                s.seats[p].placed[k] += 1;
            }
            if let Some(name) = &d.card {
                let field = format!("players[{p}].card");
                let Some(c) = self.design_named(name) else { return Err(err(field, format!("{name:?} is not an Action card"))) };
                self.take_card(&mut s, c, &field)?;
                s.seats[p].card = c;
                s.seats[p].standing = Standing::FaceDown;
            }
        }
        if let Some(list) = &desc.display {
            if list.len() != n {
                return Err(err("display", format!("{n} Action cards are laid out in a {n}-player game")));
            }
            for (i, name) in list.iter().enumerate() {
                let field = format!("display[{i}]");
                let Some(c) = self.design_named(name) else { return Err(err(field, format!("{name:?} is not an Action card"))) };
                self.take_card(&mut s, c, &field)?;
                s.display[i] = c;
                s.drawn[self.data.designs[c as usize].deck as usize] += 1;
            }
            // 4.1: "You may take a maximum of two cards from each Action deck. You must also
            // take cards from at least two different Action decks."
            let r = &self.data.rules;
            if s.drawn.iter().any(|&x| x > r.max_from_deck) {
                return Err(err("display", format!("at most {} cards are drawn from one Action deck", r.max_from_deck)));
            }
            if (s.drawn.iter().filter(|&&x| x > 0).count() as u8) < r.min_decks {
                return Err(err("display", format!("the cards are drawn from at least {} Action decks", r.min_decks)));
            }
        }
        match &desc.harbour {
            Some(list) => {
                s.ship_deck = Default::default();
                for (i, d) in self.data.ships.iter().enumerate() {
                    s.ship_deck[i] = d.count;
                }
                if list.len() > MAX_HARBOUR {
                    return Err(err("harbour", format!("at most {MAX_HARBOUR} ships")));
                }
                for (i, name) in list.iter().enumerate() {
                    let Some(sh) = self.data.ships.iter().position(|x| x.name == *name) else {
                        return Err(err(format!("harbour[{i}]"), format!("{name:?} is not a ship")));
                    };
                    if s.ship_deck[sh] == 0 {
                        return Err(err(format!("harbour[{i}]"), format!("no {name} is left")));
                    }
                    s.ship_deck[sh] -= 1;
                    s.harbour[i] = sh as u8;
                }
                for (p, d) in desc.players.iter().enumerate() {
                    let mut vp = 0;
                    for (i, name) in d.ships.iter().enumerate() {
                        let field = format!("players[{p}].ships[{i}]");
                        let Some(sh) = self.data.ships.iter().position(|x| x.name == *name) else {
                            return Err(err(field, format!("{name:?} is not a ship")));
                        };
                        if s.ship_deck[sh] == 0 {
                            return Err(err(field, format!("no {name} is left")));
                        }
                        s.ship_deck[sh] -= 1;
                        vp += self.data.ships[sh].vp;
                    }
                    s.seats[p].vp = d.vp.unwrap_or(vp);
                }
                s.deal = [0, 0];
                self.enter(&mut s, &desc);
            }
            None => {
                // The ships are laid out by chance; at turn 1 the players then take their
                // starting goods (those the description does not give them), as in a new game.
                if desc.display.is_some() || desc.play {
                    return Err(err("harbour", "a position in the auction or the playing phase names its harbour"));
                }
                for (p, d) in desc.players.iter().enumerate() {
                    if !d.ships.is_empty() {
                        return Err(err(format!("players[{p}].ships"), "loaded ships need a described harbour"));
                    }
                    s.seats[p].vp = d.vp.unwrap_or(0);
                }
                s.harbour = [NONE; MAX_HARBOUR];
                s.deal = self.data.harbour[&n];
                s.turn = desc.turn - 1;
                s.phase = Phase::Ships;
            }
        }
        self.validate(&s).map_err(|m| err(".", m))?;
        Ok(s)
    }
}
