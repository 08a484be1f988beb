//! Nauticus's log: a sentence for every move, the deal of the action tiles included. Nothing
//! in Nauticus is hidden, so every seat and a spectator read the same sentence.

use crate::engine::Action;
use crate::engine::prelude::*;
use crate::engine::words::plural;

use super::actions::*;
use super::data::{GOOD, TILES};
use super::state::{State, Step, NONE};
use super::Nauticus;

impl Nauticus {
    /// The workers one use spends: blue ones of the turntable first (not in the extra action).
    fn workers_spent(&self, before: &State, n: u32) -> String {
        let blue = if before.turn.extra { 0 } else { (before.turn.blue as u32).min(n) };
        let own = n - blue;
        match (blue, own) {
            (0, o) => plural(o, "own worker", "own workers"),
            (b, 0) => plural(b, "blue worker", "blue workers"),
            (b, o) => format!("{} and {}", plural(b, "blue worker", "blue workers"), plural(o, "own worker", "own workers")),
        }
    }

    /// The action a use belongs to: the chosen tile, or the extra action's.
    fn in_hand(&self, before: &State) -> String {
        let t = &before.turn;
        if t.session != NONE {
            if t.extra {
                format!("{} (extra action)", TILES[t.session as usize])
            } else {
                TILES[t.session as usize].to_string()
            }
        } else {
            TILES[before.spaces[before.space as usize] as usize].to_string()
        }
    }

    fn actor_of_decision(&self, s: &State) -> usize {
        match s.step {
            Step::Choose | Step::BonusTile => s.start as usize,
            _ => s.turn.actor as usize,
        }
    }

    fn turn_move(&self, before: &State, a: Action, after: &State) -> String {
        let p = before.turn.actor as usize;
        let (b, n) = (&before.players[p], &after.players[p]);
        let answering = if before.turn.session == NONE && before.turn.main == super::state::MAIN_OPEN && a < PASS {
            format!("P{p} carries out {}: ", self.in_hand(before))
        } else {
            format!("P{p} ")
        };
        let verb = |s: String| format!("{answering}{s}");
        match a {
            PASS => {
                if b.passes < 3 {
                    format!(
                        "P{p} passes on {} and turns the -{} pass tile to its crown side.",
                        self.in_hand(before),
                        self.data.pass_penalties[b.passes as usize]
                    )
                } else {
                    format!("P{p} passes on {}; all three pass tiles are already turned.", self.in_hand(before))
                }
            }
            FINISH if before.turn.extra => format!("P{p} finishes the extra action ({}).", TILES[before.turn.session as usize]),
            FINISH => format!("P{p} finishes {}.", self.in_hand(before)),
            END_TURN => format!("P{p} ends the turn without the extra action."),
            a if a >= EXTRA => format!(
                "P{p} uses the extra action to {} and takes {} from the supply.",
                TILES[(a - EXTRA) as usize],
                plural(self.data.rules.extra_workers, "worker", "workers")
            ),
            a if (BUY..TAKE).contains(&a) => {
                let k = (a - BUY) as u8;
                let price = b.taler - n.taler;
                let free = if price == 0 { ", free, into the warehouse" } else { "" };
                verb(format!(
                    "buys {} for {} Taler with {}{free}.",
                    self.kind_with_article(k),
                    price,
                    self.workers_spent(before, 1)
                ))
            }
            a if (TAKE..TO_WAREHOUSE).contains(&a) => verb(format!(
                "transports {} from the warehouse with {}.",
                self.kind_with_article((a - TAKE) as u8),
                self.workers_spent(before, 1)
            )),
            WITHDRAW_ONE => verb(format!(
                "withdraws {} Taler with {} (now {} Taler).",
                n.taler - b.taler,
                self.workers_spent(before, 1),
                n.taler
            )),
            SCORE_ONE => {
                let gain = (n.points - b.points) as u32;
                verb(format!(
                    "scores {} for {} with {} (now {}).",
                    plural(gain, "point", "points"),
                    plural(before.crowns(p), "crown", "crowns"),
                    self.workers_spent(before, 1),
                    plural(n.points, "point", "points")
                ))
            }
            a if (DELIVER_SHIP..REWARD).contains(&a) => {
                let ord = (a - DELIVER_SHIP) as usize;
                let i = before.ship_index(p, ord).expect("a ship of the player");
                let sh = &before.ships[i];
                let goods: Vec<String> = (0..4)
                    .filter(|&g| sh.goods[g] > 0)
                    .map(|g| format!("{} {}", sh.goods[g], self.data.kind_name(GOOD + g as u8)))
                    .collect();
                verb(format!(
                    "delivers the cargo of ship {} ({}) with {}.",
                    ord + 1,
                    goods.join(", "),
                    self.workers_spent(before, sh.parts() as u32)
                ))
            }
            _ => verb(self.action_to_string(before, a)),
        }
    }

