//! Norsewind's rule tests (the shared conformance suite runs every configuration in
//! `tests/conformance.rs`); rule tests quote the
//! rulebook sentence they check.

use serde_json::{json, Map, Value};

use crate::engine::data::{ComponentData, Source};
use crate::engine::prelude::*;
use crate::engine::{Actor, EngineError};

use super::data::{Data, CASTLE, COLOURS};
use super::state::{Phase, State, NONE};
use super::Norsewind;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Norsewind {
    Norsewind::load(&opts(json!({ "players": players }))).unwrap()
}

fn solo(level: u8) -> Norsewind {
    Norsewind::load(&opts(json!({ "players": 1, "level": level }))).unwrap()
}

fn named(g: &Norsewind, s: &State, name: &str) -> u32 {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    *legal
        .iter()
        .find(|&&a| g.action_to_string(s, a) == name)
        .unwrap_or_else(|| panic!("{name} is not legal: {:?}", legal.iter().map(|&a| g.action_to_string(s, a)).collect::<Vec<_>>()))
}

fn names(g: &Norsewind, s: &State) -> Vec<String> {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    legal.iter().map(|&a| g.action_to_string(s, a)).collect()
}

/// Applies the first legal action.
fn first(g: &Norsewind, s: &mut State) {
    let mut legal = Vec::new();
    g.legal_actions(s, &mut legal);
    g.apply(s, legal[0]);
}

fn play(g: &Norsewind, s: &mut State, name: &str) {
    let a = named(g, s, name);
    g.apply(s, a);
}

/// Lucy's final position of the rulebook's scoring example (`docs/games/norsewind.md`).
fn lucy() -> Value {
    json!({
        "phase": "game-over",
        "tiles": ["shield-space", "two-buildings", "castle-seven", "prestige-space"],
        "market": [null, null, null, null, null],
        "players": [
            {"coins": 3, "start_card": "start-2", "kingdoms": [
                {"castle": "castle-5", "castle_discs": ["shield"], "tile": "disc",
                 "buildings": [{"card": "church-1", "discs": ["prestige"]}, "ship-3", "ship-4", "ship-5"]},
                {"castle": "castle-3", "castle_discs": ["shield"],
                 "buildings": [{"card": "start-2", "figures": ["red"]}, "inn-3"]},
                {"castle": "castle-4", "castle_discs": ["shield"],
                 "buildings": ["blacksmith-1", "blacksmith-2", "blacksmith-3", "ship-6"]},
                {"castle": "castle-6", "castle_discs": ["shield", "prestige"], "tile": "disc",
                 "buildings": [{"card": "farm-1", "figures": ["purple"]}, {"card": "farm-2", "figures": ["red"]},
                               {"card": "farm-3", "figures": ["yellow"]}, {"card": "farm-4", "figures": ["blue"]}]}
            ]},
            {"coins": 0}
        ]
    })
}

#[test]
fn the_scoring_example_scores_64_points() {
    let g = game(2);
    let s = g.setup(&lucy()).unwrap();
    // "Northumbria: 12 shields ... equal 12 Viking helmets ... 4 prestige ... multiplied by 3 citizens = 12 points."
    let n = g.kingdom_tally(&s, 0, 0);
    assert_eq!((n.shields, n.helmets, n.prestige, n.citizens, n.points), (12, 12, 4, 3, 12));
    // "East Anglia: 7 shields exceed 6 Viking helmets ... 2 prestige multiplied by 4 citizens = 8 points."
    let e = g.kingdom_tally(&s, 0, 1);
    assert_eq!((e.shields, e.helmets, e.prestige, e.citizens, e.points), (7, 6, 2, 4, 8));
    // "Mercia: 11 shields are less than 15 Viking helmets ... it scores -7 points."
    let m = g.kingdom_tally(&s, 0, 2);
    assert_eq!((m.shields, m.helmets, m.points), (11, 15, -7));
    // "Wessex: 12 shields ... exceed 10 Viking helmets ... 4 prestige multiplied by 12 citizens = 48 points."
    let w = g.kingdom_tally(&s, 0, 3);
    assert_eq!((w.shields, w.helmets, w.prestige, w.citizens, w.points), (12, 10, 4, 12, 48));
    // "Lucy's final score = 64 points."
    assert_eq!(g.total(&s, 0), 64);
    let report = g.score_report(&s);
    assert_eq!(report.points[0], vec![3.0, 12.0, 8.0, -7.0, 48.0]);
    assert_eq!(report.totals[0], 64.0);
    assert_eq!(g.winners(&s), vec![0]);
}

#[test]
fn the_component_counts_match_the_component_list() {
    // "Decks of Cards (73 cards)": 1+ (35), 3+ (14), 4 (14), starting (5), reserve (5).
    let d = Data::shipped();
    assert_eq!(d.cards.len(), 73);
    for (deck, n) in [(0u8, 35), (1, 14), (2, 14), (3, 5), (4, 5)] {
        assert_eq!(d.cards.iter().filter(|c| c.deck == deck).count(), n, "deck {deck}");
    }
    // Every card is marked printed or reconstructed; castles have a cost.
    assert!(d.file.cards.iter().all(|c| matches!(c.source, Source::Printed | Source::Reconstructed)));
    assert!(d.cards.iter().filter(|c| c.kind == CASTLE).all(|c| c.cost > 0));
    assert_eq!(d.levels.len(), 7);
    assert_eq!(d.tiers.iter().map(|t| t.1).collect::<Vec<_>>(), vec![1, 9, 17, 25]);
    // "16 Kingdom Cards (4 per player)", "40 Kingdom Tiles: 20 green (5 per player), 20 red (5 per
    // player)", "4 Viking Cards": each player's set is the same 4 kingdoms and 10 tile kinds.
    assert_eq!(d.kingdom_names.len() * 4, 16);
    let green = super::data::TILES.iter().enumerate().filter(|(i, _)| super::data::is_green(*i as u8)).count();
    assert_eq!((green * 4, (super::data::TILES.len() - green) * 4), (20, 20));
    assert_eq!(d.vikings.len(), 4);
    // "64 Citizen Figures: 16 neutral (white), 12 purple, 12 red, 12 yellow, 12 blue" and "24
    // Upgrade Discs": a 4-player game puts all of them on the table.
    let s = game(4).initial_state();
    assert_eq!((s.neutral, s.supply, s.discs), (16, [12; 4], 24));
    assert_eq!(s.neutral as u32 + s.supply.iter().map(|&n| n as u32).sum::<u32>(), 64);
}

#[test]
fn a_bad_data_file_names_the_field() {
    let mut v: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    v["cards"][3]["type"] = json!("tower");
    match Data::from_value(&v) {
        Err(EngineError::DataFile { field, .. }) => assert_eq!(field, "cards[3].type"),
        other => panic!("{other:?}"),
    }
    let mut v: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    v["deck_sizes"]["1+"]["value"] = json!(34);
    assert!(matches!(Data::from_value(&v), Err(EngineError::DataFile { field, .. }) if field == "cards"));
}


/// A 2-player position at P0's turn; `players` and the rest as given.
fn pos(g: &Norsewind, mut desc: Value) -> State {
    if desc.get("tiles").is_none() {
        desc["tiles"] = json!(["shield-space", "two-buildings", "castle-seven", "prestige-space"]);
    }
    g.setup(&desc).unwrap_or_else(|e| panic!("{e}"))
}

fn reveal(g: &Norsewind, s: &mut State, id: &str) {
    assert_eq!(g.actor(s), Actor::Chance, "{:?}", s.phase);
    let c = g.data.card_index(id).unwrap();
    g.apply(s, c as u32);
}

#[test]
fn lucys_inn_pays_its_cost_and_east_anglia_pays_2_coins_a_ship() {
    // "Lucy chose an inn from the market. The inn costs 2 coins, which she pays to the general
    // supply. The placement restriction for her East Anglia kingdom is 2 building cards, but since
    // she currently has only one building there, she may place the inn."
    // "This kingdom card grants 2 coins for each ship in other kingdoms. Since Lucy has 3 ships,
    // she gains a total of 6 coins."
    let g = game(2);
    let mut s = pos(&g, json!({
        "market": ["farm-5", "farm-6", "farm-7", "inn-1", "inn-3"],
        "players": [
            {"coins": 2, "kingdoms": [{"buildings": ["ship-3", "ship-4", "ship-5"]}, {"buildings": ["start-2"]}]},
            {"coins": 0}
        ]
    }));
    play(&g, &mut s, "build:inn-3:east-anglia");
    assert_eq!(s.player[0].coins, 6);
    assert_eq!(s.player[0].kingdoms[1].count, 2);
    // "she can choose either of them. If she chooses a blue citizen, she must place it on a blue
    // citizen space. If she chooses an upgrade disc, she must place it on a shield space (for free)
    // OR on a prestige space for 2 coins."
    assert_eq!(s.phase, Phase::Take);
    let options = names(&g, &s);
    assert!(options.contains(&"citizen:blue:east-anglia:inn-3".to_string()), "{options:?}");
    assert!(options.contains(&"shield:northumbria:tile".to_string()), "{options:?}");
    assert!(options.contains(&"prestige:wessex:tile".to_string()), "{options:?}");
    assert!(!options.iter().any(|o| o.starts_with("citizen:red") || o.starts_with("citizen:purple")), "{options:?}");
}

#[test]
fn a_kingdom_holds_at_most_4_buildings_and_a_two_buildings_tile_2() {
    // "No kingdom may have more than 4 buildings."
    let g = game(2);
    let s = pos(&g, json!({
        "market": ["farm-5", "farm-6", "farm-7", "inn-1", "inn-3"],
        "players": [
            {"coins": 9, "kingdoms": [{"buildings": ["ship-3", "ship-4", "ship-5"]}, {"buildings": ["start-2"]},
                                      {}, {"buildings": ["ship-1", "ship-2", "farm-1", "farm-2"]}]},
            {"coins": 0}
        ]
    }));
    let options = names(&g, &s);
    // Northumbria holds 3: a 4th is allowed; Wessex holds 4: none more.
    assert!(options.contains(&"build:farm-5:northumbria".to_string()));
    assert!(!options.iter().any(|o| o.starts_with("build:") && o.ends_with(":wessex")));
    // "You may have a maximum of 2 buildings (instead of 4) in this kingdom, including any starting card."
    assert!(options.contains(&"build:farm-5:east-anglia".to_string()));
    let mut s2 = s.clone();
    play(&g, &mut s2, "build:farm-5:east-anglia");
    let mut s3 = s2.clone();
    s3.phase = Phase::Turn;
    s3.market[0] = g.data.card_index("farm-3").unwrap();
    assert_eq!(g.build_cost(&s3, 0, s3.market[0], 1), None);
    assert_eq!(g.build_cost(&s3, 0, s3.market[0], 0), Some(0));
}

