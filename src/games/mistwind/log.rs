//! The log's sentences (`describe_move`).

use crate::engine::prelude::*;
use crate::engine::Action;

use super::actions::*;
use super::data::*;
use super::state::*;
use super::view::res_words;
use super::Mistwind;

fn delta(before: &[u16; 4], after: &[u16; 4]) -> (String, String) {
    let mut got = [0u8; 4];
    let mut paid = [0u8; 4];
    for r in 0..4 {
        if after[r] > before[r] {
            got[r] = (after[r] - before[r]).min(255) as u8;
        } else {
            paid[r] = (before[r] - after[r]).min(255) as u8;
        }
    }
    (res_words(&got), res_words(&paid))
}

impl Mistwind {
    /// What a resource board field of side B does, for the log (nothing on side A).
    fn resource_field_words(&self, i: usize) -> String {
        let f = &self.resource_board[i];
        match f.ability {
            ResourceAbility::Gain => String::new(),
            ResourceAbility::NamedByLeft => format!(" ({} resources not of a type named by the player to the left)", f.amounts[0]),
            ResourceAbility::Income => format!(" (this round, 1 {} or 1 {} whenever another player places a chip on the resource board)", RESOURCES[f.choices[0] as usize], RESOURCES[f.choices[1] as usize]),
            ResourceAbility::GainAndFromLeft => " (and one resource from the player to the left)".to_string(),
            ResourceAbility::ThreeAndTwo => format!(" ({} of one type and {} of another; the others each take one of the two)", f.amounts[0], f.amounts[1]),
        }
    }

    /// "AUT1 draws chip 3 and places it on field 3 of the resource board (zone 1)."
    fn describe_automa(&self, b: &State, q: usize, i: usize) -> String {
        let (z, location) = self.automa_zone(b, q, i);
        let at = match location {
            RESOURCE_BOARD => format!("field {} of the resource board", i + 1),
            CHARACTER_ROW => format!("character field {}, blocking it", i + 1),
            WORKER_BOARD => {
                let marker = if self.worker_board[i].ability.takes_marker() { ", taking the starting player marker" } else { "" };
                format!("field {} of the worker board{marker}", i + 1)
            }
            _ => {
                let mut tile = String::new();
                if self.players == 1 && b.port_row[i] != NONE {
                    let card = &self.data.port_cards[b.port_row[i] as usize];
                    let r = self.data.ports[card.port as usize].region as usize;
                    let row = b.territory_display[r][0];
                    if row != NONE {
                        tile = format!(" and takes the {} {} demand tile", self.data.regions[r], self.data.cargo[row as usize]);
                    }
                }
                format!("the port card of field {} (stack of {}){tile}", i + 1, b.stack_height[i] + 1)
            }
        };
        format!("{} draws chip {} and places it on {at} (zone {}).", self.who(q), i + 1, z + 1)
    }


    /// The port bonuses paid when move `a` at `before` ends the turns, a sentence each:
    /// the stacks are those once `a` is made (an automa player's last chip may top one).
    fn describe_bonuses(&self, before: &State, a: Action) -> String {
        let mut s = before.clone();
        if let Draw::Automa(q) = before.draw {
            self.automa_place(&mut s, q as usize, a as usize);
        }
        let cards = s.port_row;
        let mut told = String::new();
        self.port_bonuses(&mut s, |i, top, built| {
            let card = &self.data.port_cards[cards[i] as usize];
            let what = if self.is_automa(top) {
                "takes no bonus (an automa player)".to_string()
            } else if card.outpost && built {
                format!("builds a free outpost in {}", self.port_name(card.port))
            } else if card.outpost {
                format!("builds no outpost (one there already, or none left){}", if card.gain == [0; 4] { String::new() } else { format!(" and gains {}", res_words(&card.gain)) })
            } else {
                format!("gains {}", res_words(&card.gain))
            };
            let gains = if card.outpost && built && card.gain != [0; 4] { format!(" and gains {}", res_words(&card.gain)) } else { String::new() };
            told.push_str(&format!(" Port bonus of field {} ({}): {}, on top, {what}{gains}.", i + 1, self.port_card_label(cards[i] as usize), self.who(top)));
        });
        told
    }

