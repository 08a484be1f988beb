//! North Wind's log: a sentence for every move, chance outcomes included, as a seat (or a
//! spectator who sees everything) may see it. Hidden from the other seats: the cards dealt at
//! setup (face down) and the card a lookout looks at and slides under the stack.

use crate::engine::Action;
use crate::engine::prelude::*;
use crate::engine::words::plural;

use super::actions::*;
use super::data::{CombatOutcome, EventOutcome, Kind, CREW_SLOTS, GOODS, GUNNER, PORTS};
use super::state::{Phase, State, NONE};
use super::NorthWind;

impl NorthWind {
    /// A card as the log names it: its name and what it offers.
    fn card_phrase(&self, card: u8) -> String {
        let name = self.card_name(card);
        match self.data.kind(card) {
            Kind::Destination { port } => {
                format!("the {} destination card (fulfil its next contract)", PORTS[port as usize])
            }
            Kind::Fog => "Fog (the event die is rolled)".into(),
            Kind::TradingPort { good, price } => format!(
                "{name} (buy or sell up to {} {} at {price} gold each)",
                self.data.rules.port_max_units, GOODS[good as usize]
            ),
            Kind::OutfittingPort { price } => format!("{name} (a sail, a cannon or a crew member for {price} gold)"),
            Kind::Merchant { price } => format!("{name} (buy or sell one good of any kind at {price} gold)"),
            Kind::Shipwreck => format!("{name} (search it for {} gold)", self.data.rules.shipwreck_gold),
        }
    }

    fn contract_phrase(&self, port: usize, i: usize) -> String {
        let Some(c) = self.data.contracts[port].get(i) else { return String::new() };
        let mut parts: Vec<String> =
            (0..5).filter(|&g| c.goods[g] > 0).map(|g| format!("{} {}", c.goods[g], GOODS[g])).collect();
        if c.captains > 0 {
            parts.push(plural(c.captains as u32, "pirate captain", "pirate captains"));
        }
        if c.gold > 0 {
            parts.push(format!("{} gold", c.gold));
        }
        parts.join(", ")
    }

    /// What happens once `card` is revealed for the active player `p`: fog waits for the event
    /// die; a card nobody can use is passed over.
    fn after_reveal(&self, p: u8, card: u8, after: &State) -> String {
        let waits = after.active == p && matches!(after.phase, Phase::Card | Phase::Event);
        if self.data.kind(card) != Kind::Fog && !waits {
            format!(" P{p} cannot use it.")
        } else {
            String::new()
        }
    }