#[test]
fn an_inn_costs_its_price_and_the_rare_case_renews_the_market() {
    // "To acquire an Inn, you must pay its cost."
    let g = game(2);
    let s = pos(&g, json!({
        "market": ["inn-5", "inn-6", "inn-3", "inn-4", "farm-7"],
        "players": [{"coins": 2}, {"coins": 0}]
    }));
    let inn5 = g.data.card_index("inn-5").unwrap();
    let inn3 = g.data.card_index("inn-3").unwrap();
    assert_eq!(g.build_cost(&s, 0, inn3, 0), Some(2)); // at the cost
    assert_eq!(g.build_cost(&s, 0, inn5, 0), None); // one past it
    // "Rare case: If all cards in the market have a cost you cannot afford, discard all 5 cards in
    // the market, and reveal 5 new cards from the deck to form a new market. Shuffle the discarded
    // cards back into the deck."
    let mut x = pos(&g, json!({
        "market": ["inn-5", "inn-6", "inn-3", "inn-4", "farm-7"],
        "players": [{"coins": 0}, {"coins": 0}]
    }));
    play(&g, &mut x, "build:farm-7:northumbria");
    if x.phase == Phase::Take {
        first(&g, &mut x);
    }
    reveal(&g, &mut x, "inn-1");
    // P1 to play, 0 coins, the market all inns: taking action A, P1 discards and renews it.
    assert_eq!(x.current, 1);
    assert_eq!(names(&g, &x), vec!["renew"]);
    play(&g, &mut x, "renew");
    assert_eq!(x.phase, Phase::Reveal);
    assert_eq!(x.market, [NONE; 5]);
    assert_eq!(x.refresh_pool.count_ones(), 5);
    for id in ["farm-1", "farm-2", "castle-1", "farm-3", "farm-4", "farm-5"] {
        reveal(&g, &mut x, id);
    }
    assert_eq!(x.phase, Phase::Turn);
    assert_eq!(x.refresh_pool, 0);
    assert_ne!(x.deck & (1 << inn5), 0, "the discarded inns are back in the deck");
    assert_eq!(x.display_len, 1);
}

#[test]
fn red_tiles_restrict_the_kingdom() {
    let g = game(2);
    let s = pos(&g, json!({
        "tiles": ["different-types", "helmet-toll", "castle-seven", "colour-scoring"],
        "market": ["farm-5", "ship-3", "farm-7", "inn-1", "inn-3"],
        "display": ["castle-3", "castle-4"],
        "players": [{"coins": 0, "kingdoms": [{"buildings": ["farm-1"]}]}, {"coins": 0}]
    }));
    let farm5 = g.data.card_index("farm-5").unwrap();
    let ship3 = g.data.card_index("ship-3").unwrap();
    let farm7 = g.data.card_index("farm-7").unwrap();
    // "All buildings in this kingdom must be of different types."
    assert_eq!(g.build_cost(&s, 0, farm5, 0), None);
    assert_eq!(g.build_cost(&s, 0, ship3, 0), Some(0));
    // "You must pay 1 coin to build buildings with ≥ 3 Viking helmets in this kingdom. If you
    // cannot pay, you cannot build the card in this kingdom."
    assert_eq!(g.build_cost(&s, 0, ship3, 1), None); // 3 helmets, 0 coins
    assert_eq!(g.build_cost(&s, 0, farm5, 1), Some(0)); // 1 helmet: no toll
    let mut rich = s.clone();
    rich.player[0].coins = 1;
    assert_eq!(g.build_cost(&rich, 0, ship3, 1), Some(1));
    assert_eq!(g.build_cost(&rich, 0, farm7, 1), Some(0));
    // "To build a castle in this kingdom, the castle must cost at least 7 coins."
    rich.player[0].coins = 20;
    let c6 = g.data.card_index("castle-3").unwrap();
    let c7 = g.data.card_index("castle-4").unwrap();
    assert!(!g.castle_allowed(&rich, 0, c6, 2));
    assert!(g.castle_allowed(&rich, 0, c7, 2));
    assert!(g.castle_allowed(&rich, 0, c6, 1));
}

#[test]
fn colour_scoring_counts_one_figure_per_colour() {
    // "At the end of the game, this kingdom only scores for different colored citizen figures (max
    // one for each of neutral, blue, red, purple, yellow), in addition to preprinted citizens."
    let g = game(2);
    let s = pos(&g, json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "colour-scoring"],
        "players": [{"kingdoms": [{}, {}, {}, {"castle": "castle-6",
            "buildings": [{"card": "farm-5", "figures": ["purple", "yellow"]}, {"card": "reserve-1", "figures": ["purple", "red"]},
                          {"card": "farm-6", "figures": ["white", "blue"]}]}]}, {}]
    }));
    let t = g.kingdom_tally(&s, 0, 3);
    // Preprinted 1 + 1 + 1; figures purple, yellow, purple, red, white, blue: 5 colours.
    assert_eq!(t.citizens, 3 + 5);
    // Without the tile every figure counts.
    let mut plain = s.clone();
    plain.tiles[3] = super::data::T_FOURTH;
    assert_eq!(g.kingdom_tally(&plain, 0, 3).citizens, 3 + 6);
}

#[test]
fn green_tiles_pay_their_bonuses() {
    let g = game(2);
    // "Immediately gain 5 coins after building your 4th building in this kingdom."
    let s = pos(&g, json!({
        "tiles": ["fourth-building", "citizen-coin", "citizen-space", "shield-space"],
        "market": ["farm-5", "farm-6", "farm-7", "inn-1", "inn-3"],
        "players": [{"coins": 0, "kingdoms": [{"buildings": ["church-1", "church-2", "church-3"]},
                                              {"buildings": ["church-4"]}]}, {}]
    }));
    let mut t = s.clone();
    play(&g, &mut t, "build:farm-7:northumbria");
    assert_eq!(t.player[0].coins, 5, "the 4th building: 5 coins (farm income: none elsewhere)");
    let mut t = s.clone();
    play(&g, &mut t, "build:farm-7:east-anglia");
    assert_eq!(t.player[0].coins, 0, "a 2nd building: nothing");
    // "Gain 1 coin each time you place a citizen figure in this kingdom."
    play(&g, &mut t, "citizen:yellow:east-anglia:farm-7");
    assert_eq!(t.player[0].coins, 1);
    // "This tile provides 1 preprinted citizen and 1 citizen space of a specific color for this
    // kingdom (each player has a unique color on this space)."
    let mut u = s.clone();
    assert_eq!(g.kingdom_tally(&u, 0, 2).citizens, 1);
    play(&g, &mut u, "build:farm-5:mercia");
    let opts = names(&g, &u);
    assert!(opts.contains(&"citizen:purple:mercia:tile".to_string()), "P0 is purple: {opts:?}");
    let mut p1 = u.clone();
    p1.current = 1;
    assert!(!names(&g, &p1).iter().any(|o| o == "citizen:purple:mercia:tile"), "P1's tile space is red");
    play(&g, &mut u, "citizen:purple:mercia:tile");
    assert_eq!(g.kingdom_tally(&u, 0, 2).citizens, 1 + 1 + 1);
    // "This tile provides a 4-valued shield space for this kingdom, and it costs 1 coin to place an
    // upgrade disc here."
    let mut v = s.clone();
    v.player[0].coins = 1;
    play(&g, &mut v, "build:inn-1:northumbria"); // inn-1 costs 1; the 4th building: +5 coins
    assert_eq!(v.player[0].coins, 5);
    // Slot 4 lies between yellow and blue; the discs lie by slot 5 and slot 1.
    let w = pos(&g, json!({
        "tiles": ["fourth-building", "citizen-coin", "citizen-space", "shield-space"],
        "market": ["farm-5", "farm-6", "farm-7", "inn-1", "farm-1"],
        "players": [{"coins": 0, "kingdoms": [{}, {}, {}, {"buildings": ["church-1"]}]}, {}]
    }));
    let mut w0 = w.clone();
    play(&g, &mut w0, "build:farm-1:northumbria");
    let opts = names(&g, &w0);
    assert!(!opts.contains(&"shield:wessex:tile".to_string()), "0 coins: not the 1-coin shield space: {opts:?}");
    assert!(!opts.iter().any(|o| o.starts_with("prestige:")), "0 coins: no prestige: {opts:?}");
    let mut w1 = w.clone();
    w1.player[0].coins = 1;
    play(&g, &mut w1, "build:farm-1:northumbria");
    let opts = names(&g, &w1);
    assert!(opts.contains(&"shield:wessex:tile".to_string()), "{opts:?}");
    assert!(!opts.iter().any(|o| o.starts_with("prestige:")), "1 coin: no prestige: {opts:?}");
    play(&g, &mut w1, "shield:wessex:tile");
    assert_eq!(w1.player[0].coins, 0);
    assert_eq!(g.kingdom_tally(&w1, 0, 3).shields, 1 + 4);
}

#[test]
fn a_prestige_disc_costs_2_coins_and_a_shield_disc_is_free() {
    // "You must pay 2 coins for an upgrade disc placed as prestige (front)."
    let g = game(2);
    let s = pos(&g, json!({
        "tiles": ["fourth-building", "citizen-coin", "citizen-space", "helmet-toll"],
        "market": ["farm-7", "farm-6", "farm-5", "inn-1", "farm-1"],
        "players": [{"coins": 1, "kingdoms": [{"castle": "castle-1"}]}, {}]
    }));
    let mut a = s.clone();
    play(&g, &mut a, "build:farm-1:wessex");
    let opts = names(&g, &a);
    assert!(opts.contains(&"shield:northumbria:castle".to_string()));
    assert!(!opts.contains(&"prestige:northumbria:castle".to_string()), "1 coin is one short: {opts:?}");
    let mut b = s.clone();
    b.player[0].coins = 2;
    play(&g, &mut b, "build:farm-1:wessex");
    play(&g, &mut b, "prestige:northumbria:castle");
    assert_eq!(b.player[0].coins, 0);
    assert_eq!(g.kingdom_tally(&b, 0, 0).prestige, 1 + 1);
    let mut c = s.clone();
    play(&g, &mut c, "build:farm-1:wessex");
    play(&g, &mut c, "shield:northumbria:castle");
    assert_eq!(c.player[0].coins, 1);
    assert_eq!(g.kingdom_tally(&c, 0, 0).shields, 2 + 2);
}

