//! The readable log: one sentence a move, chance included, told from the states before and
//! after it. Nothing in Norsewind is hidden, so every observer reads the same sentence.

use crate::engine::prelude::*;
use crate::engine::Action;

use super::actions::{self, decode, Move, PLACE_CASTLE, PLACE_TILE};
use super::data::{is_green, CASTLE, COLOURS, KINGDOMS, TILES, TYPES};
use super::state::{Phase, State, NONE};
use super::Norsewind;

fn coins(n: i64) -> String {
    format!("{n} coin{}", if n == 1 || n == -1 { "" } else { "s" })
}

impl Norsewind {
    fn kingdom_name(&self, k: usize) -> &str {
        &self.data.kingdom_names[k]
    }

    /// What place `q` of kingdom `k` is, in words ("the kingdom tile", "the castle", "inn-3").
    fn place_words(&self, s: &State, p: usize, k: usize, q: u8) -> String {
        match q {
            PLACE_TILE => "the kingdom tile".into(),
            PLACE_CASTLE => "the castle".into(),
            _ => self.place_name(s, p, k, q),
        }
    }

    fn reveal_words(&self, before: &State, c: u8) -> String {
        let from = if before.end_triggered { "the reserve deck" } else { "the draw deck" };
        let card = self.card(c);
        if card.kind == CASTLE {
            let mut t = format!("The castle {} is revealed from {from} and goes to the castle display", self.card_words(c));
            if self.solo() && before.display_len as usize >= self.data.rules.solo_display {
                t.push_str(&format!("; the leftmost castle {} leaves the game", self.card(before.display[0]).id));
            }
            t.push('.');
            t
        } else {
            let slot = before.market.iter().position(|&m| m == NONE).unwrap_or(0);
            format!("{} is revealed from {from} into market slot {}.", self.card_words(c), slot + 1)
        }
    }

    fn player_words(&self, before: &State, a: Action, after: &State) -> String {
        let p = before.current as usize;
        let gained = after.player[p].coins as i64 - before.player[p].coins as i64;
        match decode(a) {
            Some(Move::Build { slot, kingdom }) => {
                let c = before.market[slot];
                let cost = self.build_cost(before, p, c, kingdom).unwrap_or(0) as i64;
                let income = gained + cost;
                format!(
                    "P{p} builds {} from slot {} in {}, pays {} and gains {} (now {}).",
                    self.card_words(c),
                    slot + 1,
                    self.kingdom_name(kingdom),
                    coins(cost),
                    coins(income),
                    coins(after.player[p].coins as i64)
                )
            }
            Some(Move::Castle { index, kingdom }) => {
                let c = before.display[index];
                let cost = self.card(c).cost as i64;
                let old = before.player[p].kingdoms[kingdom].castle;
                let replaced = if old == NONE {
                    String::new()
                } else {
                    format!(", replacing {} (back to the castle display)", self.card(old).id)
                };
                format!(
                    "P{p} acquires the castle {} for {}{replaced}, pays {} and gains {} of income (now {}).",
                    self.card_words(c),
                    self.kingdom_name(kingdom),
                    coins(cost),
                    coins(gained + cost),
                    coins(after.player[p].coins as i64)
                )
            }
            Some(Move::Citizen { colour, kingdom, place }) => {
                let who = if colour == super::data::NEUTRAL { "the neutral (white) citizen figure".to_string() } else { format!("a {} citizen figure", COLOURS[colour as usize]) };
                let bonus = if gained > 0 { format!(" and gains {} (tile bonus)", coins(gained)) } else { String::new() };
                format!("P{p} places {who} on {} in {}{bonus}.", self.place_words(before, p, kingdom, place), self.kingdom_name(kingdom))
            }
            Some(Move::Shield { kingdom, place }) | Some(Move::Prestige { kingdom, place }) => {
                let what = if matches!(decode(a), Some(Move::Prestige { .. })) { "prestige" } else { "shield" };
                let paid = if gained < 0 { format!(", paying {}", coins(-gained)) } else { " for free".to_string() };
                format!(
                    "P{p} places an upgrade disc as {what} on {} in {}{paid}.",
                    self.place_words(before, p, kingdom, place),
                    self.kingdom_name(kingdom)
                )
            }
            Some(Move::Keep { shield, prestige }) => {
                let kept = shield as u8 + prestige as u8;
                let back = before.reuse_discs - kept;
                let mut spaces = Vec::new();
                if shield {
                    spaces.push("shield");
                }
                if prestige {
                    spaces.push("prestige");
                }
                let on = if spaces.is_empty() { "none of the replaced castle's discs".to_string() } else { format!("a disc on the new castle's {} space{}", spaces.join(" and "), if kept > 1 { "s" } else { "" }) };
                format!("P{p} keeps {on}; {back} disc{} back to the supply.", if back == 1 { " goes" } else { "s go" })
            }
            Some(Move::Start { kingdom }) => {
                let paid = if gained < 0 { format!(", paying {} toll", coins(-gained)) } else { String::new() };
                format!("P{p} places the starting card {} in {}{paid}.", self.card(before.player[p].start_card).id, self.kingdom_name(kingdom))
            }
            Some(Move::Pass) => format!("P{p} can acquire neither a building nor a castle and passes."),
            Some(Move::Renew) => format!("P{p} takes action A, a building."),
            None => format!("P{p} plays action {a}."),
        }
    }