    /// The use of a card (or a pass) by the decider, in the Card, Letter or Boatswain phase.
    fn card_use(&self, before: &State, a: Action) -> String {
        let d = before.voyage.decider;
        let card = before.voyage.current;
        let name = self.card_name(card);
        let who = match before.phase {
            Phase::Letter => format!("P{d} uses a trade letter on {name}:"),
            Phase::Boatswain => format!("P{d}'s boatswain trades once more:"),
            _ => format!("P{d}"),
        };
        let kind = self.data.kind(card);
        let bookkeeper = |sells: bool| {
            if sells && !before.voyage.sold && before.ships[d as usize].has(super::data::BOOKKEEPER) {
                format!(", and {} gold from the bookkeeper", self.data.rules.bookkeeper_bonus)
            } else {
                String::new()
            }
        };
        let what = match (a, kind) {
            (PASS, _) => {
                return match before.phase {
                    Phase::Letter => format!("P{d} does not use a trade letter on {name}."),
                    Phase::Boatswain => format!("P{d}'s boatswain makes no second trade."),
                    _ => format!("P{d} does not use {name}."),
                }
            }
            (BUY_1 | BUY_2, Kind::TradingPort { good, price }) => {
                let n = a - BUY_1 + 1;
                format!("buys {n} {} for {} gold", GOODS[good as usize], n * price as u32)
            }
            (SELL_1 | SELL_2, Kind::TradingPort { good, price }) => {
                let n = a - SELL_1 + 1;
                format!("sells {n} {} for {} gold{}", GOODS[good as usize], n * price as u32, bookkeeper(true))
            }
            (12..=16, _) => format!(
                "throws 1 {} overboard to make room for the purchase",
                GOODS[(a - JETTISON) as usize]
            ),
            (OUTFIT_SAIL, Kind::OutfittingPort { price }) => format!(
                "buys a sail for {price} gold (range {})",
                before.ships[d as usize].sail + 1
            ),
            (OUTFIT_CANNON, Kind::OutfittingPort { price }) => format!(
                "buys a cannon for {price} gold ({})",
                plural(before.ships[d as usize].cannons as u32 + 1, "cannon", "cannons")
            ),
            (19..=23, Kind::OutfittingPort { price }) => {
                format!("hires a {} for {price} gold", CREW_SLOTS[(a - HIRE) as usize])
            }
            (24..=28, Kind::Merchant { price }) => {
                format!("buys 1 {} from the merchant for {price} gold", GOODS[(a - MERCHANT_BUY) as usize])
            }
            (29..=33, Kind::Merchant { price }) => format!(
                "sells 1 {} to the merchant for {price} gold{}",
                GOODS[(a - MERCHANT_SELL) as usize],
                bookkeeper(true)
            ),
            (FULFIL, Kind::Destination { port }) => {
                let port = port as usize;
                format!(
                    "fulfils contract {} of {} ({}): a victory point token in the {} column",
                    before.done[port] + 1,
                    PORTS[port],
                    self.contract_phrase(port, before.done[port] as usize),
                    PORTS[port]
                )
            }
            (SALVAGE, _) => format!("searches the shipwreck and finds {} gold", self.data.rules.shipwreck_gold),
            _ => self.action_to_string(before, a),
        };
        format!("{who} {what}.")
    }

    /// What a move changed beyond itself: bonuses, the end of the voyage, the next turn, the end.
    fn consequences(&self, before: &State, after: &State, out: &mut String) {
        for port in 0..3 {
            let (was, is) = (before.majority[port], after.majority[port]);
            if was != is {
                if is != NONE {
                    out.push_str(&format!(" P{is} takes the majority bonus of the {} column.", PORTS[port]));
                } else {
                    out.push_str(&format!(" P{was} loses the majority bonus of the {} column.", PORTS[port]));
                }
            }
        }
        for p in 0..self.players {
            if after.ships[p].supply_bonus && !before.ships[p].supply_bonus {
                out.push_str(&format!(" P{p} has supplied all three ports: the supply bonus."));
            }
            if after.ships[p].crew_bonus && !before.ships[p].crew_bonus {
                out.push_str(&format!(" P{p} has a full crew: the crew bonus."));
            }
        }
        let new_turn = after.turn != before.turn || (before.phase == Phase::Deal && after.phase != Phase::Deal);
        if before.phase.in_voyage() && new_turn {
            let a = before.active as usize;
            let letter = after.ships[a].letters > before.ships[a].letters;
            out.push_str(&format!(
                " P{a}'s voyage ends{}.",
                if letter { "; one action or none: a trade letter" } else { "" }
            ));
        }
        if after.phase == Phase::GameOver {
            if !after.truncated && after.winner != NONE {
                out.push_str(&format!(" P{} has placed all {} victory point tokens.", after.winner, self.tokens));
            }
        } else if new_turn {
            let n = after.active as usize;
            let income = if before.ships[n].gold == 0 && after.ships[n].gold > 0 {
                format!(": out of gold, P{n} takes {} from the bank", after.ships[n].gold)
            } else {
                String::new()
            };
            if before.phase == Phase::Deal {
                out.push_str(" The sea cards are dealt.");
            }
            out.push_str(&format!(" P{n}'s turn{income}."));
        }
    }
}