#[test]
fn nothing_is_taken_when_it_cannot_be_placed_or_the_supply_is_empty() {
    // "You cannot take a figure/disc if you are unable to place it or if the respective supply is empty."
    // Solo: 4 figures a supply; the 4 red ones are placed, so the red supply is empty.
    let g = solo(1);
    let s = g.setup(&json!({
        "tiles": ["fourth-building", "citizen-coin", "different-types", "helmet-toll"],
        "market": ["farm-7", "reserve-1", "ship-1", "inn-2", "farm-1"],
        "players": [{"coins": 5, "kingdoms": [
            {"buildings": [{"card": "farm-2", "figures": ["red"]}, {"card": "inn-1", "figures": ["red"]}]},
            {"buildings": [{"card": "inn-5", "figures": ["red"]}, {"card": "farm-6", "figures": ["red"]}]}]}]
    })).unwrap();
    assert_eq!(s.supply[1], 0);
    // Slot 3 lies between red (empty) and yellow; a ship has no space, and no yellow space is free.
    let mut a = s.clone();
    play(&g, &mut a, "build:ship-1:mercia");
    assert_eq!(a.phase, Phase::Reveal);
    // Slot 2 lies between purple and red: reserve-1 has a purple and a red space; only purple is offered.
    let mut b = s.clone();
    play(&g, &mut b, "build:reserve-1:mercia");
    assert_eq!(names(&g, &b), vec!["citizen:purple:mercia:reserve-1"]);
}

#[test]
fn a_castle_brings_income_a_neutral_figure_and_replaces_the_old_one() {
    // "Lucy pays 7 coins for this castle and places it to the left of her Mercia kingdom card. She
    // gains 1 coin for each inn in her other kingdoms."
    let g = game(2);
    let s = pos(&g, json!({
        "display": ["castle-4", "castle-5", "castle-1"],
        "players": [{"coins": 9, "kingdoms": [{"buildings": ["inn-1", "inn-2"]}, {"buildings": [{"card": "inn-3"}]}, {}, {"castle": "castle-3"}]}, {}]
    }));
    let mut t = s.clone();
    play(&g, &mut t, "castle:castle-4:mercia");
    assert_eq!(t.player[0].coins, 9 - 7 + 3);
    // "If you placed a castle in a kingdom that did not already have one, take a neutral (white)
    // citizen figure from the supply and place it on any empty citizen space in your kingdoms."
    assert_eq!(t.phase, Phase::Neutral);
    let opts = names(&g, &t);
    assert_eq!(opts, vec!["citizen:white:northumbria:inn-1", "citizen:white:northumbria:inn-2", "citizen:white:east-anglia:inn-3"]);
    play(&g, &mut t, "citizen:white:east-anglia:inn-3");
    assert_eq!(t.neutral, 7);
    assert_eq!(t.current, 1);
    // "If there is already a castle in the kingdom, it is replaced by the new castle and returned
    // to the castle display." "Upgrade discs from a replaced castle may be placed on empty
    // shield/prestige spaces on the new castle for free"
    let mut u = pos(&g, json!({
        "display": ["castle-4", "castle-5", "castle-1"],
        "players": [{"coins": 9, "kingdoms": [{"castle": "castle-2", "castle_discs": ["prestige"]}]}, {}]
    }));
    play(&g, &mut u, "castle:castle-5:northumbria");
    assert_eq!(u.player[0].coins, 1);
    assert_eq!(u.phase, Phase::Reuse);
    assert_eq!(names(&g, &u), vec!["keep-discs:none", "keep-discs:shield", "keep-discs:prestige"]);
    // "The upgrade disc is reused as shield upgrade on the new castle."
    let discs = u.discs;
    play(&g, &mut u, "keep-discs:shield");
    assert!(u.player[0].kingdoms[0].castle_shield && !u.player[0].kingdoms[0].castle_prestige);
    assert_eq!(u.discs, discs);
    let c2 = g.data.card_index("castle-2").unwrap();
    assert_eq!(u.display[..u.display_len as usize].last(), Some(&c2));
    // Ruling 6: the returned castle cannot be acquired again by the player who returned it
    // before a building is acquired.
    u.current = 0;
    u.player[0].coins = 20;
    assert!(!g.castle_allowed(&u, 0, c2, 1));
}

#[test]
fn ruling_6_only_the_player_who_returned_a_castle_waits_for_a_building() {
    // "If there is already a castle in the kingdom, it is replaced by the new castle and returned
    // to the castle display." "Choose 1 card from the castle display": any other player may take
    // the returned castle at once; only the player who returned it waits for the next building.
    let g = game(2);
    let mut s = pos(&g, json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "helmet-toll"],
        "display": ["castle-4", "castle-5", "castle-1"],
        "market": ["farm-1", "farm-2", "farm-3", "farm-4", "farm-5"],
        "players": [{"coins": 9, "kingdoms": [{"castle": "castle-2", "castle_discs": ["prestige"]}]}, {"coins": 20}]
    }));
    play(&g, &mut s, "castle:castle-5:northumbria");
    play(&g, &mut s, "keep-discs:shield");
    assert_eq!(s.current, 1);
    let c2 = g.data.card_index("castle-2").unwrap();
    assert!(names(&g, &s).contains(&"castle:castle-2:east-anglia".to_string()));
    assert!(!g.castle_allowed(&s, 0, c2, 1), "P0 returned it");
    assert!(g.text(&s, Viewer::All).contains("castle-2 (castle, costs 5, 0 helmets, 3 shields (+2 space), 1 prestige (+1 space)) [P0 returned it: not for P0 before the next building]"));
    // A building, by anyone, lifts the lock.
    play(&g, &mut s, "build:farm-1:wessex");
    assert_eq!(s.locked, [0; 4]);

    // The audit's position: P1's only move is the castle P0 returned (P1 has no room for a
    // building). With a lock for everyone P1 had to pass, and the game ended by ruling 7 with
    // 13 cards in the draw deck.
    let mut t = pos(&g, json!({
        "tiles": ["different-types", "two-buildings", "shield-space", "prestige-space"],
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"], "display": ["castle-2"],
        "players": [
            {"coins": 5, "kingdoms": [{"buildings": ["inn-6"]}, {"buildings": ["farm-6", "ship-1"]},
                {"castle": "castle-1", "buildings": ["farm-1", "farm-2", "farm-3", "farm-4"]},
                {"buildings": ["ship-2", "ship-3", "ship-4", "ship-5"]}]},
            {"coins": 4, "kingdoms": [{"buildings": ["start-1", "start-3", "ship-6", "start-4"]}, {"buildings": ["start-2", "start-5"]},
                {"buildings": ["reserve-1", "reserve-2", "reserve-3", "reserve-4"]},
                {"buildings": ["reserve-5", "blacksmith-1", "blacksmith-2", "church-1"]}]}
        ]
    }));
    play(&g, &mut t, "castle:castle-2:mercia");
    assert_eq!(names(&g, &t), vec!["castle:castle-1:northumbria", "castle:castle-1:east-anglia", "castle:castle-1:mercia", "castle:castle-1:wessex"]);
    play(&g, &mut t, "castle:castle-1:northumbria");
    while t.phase == Phase::Neutral {
        first(&g, &mut t);
    }
    assert!(!t.end_triggered);
    assert_eq!((t.phase, t.current), (Phase::Turn, 0));
}

#[test]
fn ruling_6_bounds_castle_swaps_between_buildings() {
    // Each replacement locks one more castle for the player who made it until the next
    // building, so a player whose kingdom pays more than a castle costs cannot swap for ever:
    // here, three castles in all, at most three acquisitions before P0 can only pass.
    let g = solo(1);
    let mut s = solo_pos(&g, json!({
        "display": ["castle-1", "castle-2"],
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "players": [{"coins": 4, "kingdoms": [
            {"castle": "castle-3", "buildings": ["farm-6", "ship-1", "blacksmith-1", "church-1"]},
            {"buildings": ["farm-1", "farm-2"]},
            {"buildings": ["farm-3", "farm-4", "farm-5", "farm-7"]},
            {"buildings": ["ship-2", "ship-3", "ship-4", "ship-5"]}]}]
    }));
    // Northumbria pays 2 coins a farm elsewhere (6 farms: 12 coins), more than any castle here.
    let swap = |s: &State| names(&g, s).into_iter().find(|n| n.starts_with("castle:") && n.ends_with(":northumbria"));
    let mut acquisitions = 0;
    while let Some(a) = swap(&s) {
        play(&g, &mut s, &a);
        while s.phase == Phase::Reuse {
            first(&g, &mut s);
        }
        acquisitions += 1;
        assert!(acquisitions <= 3, "{acquisitions}");
    }
    assert_eq!(acquisitions, 2);
}

