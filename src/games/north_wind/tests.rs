//! North Wind's Rust tests. The first is the shared conformance suite; rule tests quote
//! the rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::conformance::check_random_games;
use crate::engine::{Action, Actor, Game, GameState};

use super::actions::*;
use super::state::{Phase, NONE};
use super::NorthWind;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn game(players: usize) -> NorthWind {
    NorthWind::new(&opts(json!({ "players": players }))).unwrap()
}

#[test]
fn conformance_random_games_all_player_counts() {
    for cfg in NorthWind::all_configurations() {
        let g = NorthWind::new(&cfg).unwrap();
        let stats = check_random_games(g, 12, 7, 5).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 12);
        assert!(stats.decisions > 1000, "{stats:?}");
        assert!(stats.chance_nodes > 1000, "{stats:?}");
        // Random play reaches nearly every kind of decision.
        assert!(stats.distinct_actions_seen >= 30, "{stats:?}");
    }
}

// ----- helpers ---------------------------------------------------------------------------

type St = GameState<NorthWind>;

fn stacks() -> Value {
    json!({
        "Northcape": ["Fog", "Salt port (1)", "Salt port (3)", "Wine port (1)", "Merchant (3)", "Outfitter (2)", "Shipwreck"],
        "Trutzhaven": ["Fog", "Fog", "Grain port (1)", "Fish port (3)", "Wine port (3)", "Outfitter (2)", "Merchant (2)"],
        "Olesand": ["Fog", "Fog", "Grain port (3)", "Fish port (1)", "Wood port (1)", "Wood port (3)", "Outfitter (3)"]
    })
}

/// A position from a description (stacks default to `stacks()`), with explicit chance.
fn position(players: usize, mut desc: Value) -> St {
    if desc.get("stacks").is_none() {
        desc["stacks"] = stacks();
    }
    let g = Arc::new(game(players));
    let inner = g.setup(&desc).unwrap_or_else(|e| panic!("{e}"));
    GameState::from_parts(g, inner, crate::engine::rng::rng_from_seed(1), true)
}

fn play(st: &mut St, action: &str) {
    let a = st.string_to_action(action).unwrap_or_else(|e| panic!("{action}: {e}\n{}", st.render()));
    st.apply(a).unwrap();
}

fn legal_names(st: &St) -> Vec<String> {
    st.legal_actions().iter().map(|&a| st.action_to_string(a)).collect()
}

fn ship(st: &St, p: usize) -> super::Ship {
    st.inner().ships[p]
}

fn has(st: &St, action: &str) -> bool {
    legal_names(st).iter().any(|n| n == action)
}

// ----- setup and components ----------------------------------------------------------------

/// Components: 24 sea cards (3 destination ports), 8 of each good, 8 pirate captains,
/// 8 trade letters, 16 crew and 16 cannons (4 per player), 10 tokens per colour (8 with 4),
/// 3 contract columns of 9.
#[test]
fn component_counts_match_the_rulebook() {
    let g = game(3);
    let d = &g.data;
    assert_eq!(d.num_cards(), 24);
    assert_eq!(d.deal_cards.len(), 21);
    assert_eq!(d.slots_per_stack, 7);
    let r = &d.rules;
    assert_eq!((r.goods_per_kind, r.captains_total, r.letters_total), (8, 8, 8));
    assert_eq!((r.crew_per_player, r.cannons_per_player), (4, 4));
    assert_eq!((d.tokens[&2], d.tokens[&3], d.tokens[&4]), (10, 10, 8));
    assert!(d.contracts.iter().all(|c| c.len() == 9));
    // The rulebook's first contracts: 1 wine to Northcape, 1 pirate captain to Trutzhaven,
    // 1 salt and 1 fish to Olesand.
    assert_eq!(d.contracts[0][0].goods, [0, 0, 0, 0, 1]);
    assert_eq!(d.contracts[1][0].captains, 1);
    assert_eq!(d.contracts[2][0].goods, [0, 1, 1, 0, 0]);
    // Illustration: then 3 gold for Northcape, 1 wine + 1 captain for Trutzhaven, 1 grain + 1 salt for Olesand.
    assert_eq!((d.contracts[0][1].gold, d.contracts[0][1].goods), (3, [0; 5]));
    assert_eq!((d.contracts[1][2].captains, d.contracts[1][2].goods), (1, [0, 0, 0, 0, 1]));
    assert_eq!(d.contracts[2][1].goods, [1, 0, 1, 0, 0]);
}

