//! Norsewind's rule tests. The first is the shared conformance suite; rule tests quote the
//! rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::data::{ComponentData, Source};
use crate::engine::{Actor, EngineError, Game, GameDefinition};
use crate::harness::conformance::check_random_games;

use super::actions;
use super::data::{Data, CASTLE};
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

fn play(g: &Norsewind, s: &mut State, name: &str) {
    let a = named(g, s, name);
    g.apply(s, a);
}

#[test]
fn conformance_random_games_every_configuration() {
    for cfg in Norsewind::configurations() {
        let g = Norsewind::load(&cfg).unwrap();
        let stats = check_random_games(Arc::new(g), 6, 7, 9).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 6);
        assert!(stats.decisions > 20, "{stats:?}");
    }
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

#[allow(dead_code)]
fn unused(_: Actor, _: Phase, _: u8) -> u8 {
    let _ = actions::PASS;
    NONE
}