#[test]
fn ruling_7_a_player_who_can_acquire_nothing_passes_and_a_round_of_passes_ends_the_game() {
    // "On your turn, you must perform either of the two following actions": a player who can
    // place no market card and afford no castle passes; when every seat has passed in a row the
    // end is triggered and the round is finished.
    let g = game(2);
    let full = json!({
        "tiles": ["different-types", "two-buildings", "shield-space", "prestige-space"],
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "current": 0, "starting": 1,
        "players": [
            {"coins": 5, "turns": 0, "kingdoms": [{"buildings": ["inn-6"]}, {"buildings": ["farm-6", "ship-1"]},
                {"buildings": ["farm-1", "farm-2", "farm-3", "farm-4"]}, {"buildings": ["ship-2", "ship-3", "ship-4", "ship-5"]}]},
            {"coins": 3, "turns": 1, "kingdoms": [{"buildings": ["start-1", "start-3", "ship-6", "start-4"]}, {"buildings": ["start-2", "start-5"]},
                {"buildings": ["reserve-1", "reserve-2", "reserve-3", "reserve-4"]},
                {"buildings": ["reserve-5", "blacksmith-1", "blacksmith-2", "church-1"]}]}
        ]
    });
    let mut s = pos(&g, full.clone());
    assert_eq!(names(&g, &s), vec!["pass"]);
    play(&g, &mut s, "pass");
    assert!(!s.end_triggered, "one pass does not end the game");
    assert_eq!((s.current, s.passes), (1, 1));
    play(&g, &mut s, "pass");
    assert!(s.end_triggered);
    // P1 started: P0 still plays its turn of the round, then the game is over with equal turns.
    assert_eq!((s.phase, s.current), (Phase::Turn, 0));
    play(&g, &mut s, "pass");
    assert_eq!(s.phase, Phase::GameOver);
    assert_eq!((s.player[0].turns, s.player[1].turns), (2, 2));
    // A player who can acquire something is never offered the pass, and a building resets the
    // count of passes in a row.
    let mut t = pos(&g, json!({"passes": 1, "players": [{"coins": 0}, {"coins": 0}]}));
    assert!(!names(&g, &t).contains(&"pass".to_string()));
    first(&g, &mut t);
    assert_eq!(t.passes, 0);
    // The setup helper refuses a count of passes that would already have ended the game.
    let mut d = full;
    d["passes"] = json!(2);
    assert!(matches!(g.setup(&d), Err(EngineError::Setup { field, .. }) if field == "passes"));
}

#[test]
fn a_market_renewed_by_the_rare_case_resets_the_passes() {
    // "If all cards in the market have a cost you cannot afford, discard all 5 cards in the
    // market, and reveal 5 new cards from the deck to form a new market." After P0 passed, P1's
    // renewal brings cards P0 can place: P0's pass no longer shows that nothing can change, and
    // P1's pass must not end the game (ruling 7).
    let g = game(2);
    let mut s = pos(&g, json!({
        "tiles": ["different-types", "two-buildings", "shield-space", "prestige-space"],
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "players": [
            {"coins": 5, "kingdoms": [{"buildings": ["inn-6"]}, {"buildings": ["farm-6", "ship-1"]},
                {"buildings": ["farm-1", "farm-2", "farm-3", "farm-4"]}, {"buildings": ["ship-2", "ship-3", "ship-4", "ship-5"]}]},
            {"coins": 0, "kingdoms": [{"buildings": ["start-1", "start-3", "ship-6", "start-4"]}, {"buildings": ["start-2", "start-5"]},
                {"buildings": ["reserve-1", "reserve-2", "reserve-3", "reserve-4"]},
                {"buildings": ["reserve-5", "blacksmith-1", "blacksmith-2", "church-1"]}]}
        ]
    }));
    play(&g, &mut s, "pass");
    // P1 (0 coins) cannot pay any inn: the rare case renews the market.
    play(&g, &mut s, "renew");
    for id in ["blacksmith-5", "church-2", "blacksmith-6", "farm-5", "farm-7"] {
        reveal(&g, &mut s, id);
    }
    assert_eq!((s.phase, s.current), (Phase::Turn, 1));
    assert_eq!(names(&g, &s), vec!["pass"]);
    play(&g, &mut s, "pass");
    assert!(!s.end_triggered, "the draw deck is not exhausted and P0 can build");
    assert_eq!((s.phase, s.current), (Phase::Turn, 0));
    assert!(names(&g, &s).contains(&"build:blacksmith-5:northumbria".to_string()));
}

#[test]
fn the_rare_case_after_the_end_returns_the_discards_to_the_draw_deck() {
    // "Shuffle the discarded cards back into the deck." and, once the end is triggered, "replenish
    // the market with the top card from the reserve deck" (ruling 9): the discards go back into
    // the draw deck, which is not drawn again; the new market comes from the reserve deck, and a
    // slot it cannot fill stays empty.
    let g = game(2);
    let mut s = pos(&g, json!({
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"], "deck": [],
        "reserve": ["reserve-1", "reserve-2", "reserve-3", "reserve-4", "reserve-5"],
        "end_triggered": true, "current": 1, "starting": 1,
        "players": [{"coins": 0}, {"coins": 3}]
    }));
    play(&g, &mut s, "build:inn-1:northumbria");
    while g.actor(&s) == Actor::Player(1) {
        first(&g, &mut s);
    }
    reveal(&g, &mut s, "reserve-2");
    // P0 (0 coins) faces five inns: the rare case.
    play(&g, &mut s, "renew");
    for id in ["reserve-1", "reserve-3", "reserve-4", "reserve-5"] {
        reveal(&g, &mut s, id);
    }
    assert_eq!((s.phase, s.current), (Phase::Turn, 0));
    assert_eq!(s.reserve, 0);
    assert_eq!(s.market[4], NONE);
    let discards = ["reserve-2", "inn-2", "inn-3", "inn-4", "inn-5"].map(|id| 1u128 << g.data.card_index(id).unwrap());
    assert_eq!(s.deck, discards.iter().fold(0, |a, b| a | b));
}

#[test]
fn ruling_8_the_rare_case_belongs_to_action_a_and_a_castle_leaves_the_market() {
    // "A) Acquire a Building / 1. Choose and Place a Card ... Rare case: If all cards in the
    // market have a cost you cannot afford, discard all 5 cards in the market, and reveal 5 new
    // cards from the deck to form a new market." The rare case is part of action A. The shipped
    // inns cost at most 3 coins and the castles at least 4, so a player in the rare case cannot
    // pay a castle there; with a data file where castle-1 costs 1 and inns 2 or more, P0 (1 coin)
    // may take action A (the renewal) or B (castle-1), which leaves the market as it is.
    let mut v: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    for c in v["cards"].as_array_mut().unwrap() {
        match c["id"].as_str().unwrap() {
            "castle-1" => c["cost"] = json!(1),
            "inn-1" | "inn-2" => c["cost"] = json!(2),
            _ => {}
        }
    }
    let g = Norsewind::load(&opts(json!({"players": 2, "data": v}))).unwrap();
    let desc = json!({
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "display": ["castle-1"],
        "players": [{"coins": 1, "kingdoms": [{"buildings": ["ship-1"]}]}, {"coins": 0}]
    });
    let mut s = pos(&g, desc.clone());
    assert_eq!(names(&g, &s), ["castle:castle-1:northumbria", "castle:castle-1:east-anglia", "castle:castle-1:wessex", "renew"]);
    let mut ids = Vec::new();
    g.legal_actions(&s, &mut ids);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "legal actions ascend: {ids:?}");
    let market = s.market;
    play(&g, &mut s, "castle:castle-1:northumbria");
    assert_eq!(s.market, market, "action B does not renew the market");
    assert_eq!(s.refresh_pool, 0);
    // Taking action A renews it; then P0 places a card of the new market if one can be placed:
    // castle-1, which P0 could pay, is not offered.
    let mut t = pos(&g, desc);
    play(&g, &mut t, "renew");
    for id in ["farm-1", "castle-2", "farm-2", "farm-3", "farm-4", "farm-5"] {
        reveal(&g, &mut t, id);
    }
    assert_eq!((t.phase, t.current), (Phase::Turn, 0));
    let after = names(&g, &t);
    assert!(after.iter().all(|n| n.starts_with("build:")), "{after:?}");
    assert!(after.contains(&"build:farm-1:northumbria".to_string()));
    // A renewal that brings nothing P0 can place leaves P0 only the pass: the turn was action
    // A's, "either ... OR B)", so no castle is offered after it. (Every inn costs 2 here.)
    for c in v["cards"].as_array_mut().unwrap() {
        if c["id"].as_str().unwrap().starts_with("inn-") {
            c["cost"] = json!(2);
        }
    }
    let g = Norsewind::load(&opts(json!({"players": 2, "data": v}))).unwrap();
    let mut u = pos(&g, json!({
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "display": ["castle-1"],
        "players": [{"coins": 1, "kingdoms": [{"buildings": ["ship-1"]}]}, {"coins": 0}]
    }));
    play(&g, &mut u, "renew");
    for id in ["inn-6", "inn-7", "inn-8", "inn-9", "inn-10"] {
        reveal(&g, &mut u, id);
    }
    assert_eq!((u.phase, u.current), (Phase::Turn, 0));
    assert_eq!(names(&g, &u), ["pass"]);
}

#[test]
fn a_data_file_where_nobody_can_afford_anything_ends_the_game() {
    // Every building an inn of 100 coins and every castle 100 coins: nobody can ever acquire
    // anything. Each turn the player takes action A's rare case (the market renewed) and then
    // passes; a renewal that gives nobody else anything to acquire does not reset the passes in
    // a row, so a round of passes ends the game (ruling 7) instead of the turn bound.
    let mut v: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    for c in v["cards"].as_array_mut().unwrap() {
        match c["type"].as_str().unwrap() {
            "castle" => c["cost"] = json!(100),
            _ if c["deck"] != json!("start") => {
                c["type"] = json!("inn");
                c["cost"] = json!(100);
                c.as_object_mut().unwrap().remove("coins");
            }
            _ => {}
        }
    }
    for players in 1..=4 {
        let mut o = json!({ "players": players, "data": v.clone() });
        if players > 1 {
            o["max_turns"] = json!(200);
        }
        let g = Norsewind::load(&opts(o)).unwrap_or_else(|e| panic!("{e}"));
        let mut rng = crate::engine::rng::rng_from_seed(players as u64);
        let mut s = g.initial_state();
        let mut legal = Vec::new();
        while g.actor(&s) != Actor::Terminal {
            if g.actor(&s) == Actor::Chance {
                let a = g.sample_chance(&s, &mut rng);
                g.apply(&mut s, a);
            } else {
                g.legal_actions(&s, &mut legal);
                g.apply(&mut s, legal[0]);
            }
        }
        assert!(!s.truncated, "{players} players: the game ran to the turn bound");
        assert!(s.end_triggered);
        assert!(s.turn <= 2 * players as u32, "{players} players: {} turns", s.turn);
    }
}