/// "Each player takes ... 5 gold, 1 trade letter, 10 victory point tokens (only 8 in a
/// four-player game), 4 crew members, 4 cannons"; "inserts 1 cannon"; "sail level 4".
/// "Place 1 of these stacks below each destination port card ... all players always know
/// exactly which stack a given destination port is in."
#[test]
fn setup_deals_three_stacks_of_eight_with_known_destinations() {
    for players in 2..=4 {
        let g = Arc::new(game(players));
        let st = GameState::new(Arc::clone(&g), 3, false);
        let s = st.inner();
        assert_eq!(s.phase, Phase::ChooseStack);
        for p in 0..players {
            let sh = s.ships[p];
            assert_eq!((sh.gold, sh.letters, sh.cannons, sh.sail, sh.crew), (5, 1, 1, 4, 0));
        }
        assert_eq!(s.supply_letters, 8 - players as u8);
        for port in 0..3 {
            assert_eq!(s.stack_cards[port].count_ones(), 8);
            assert!(s.stack_cards[port] >> g.data.destination_card[port] & 1 == 1);
        }
        assert_eq!(g.tokens, if players == 4 { 8 } else { 10 });
    }
}

/// Ruling (cutting): "he may take any number of cards from the top ... and slide them under".
/// A cut of a well-shuffled stack changes no probability, so it is not an action: every card
/// still in the stack is equally likely to come next.
#[test]
fn ruling_cutting_changes_nothing_reveals_are_uniform() {
    let mut st = position(3, json!({}));
    play(&mut st, "sail:Olesand");
    let outcomes = st.chance_outcomes();
    assert_eq!(outcomes.len(), 8);
    assert!(outcomes.iter().all(|o| (o.1 - 1.0 / 8.0).abs() < 1e-12));
}

// ----- gold income -------------------------------------------------------------------------

/// "If you have no gold at the start of your turn, take 1 gold" — "Treasurer: ... 2 gold instead of 1."
#[test]
fn gold_for_the_poor_and_the_treasurer() {
    let st = position(2, json!({"ships": [{"gold": 0}]}));
    assert_eq!(ship(&st, 0).gold, 1);
    let st = position(2, json!({"ships": [{"gold": 0, "crew": ["treasurer"]}]}));
    assert_eq!(ship(&st, 0).gold, 2);
    let st = position(2, json!({"ships": [{"gold": 1, "crew": ["treasurer"]}]}));
    assert_eq!(ship(&st, 0).gold, 1);
}

// ----- the voyage --------------------------------------------------------------------------

/// "Choose one of the 3 sea card stacks"; cards come only from the chosen stack; "at most as
/// many sea cards as your ship has sail levels".
#[test]
fn voyage_reveals_from_the_chosen_stack_up_to_the_sail_level() {
    let mut st = position(2, json!({"ships": [{"gold": 0}]}));
    assert_eq!(legal_names(&st), ["sail:Northcape", "sail:Trutzhaven", "sail:Olesand"]);
    play(&mut st, "sail:Trutzhaven");
    let stack = st.inner().stack_cards[1];
    assert!(st.legal_actions().iter().all(|&c| stack >> c & 1 == 1));
    // Ruling: no voluntary return to port — the voyage goes on until range, actions or defeat end it.
    play(&mut st, "reveal:Trutzhaven"); // no captain to deliver: nothing to decide
    assert_eq!(st.inner().phase, Phase::Reveal);
    play(&mut st, "reveal:Grain port (1)");
    play(&mut st, "pass");
    play(&mut st, "reveal:Fish port (3)"); // nothing to sell: nothing to decide
    assert_eq!(st.inner().phase, Phase::Reveal);
    play(&mut st, "reveal:Merchant (2)"); // 1 gold, no goods: nothing to trade
    // Four cards revealed with sail level 4: the turn passed to P1.
    assert_eq!(st.inner().active, 1);
    assert_eq!(st.inner().phase, Phase::ChooseStack);
}