    fn placement(&self, before: &State, a: Action, after: &State) -> String {
        let p = before.turn.actor as usize;
        let k = before.turn.pending;
        let tile = format!("the {}", self.data.kind_name(k));
        let mut s = match a {
            TO_WAREHOUSE => format!("P{p} puts {tile} in the warehouse."),
            NEW_SHIP => {
                let ord = after.ships_of(p).count();
                format!("P{p} begins ship {ord} with {tile}.")
            }
            _ => {
                let ord = (a - TO_SHIP) as usize;
                let i = after.ship_index(p, ord).expect("a ship of the player");
                let verb = if k >= GOOD { "loads" } else { "puts" };
                format!("P{p} {verb} {tile} on ship {}: {}.", ord + 1, self.ship_words(&after.ships[i]))
            }
        };
        if after.step == Step::Reward && before.step == Step::Place {
            let i = after.turn.reward_ship as usize;
            let masts = after.ships[i].all_masts() as u32;
            s.push_str(&format!(
                " The ship is complete: P{p} chooses {}, one for each mast.",
                plural(masts, "reward", "rewards")
            ));
        }
        s
    }

    /// What a move changed beyond itself: a gift owed, the next turn, the end of the phase,
    /// of the round (pass tiles) and of the game.
    fn consequences(&self, before: &State, after: &State, out: &mut String) {
        if after.step == Step::Gift && before.step != Step::Gift {
            out.push_str(&format!(" P{} has bought all four items and chooses a gift.", after.turn.actor));
        }
        if after.round != before.round {
            let mut lost = Vec::new();
            for p in 0..self.players {
                // A move that ends a round (a pass, a finish, the end of a turn) scores
                // nothing itself: every point lost is the pass tiles'.
                let penalty = before.players[p].points - after.players[p].points;
                if penalty > 0 {
                    lost.push(format!("P{p} loses {}", plural(penalty as u32, "point", "points")));
                }
            }
            let pass = if lost.is_empty() {
                "every pass tile was turned".to_string()
            } else {
                format!("for unturned pass tiles {}", lost.join(", "))
            };
            out.push_str(&format!(" Round {} ends: {pass}.", before.round + 1));
            if after.step != Step::GameOver {
                out.push_str(&format!(
                    " The turntable's anchor now points to space {}; the action tiles are dealt anew.",
                    after.pointing + 1
                ));
            }
        } else if after.phases != before.phases {
            out.push_str(&format!(" The action phase ends; P{} is the start player.", after.start));
        } else if before.step == Step::Deal && after.step == Step::Choose {
            out.push_str(&format!(" P{} chooses an action.", after.start));
        } else if after.step == Step::Turn
            && before.step != Step::Deal
            && (after.turn.actor != before.turn.actor || matches!(before.step, Step::Choose | Step::BonusTile))
        {
            out.push_str(&format!(
                " P{}'s turn, with {}.",
                after.turn.actor,
                plural(after.turn.blue as u32, "blue worker", "blue workers")
            ));
        }
    }
}