#[test]
fn ruling_6_without_the_castle_lock_a_returned_castle_can_be_taken_back() {
    // "Choose 1 card from the castle display, and place it to the left of any of your kingdom
    // cards"; the old castle "is replaced by the new castle and returned to the castle
    // display." With `castle_lock=false` nothing but the sentence applies: the player who
    // returned a castle may take it back at once, to another kingdom. By default (ruling 6) he
    // waits for the next building.
    let desc = json!({
        "display": ["castle-1"],
        "market": ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"],
        "players": [{"coins": 20, "kingdoms": [
            {"castle": "castle-3", "buildings": ["farm-6"]}, {"buildings": ["farm-1"]}, {}, {}]}]
    });
    let free = Norsewind::load(&opts(json!({"players": 1, "castle_lock": false}))).unwrap();
    let locked = solo(1);
    for (g, lock) in [(&free, false), (&locked, true)] {
        let mut s = solo_pos(g, desc.clone());
        play(g, &mut s, "castle:castle-1:northumbria");
        while s.phase == Phase::Reuse {
            first(g, &mut s);
        }
        // Solo, a castle gives another turn at once.
        assert_eq!((s.phase, s.current), (Phase::Turn, 0));
        let back = names(g, &s).contains(&"castle:castle-3:east-anglia".to_string());
        assert_eq!(back, !lock, "castle_lock={lock}: {:?}", names(g, &s));
    }
}

#[test]
fn the_setup_helper_refuses_a_lock_on_a_card_that_is_no_castle() {
    let g = game(2);
    let e = g.setup(&json!({"display": ["castle-1"], "players": [{"locked": ["farm-1"]}, {}]}));
    assert!(matches!(e, Err(EngineError::Setup { field, .. }) if field == "players[0].locked[0]"));
    let s = g.setup(&json!({"display": ["castle-1"], "players": [{}, {"locked": ["castle-1"]}]})).unwrap();
    assert_eq!(s.locked[1], 1 << g.data.card_index("castle-1").unwrap());
}

#[test]
fn the_first_castle_brings_no_figure_without_an_empty_space() {
    // "If you have no empty citizen spaces, you do not gain the figure."
    let g = game(2);
    let mut s = pos(&g, json!({
        "display": ["castle-1"],
        "players": [{"coins": 4, "kingdoms": [{"buildings": ["ship-1"]}]}, {}]
    }));
    play(&g, &mut s, "castle:castle-1:wessex");
    assert_eq!(s.current, 1);
    assert_eq!(s.neutral, 8);
}

#[test]
fn the_end_is_triggered_when_the_deck_is_exhausted_and_the_round_is_finished() {
    // "The end of the game is triggered when a player cannot reveal a card from the draw deck after
    // they have acquired a building ... Play continues until all players have had the same number
    // of turns. From now on, replenish the market with the top card from the reserve deck."
    let g = game(3);
    let mut s = g.setup(&json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "prestige-space"],
        "market": ["farm-1", "farm-2", "farm-3", "farm-4", "farm-5"],
        "deck": ["farm-6"],
        "current": 1, "starting": 0,
        "players": [{"coins": 0}, {"coins": 0}, {"coins": 0}]
    })).unwrap();
    play(&g, &mut s, "build:farm-1:wessex");
    first(&g, &mut s);
    reveal(&g, &mut s, "farm-6");
    assert!(!s.end_triggered);
    assert_eq!(s.current, 2);
    play(&g, &mut s, "build:farm-2:wessex");
    first(&g, &mut s);
    // The deck is empty: the end is triggered, the reserve deck refills the slot.
    assert!(s.end_triggered);
    assert_eq!(s.phase, Phase::Reveal);
    reveal(&g, &mut s, "reserve-3");
    // P2 was the last of the round (P0 started): the game is over, all with the same turns.
    assert_eq!(s.phase, Phase::GameOver);
    // Had P1 triggered it, P2 would still play.
    let mut t = g.setup(&json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "prestige-space"],
        "market": ["farm-1", "farm-2", "farm-3", "farm-4", "farm-5"],
        "deck": [],
        "current": 1, "starting": 0,
        "players": [{"coins": 0}, {"coins": 0}, {"coins": 0}]
    })).unwrap();
    play(&g, &mut t, "build:farm-1:wessex");
    first(&g, &mut t);
    assert!(t.end_triggered);
    reveal(&g, &mut t, "reserve-1");
    assert_eq!((t.phase, t.current), (Phase::Turn, 2));
}

#[test]
fn ties_go_to_the_most_coins_then_are_shared() {
    // "In case of a tie, the tied player with most remaining coins wins. If there is still a tie,
    // the victory is shared."
    let g = game(3);
    let tiles = json!(["shield-space", "two-buildings", "castle-seven", "prestige-space"]);
    // P0: 5 coins and a kingdom of church-1 (1 shield, 1 helmet, 1 prestige, 0 citizens: 0 points)
    // in a kingdom without a tile helmet? Every kingdom has a tile; kingdoms without cards score
    // -7 when their tile's helmets exceed 0 shields.
    let s = g.setup(&json!({"phase": "game-over", "tiles": tiles, "market": [null, null, null, null, null],
        "players": [{"coins": 10}, {"coins": 10}, {"coins": 9}]})).unwrap();
    assert_eq!(g.total(&s, 0), 10 - 28);
    assert_eq!(g.winners(&s), vec![0, 1]);
    let r = g.score_report(&s);
    assert_eq!(r.tie_breakers, vec!["most remaining coins"]);
}

#[test]
fn setup_follows_the_player_count() {
    // "2-player game: 8 figures in each supply; 3-player game: 10; 4-player game: 12."
    // "Place 4 neutral citizen figures (white) per player on the castle tile."
    // Decks: 1+ for 2, plus 3+ for 3, plus 4 for 4 players.
    for (n, per, cards) in [(2usize, 8u8, 35u32), (3, 10, 49), (4, 12, 63)] {
        let g = game(n);
        let s = g.initial_state();
        assert_eq!(s.supply, [per; 4]);
        assert_eq!(s.neutral, 4 * n as u8);
        assert_eq!(s.deck.count_ones(), cards);
        assert_eq!(s.reserve.count_ones(), 5);
    }
    // Solo: "Place 4 colored citizen figures in each citizen supply and 4 neutral citizen figures
    // on the castle tile." "Shuffle the 1+-player deck".
    let g = solo(1);
    let s = g.initial_state();
    assert_eq!((s.supply, s.neutral, s.deck.count_ones()), ([4; 4], 4, 35));
}

/// Plays the setup's chance nodes with the given choices (by name) and the rest first-listed.
fn setup_with(g: &Norsewind, picks: &[&str]) -> State {
    let mut s = g.initial_state();
    let mut picks = picks.iter();
    while g.actor(&s) == Actor::Chance {
        let mut legal = Vec::new();
        g.legal_actions(&s, &mut legal);
        let name = picks.next();
        let a = match name {
            Some(n) => named(g, &s, n),
            None => legal[0],
        };
        g.apply(&mut s, a);
    }
    s
}

/// Plays exactly the given chance outcomes (by name) from the start.
fn chance_picks(g: &Norsewind, picks: &[&str]) -> State {
    let mut s = g.initial_state();
    for p in picks {
        play(g, &mut s, p);
    }
    s
}

#[test]
fn the_market_takes_5_buildings_and_castles_go_to_the_display() {
    // "Place any castle cards that are revealed in a separate display near the castle tile. This is
    // the castle display. Continue to reveal cards from the draw deck until you have 5 buildings in
    // the market."
    let g = game(2);
    let s = setup_with(&g, &["colours:blue-red-yellow-purple", "reveal:castle-1", "reveal:farm-1", "reveal:castle-2",
        "reveal:inn-1", "reveal:ship-1", "reveal:blacksmith-1", "reveal:church-1"]);
    let ids: Vec<&str> = s.market.iter().map(|&c| g.card(c).id.as_str()).collect();
    assert_eq!(ids, vec!["farm-1", "inn-1", "ship-1", "blacksmith-1", "church-1"]);
    assert_eq!(s.display_len, 2);
    assert_eq!(s.supply_colour, [3, 1, 2, 0]);
}

#[test]
fn the_lowest_starting_number_starts_and_the_card_goes_to_its_row() {
    // "Each player places the card face up to the right of their kingdom card with a matching row
    // number and gains the start coins on this card." "The player with the lowest number is the
    // starting player"
    let g = game(2);
    let s = setup_with(&g, &["colours:purple-red-yellow-blue", "reveal:farm-1", "reveal:farm-2", "reveal:farm-3",
        "reveal:farm-4", "reveal:farm-5", "tile:shield-space", "tile:two-buildings", "tile:castle-seven",
        "tile:prestige-space", "deal:start-4", "deal:start-2"]);
    assert_eq!(s.phase, Phase::Turn);
    assert_eq!(s.starting, 1);
    assert_eq!(s.current, 1);
    assert_eq!(s.player[0].coins, 4);
    assert_eq!(s.player[1].coins, 3);
    assert_eq!(s.player[0].kingdoms[3].count, 1);
    assert_eq!(s.player[1].kingdoms[1].count, 1);
    // The three starting cards not dealt go back to the box.
    assert_eq!(s.out & g.data.deck_of(super::data::START_DECK), g.data.deck_of(super::data::START_DECK) & !(1 << g.data.card_index("start-4").unwrap()) & !(1 << g.data.card_index("start-2").unwrap()));
}

#[test]
fn two_green_and_two_red_tiles_are_drawn() {
    // "The oldest player draws 2 random green and 2 random red kingdom tiles"
    let g = game(2);
    let mut s = chance_picks(&g, &["colours:purple-red-yellow-blue", "reveal:farm-1", "reveal:farm-2", "reveal:farm-3",
        "reveal:farm-4", "reveal:farm-5", "tile:shield-space", "tile:prestige-space"]);
    assert_eq!(s.phase, Phase::Tile);
    // Two greens drawn: only red tiles can come.
    let tiles = names(&g, &s);
    assert_eq!(tiles, vec!["tile:different-types", "tile:two-buildings", "tile:helmet-toll", "tile:castle-seven", "tile:colour-scoring"]);
    play(&g, &mut s, "tile:helmet-toll");
    assert_eq!(s.phase, Phase::Tile);
    // The chance of a green tile for the first row: 2 of 4.
    let u = chance_picks(&g, &["colours:purple-red-yellow-blue", "reveal:farm-1", "reveal:farm-2", "reveal:farm-3",
        "reveal:farm-4", "reveal:farm-5"]);
    let mut out = Vec::new();
    g.chance_outcomes(&u, &mut out);
    let green: f64 = out.iter().filter(|(a, _)| *a < 5).map(|(_, p)| p).sum();
    assert!((green - 0.5).abs() < 1e-12, "{green}");
    // Variant: "the oldest player draws 4 random kingdom tiles": every tile equally likely, even 4 red.
    let v = Norsewind::load(&opts(json!({"players": 2, "random_kingdom_tiles": true}))).unwrap();
    let mut w = chance_picks(&v, &["colours:purple-red-yellow-blue", "reveal:farm-1", "reveal:farm-2", "reveal:farm-3",
        "reveal:farm-4", "reveal:farm-5", "tile:different-types", "tile:two-buildings", "tile:helmet-toll"]);
    assert_eq!(names(&v, &w).len(), 7);
    play(&v, &mut w, "tile:castle-seven");
    assert_eq!(w.phase, Phase::Deal);
}