    fn describe_turn(&self, b: &State, a: Action, after: &State) -> String {
        let d = &self.data;
        let p = b.current as usize;
        let (got, paid) = delta(&b.players[p].res, &after.players[p].res);
        let with = |s: String| if got != "nothing" { format!("{s}, gaining {got}") } else { s };
        let paying = |s: String| if paid != "nothing" { format!("{s}, paying {paid}") } else { s };
        let s = match a {
            _ if (PLAY..BUILD_OUTPOST).contains(&a) => {
                let l = ((a - PLAY) / 5) as u8;
                let i = ((a - PLAY) % 5) as usize;
                match l {
                    RESOURCE_BOARD => with(format!("P{p} plays chip {} on the resource board{}", i + 1, self.resource_field_words(i))),
                    CHARACTER_ROW => {
                        let ch = &d.characters[b.character_row[i] as usize];
                        let cost = if ch.cost == [0; 4] { String::new() } else { format!(", paying {}", res_words(&ch.cost)) };
                        // "must be used immediately": its gain comes at once.
                        let gain = if ch.kind == CharKind::Immediate && ch.gain != [0; 4] {
                            format!("; {} is used at once: P{p} gains {}", ch.name, res_words(&ch.gain))
                        } else {
                            String::new()
                        };
                        format!("P{p} plays chip {} and hires {}{cost}{gain}", i + 1, ch.name)
                    }
                    WORKER_BOARD => with(format!("P{p} plays chip {} on the worker board ({})", i + 1,
                        WORKER_ABILITIES.iter().find(|(_, x)| *x == self.worker_board[i].ability).map_or("", |(n, _)| *n))),
                    _ => format!("P{p} plays chip {} on the port card of {} (stack of {})", i + 1,
                        self.port_name(d.port_cards[b.port_row[i] as usize].port), after.stack_height[i]),
                }
            }
            BUILD_OUTPOST | BUILD_WHALE => {
                let Step::PortChoice(i) = b.step else { return String::new() };
                let port = self.port_name(d.port_cards[b.port_row[i as usize] as usize].port);
                paying(format!("P{p} builds {} in {port}", if a == BUILD_OUTPOST { "an outpost" } else { "a transport whale" }))
            }
            _ if (TAKE..BUILD_AT).contains(&a) => with(format!("P{p} takes resources at the port card")),
            _ if (BUILD_AT..MOVE).contains(&a) && matches!(b.step, Step::WorkerBuild(i) if self.worker_board[i as usize].ability == WorkerAbility::BuyOutpost) => {
                let Step::WorkerBuild(i) = b.step else { return String::new() };
                let q = (a - BUILD_AT) as usize;
                let (occupants, coins) = self.buy_cost(b, p, i as usize, q);
                let to = if occupants == 0 {
                    String::new()
                } else {
                    format!(", {} each to {}", self.worker_board[i as usize].amounts[1], (0..self.positions).filter(|&o| occupants & (1 << o) != 0).map(|o| self.who(o)).collect::<Vec<_>>().join(" and "))
                };
                format!("P{p} buys an outpost in {} for {coins} coins{to}", self.port_name(q as u8))
            }
            _ if (BUILD_AT..MOVE).contains(&a) => {
                let what = if after.players[p].outposts != b.players[p].outposts { "an outpost" } else { "a transport whale" };
                paying(format!("P{p} builds {what} in {}", self.port_name((a - BUILD_AT) as u8)))
            }
            _ if (MOVE..END_MOVES).contains(&a) => {
                let w = (a - MOVE) as usize / MAX_PORTS;
                paying(format!("P{p} moves whale {} from {} to {}", w + 1, self.port_name(b.players[p].whales[w]), self.port_name(after.players[p].whales[w])))
            }
            _ if (MOVE..END_MOVES).contains(&a) && b.step == Step::LongMove => {
                let w = (a - MOVE) as usize / MAX_PORTS;
                let n = after.long.fields;
                let pay = if after.step != Step::LongMove { ", a field beyond the free ones to pay for" } else { "" };
                format!("P{p} moves whale {} from {} to {} (field {n} of the long move){pay}", w + 1, self.port_name(b.players[p].whales[w]), self.port_name(after.players[p].whales[w]))
            }
            END_MOVES if b.step == Step::LongMove => format!("P{p} ends the long whale move"),
            END_MOVES => format!("P{p} ends the whale movement"),
            _ if (LOAD..DELIVER_TERRITORY).contains(&a) => {
                let w = (a - LOAD) as usize;
                let c = d.ports[b.players[p].whales[w] as usize].cargo;
                if c == KRILL_CARGO {
                    format!("P{p} loads krill with whale {} (krill +1)", w + 1)
                } else {
                    let old = b.players[p].cargo[w];
                    let back = if old != NONE { format!(", putting {} back", d.cargo[old as usize]) } else { String::new() };
                    format!("P{p} loads {} onto whale {}{back}", d.cargo[c as usize], w + 1)
                }
            }
            _ if (DELIVER_TERRITORY..END_CARGO).contains(&a) => {
                let w = if a < DELIVER_CAPITAL { (a - DELIVER_TERRITORY) as usize / MAX_TERRITORY_ROW } else { (a - DELIVER_CAPITAL) as usize / 2 };
                let c = b.players[p].cargo[w];
                let r = d.ports[b.players[p].whales[w] as usize].region as usize;
                let kind = if a < DELIVER_CAPITAL { "territory" } else { "capital" };
                with(format!("P{p} delivers {} with whale {} and takes a {} {kind} demand tile", d.cargo[c as usize], w + 1, d.regions[r]))
            }
            END_CARGO => format!("P{p} ends loading and unloading"),
            _ if (CHOOSE..USE).contains(&a) => format!("P{p} chooses {} from the demand row", RESOURCES[(a - CHOOSE) as usize]),
            _ if (USE..REVEAL_CARD).contains(&a) => with(format!("P{p} uses {}", d.characters[(a - USE) as usize].name)),
            _ if (REVEAL_CARD..CONTROL).contains(&a) => format!("P{p} reveals the network card {} and claims the whole network", self.card_words((a - REVEAL_CARD) as usize)),
            _ if (CONTROL..ACHIEVE).contains(&a) => {
                let r = ((a - CONTROL) / 2) as usize;
                format!("P{p} places a control marker on the {} field of the {} network tile", if (a - CONTROL) % 2 == 0 { "upper" } else { "lower" }, d.regions[r])
            }
            _ if (ACHIEVE..END_TURN).contains(&a) => {
                let l = (a - ACHIEVE) as usize;
                format!("P{p} takes the achievement tile {}", self.achievement_words(b.achievements[l] as usize))
            }
            END_TURN if b.phase == Phase::EndRoundClaims => format!("P{p} claims nothing more"),
            END_TURN => format!("P{p} ends the turn"),
            _ if (NAME..GAIN).contains(&a) => {
                let n = if let Step::Name(n) = b.step { n } else { 0 };
                let r = RESOURCES[(a - NAME) as usize];
                format!("P{p} names {r}: {} receives {n} resources that are not {r}", self.who(b.turn as usize))
            }
            _ if (GAIN..FROM_LEFT).contains(&a) => {
                let r = RESOURCES[(a - GAIN) as usize];
                if b.income != 0 {
                    format!("P{p} receives 1 {r}, the income of resource field {} for {}'s chip", next_income(b.income).0 + 1, self.who(b.turn as usize))
                } else if let Step::Share(..) = b.step {
                    format!("P{p} takes 1 {r} of the types {} chose", self.who(b.turn as usize))
                } else {
                    format!("P{p} receives 1 {r}")
                }
            }
            _ if (FROM_LEFT..SPLIT).contains(&a) => {
                format!("P{p} takes 1 {} from {}", RESOURCES[(a - FROM_LEFT) as usize], self.who(self.left_of(p)))
            }
            _ if (SPLIT..KEEP).contains(&a) => with(format!("P{p} chooses the types")),
            _ if (KEEP..GIVE).contains(&a) => {
                let c = (a - KEEP) as usize;
                let rest = if after.step == Step::Move && b.drawn.iter().filter(|&&x| x != NONE).count() == 2 { ", and discards the other (no other seat takes it)" } else { "" };
                with(format!("P{p} keeps {}{rest}", d.characters[c].name))
            }
            _ if (GIVE..PAY).contains(&a) => {
                let Step::Give(c) = b.step else { return String::new() };
                let q = (a - GIVE) as usize;
                let (got, _) = delta(&b.players[q].res, &after.players[q].res);
                let used = if got != "nothing" { format!(", who gains {got}") } else { String::new() };
                format!("P{p} gives {} to {}{used}", d.characters[c as usize].name, self.who(q))
            }
            _ if (PAY..PARTNER).contains(&a) => {
                let (r, q) = (((a - PAY) / MAX_PLAYERS as Action) as usize, ((a - PAY) % MAX_PLAYERS as Action) as usize);
                let why = if b.step == Step::PayToUse { "to use an occupied field" } else { "for a field of the long move" };
                let to = if self.is_automa(q) { format!("{} (back to the supply: it has no player board)", self.who(q)) } else { self.who(q) };
                format!("P{p} pays 1 {} to {to} {why}", RESOURCES[r])
            }
            _ if (PARTNER..OFFER).contains(&a) => format!("P{p} offers {} a trade", self.who((a - PARTNER) as usize)),
            _ if (OFFER..ACCEPT).contains(&a) => {
                let Step::Offer(q) = b.step else { return String::new() };
                format!("P{p} offers {} 1 {} for 1 {}", self.who(q as usize), RESOURCES[((a - OFFER) / 4) as usize], RESOURCES[((a - OFFER) % 4) as usize])
            }
            ACCEPT | DECLINE => {
                let Step::Answer(_, g, w) = b.step else { return String::new() };
                let verb = if a == ACCEPT { "accepts" } else { "declines" };
                format!("P{p} {verb} the trade: 1 {} from {} for 1 {}", RESOURCES[g as usize], self.who(b.turn as usize), RESOURCES[w as usize])
            }
            END_TRADES => format!("P{p} ends the trades"),
            _ if (USE_FIELD..NUM_ACTIONS as Action).contains(&a) => {
                let (bd, i) = (((a - USE_FIELD) / ROW as Action) as usize, ((a - USE_FIELD) % ROW as Action) as usize);
                let (holder, board, words) = if bd == 0 {
                    (b.resource_fields[i], "resource board", self.resource_field_words(i))
                } else {
                    let n = WORKER_ABILITIES.iter().find(|(_, x)| *x == self.worker_board[i].ability).map_or("", |(n, _)| *n);
                    (b.worker_fields[i], "worker board", format!(" ({n})"))
                };
                let right = if bd == 0 && self.resource_board[i].ability == ResourceAbility::Income {
                    ", and receives that income for the rest of the round"
                } else {
                    ""
                };
                with(format!("P{p} uses field {} of the {board}{words}, where {}'s chip lies{right}", i + 1, self.who(holder as usize)))
            }
            _ => format!("P{p}: {}", self.action_to_string(b, a)),
        };
        format!("{s}.")
    }
}