impl Describe for Nauticus {
    /// Nothing is hidden: every observer reads the same sentence.
    fn describe_move(&self, before: &State, a: Action, after: &State, _observer: Option<usize>) -> String {
        let p = self.actor_of_decision(before);
        let mut out = match before.step {
            Step::Deal => {
                let space = before.dealt as usize;
                let mut s = format!(
                    "Round {}: {} is laid on space {} (bonus {}).",
                    before.round + 1,
                    TILES[a as usize],
                    space + 1,
                    self.bonus_words(space)
                );
                if after.step == Step::Choose && after.dealt == 8 && before.dealt == 6 {
                    s.push_str(&format!(
                        " The last tile, {}, goes on space 8 (bonus {}).",
                        TILES[after.spaces[7] as usize],
                        self.bonus_words(7)
                    ));
                }
                s
            }
            Step::Choose => {
                let tile = (a - CHOOSE) as u8;
                let space = after.space as usize;
                format!(
                    "P{p}, the start player, chooses {} on space {} and takes its bonus: {}.",
                    TILES[tile as usize],
                    space + 1,
                    self.bonus_words(space)
                )
            }
            Step::BonusTile => format!(
                "P{p} takes {} as the bonus, into the warehouse.",
                self.kind_with_article((a - PICK) as u8)
            ),
            Step::Gift => format!(
                "P{p} takes {} as the gift for buying all four items, into the warehouse.",
                self.kind_with_article((a - PICK) as u8)
            ),
            Step::RewardGood => format!(
                "P{p} takes {} as a reward good, into the warehouse.",
                self.data.kind_name((a - PICK) as u8)
            ),
            Step::Reward => {
                let w = &self.data.rewards;
                let what = match a - REWARD {
                    0 => "a crown mast, into the warehouse".to_string(),
                    1 => "a crown sail, into the warehouse".to_string(),
                    2 => plural(w.points, "victory point", "victory points"),
                    3 => format!("{} Taler", w.taler),
                    4 => plural(w.workers, "worker", "workers"),
                    _ => format!("{} different goods, chosen next", w.goods),
                };
                let left = after.turn.rewards_left;
                let more = if after.step == Step::Reward || after.step == Step::RewardGood {
                    if left > 0 {
                        format!(" ({} left)", plural(left as u32, "reward", "rewards"))
                    } else {
                        String::new()
                    }
                } else {
                    String::new()
                };
                format!("P{p} takes the reward {what}{more}.")
            }
            Step::Place => self.placement(before, a, after),
            Step::Turn => self.turn_move(before, a, after),
            Step::GameOver => String::new(),
        };
        self.consequences(before, after, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{json, Value};

    use crate::engine::prelude::*;
    use crate::engine::GameState;
    use crate::games::nauticus::Nauticus;

    type St = GameState<Nauticus>;

    // The rule tests' layout: "buy hull parts" on space 4 (bonus 2 victory points, prices
    // 0/1/3/2); the turntable points to space 2, so space 4 has 2 blue workers.
    use crate::games::nauticus::tests::LAYOUT;

    fn position(players: Value) -> St {
        let g = Arc::new(super::super::tests::game(2));
        let inner = g.setup(&json!({"pointing": 2, "spaces": LAYOUT, "players": players})).unwrap();
        GameState::from_parts(g, inner, crate::engine::rng::rng_from_seed(1), true)
    }

    /// Plays `name` and returns its sentence, after checking every seat reads the spectator's.
    fn told(st: &mut St, name: &str) -> String {
        let a = st.string_to_action(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let before = st.inner().clone();
        st.apply(a).unwrap();
        let g = st.game();
        let text = g.describe_move(&before, a, st.inner(), None);
        for seat in 0..2 {
            assert_eq!(g.describe_move(&before, a, st.inner(), Some(seat)), text, "open information");
        }
        text
    }

    fn random_game(seed: u64) -> St {
        let g = Arc::new(super::super::tests::game(3));
        let mut s = GameState::new(g, seed, true);
        let mut i = seed as u32;
        while !s.is_terminal() {
            let legal = s.legal_actions();
            i = i.wrapping_mul(2_654_435_761).wrapping_add(7);
            s.apply(legal[(i as usize >> 3) % legal.len()]).unwrap();
        }
        s
    }

    #[test]
    fn a_buy_is_told_with_the_action_it_answers_its_price_and_the_workers_spent() {
        let mut st = position(json!([{}, {}]));
        assert_eq!(
            told(&mut st, "choose: buy hull parts"),
            "P0, the start player, chooses buy hull parts on space 4 and takes its bonus: 2 victory points. \
             P0's turn, with 2 blue workers."
        );
        assert_eq!(
            told(&mut st, "buy: a bow for 1 Taler"),
            "P0 carries out buy hull parts: buys a bow for 1 Taler with 1 blue worker."
        );
        assert_eq!(told(&mut st, "begin a new ship: the bow"), "P0 begins ship 1 with the bow.");
        assert_eq!(told(&mut st, "buy: a single hull for 0 Taler"), "P0 buys a single hull for 0 Taler with 1 blue worker, free, into the warehouse.");
        assert_eq!(told(&mut st, "buy: a stern for 3 Taler"), "P0 buys a stern for 3 Taler with 1 own worker.");
        assert_eq!(told(&mut st, "put on ship 1: the stern (bow)"), "P0 puts the stern on ship 1: bow+stern.");
        assert_eq!(told(&mut st, "finish the action"), "P0 finishes buy hull parts.");
        assert_eq!(
            told(&mut st, "end the turn"),
            "P0 ends the turn without the extra action. P1's turn, with 2 blue workers."
        );
        assert_eq!(told(&mut st, "pass"), "P1 passes on buy hull parts and turns the -3 pass tile to its crown side.");
        assert_eq!(
            told(&mut st, "use the extra action: withdraw money"),
            "P1 uses the extra action to withdraw money and takes 2 workers from the supply."
        );
        assert_eq!(
            told(&mut st, "withdraw 2 Taler for a worker"),
            "P1 withdraws 2 Taler with 1 own worker (now 18 Taler)."
        );
        assert_eq!(
            told(&mut st, "finish the extra action"),
            "P1 finishes the extra action (withdraw money). The action phase ends; P1 is the start player."
        );
    }

    #[test]
    fn completing_a_ship_delivering_and_scoring_the_crowns_are_told_with_what_they_bring() {
        let mut st = position(json!([{"warehouse": {"whale sail": 1},
            "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 2, "sails": 1}]}, {}]));
        told(&mut st, "choose: transport");
        told(&mut st, "take as the bonus: a whale mast");
        assert_eq!(
            told(&mut st, "transport: a whale sail from the warehouse"),
            "P0 carries out transport: transports a whale sail from the warehouse with 1 own worker."
        );
        assert_eq!(
            told(&mut st, "put on ship 1: the whale sail (bow+stern, 2 whale masts, 1 whale sail)"),
            "P0 puts the whale sail on ship 1: bow+stern, 2 whale masts, 2 whale sails (complete). \
             The ship is complete: P0 chooses 2 rewards, one for each mast."
        );
        assert_eq!(told(&mut st, "reward: a crown sail"), "P0 takes the reward a crown sail, into the warehouse (1 reward left).");
        assert_eq!(told(&mut st, "reward: 3 victory points"), "P0 takes the reward 3 victory points.");

        let mut st = position(json!([{"warehouse": {"crown sail": 1},
            "ships": [{"hull": ["single hull"], "coat": "whale", "masts": 1, "sails": 1, "goods": {"coffee": 1}}]}, {}]));
        st = {
            let g = st.game();
            let mut inner = st.inner().clone();
            inner.spaces.swap(2, 7);
            GameState::from_parts(Arc::clone(g), inner, crate::engine::rng::rng_from_seed(1), true)
        };
        told(&mut st, "choose: deliver goods");
        assert_eq!(
            told(&mut st, "deliver the cargo of ship 1: single hull, 1 whale mast, 1 whale sail, cargo coffee (complete)"),
            "P0 carries out deliver goods: delivers the cargo of ship 1 (1 coffee) with 1 blue worker."
        );
        let _ = told(&mut st, "finish the action");
        told(&mut st, "use the extra action: score the crowns");
        assert_eq!(
            told(&mut st, "score the crowns with a worker: 1 point"),
            "P0 scores 1 point for 1 crown with 1 own worker (now 11 points)."
        );
    }

    #[test]
    fn the_deal_the_end_of_a_round_and_the_end_of_the_game_are_told() {
        let s = random_game(5);
        let log: Vec<String> = s.log(None).unwrap().into_iter().map(|e| e.text).collect();
        assert!(log[0].starts_with("Round 1: ") && log[0].ends_with(" is laid on space 1 (bonus 3 workers)."), "{}", log[0]);
        assert!(log[6].contains(" The last tile, ") && log[6].ends_with("P0 chooses an action."), "{}", log[6]);
        let ends: Vec<&String> = log.iter().filter(|t| t.contains(" Round 1 ends: ")).collect();
        assert_eq!(ends.len(), 1);
        assert!(ends[0].contains("The turntable's anchor now points to space "), "{}", ends[0]);
        let last = log.last().unwrap();
        assert!(last.contains(" Round 5 ends: ") && last.contains(" The game is over: P0 "), "{last}");
        let g = s.game();
        let winners: Vec<String> = g.winners(s.inner()).iter().map(|w| format!("P{w}")).collect();
        assert!(last.contains(&winners.join(" and ")), "{last}");
    }
}