#[test]
fn the_free_start_variant_lets_the_player_choose_the_kingdom() {
    // "During PLAYER SETUP, place your starting card in the kingdom of your choice, adhering to any
    // restrictions on the corresponding kingdom tile."
    let g = Norsewind::load(&opts(json!({"players": 2, "free_start": true}))).unwrap();
    let mut s = setup_with(&g, &["colours:purple-red-yellow-blue", "reveal:farm-1", "reveal:farm-2", "reveal:farm-3",
        "reveal:farm-4", "reveal:farm-5", "tile:helmet-toll", "tile:two-buildings", "tile:shield-space",
        "tile:prestige-space", "deal:start-2", "deal:start-5"]);
    assert_eq!(s.phase, Phase::StartPlacement);
    assert_eq!(s.current, 0);
    // start-2 has 3 helmets: the toll kingdom takes it for 1 of its 3 start coins.
    assert_eq!(names(&g, &s), vec!["start:northumbria", "start:east-anglia", "start:mercia", "start:wessex"]);
    play(&g, &mut s, "start:northumbria");
    assert_eq!(s.player[0].coins, 2);
    play(&g, &mut s, "start:wessex");
    assert_eq!(s.phase, Phase::Turn);
    assert_eq!(s.player[1].kingdoms[3].count, 1);
}

// ----- the solo game ---------------------------------------------------------------------