impl Describe for NorthWind {
    fn describe_move(&self, before: &State, a: Action, after: &State, observer: Option<usize>) -> String {
        let p = before.active;
        let sees_private = observer.is_none_or(|o| o == p as usize);
        let r = &self.data.rules;
        let mut out = match before.phase {
            Phase::Deal => {
                let card = self.data.deal_cards[before.deal_next as usize];
                if observer.is_none() {
                    format!("Setup: {} is dealt face down to the {} stack.", self.card_name(card), PORTS[a as usize])
                } else {
                    "Setup: a sea card is dealt face down to a stack.".into()
                }
            }
            Phase::ChooseStack => format!(
                "P{p} sails into the {} stack with range {}.",
                PORTS[(a - SAIL) as usize],
                before.ships[p as usize].sail
            ),
            Phase::Peek if sees_private => {
                format!("P{p}'s lookout looks at the top card: {}.", self.card_phrase(a as u8))
            }
            Phase::Peek => format!("P{p}'s lookout looks at the top card in secret."),
            Phase::PeekDecision if a == KEEP_TOP => {
                let card = before.voyage.peeked;
                format!(
                    "P{p} keeps the lookout's card on top and reveals {}.{}",
                    self.card_phrase(card),
                    self.after_reveal(p, card, after)
                )
            }
            Phase::PeekDecision if sees_private => format!(
                "P{p} slides {} under the stack, unseen by the others.",
                self.card_phrase(before.voyage.peeked)
            ),
            Phase::PeekDecision => format!("P{p} slides the lookout's card under the stack, unseen."),
            Phase::Reveal => format!(
                "P{p} reveals {} (card {} of range {}).{}",
                self.card_phrase(a as u8),
                before.voyage.revealed + 1,
                before.ships[p as usize].sail,
                self.after_reveal(p, a as u8, after)
            ),
            Phase::Event => match self.data.event_faces[a as usize].0 {
                EventOutcome::Treasure => {
                    format!("The event die shows treasure: P{p} takes {} gold.", r.treasure_gold)
                }
                EventOutcome::Pirates(k) => {
                    let cannons = before.ships[p as usize].cannons as u32;
                    let then = match after.phase {
                        Phase::Pirate => format!("P{p} pays {} gold or fights", r.pirate_toll),
                        Phase::Combat => format!(
                            "P{p} cannot pay the toll of {} gold and fights with {}",
                            r.pirate_toll,
                            plural(cannons, "cannon", "cannons")
                        ),
                        _ => format!(
                            "P{p} cannot pay the toll of {} gold, and {} cannot win: the pirates win",
                            r.pirate_toll,
                            plural(cannons, "cannon", "cannons")
                        ),
                    };
                    format!("The event die shows pirates of strength {k}: {then}.")
                }
            },
            Phase::Pirate if a == PAY_PIRATES => format!("P{p} pays the pirates {} gold.", r.pirate_toll),
            Phase::Pirate => {
                let cannons = plural(before.ships[p as usize].cannons as u32, "cannon", "cannons");
                if after.phase == Phase::Combat {
                    format!("P{p} fights the pirates (strength {}) with {cannons}.", before.voyage.pirates)
                } else {
                    format!(
                        "P{p} fights the pirates (strength {}) with {cannons}, too few to win: the pirates win.",
                        before.voyage.pirates
                    )
                }
            }
            Phase::Combat => {
                let gunner = before.ships[p as usize].has(GUNNER);
                let (face, hits) = match self.data.combat_faces[a as usize].0 {
                    CombatOutcome::Hit => ("a hit", 1),
                    CombatOutcome::Double if gunner => ("the blue double ball, 2 hits with the gunner", 2),
                    CombatOutcome::Double => ("the blue double ball, no hit without a gunner", 0),
                    CombatOutcome::Miss => ("a miss", 0),
                };
                let total = before.voyage.hits + hits;
                let strength = before.voyage.pirates;
                let mut s = format!("P{p} rolls the combat die: {face} ({total} of {strength} hits)");
                if total >= strength {
                    let ship = (&before.ships[p as usize], &after.ships[p as usize]);
                    if ship.1.captains > ship.0.captains {
                        s.push_str(&format!(": P{p} wins, a pirate captain goes into the prison."));
                    } else {
                        s.push_str(&format!(": P{p} wins; the prison is full, {} gold instead.", r.full_prison_gold));
                    }
                } else if after.phase != Phase::Combat || after.active != p {
                    s.push_str(": the pirates win.");
                } else {
                    s.push('.');
                }
                s
            }
            Phase::Card | Phase::Letter | Phase::Boatswain => self.card_use(before, a),
            Phase::GameOver => String::new(),
        };
        self.consequences(before, after, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::engine::{Actor, GameDefinition, GameState};
    use crate::games::north_wind::NorthWind;

    fn game() -> Arc<NorthWind> {
        Arc::new(NorthWind::load(&serde_json::Map::new()).unwrap())
    }

    /// Random games from seeds 0.. until one has a sentence `wanted` accepts.
    fn find(wanted: impl Fn(&str, Option<usize>) -> bool, observer: Option<usize>) -> Option<String> {
        for seed in 0..60 {
            let mut s = GameState::new(game(), seed, false);
            let mut i = seed as u32;
            while !s.is_terminal() {
                let legal = s.legal_actions();
                i = i.wrapping_mul(2_654_435_761).wrapping_add(7);
                s.apply(legal[(i as usize >> 3) % legal.len()]).unwrap();
            }
            if let Some(e) = s.log(observer).unwrap().into_iter().find(|e| wanted(&e.text, observer)) {
                return Some(e.text);
            }
        }
        None
    }

    #[test]
    fn a_fight_is_told_roll_by_roll_with_its_result() {
        let won = find(|t, _| t.contains("rolls the combat die") && t.contains("wins, a pirate captain goes into the prison"), None)
            .expect("some fight is won");
        assert!(won.starts_with('P') && won.contains(" hits): P"), "{won}");
        let met = find(|t, _| t.starts_with("The event die shows pirates of strength"), Some(0)).expect("pirates are met");
        assert!(met.contains("pays 1 gold or fights") || met.contains("cannot pay"), "{met}");
    }

    #[test]
    fn the_lookouts_card_and_the_deal_are_told_only_to_who_may_see_them() {
        let g = game();
        let mut s = GameState::new(Arc::clone(&g), 1, true);
        // The deal: face down for the seats, named for a spectator.
        s.apply(s.legal_actions()[0]).unwrap();
        let seat = s.log(Some(0)).unwrap()[0].text.clone();
        let all = s.log(None).unwrap()[0].text.clone();
        assert_eq!(seat, "Setup: a sea card is dealt face down to a stack.");
        assert!(all.starts_with("Setup: ") && all.contains(" is dealt face down to the ") && all != seat, "{all}");
        // The lookout's look: the card for its owner only.
        let mut found = false;
        let mut i = 0u32;
        while !s.is_terminal() && !found {
            let legal = s.legal_actions();
            i = i.wrapping_mul(2_654_435_761).wrapping_add(7);
            let peek = s.is_chance() && s.action_to_string(legal[0]).starts_with("peek:");
            s.apply(legal[(i as usize >> 3) % legal.len()]).unwrap();
            if peek {
                let who = match s.actor() { Actor::Player(p) => p, _ => unreachable!("a decision follows the look") };
                let own = s.log(Some(who)).unwrap().pop().unwrap().text;
                let other = s.log(Some((who + 1) % 3)).unwrap().pop().unwrap().text;
                assert!(own.starts_with(&format!("P{who}'s lookout looks at the top card: ")), "{own}");
                assert_eq!(other, format!("P{who}'s lookout looks at the top card in secret."));
                found = true;
            }
        }
        assert!(found, "no lookout looked");
    }
}