impl Describe for Mistwind {
    fn describe_move(&self, before: &State, a: Action, after: &State, observer: Option<usize>) -> String {
        let d = &self.data;
        let p = before.current as usize;
        let sees = |q: usize| observer.is_none_or(|o| o == q);
        let mut line = match (before.draw, before.phase) {
            (Draw::Achievement(_), _) => format!("Setup: the achievement tile {} is laid out.", self.achievement_words(a as usize)),
            (Draw::NetworkTile(_), _) => format!("Setup: the network tile {} is laid out.", self.tile_words(a as usize)),
            (Draw::Capital(r, _), _) => format!("A {} capital demand tile for {} is revealed.", d.regions[r as usize], d.cargo[a as usize]),
            (Draw::Territory(r, _), _) => format!("A {} territory demand tile for {} is revealed at the top of the row.", d.regions[r as usize], d.cargo[a as usize]),
            (Draw::NetworkCard(q, diff), _) => {
                if sees(q as usize) {
                    format!("P{q} is dealt the {} network card {}.", DIFFICULTIES[diff as usize], self.card_words(a as usize))
                } else {
                    format!("P{q} is dealt a network card ({}), face down.", DIFFICULTIES[diff as usize])
                }
            }
            (Draw::PortCard(i), _) => format!("Port card {} is revealed at field {}.", self.port_card_words(a as usize), i + 1),
            (Draw::Character(i), _) => format!("Character {} is revealed at field {}.", self.character_words(a as usize), i + 1),
            (Draw::Drawn(_), _) => format!("{} draws the character {}.", self.who(before.turn as usize), self.character_words(a as usize)),
            (Draw::Automa(q), _) => self.describe_automa(before, q as usize, a as usize),
            (Draw::Name(q), _) => {
                let n = if let Step::Name(n) = before.step { n } else { 0 };
                let r = RESOURCES[a as usize % 4];
                format!("{} names {r} at random: {} receives {n} resources that are not {r}.", self.who(q as usize), self.who(before.turn as usize))
            }
            (Draw::None, Phase::PlaceWhales) => format!("P{p} places a transport whale in {}.", self.port_name((a - PLACE_WHALE) as u8)),
            (Draw::None, Phase::Discard) => {
                if sees(p) {
                    format!("P{p} secretly discards chip {}.", a - DISCARD_CHIP + 1)
                } else {
                    format!("P{p} discards a chip face down.")
                }
            }
            (Draw::None, Phase::DiscardNetworkCard) => {
                let c = (a - DISCARD_CARD) as usize;
                if sees(p) {
                    format!("P{p} discards the network card {}.", self.card_words(c))
                } else {
                    format!("P{p} discards a network card ({}) face down.", DIFFICULTIES[d.network_cards[c].difficulty as usize])
                }
            }
            _ => self.describe_turn(before, a, after),
        };
        // Scoring 4: an achievement tile is taken as soon as it is fulfilled.
        for l in 0..4 {
            let q = after.achievement_taken[l];
            if before.achievement_taken[l] == NONE && q != NONE {
                line.push_str(&format!(" P{q} fulfils and takes the achievement tile {}.", self.achievement_words(after.achievements[l] as usize)));
            }
        }
        // Phase C step 1, when the move ends the turns: the port bonuses.
        if before.phase == Phase::Turns && after.phase != Phase::Turns {
            line.push_str(" All chips are played: the port bonuses are paid.");
            line.push_str(&self.describe_bonuses(before, a));
        }
        // What follows at once without a decision: the end of a turn, a round, the game.
        if after.phase == Phase::GameOver && before.phase != Phase::GameOver {
            line.push_str(" The last round ends.");
            if self.players == 1 {
                let goal = &self.data.goals[self.difficulty].name;
                let met = if self.winners(after).is_empty() { "missed" } else { "met" };
                line.push_str(&format!(" The goal {goal} is {met}."));
            }
        } else if after.round != before.round {
            line.push_str(&format!(" Round {} ends.", before.round + 1));
        } else if before.phase == Phase::Turns && after.phase == Phase::Turns && after.turn != before.turn {
            line.push_str(&format!(" {}'s turn.", self.who(after.turn as usize)));
        }
        line
    }
}