fn solo_pos(g: &Norsewind, mut desc: Value) -> State {
    if desc.get("tiles").is_none() {
        desc["tiles"] = json!(["shield-space", "two-buildings", "castle-seven", "prestige-space"]);
    }
    g.setup(&desc).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_vikings_move_by_the_revealed_helmets_and_take_the_active_card() {
    // "Move the Viking ship tile clockwise a number of cards equal to the Viking helmet value of the
    // card you revealed in the market at the end of your turn" "Place the active card in the Viking
    // display to the right of the corresponding Viking card"
    // "Example: The card you revealed in the market after you acquired a building has 2 helmets.
    // Move the Viking ship tile 2 cards clockwise. Place the active card (inn) in Mercia (with the
    // inn icon). Then, replenish the market with a new card from the deck."
    let g = solo(1);
    let mut s = solo_pos(&g, json!({
        "market": ["farm-1", "farm-7", "inn-1", "inn-3", "ship-1"],
        "vikings": {"ship": 1},
        "players": [{"coins": 0}]
    }));
    play(&g, &mut s, "build:farm-7:wessex");
    if s.phase == Phase::Take {
        first(&g, &mut s);
    }
    // farm-2 (2 helmets) is revealed into slot 2: the ship moves from slot 1 to slot 3 (inn-1).
    reveal(&g, &mut s, "farm-2");
    assert_eq!(s.ship, 2);
    let inn1 = g.data.card_index("inn-1").unwrap();
    assert_eq!(s.viking_rows[2], 1 << inn1, "the inn goes to Mercia, whose card shows the inn");
    assert_eq!(s.market[2], NONE);
    assert_eq!(s.phase, Phase::Reveal);
    reveal(&g, &mut s, "farm-3");
    assert_eq!(s.phase, Phase::Turn);
    assert_eq!(s.current, 0);
    // "If the active card is a church, place it in the topmost kingdom with the fewest cards"
    let mut t = solo_pos(&g, json!({
        "market": ["farm-1", "farm-7", "inn-1", "church-1", "ship-1"],
        "vikings": {"ship": 1, "rows": [["farm-2"], [], ["inn-2"], []]},
        "players": [{"coins": 0}]
    }));
    play(&g, &mut t, "build:farm-7:wessex");
    if t.phase == Phase::Take {
        first(&g, &mut t);
    }
    reveal(&g, &mut t, "blacksmith-3"); // 3 helmets: slot 1 to slot 4, the church
    assert_eq!(t.ship, 3);
    let church = g.data.card_index("church-1").unwrap();
    assert_eq!(t.viking_rows[1], 1 << church, "East Anglia is the topmost with no card");
}

#[test]
fn a_castle_in_the_solo_game_gives_another_turn_at_once() {
    // "The Vikings only take a turn after each turn you choose action A (Acquire a Building). Thus,
    // if you choose action B (Acquire a Castle), you take another turn immediately."
    let g = solo(1);
    let mut s = solo_pos(&g, json!({
        "display": ["castle-1"],
        "players": [{"coins": 4, "kingdoms": [{"buildings": ["ship-1"]}]}]
    }));
    let market = s.market;
    play(&g, &mut s, "castle:castle-1:wessex");
    assert_eq!((s.phase, s.current), (Phase::Turn, 0));
    assert_eq!(s.market, market);
    assert_eq!(s.viking_rows, [0; 4]);
}

#[test]
fn the_solo_castle_display_holds_at_most_4() {
    // "There may be a maximum of 4 cards in the castle display. Each time a 5th castle card is
    // revealed, discard the leftmost castle card and slide the other cards to the left, placing the
    // new card in the rightmost place."
    let g = solo(1);
    let mut s = solo_pos(&g, json!({
        "market": ["farm-1", "farm-7", "inn-1", "inn-3", "ship-1"],
        "display": ["castle-1", "castle-2", "castle-3", "castle-4"],
        "vikings": {"ship": 1},
        "players": [{"coins": 0}]
    }));
    play(&g, &mut s, "build:farm-7:wessex");
    if s.phase == Phase::Take {
        first(&g, &mut s);
    }
    reveal(&g, &mut s, "castle-5");
    let ids: Vec<&str> = s.display[..s.display_len as usize].iter().map(|&c| g.card(c).id.as_str()).collect();
    assert_eq!(ids, vec!["castle-2", "castle-3", "castle-4", "castle-5"]);
    assert_ne!(s.out & (1 << g.data.card_index("castle-1").unwrap()), 0);
}

#[test]
fn the_vikings_score_their_cards_value_where_their_helmets_exceed_your_shields() {
    // "Since the Vikings have 1 more helmet than your shields in the Northumbria region, they score
    // this kingdom. This kingdom grants 6 points for each card for a total of 18 (6 x 3) points for
    // the Vikings."
    let g = solo(1);
    // Vikings' Northumbria: green card 2 helmets + farm-1, farm-2, farm-7 (2 + 2 + 0) = 6 helmets.
    let s = solo_pos(&g, json!({
        "phase": "game-over",
        "market": [null, null, null, null, null],
        "vikings": {"rows": [["farm-1", "farm-2", "farm-7"], [], [], []]},
        "players": [{"coins": 0, "kingdoms": [{"castle": "castle-3"}]}]
    }));
    assert_eq!(g.viking_helmets(&s, 0), 6);
    assert_eq!(g.kingdom_tally(&s, 0, 0).shields, 5);
    assert_eq!(g.viking_points(&s, 0), 18);
    // With the castle's 2-shield disc (7 shields against 6 helmets), the Vikings do not score.
    let mut t = s.clone();
    t.player[0].kingdoms[0].castle_shield = true;
    t.discs -= 1;
    assert_eq!(g.viking_points(&t, 0), 0);
}

#[test]
fn the_reward_tiers_follow_the_margin() {
    // "bronze = 1–8 points more than the Vikings" ... "Platinum (+≥25)"
    let g = solo(1);
    let cases = [(0, None), (1, Some("bronze")), (8, Some("bronze")), (9, Some("silver")), (16, Some("silver")),
        (17, Some("gold")), (24, Some("gold")), (25, Some("platinum")), (60, Some("platinum"))];
    for (margin, tier) in cases {
        assert_eq!(g.tier(margin).map(|t| g.data.tiers[t].0.as_str()), tier, "{margin}");
    }
    // "If you score more than the Vikings, you win." Coins only, Vikings with no cards: 0.
    let base = json!({"phase": "game-over", "market": [null, null, null, null, null],
        "tiles": ["shield-space", "prestige-space", "citizen-coin", "fourth-building"],
        "players": [{"coins": 0, "kingdoms": [{"castle": "castle-1"}, {"castle": "castle-2"}, {"castle": "castle-3"}, {"castle": "castle-5"}]}]});
    let s = g.setup(&base).unwrap();
    assert_eq!(g.total(&s, 0), 0);
    assert_eq!(g.winners(&s), Vec::<usize>::new(), "a tie is no win");
    let mut w = s.clone();
    w.player[0].coins = 9;
    assert_eq!(g.winners(&w), vec![0]);
    let r = g.score_report(&w);
    assert_eq!(r.tier.as_deref(), Some("silver"));
    assert_eq!(r.opponents[0].total, 0.0);
}

#[test]
fn levels_set_the_tiles_and_viking_cards() {
    // Level 7: "4 red" kingdom tiles and "4 red" Viking cards; level 6: 4 red tiles, 1 green + 3 red.
    let g = solo(7);
    let s = setup_with(&g, &[]);
    assert!(s.tiles.iter().all(|&t| !super::data::is_green(t)));
    assert_eq!(s.viking_red, [true; 4]);
    let g = solo(5);
    let s = setup_with(&g, &[]);
    assert_eq!(s.tiles.iter().filter(|&&t| super::data::is_green(t)).count(), 1);
    assert_eq!(s.viking_red.iter().filter(|&&r| r).count(), 3);
    let g = solo(1);
    let s = setup_with(&g, &[]);
    assert_eq!(s.viking_red, [false; 4]);
    // Levels belong to the solo game.
    assert!(Norsewind::load(&opts(json!({"players": 2, "level": 3}))).is_err());
    assert!(Norsewind::load(&opts(json!({"players": 1, "random_kingdom_tiles": true}))).is_err());
}

#[test]
fn resampling_keeps_the_state_and_observations_hide_nothing_order_dependent() {
    let g = game(3);
    let s = setup_with(&g, &[]);
    let mut rng = crate::engine::rng::rng_from_seed(3);
    assert_eq!(g.resample(&s, 1, &mut rng), s);
    assert_eq!(g.text(&s, Viewer::Seat(0)), g.text(&s, Viewer::Seat(2)));
}

#[test]
fn the_observation_tensor_decodes_field_by_field() {
    use super::view::*;
    let g = game(2);
    let mut desc = lucy();
    desc["phase"] = json!("turn");
    desc["current"] = json!(1);
    desc["market"] = json!(["inn-1", "farm-7", null, null, null]);
    desc["display"] = json!(["castle-1"]);
    desc["supply_colours"] = json!(["blue", "red", "yellow", "purple"]);
    let s = g.setup(&desc).unwrap();
    let mut t = vec![0.0f32; TENSOR_LEN];
    g.observation_tensor(&s, 1, &mut t);
    assert_eq!(t.len(), 1280);
    let number = |id: &str| g.data.card_index(id).unwrap() as f32 + 1.0;
    // Phase: a turn.
    assert_eq!(&t[O_PHASE..O_GLOBAL], &[0., 0., 0., 0., 0., 0., 0., 1., 0., 0., 0., 0.]);
    // Global: deck, reserve, end triggered, display, neutral, discs.
    let deck = s.deck.count_ones() as f32;
    assert_eq!(&t[O_GLOBAL..O_TURN], &[deck, 5., 0., 1., 8., 24. - 8.]);
    // No step 3 or castle replacement under way, no pass, no rare case.
    assert!(t[O_TURN..O_SUPPLY].iter().all(|&x| x == 0.0));
    // Supplies: supply 1 is blue (colour 3); Lucy's figures: purple, red x2, yellow, blue.
    assert_eq!(&t[O_SUPPLY..O_SUPPLY + 5], &[0., 0., 0., 1., 7.]);
    assert_eq!(&t[O_SUPPLY + 5..O_SUPPLY + 10], &[0., 1., 0., 0., 6.]);
    // Tiles: shield-space (4), two-buildings (6), castle-seven (8), prestige-space (3).
    for (k, kind) in [4usize, 6, 8, 3].into_iter().enumerate() {
        let row = &t[O_TILES + k * 10..O_TILES + k * 10 + 10];
        assert_eq!(row.iter().position(|&x| x == 1.0), Some(kind));
        assert_eq!(row.iter().sum::<f32>(), 1.0);
    }
    // Market slot 1: inn-1 (inn, 1 helmet, cost 1, 1 citizen, 1 space), and which card it is;
    // slot 3 empty.
    let inn1 = number("inn-1");
    assert_eq!(&t[O_MARKET..O_MARKET + CARD_F], &[1., 0., 0., 1., 0., 0., 0., 1., 1., 0., 1., 1., 0., 0., 0., 0., inn1]);
    assert!(t[O_MARKET + 2 * CARD_F..O_MARKET + 3 * CARD_F].iter().all(|&x| x == 0.0));
    // Not solo: no ship.
    assert!(t[O_SHIP..O_DISPLAY].iter().all(|&x| x == 0.0));
    // The display: castle-1 (cost 4, 2 shields +2, 1 prestige +1), not returned.
    assert_eq!(&t[O_DISPLAY..O_DISPLAY + CASTLE_F], &[1., 4., 2., 2., 1., 1., 0., number("castle-1")]);
    // Players from the observer (P1) on: P1 first, then Lucy (P0), her starting card start-2.
    let p1 = &t[O_PLAYERS..O_PLAYERS + PLAYER_F];
    assert_eq!(&p1[..6], &[1., 1., 0., 0., 0., 0.]);
    let lucy = &t[O_PLAYERS + PLAYER_F..O_PLAYERS + 2 * PLAYER_F];
    assert_eq!(&lucy[..6], &[1., 0., 3., 0., 1., number("start-2")]);
    let kingdom = |k: usize| &lucy[6 + k * KINGDOM_F..6 + (k + 1) * KINGDOM_F];
    // Northumbria: 4 buildings, 12 helmets, 12 shields, 4 prestige, 3 citizens, 12 points, a
    // castle, no empty space; 0 farms, 0 blacksmiths, 0 inns, 3 ships, 1 church.
    assert_eq!(&kingdom(0)[..13], &[4., 12., 12., 4., 3., 12., 1., 0., 0., 0., 0., 3., 1.]);
    // castle-5 with a shield disc; the shield-space tile's disc; church-1 with a prestige disc.
    assert_eq!(&kingdom(0)[13..18], &[number("castle-5"), 1., 0., 0., 1.]);
    assert_eq!(&kingdom(0)[18..18 + BUILDING_F], &[number("church-1"), 0., 0., 0., 0., 0., 0., 0., 1.]);
    // East Anglia: the empty blue space of the inn.
    assert_eq!(&kingdom(1)[..13], &[2., 6., 7., 2., 4., 8., 1., 1., 1., 0., 1., 0., 0.]);
    assert_eq!(kingdom(2)[5], -7.0);
    assert_eq!(kingdom(3)[5], 48.0);
    // Each building's spaces: their colours and figures. Wessex's farm-1 holds a purple figure
    // on its purple space.
    let farm1 = &kingdom(3)[18..18 + BUILDING_F];
    let colour = |c: &str| COLOURS.iter().position(|&x| x == c).unwrap() as f32 + 1.0;
    let space = g.card(g.data.card_index("farm-1").unwrap()).spaces[0];
    assert_eq!(&farm1[..3], &[number("farm-1"), space as f32 + 1.0, colour("purple")]);
    // East Anglia's inn-3: its space empty.
    let inn3 = &kingdom(1)[18 + BUILDING_F..18 + 2 * BUILDING_F];
    let inn3_space = g.card(g.data.card_index("inn-3").unwrap()).spaces[0];
    assert_eq!(&inn3[..3], &[number("inn-3"), inn3_space as f32 + 1.0, 0.]);
    // No Vikings with two players; the other seats' blocks are empty.
    assert!(t[O_PLAYERS + 2 * PLAYER_F..].iter().all(|&x| x == 0.0));
    // The observer's view: seen from P0, Lucy comes first.
    g.observation_tensor(&s, 0, &mut t);
    assert_eq!(&t[O_PLAYERS..O_PLAYERS + 5], &[1., 0., 3., 0., 1.]);
}

#[test]
fn the_tensor_shows_the_turn_under_way() {
    use super::view::*;
    // Step 3 after a building from slot 2 into Mercia: the slot and the kingdom; and a
    // replaced castle's discs waiting in Wessex.
    let g = game(2);
    let mut s = g.setup(&lucy()).unwrap();
    let mut t = vec![0.0f32; TENSOR_LEN];
    s.phase = Phase::Take;
    s.slot = 1;
    s.built_kingdom = 2;
    s.passes = 1;
    g.observation_tensor(&s, 0, &mut t);
    let turn = &t[O_TURN..O_SUPPLY];
    assert_eq!(turn, &[0., 1., 0., 0., 0., 0., 0., 1., 0., 0., 0., 0., 0., 0., 1., 0.]);
    s.phase = Phase::Reuse;
    s.reuse_kingdom = 3;
    s.reuse_discs = 2;
    s.passes = 0;
    s.refreshed = true;
    g.observation_tensor(&s, 0, &mut t);
    let turn = &t[O_TURN..O_SUPPLY];
    assert_eq!(turn, &[0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 2., 0., 1.]);
}

#[test]
fn the_solo_tensor_shows_the_ship_and_the_vikings() {
    use super::view::*;
    let g = solo(2);
    let s = g.setup(&json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "prestige-space"],
        "vikings": {"sides": ["green", "red", "green", "green"], "rows": [["farm-1", "farm-2"], [], [], []], "ship": 4},
        "players": [{"coins": 2}]
    })).unwrap();
    let mut t = vec![0.0f32; TENSOR_LEN];
    g.observation_tensor(&s, 0, &mut t);
    assert_eq!(&t[O_SHIP..O_DISPLAY], &[0., 0., 0., 1., 0.]);
    assert_eq!(&t[O_VIKINGS..O_VIKINGS + 8], &[0., 2., 6., 6., 1., 0., 4., 7.]);
}

#[test]
fn the_log_tells_a_building_its_income_and_the_vikings_card() {
    let g = solo(1);
    let s = g.setup(&json!({
        "tiles": ["shield-space", "two-buildings", "castle-seven", "prestige-space"],
        "market": ["farm-1", "farm-7", "inn-1", "inn-3", "ship-1"],
        "vikings": {"ship": 1},
        "players": [{"coins": 0, "kingdoms": [{"buildings": ["ship-3"]}]}]
    })).unwrap();
    let mut a = s.clone();
    let act = named(&g, &a, "build:ship-1:east-anglia");
    g.apply(&mut a, act);
    let line = g.describe_move(&s, act, &a, None);
    assert_eq!(line, "P0 builds ship-1 (ship, 2 helmets, 2 coins, 1 citizen) from slot 5 in East Anglia, pays 0 coins and gains 4 coins (now 4 coins).");
    assert_eq!(a.phase, Phase::Take);
    play(&g, &mut a, "shield:northumbria:tile");
    let mut b = a.clone();
    let c = g.data.card_index("farm-2").unwrap() as u32;
    g.apply(&mut b, c);
    let line = g.describe_move(&a, c, &b, Some(0));
    assert!(line.starts_with("farm-2 (farm, 2 helmets, 2 citizens, spaces red) is revealed from the draw deck into market slot 5."), "{line}");
    assert!(line.contains("The Viking ship moves to slot 3 and the Vikings take inn-1 (inn) into Mercia."), "{line}");
}

#[test]
fn greedy_and_mcts_self_play_finish_in_every_configuration() {
    // The castle ruling (6) and the pass ruling (7) bound every game; no agent stalls.
    use crate::engine::{AgentSpec, DynGame};
    for cfg in Norsewind::configurations() {
        let game = crate::games::load("norsewind", &cfg).unwrap();
        for (agent, games) in [("greedy", 20usize), ("mcts:iterations=10", 2)] {
            let spec: AgentSpec = agent.parse().unwrap();
            let agents = vec![spec; game.spec().players];
            let r = game.simulate(&agents, 0, games, 5, 1, None).unwrap();
            assert!(r.truncated.iter().all(|&t| !t), "{cfg:?} {agent}: truncated games");
        }
        let _: &dyn DynGame = &*game;
    }
}