/// "If you have acquired 1 sail level ... The higher sail level extends your ship's range
/// still within the same turn."
#[test]
fn a_sail_bought_mid_voyage_extends_the_range() {
    let mut st = position(2, json!({"ships": [{"gold": 9}]}));
    play(&mut st, "sail:Olesand");
    play(&mut st, "reveal:Outfitter (3)");
    play(&mut st, "outfit:sail");
    play(&mut st, "pass"); // P1 declines to use the outfitter with a trade letter
    assert_eq!(ship(&st, 0).sail, 5);
    assert_eq!(ship(&st, 0).gold, 6);
    for c in ["Wood port (3)", "Fish port (1)", "Grain port (3)"] {
        play(&mut st, &format!("reveal:{c}"));
        if st.inner().phase == Phase::Card {
            play(&mut st, "pass");
        }
    }
    // Four cards so far; a fifth is revealed thanks to the new sail.
    assert_eq!(st.inner().phase, Phase::Reveal);
    play(&mut st, "reveal:Fog#4");
    play(&mut st, "event:treasure");
    assert_eq!(st.inner().active, 1);
}

/// Lookout: "look at the top card ... If you don't like the card, slide it under the stack.
/// The card then does not count for your trading voyage." Only the voyager sees it.
#[test]
fn lookout_looks_privately_and_may_slide_the_card_under() {
    let mut st = position(2, json!({"ships": [{"crew": ["lookout"]}]}));
    play(&mut st, "sail:Northcape");
    assert_eq!(st.inner().phase, Phase::Peek);
    play(&mut st, "peek:Shipwreck");
    assert_eq!(legal_names(&st), ["keep-top", "slide-under"]);
    assert!(st.observation_string(0).unwrap().contains("Shipwreck"));
    assert!(!st.observation_string(1).unwrap().contains("Shipwreck"));
    play(&mut st, "slide-under");
    // The slid card cannot come up again this voyage, and does not count against the range.
    assert_eq!(st.chance_outcomes().len(), 7);
    assert!(!st.legal_actions().contains(&(st.inner().voyage.slid as Action)));
    assert_eq!(st.inner().voyage.revealed, 0);
    // Keeping it instead reveals it as the first card.
    let mut st = position(2, json!({"ships": [{"crew": ["lookout"]}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "peek:Shipwreck");
    play(&mut st, "keep-top");
    assert_eq!(st.inner().voyage.revealed, 1);
    assert_eq!(legal_names(&st), ["pass", "search-shipwreck"]);
}

// ----- fog, pirates, combat -----------------------------------------------------------------

/// "(b) Treasure Find ... You may then take 1 gold"; "fog cards never count as an action".
#[test]
fn fog_treasure_gives_gold_and_is_no_action() {
    let mut st = position(2, json!({}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    assert!(st.is_chance());
    play(&mut st, "event:treasure");
    assert_eq!(ship(&st, 0).gold, 6);
    assert_eq!(st.inner().voyage.actions, 0);
}

/// "Either you pay 1 gold into the supply and ... continue sailing, or you engage in combat."
#[test]
fn pirates_pay_one_gold_and_sail_on() {
    let mut st = position(2, json!({}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-2");
    assert_eq!(legal_names(&st), ["pay-pirates", "fight"]);
    play(&mut st, "pay-pirates");
    assert_eq!(ship(&st, 0).gold, 4);
    assert_eq!(st.inner().phase, Phase::Reveal);
}

/// "if you have 2 cannons, you may roll the combat die twice. If the event die shows 2
/// skulls, you must roll 1 silver ball both times to win the combat." Victory: "take 1
/// pirate captain ... into a free slot of the prison".
#[test]
fn rulebook_combat_example_two_cannons_against_two_skulls() {
    let mut st = position(2, json!({"ships": [{"cannons": 2}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-2");
    play(&mut st, "fight");
    play(&mut st, "combat:hit");
    play(&mut st, "combat:hit");
    assert_eq!(ship(&st, 0).captains, 1);
    assert_eq!(st.inner().supply_captains, 7);
    assert_eq!(st.inner().phase, Phase::Reveal);
    // A miss on either roll loses; "Defeat: your voyage ends immediately."
    let mut st = position(2, json!({"ships": [{"cannons": 2}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-2");
    play(&mut st, "fight");
    play(&mut st, "combat:miss");
    // Ruling: once the remaining rolls cannot win, combat stops (the outcome is the same).
    assert_eq!(st.inner().active, 1);
    assert_eq!(ship(&st, 0).captains, 0);
}

/// "The blue double ball counts as a hit only if you have a gunner" — "Gunner: When the
/// combat die shows a blue double ball, you have scored 2 hits at once."
#[test]
fn double_ball_is_two_hits_with_a_gunner_and_none_without() {
    let mut st = position(2, json!({"ships": [{"cannons": 1, "crew": ["gunner"]}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-2");
    play(&mut st, "fight"); // 1 cannon with a gunner can reach 2 hits
    play(&mut st, "combat:double");
    assert_eq!(ship(&st, 0).captains, 1);
    let mut st = position(2, json!({"ships": [{"cannons": 2}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-1");
    play(&mut st, "fight");
    play(&mut st, "combat:double");
    assert_eq!(st.inner().voyage.hits, 0);
    play(&mut st, "combat:hit");
    assert_eq!(ship(&st, 0).captains, 1);
}

/// "Should you encounter a pirate and neither pay gold nor own enough cannons to be able to
/// win the combat, this counts immediately as a defeat."
#[test]
fn automatic_defeat_without_gold_or_enough_cannons() {
    // No gold, 1 cannon against 2 skulls: the voyage ends at once, no decision, no roll.
    let mut st = position(2, json!({"ships": [{"gold": 1}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    assert!(st.is_chance());
    st.apply(99).unwrap_err(); // not an outcome of the event die
    let mut st2 = position(2, json!({"ships": [{"gold": 0, "crew": []}]}));
    assert_eq!(ship(&st2, 0).gold, 1); // income
    play(&mut st2, "sail:Northcape");
    play(&mut st2, "reveal:Salt port (1)");
    play(&mut st2, "buy-1:salt");
    play(&mut st2, "pass"); // P1's trade letter
    assert_eq!(ship(&st2, 0).gold, 0);
    play(&mut st2, "reveal:Fog#1");
    play(&mut st2, "event:pirates-2");
    assert_eq!(st2.inner().active, 1, "automatic defeat ends the voyage");
    // With gold but too few cannons, fighting is an immediate defeat.
    play(&mut st, "event:pirates-2");
    play(&mut st, "fight");
    assert_eq!(st.inner().active, 1);
    assert_eq!(ship(&st, 0).gold, 1);
}

/// "Should you have defeated a pirate and your prison is already occupied by 2 pirate
/// captains, you receive 1 gold instead."
#[test]
fn full_prison_gives_gold_instead() {
    let mut st = position(2, json!({"ships": [{"captains": 2, "gold": 3}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Fog#1");
    play(&mut st, "event:pirates-1");
    play(&mut st, "fight");
    play(&mut st, "combat:hit");
    assert_eq!((ship(&st, 0).captains, ship(&st, 0).gold), (2, 4));
}