    /// What follows from the move without a decision: the Vikings' card, the rare case's new
    /// market, the end's trigger, the end of the game.
    fn consequences(&self, before: &State, after: &State, out: &mut String) {
        for k in 0..KINGDOMS {
            let new = after.viking_rows[k] & !before.viking_rows[k];
            if new != 0 {
                let c = new.trailing_zeros() as u8;
                out.push_str(&format!(
                    " The Viking ship moves to slot {} and the Vikings take {} ({}) into {}.",
                    after.ship + 1,
                    self.card(c).id,
                    TYPES[self.card(c).kind as usize],
                    self.kingdom_name(k)
                ));
            }
        }
        if after.refresh_pool != 0 && before.refresh_pool == 0 {
            out.push_str(&format!(
                " Every market card costs more than P{} has: the market is discarded and 5 new cards are revealed.",
                after.current
            ));
        }
        if after.end_triggered && !before.end_triggered {
            if after.passes >= after.players {
                out.push_str(" Nobody can acquire anything: the end of the game is triggered.");
            } else {
                out.push_str(" The draw deck is exhausted: the end of the game is triggered; the reserve deck replenishes the market from now on.");
            }
        }
        if after.phase == Phase::Turn && (before.phase != Phase::Turn || before.current != after.current || before.turn != after.turn) && after.refresh_pool == 0 {
            out.push_str(&format!(" P{} to play.", after.current));
        }
    }
}

impl Describe for Norsewind {
    /// Nothing is hidden: every observer reads the same sentence.
    fn describe_move(&self, before: &State, a: Action, after: &State, _observer: Option<usize>) -> String {
        let mut out = match before.phase {
            Phase::Colours => {
                let order = actions::permutation(a);
                let names: Vec<&str> = order.iter().map(|&c| COLOURS[c as usize]).collect();
                format!("The citizen supplies 1 to 4 are {}; supply 5 holds the upgrade discs.", names.join(", "))
            }
            Phase::Reveal => self.reveal_words(before, a as u8),
            Phase::Ship => format!("The Viking ship tile is placed above market slot {}.", a + 1),
            Phase::Tile => {
                let t = a as usize;
                format!(
                    "The kingdom tile of {} is {} ({}).",
                    self.kingdom_name(before.setup_next as usize),
                    TILES.get(t).copied().unwrap_or("?"),
                    if is_green(t as u8) { "green" } else { "red" }
                )
            }
            Phase::VikingSide => format!(
                "The Viking card of {} shows its {} side.",
                self.kingdom_name(before.setup_next as usize),
                if a == 1 { "red" } else { "green" }
            ),
            Phase::Deal => {
                let c = self.card(a as u8);
                let p = before.setup_next;
                let mut t = format!(
                    "P{p} is dealt the starting card {} (number {}, {}), gaining {}",
                    self.card_words(a as u8),
                    c.order,
                    if self.free_start { "placed later".to_string() } else { format!("placed in {}", self.kingdom_name(c.row as usize)) },
                    coins(c.start_coins as i64)
                );
                if after.phase != Phase::Deal {
                    t.push_str(&format!("; P{} has the lowest number and starts", after.starting));
                }
                t.push('.');
                t
            }
            _ => self.player_words(before, a, after),
        };
        self.consequences(before, after, &mut out);
        out
    }
}