/// The listing's and the sampler's fast paths against the rules they compile: every legal move
/// is what `build_cost`, `castle_allowed`, `free_space` and `disc_cost` allow, one by one, and
/// every draw is the engine's two-pass draw over `chance_weights`, in random games of several
/// configurations.
#[test]
fn the_fast_listing_and_draw_agree_with_the_rules_one_by_one() {
    use super::actions::{self, CITIZEN, PASS};
    use super::data::{KINGDOMS, NEUTRAL};
    use crate::engine::rng::{below, rng_from_seed};
    let configs = [
        json!({"players": 1, "level": 7}),
        json!({"players": 2, "free_start": true}),
        json!({"players": 3}),
        json!({"players": 4, "random_kingdom_tiles": true}),
    ];
    for cfg in configs {
        let g = Norsewind::load(&opts(cfg.clone())).unwrap();
        for seed in 0..40 {
            let mut rng = rng_from_seed(seed);
            let mut s = g.initial_state();
            let mut legal = Vec::new();
            loop {
                match g.actor(&s) {
                    Actor::Terminal => break,
                    Actor::Chance => {
                        let mut two_pass = rng.clone();
                        let mut total = 0;
                        g.chance_weights(&s, |_, w| total += w);
                        let mut pick = below(&mut two_pass, total);
                        let mut want = None;
                        g.chance_weights(&s, |a, w| {
                            if want.is_none() {
                                if pick < w {
                                    want = Some(a);
                                } else {
                                    pick -= w;
                                }
                            }
                        });
                        let a = g.sample_chance(&s, &mut rng);
                        assert_eq!(Some(a), want, "{cfg} seed {seed}: {:?}", s.phase);
                        g.apply(&mut s, a);
                    }
                    Actor::Player(p) => {
                        g.legal_actions(&s, &mut legal);
                        let mut slow = Vec::new();
                        match s.phase {
                            Phase::Turn => {
                                for slot in 0..5 {
                                    for k in 0..KINGDOMS {
                                        let c = s.market[slot];
                                        if c != NONE && g.build_cost(&s, p, c, k).is_some() {
                                            slow.push(actions::build(slot, k));
                                        }
                                    }
                                }
                                // Action A's rare case; after a renewal, a card of the new
                                // market if one can be placed (ruling 8).
                                let renew = g.rare_case_applies(&s);
                                if renew {
                                    slow.push(actions::RENEW);
                                }
                                let only_builds = !renew && s.refreshed && !slow.is_empty();
                                for i in 0..s.display_len as usize {
                                    for k in 0..KINGDOMS {
                                        if !only_builds && g.castle_allowed(&s, p, s.display[i], k) {
                                            slow.push(actions::castle(i, k));
                                        }
                                    }
                                }
                                if slow.is_empty() {
                                    slow.push(PASS);
                                }
                            }
                            Phase::Take | Phase::Neutral => {
                                let mut colours = Vec::new();
                                let mut discs = false;
                                if s.phase == Phase::Neutral {
                                    colours.push(NEUTRAL);
                                } else {
                                    for sup in Norsewind::adjacent_supplies(s.slot) {
                                        if sup == 4 {
                                            discs = s.discs > 0;
                                        } else if s.supply[sup] > 0 {
                                            colours.push(s.supply_colour[sup]);
                                        }
                                    }
                                }
                                for &colour in &colours {
                                    for k in 0..KINGDOMS {
                                        for q in 0..5 {
                                            if g.free_space(&s, p, k, q, colour).is_some() {
                                                slow.push(actions::citizen(colour, k, q));
                                            }
                                        }
                                    }
                                }
                                for prestige in [false, true] {
                                    for k in 0..KINGDOMS {
                                        for q in 0..6 {
                                            if discs && g.disc_cost(&s, p, k, q, prestige).is_some() {
                                                slow.push(if prestige { actions::prestige(k, q) } else { actions::shield(k, q) });
                                            }
                                        }
                                    }
                                }
                                slow.sort_unstable();
                                slow.dedup();
                                assert!(slow.iter().all(|&a| a >= CITIZEN));
                            }
                            _ => slow = legal.clone(),
                        }
                        assert_eq!(legal, slow, "{cfg} seed {seed}: {:?}", s.phase);
                        let a = legal[below(&mut rng, legal.len() as u32) as usize];
                        g.apply(&mut s, a);
                    }
                }
            }
        }
    }
}

#[test]
fn the_draws_select_finds_every_set_bit_in_id_order() {
    use super::rules::{byte_counts, select};
    use rand_core::RngCore;
    let mut rng = crate::engine::rng::rng_from_seed(7);
    let words = [0u64, 1, 1 << 63, u64::MAX, 0x8000_0000_0000_0001, 0x00ff_0000_ff00_00f0];
    for w in words.into_iter().chain((0..2000).map(|_| rng.next_u64() & rng.next_u64())) {
        let set: Vec<u32> = (0..64).filter(|&b| w >> b & 1 != 0).collect();
        assert_eq!(byte_counts(w) >> 56, set.len() as u64);
        for (n, &bit) in set.iter().enumerate() {
            assert_eq!(select(w, byte_counts(w), n as u32), bit, "word {w:#x}, n {n}");
        }
    }
}

#[test]
fn a_saved_state_in_a_setup_step_after_turns_of_play_is_refused() {
    // The setup's chance steps (the supplies' colours, the tiles, the Viking cards' sides, the
    // starting cards) come before the first turn: a state in one of them after turns of play
    // cannot be reached (it would deal starting cards from an empty pool).
    let g = Norsewind::load(&opts(json!({"players": 1, "level": 2}))).unwrap();
    let mut s = g.initial_state();
    assert!(g.validate_state(&s).is_ok());
    for phase in [Phase::Colours, Phase::Tile, Phase::VikingSide, Phase::Deal] {
        let mut t = s.clone();
        t.phase = phase;
        t.turn = 14;
        let e = g.validate_state(&t).unwrap_err().to_string();
        assert!(e.contains("after 14 turns"), "{phase:?}: {e}");
    }
    s.turn = 0;
    assert!(g.validate_state(&s).is_ok());
}

#[test]
fn a_tie_on_points_goes_to_the_tied_player_with_most_remaining_coins() {
    // "The player with the highest total score wins. In case of a tie, the tied player with most
    // remaining coins wins."
    let g = game(3);
    // The castle's kingdom scores 7 points more than an empty one (-7): its owner ties the
    // other with 7 coins fewer.
    for (castle, winner) in [(1, 0), (0, 1)] {
        let mut players = vec![json!({"coins": 12}), json!({"coins": 12}), json!({"coins": 0})];
        players[castle] = json!({"coins": 5, "kingdoms": [{"castle": "castle-3"}]});
        let s = pos(&g, json!({"phase": "game-over", "market": [null, null, null, null, null], "players": players}));
        assert_eq!((g.total(&s, 0), g.total(&s, 1)), (12 - 28, 12 - 28), "a tie on points");
        assert_eq!(g.winners(&s), vec![winner], "12 coins beat 5");
    }
}

#[test]
fn the_fourth_building_tile_pays_its_5_coins_for_the_fourth_building_and_not_the_third() {
    // "Immediately gain 5 coins after building your 4th building in this kingdom."
    let g = game(2);
    for (held, gain) in [(vec!["church-1", "church-2"], 0), (vec!["church-1", "church-2", "church-3"], 5)] {
        let mut s = pos(&g, json!({
            "tiles": ["fourth-building", "citizen-coin", "citizen-space", "shield-space"],
            "market": ["farm-5", "farm-6", "farm-7", "inn-1", "inn-3"],
            "players": [{"coins": 0, "kingdoms": [{"buildings": held}]}, {}]
        }));
        play(&g, &mut s, "build:farm-7:northumbria");
        let built = s.player[0].kingdoms[0].count;
        assert_eq!(s.player[0].coins, gain, "building number {built} (farm income: none elsewhere)");
    }
}

#[test]
fn the_vikings_do_not_score_a_kingdom_where_their_helmets_equal_your_shields() {
    // "For each of the 4 kingdoms, count the number of helmets on all building cards as well as
    // the Viking card itself. If this exceeds the number of shields in your corresponding
    // kingdom, the Vikings score."
    let g = solo(1);
    // The Vikings' Northumbria: its card's 2 helmets and the row's; the player's castle-3: 5 shields.
    for (row, helmets, points) in [(["farm-1", "farm-5", "farm-7"], 5, 0), (["farm-1", "farm-2", "farm-7"], 6, 6 * 3)] {
        let s = solo_pos(&g, json!({
            "phase": "game-over",
            "market": [null, null, null, null, null],
            "vikings": {"rows": [row, [], [], []]},
            "players": [{"coins": 0, "kingdoms": [{"castle": "castle-3"}]}]
        }));
        assert_eq!((g.viking_helmets(&s, 0), g.kingdom_tally(&s, 0, 0).shields), (helmets, 5));
        assert_eq!(g.viking_points(&s, 0), points, "{helmets} helmets against 5 shields");
        assert_eq!(g.scoring(&s).vikings[0], points, "the end scoring reads the same");
    }
}

#[test]
fn the_legend_explains_every_kingdom_tile() {
    // "The Kingdom Tiles": "Green Tiles — Each green tile comes with 2 Viking helmets",
    // "Red Tiles — Each red tile comes with 1 Viking helmet", each with its effect. Every tile
    // the game names (in `tile:<kind>` and on the table) has a line of its own in the legend.
    use crate::engine::GameDefinition;
    use super::data::{is_green, TILES};
    for (t, name) in TILES.iter().enumerate() {
        let colour = if is_green(t as u8) { "green: " } else { "red: " };
        let line = Norsewind::NOTATION.lines().find(|l| l.trim_start().split_whitespace().next() == Some(name));
        let line = line.unwrap_or_else(|| panic!("the legend has no line for the kingdom tile {name}"));
        let told = line.trim_start()[name.len()..].trim_start();
        assert!(told.starts_with(colour) && told.len() > colour.len() + 20, "{name}: {line:?}");
    }
}
