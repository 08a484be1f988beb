//! Mistwind's rule tests (the shared conformance suite runs every configuration in
//! `tests/conformance.rs`): each rule with the rulebook
//! sentence it checks, positions built with the setup helper.

use serde_json::json;

use serde_json::{Map, Value};

use crate::engine::data::ComponentData;
use crate::engine::prelude::*;
use crate::engine::{Actor, GameDefinition};

use super::data::*;
use super::state::*;
use super::Mistwind;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Mistwind {
    Mistwind::load(&opts(json!({ "players": players }))).unwrap()
}

fn at(g: &Mistwind, desc: Value) -> State {
    g.setup(&desc).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(g: &Mistwind, s: &State) -> Vec<String> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v.iter().map(|&a| g.action_to_string(s, a)).collect()
}

/// Whether a move's name is `name`, or `name` with the closing note on a port left out
/// ("move-whale-1:Rootmere" for "move-whale-1:Rootmere (green, textiles)").
fn named(full: &str, name: &str) -> bool {
    full == name || full.strip_suffix(')').and_then(|f| f.rfind(" (").map(|i| &f[..i])) == Some(name)
}

/// Plays the legal move named `name`.
fn play(g: &Mistwind, s: &mut State, name: &str) {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    let a = v.iter().copied().find(|&a| named(&g.action_to_string(s, a), name))
        .unwrap_or_else(|| panic!("{name:?} is not legal; legal: {:?}", legal(g, s)));
    g.apply(s, a);
}

/// A player's turn on the port row (always open): a chip on a port card, wood, and the turn's end.
fn play_port_turn(g: &Mistwind, s: &mut State, legal: &[crate::engine::Action]) {
    let a = legal.iter().copied().find(|&a| g.action_to_string(s, a).contains(":port ")).unwrap();
    g.apply(s, a);
    for name in ["take:wood", "end-moves", "end-cargo"] {
        play(g, s, name);
    }
}

fn is_legal(g: &Mistwind, s: &State, name: &str) -> bool {
    legal(g, s).iter().any(|n| named(n, name))
}

/// Resolves chance nodes with the first outcome until a player decides.
fn settle_chance(g: &Mistwind, s: &mut State) {
    let mut v = Vec::new();
    while g.actor(s) == Actor::Chance {
        g.legal_actions(s, &mut v);
        g.apply(s, v[0]);
    }
}

#[test]
fn the_component_counts_match_the_box_contents() {
    // "36 Cargo Markers ... 48 Demand Tiles "Territory" (12 per region), 12 Demand Tiles
    // "Capital" (3 per region), 24 Achievement Tiles (6 per letter A, B, C, D), 12 Network
    // Tiles (3 per region), 36 Character Cards, 26 Port Cards, 15 Network Cards"
    let d = Data::shipped();
    assert_eq!(d.cargo_markers as usize * CARGO_TYPES, 36);
    for r in 0..REGIONS {
        assert_eq!(d.territory_tiles[r].iter().map(|&c| c as u32).sum::<u32>(), 12);
        assert_eq!(d.capital_tiles[r].iter().map(|&c| c as u32).sum::<u32>(), 3);
        assert_eq!(d.network_tiles.iter().filter(|t| t.region as usize == r).count(), 3);
    }
    for l in 0..4 {
        assert_eq!(d.achievements.iter().filter(|a| a.letter == l).count(), 6);
    }
    for diff in 0..3 {
        assert_eq!(d.network_cards.iter().filter(|c| c.difficulty == diff).count(), 5);
    }
    assert_eq!((d.characters.len(), d.port_cards.len(), d.network_cards.len(), d.achievements.len()), (36, 26, 15, 24));
    // "15 Transport Whales (3 per color), 60 Outposts (12 per color), 25 Action Chips (5 per
    // color), 20 Control Markers (4 per color)"
    assert_eq!((d.rules.whales, d.rules.outposts, d.rules.markers), (3, 12, 4));
    // The four kinds of character cards are all there.
    for k in [CharKind::Immediate, CharKind::OneTime, CharKind::Permanent, CharKind::EndGame] {
        assert!(d.characters.iter().any(|c| c.kind == k));
    }
}

#[test]
fn every_value_of_the_data_file_is_marked_and_errors_name_the_field() {
    let text = Data::SHIPPED;
    let v: Value = serde_json::from_str(text).unwrap();
    assert!(v["ports"].as_array().unwrap().iter().all(|p| p["source"] == "reconstructed"));
    assert_eq!(v["rules"]["majority_points"]["source"], "printed");
    let mut bad = v.clone();
    bad["port_cards"][3]["port"] = json!("Atlantis");
    match Data::from_value(&bad) {
        Err(crate::engine::EngineError::DataFile { field, .. }) => assert_eq!(field, "port_cards[3].port"),
        other => panic!("{other:?}"),
    }
    let mut short = v.clone();
    short["characters"].as_array_mut().unwrap().pop();
    match Data::from_value(&short) {
        Err(crate::engine::EngineError::DataFile { field, .. }) => assert_eq!(field, "components.character_cards.value"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn setup_lays_out_rows_tiles_demand_and_starting_resources() {
    for n in 3..=5 {
        let g = game(n);
        let mut s = g.initial_state();
        settle_chance(&g, &mut s);
        assert_eq!(s.phase, Phase::PlaceWhales);
        // B, C: "Reveal the top 5 cards and place them at the numbers 1 to 5."
        assert!(s.port_row.iter().all(|&c| c != NONE) && s.character_row.iter().all(|&c| c != NONE));
        assert_eq!(s.port_deck.count_ones(), 21);
        assert_eq!(s.character_deck.count_ones(), 31);
        // D: one achievement tile of each letter; E: one network tile per region.
        for l in 0..4 {
            assert_eq!(g.data.achievements[s.achievements[l] as usize].letter as usize, l);
        }
        for r in 0..REGIONS {
            assert_eq!(g.data.network_tiles[s.network_tiles[r] as usize].region as usize, r);
            // F: "the top 2 "Capital" demand tiles of each color"; G: "4 "Territory" demand tiles of each color".
            assert!(s.capital_display[r].iter().all(|&c| c != NONE));
            assert_eq!(s.territory_display[r].iter().filter(|&&c| c != NONE).count(), 4);
        }
        // I: "give one of each difficulty level to every player".
        for p in 0..n {
            let pl = &s.players[p];
            let mut diffs: Vec<u8> = (0..15).filter(|&c| pl.cards & (1 << c) != 0).map(|c| g.data.network_cards[c].difficulty).collect();
            diffs.sort();
            assert_eq!(diffs, vec![0, 1, 2]);
            // K: "steel (green) to 1, wood (brown) to 1, and coins (white) to 2 ... the starting
            // player begins with 1 krill ..., the second player with 2 krill, the third player with 3 krill".
            assert_eq!(pl.res, [1, 1, 1 + p as u16, 2]);
            assert_eq!(pl.hand, 0b1_1111);
        }
    }
}

#[test]
fn each_player_places_a_whale_on_a_territory_port_in_clockwise_order() {
    // "each player, in clockwise order, must place a transport whale on any territory port.
    // Transport whales may share port spaces"
    let g = game(3);
    let mut s = g.initial_state();
    settle_chance(&g, &mut s);
    assert!(!is_legal(&g, &s, "place-whale:Mossgate"), "a capital is not a territory port");
    for p in 0..3 {
        assert_eq!(s.current as usize, p);
        play(&g, &mut s, "place-whale:Fernwick");
    }
    assert!((0..3).all(|p| s.players[p].whales[0] == 1));
    assert_eq!(s.phase, Phase::Discard);
}

#[test]
fn phase_a_discards_one_chip_in_secret_and_two_with_five_players() {
    // "your fifth action chip is secretly discarded"; 5 players: "Each player secretly
    // chooses two action chips".
    for (n, k) in [(3, 1), (4, 1), (5, 2)] {
        let g = game(n);
        let mut s = at(&g, json!({"phase": "discard"}));
        for p in 0..n {
            for _ in 0..k {
                assert_eq!(s.current as usize, p);
                assert!(g.decision_is_secret(&s));
                // Whatever the chip, the other seats see the same move and the same table.
                let mut a = s.clone();
                let mut b = s.clone();
                let first = legal(&g, &s)[0].clone();
                let last = legal(&g, &s).last().unwrap().clone();
                play(&g, &mut a, &first);
                play(&g, &mut b, &last);
                let other = (p + 1) % n;
                assert_eq!(g.text(&a, Viewer::Seat(other)), g.text(&b, Viewer::Seat(other)));
                assert_ne!(g.text(&a, Viewer::Seat(p)), g.text(&b, Viewer::Seat(p)));
                let mut v = Vec::new();
                g.legal_actions(&s, &mut v);
                assert_eq!(g.action_string_for(&s, v[0], other), g.action_string_for(&s, *v.last().unwrap(), other));
                play(&g, &mut s, &last);
            }
        }
        assert_eq!(s.phase, Phase::Turns);
        assert!((0..n).all(|p| (s.players[p].hand & !s.players[p].discarded).count_ones() == 5 - k as u32));
    }
}

fn turn_position(g: &Mistwind) -> State {
    at(g, json!({
        "players": [
            {"wood": 3, "steel": 3, "krill": 2, "coins": 5, "whales": [{"port": "Fernwick"}]},
            {"whales": [{"port": "Sporeholm"}]},
            {"whales": [{"port": "Glowcap"}]}
        ],
        "character_row": ["Lumber Merchant", "Forester", "Whale Tamer", "Surveyor", "Cartographer"],
        "port_row": [1, 2, 3, 4, 6]
    }))
}

#[test]
fn a_chip_goes_on_a_field_with_its_number_once_per_board_per_round() {
    // "the number of the played action chip must match the number of the chosen field";
    // "On the resource board ... and the worker board ... you may only place an action chip
    // on one of the action fields 1 to 5"; "On each numbered field, generally only one action chip may ever lie"
    let g = game(3);
    let mut s = turn_position(&g);
    let names = legal(&g, &s);
    for n in 1..=5 {
        assert!(names.contains(&format!("play-{n}:resources")));
    }
    for n in 1..=4 {
        assert!(names.contains(&format!("play-{n}:worker")));
    }
    // Ruling 13: worker field 5 builds a whale where the player has an outpost; with none, it
    // cannot be carried out and is not offered.
    assert!(!names.contains(&"play-5:worker".to_string()));
    let mut with_outpost = s.clone();
    with_outpost.players[0].outposts = 1 << 3;
    assert!(is_legal(&g, &with_outpost, "play-5:worker"));
    play(&g, &mut s, "play-1:resources");
    // I. "Take all the resources shown on the chosen field" (field 1: 2 wood, 1 steel).
    assert_eq!(s.players[0].res, [5, 4, 2, 5]);
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert_eq!(s.current, 1, "nothing to claim: the turn passes clockwise");
    // The field is taken for everyone; player 0 may not use the resource board again.
    assert!(!is_legal(&g, &s, "play-1:resources"));
    assert!(is_legal(&g, &s, "play-2:resources"));
    for _ in 0..2 {
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
    }
    assert_eq!(s.current, 0);
    assert!(legal(&g, &s).iter().all(|n| !n.contains("resources")), "{:?}", legal(&g, &s));
}

#[test]
fn port_cards_stack_chips_and_pay_resources_by_the_stack_height() {
    // "if an action chip is already on the field you chose, place your chip on top of it";
    // "receive as much of that resource as there are action chips on that field (including
    // the one you just played)"
    let g = game(3);
    let mut s = turn_position(&g);
    let coins: Vec<u16> = (0..3).map(|p| s.players[p].res[COINS]).collect();
    for p in 0..3 {
        play(&g, &mut s, "play-3:port Lichen Bay");
        play(&g, &mut s, "take:coins");
        assert_eq!(s.players[p].res[COINS], coins[p] + p as u16 + 1);
        assert_eq!((s.stack_height[2], s.stack_top[2]), (p as u8 + 1, p as u8));
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
    }
}

#[test]
fn building_costs_and_one_outpost_per_player_per_port() {
    // "an outpost costs 1 wood and 1 steel, a transport whale costs 2 wood and 2 steel";
    // "only one outpost per player is allowed there"
    let g = game(3);
    let mut s = turn_position(&g);
    play(&g, &mut s, "play-1:port Mossgate");
    play(&g, &mut s, "build-outpost");
    assert_eq!(s.players[0].res, [2, 2, 2, 5]);
    assert_eq!(s.players[0].outposts, 1 << 0);
    let mut t = turn_position(&g);
    t.players[0].outposts = 1;
    play(&g, &mut t, "play-1:port Mossgate");
    assert!(!is_legal(&g, &t, "build-outpost"), "a second outpost in the same port");
    play(&g, &mut t, "build-whale");
    assert_eq!(t.players[0].res, [1, 1, 2, 5]);
    assert_eq!(t.players[0].whales[1], 0);
    // At the boundary: 1 wood and 1 steel build an outpost; 1 wood and 2 steel no whale.
    let mut u = at(&g, json!({"players": [{"wood": 1, "steel": 2, "whales": [{"port": "Fernwick"}]}]}));
    play(&g, &mut u, "play-1:port Mossgate");
    assert!(is_legal(&g, &u, "build-outpost"));
    assert!(!is_legal(&g, &u, "build-whale"));
    let mut z = at(&g, json!({"players": [{"wood": 0, "steel": 1, "whales": [{"port": "Fernwick"}]}]}));
    play(&g, &mut z, "play-1:port Mossgate");
    assert!(!is_legal(&g, &z, "build-outpost"));
}

#[test]
fn leaving_a_port_without_an_outpost_or_whale_costs_one_krill() {
    // "If a transport whale leaves a port where you have no outpost or transport whale, you
    // must pay 1 krill." / "If ... where you have an outpost or transport whale, you pay no krill."
    let g = game(3);
    let mut s = at(&g, json!({"players": [{"krill": 1, "whales": [{"port": "Fernwick"}]}], "step": "move"}));
    // Fernwick -> Lichen Bay -> Sporeholm: two ports left without presence = 2 krill.
    assert!(is_legal(&g, &s, "move-whale-1:Lichen Bay"));
    assert!(!is_legal(&g, &s, "move-whale-1:Sporeholm"), "two krill needed, one held");
    play(&g, &mut s, "move-whale-1:Lichen Bay");
    assert_eq!(s.players[0].res[KRILL], 0);
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("move-whale-1")), "each whale moves once a turn");
    // With an outpost at the start port, leaving it is free.
    let s2 = at(&g, json!({"players": [{"krill": 0, "outposts": ["Fernwick"], "whales": [{"port": "Fernwick"}]}], "step": "move"}));
    assert!(is_legal(&g, &s2, "move-whale-1:Lichen Bay"));
    assert!(!is_legal(&g, &s2, "move-whale-1:Sporeholm"));
    // Another own whale at the port also makes leaving free.
    let s3 = at(&g, json!({"players": [{"krill": 0, "whales": [{"port": "Fernwick"}, {"port": "Fernwick"}]}], "step": "move"}));
    assert!(is_legal(&g, &s3, "move-whale-1:Mossgate"));
    // A chain of outposts carries the whale for free.
    let s4 = at(&g, json!({"players": [{"krill": 0, "outposts": ["Fernwick", "Lichen Bay"], "whales": [{"port": "Fernwick"}]}], "step": "move"}));
    assert!(is_legal(&g, &s4, "move-whale-1:Sporeholm"));
    assert!(!is_legal(&g, &s4, "move-whale-1:Glowcap"));
}

#[test]
fn loading_needs_the_ports_cargo_and_krill_is_loaded_in_addition() {
    // "it must exactly match the cargo type available at the port"; "If you already have
    // cargo loaded ..., you may put it back into the supply in order to load the new cargo";
    // "if you load cargo at a krill port, move the krill marker ... forward one space. You
    // may load krill in addition to other cargo"
    let g = game(3);
    let mut s = at(&g, json!({"players": [{"whales": [{"port": "Fernwick", "cargo": "oil"}, {"port": "Lichen Bay", "cargo": "coal"}]}], "step": "cargo"}));
    let oil = 4;
    assert_eq!(s.cargo_supply[oil], 5);
    play(&g, &mut s, "load-1");
    assert_eq!(s.players[0].cargo[0], 0, "coal at Fernwick");
    // The coal comes from the supply (one of the six is aboard whale 2), the oil goes back.
    assert_eq!((s.cargo_supply[0], s.cargo_supply[oil]), (4, 6));
    let krill = s.players[0].res[KRILL];
    play(&g, &mut s, "load-2");
    assert_eq!(s.players[0].res[KRILL], krill + 1);
    assert_eq!(s.players[0].cargo[1], 0, "the coal stays aboard");
    assert!(!is_legal(&g, &s, "load-1") && !is_legal(&g, &s, "load-2"), "one load or unload per whale");
}

#[test]
fn a_limited_cargo_supply_runs_out() {
    // "36 Cargo Markers": 6 of each type; a whale loads only from the general supply.
    let g = game(3);
    let coal = |p: &str| json!({"port": p, "cargo": "coal"});
    let desc = |third: Value| json!({"players": [
        {"whales": [{"port": "Fernwick"}, coal("Mossgate"), coal("Mossgate")]},
        {"whales": [coal("Glowcap"), coal("Glowcap"), coal("Glowcap")]},
        {"whales": [third]}], "step": "cargo"});
    let s = at(&g, desc(coal("Glowcap")));
    assert_eq!(s.cargo_supply[0], 0);
    assert!(!is_legal(&g, &s, "load-1"), "all six coal markers are aboard whales");
    let s = at(&g, desc(json!({"port": "Glowcap"})));
    assert_eq!(s.cargo_supply[0], 1);
    assert!(is_legal(&g, &s, "load-1"));
}

#[test]
fn delivering_slides_the_territory_row_refills_it_and_the_bottom_spaces_pay_a_resource() {
    // "Unloading cargo is only possible at a territory port or a capital port — and only when
    // a demand tile lies there that matches the goods"; "Whoever takes one of the two demand
    // tiles at the bottom end of the territory demand row may additionally choose between the
    // shown resources. When a space ... becomes empty, immediately slide the tile above it
    // down one space ... Then refill the topmost space from the supply."
    let g = game(3);
    let mut s = at(&g, json!({
        "players": [{"whales": [{"port": "Fernwick", "cargo": "oil"}, {"port": "Fernwick", "cargo": "coal"}]}],
        "territory_display": {"green": ["oil", "coffee", "coal", "oil"]},
        "step": "cargo"}));
    assert!(is_legal(&g, &s, "deliver-1:demand row space 1") && is_legal(&g, &s, "deliver-1:demand row space 4"));
    assert!(!is_legal(&g, &s, "deliver-1:demand row space 2"));
    assert!(is_legal(&g, &s, "deliver-2:demand row space 3"));
    let wood = s.players[0].res[WOOD];
    play(&g, &mut s, "deliver-1:demand row space 1");
    assert_eq!(g.actor(&s), Actor::Chance, "the topmost space is refilled at once");
    assert_eq!(&s.territory_display[0][..4], &[2, 0, 4, NONE]);
    settle_chance(&g, &mut s);
    assert_eq!(legal(&g, &s), vec!["choose:wood", "choose:steel"]);
    play(&g, &mut s, "choose:wood");
    assert_eq!(s.players[0].res[WOOD], wood + 1);
    assert_eq!(s.players[0].territory_tiles[0], 1);
    assert_eq!(s.players[0].cargo[0], NONE);
    // The coal slid down to the second space, the other bottom one: krill or coins.
    play(&g, &mut s, "deliver-2:demand row space 2");
    settle_chance(&g, &mut s);
    assert_eq!(legal(&g, &s), vec!["choose:krill", "choose:coins"]);
    // A tile from the third space or above gives no resource.
    let mut t = at(&g, json!({
        "players": [{"whales": [{"port": "Fernwick", "cargo": "oil"}]}],
        "territory_display": {"green": ["coffee", "coal", "oil", "coal"]},
        "step": "cargo"}));
    let before = t.players[0].res;
    play(&g, &mut t, "deliver-1:demand row space 3");
    settle_chance(&g, &mut t);
    assert_eq!((t.step, t.players[0].res), (Step::Cargo, before));
}

#[test]
fn capital_tiles_are_delivered_at_the_capital_and_refilled_from_their_stack() {
    // "Whoever takes a capital demand tile immediately places a tile of the same color from
    // the supply onto the empty space."
    let g = game(3);
    let mut s = at(&g, json!({
        "players": [{"whales": [{"port": "Mossgate", "cargo": "oil"}, {"port": "Fernwick", "cargo": "coffee"}]}],
        "capital_display": {"green": ["coffee", "oil"]},
        "step": "cargo"}));
    assert!(is_legal(&g, &s, "deliver-1:capital tile 2"));
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("deliver-2")), "coffee at a territory port with no coffee tile, or not at the capital");
    play(&g, &mut s, "deliver-1:capital tile 2");
    assert_eq!(s.players[0].capital_tiles[0], 1);
    assert_eq!(g.actor(&s), Actor::Chance);
    settle_chance(&g, &mut s);
    assert_eq!(s.capital_display[0][1], 5, "the last green capital tile, medicine");
    assert_eq!(s.capital_stack[0].iter().sum::<u8>(), 0);
}

#[test]
fn a_network_card_is_revealed_when_its_port_joins_both_destinations() {
    // "Reveal your secret network card if you have fulfilled all the conditions"; "the
    // territory port on the card must be connected to the shown destination ports";
    // "an unbroken chain of outposts and/or transport whales".
    let g = game(3);
    let card = "reveal-card:easy Fernwick to Mossgate and Sporeholm";
    let s = at(&g, json!({"step": "claim", "players": [{"outposts": ["Fernwick", "Mossgate"], "whales": [{"port": "Sporeholm"}], "network_cards": [1, 6, 11]}]}));
    assert!(is_legal(&g, &s, card));
    let mut t = s.clone();
    play(&g, &mut t, card);
    assert_eq!(t.players[0].claimed, 1);
    // "The reward is never lost!": the whale leaves, the claim stays (full 6).
    t.players[0].whales[0] = 20;
    assert_eq!(g.tally(&t, 0)[5], 6);
    // A broken chain: Sporeholm is joined only through Lichen Bay, where there is nothing.
    let u = at(&g, json!({"step": "claim", "players": [{"outposts": ["Fernwick", "Mossgate"], "whales": [{"port": "Glowcap"}], "network_cards": [1, 6, 11]}]}));
    assert!(!is_legal(&g, &u, card));
    // "connecting to only one port by the end of the game earns the smaller reward" (2).
    assert_eq!(g.tally(&u, 0)[5], 2);
}

#[test]
fn network_tiles_have_one_upper_field_and_a_shared_lower_field() {
    // "Only one control marker may be placed on the upper field; several may be placed on the
    // lower field. Each player may place only one control marker per network tile."
    let g = game(3);
    let chain = json!(["Mossgate", "Sporeholm", "Glowcap"]);
    let mut s = at(&g, json!({"step": "claim", "players": [{"outposts": chain, "whales": [{"port": "Fernwick"}]}, {"outposts": chain, "whales": [{"port": "Fernwick"}]}]}));
    assert!(is_legal(&g, &s, "control-upper:green") && is_legal(&g, &s, "control-lower:green"));
    play(&g, &mut s, "control-upper:green");
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("control-")), "one marker per player per tile");
    play(&g, &mut s, "end-turn");
    // P1's turn at step 1: go to the claims.
    s.step = Step::Claim;
    assert!(!is_legal(&g, &s, "control-upper:green") && is_legal(&g, &s, "control-lower:green"));
    play(&g, &mut s, "control-lower:green");
    // Side "1-3" of the green tile to Glowcap: 5 upper, 2 lower.
    assert_eq!((g.tally(&s, 0)[4], g.tally(&s, 1)[4]), (5, 2));
    // With 4 players the "4-5" side counts: 6 and 3.
    let g4 = game(4);
    let s4 = at(&g4, json!({"players": [{"markers": {"green": "upper"}}, {"markers": {"green": "lower"}}]}));
    assert_eq!((g4.tally(&s4, 0)[4], g4.tally(&s4, 1)[4]), (6, 3));
}

#[test]
fn control_markers_run_out_after_four() {
    // "20 Control Markers (4 per color)"
    let g = game(3);
    let s = at(&g, json!({"step": "claim", "players": [{"outposts": ["Mossgate", "Sporeholm", "Glowcap"], "whales": [{"port": "Fernwick"}],
        "markers": {"purple": "lower", "silver": "lower", "brown": "lower"}}]}));
    assert!(is_legal(&g, &s, "control-lower:green"), "the fourth marker");
    let mut d = g.data.clone();
    d.rules.markers = 3;
    let g3 = Mistwind { data: d, ..g.clone() };
    assert!(!is_legal(&g3, &s, "control-lower:green"), "no marker left");
}

#[test]
fn an_achievement_tile_is_taken_immediately_when_it_is_fulfilled() {
    // Scoring 4: "If you fulfill the requirements on one of these tiles during the game, take
    // the tile immediately" (ruling 34; A: 4 outposts, 3 VP). P0's fourth outpost, built on a
    // port card, takes the tile at once, before steps 2 to 4; it is never a claim to choose.
    let g = game(3);
    let mut s = at(&g, json!({"port_row": [1, 2, 3, 4, 6], "players": [
        {"outposts": ["Fernwick", "Mossgate", "Glowcap"], "whales": [{"port": "Fernwick"}]},
        {"outposts": ["Fernwick", "Mossgate", "Glowcap"]}]}));
    play(&g, &mut s, "play-5:port Rootmere");
    play(&g, &mut s, "build-outpost");
    assert_eq!(s.step, Step::Move, "the turn is at step 2");
    assert_eq!(s.achievement_taken[0], 0);
    assert_eq!(g.tally(&s, 0)[3], 3);
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("achievement:")));
    // Gone for the next player who fulfils it; one outpost short, not fulfilled.
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert_eq!(s.players[1].achievements, 0);
    let mut t = at(&g, json!({"port_row": [1, 2, 3, 4, 6], "players": [
        {"outposts": ["Fernwick", "Mossgate"], "whales": [{"port": "Fernwick"}]}]}));
    play(&g, &mut t, "play-5:port Rootmere");
    play(&g, &mut t, "build-outpost");
    assert_eq!(t.achievement_taken[0], NONE);
}

fn last_chips(g: &Mistwind, round: u8) -> State {
    let p = |whale: &str| json!({"chips": [5], "whales": [{"port": whale}]});
    let players: Vec<Value> = (0..g.players).map(|_| p("Fernwick")).collect();
    at(g, json!({"round": round, "players": players, "port_row": [1, 2, 3, 4, 6], "stacks": [[2, 1]]}))
}

fn finish_turns(g: &Mistwind, s: &mut State) {
    for _ in 0..g.players {
        play(g, s, "play-5:port Rootmere");
        play(g, s, "take:coins");
        play(g, s, "end-moves");
        play(g, s, "end-cargo");
    }
}

#[test]
fn phase_c_pays_the_top_chip_of_each_stack_and_refills_the_rows() {
    // "the player whose action chip lies on top of a stack receives the port bonus — even if
    // they are the only one there"; "Take all action chips ... back"; "Discard all remaining
    // character cards and all port cards ... and draw five new cards each".
    let g = game(3);
    let mut s = last_chips(&g, 0);
    let wood1 = s.players[1].res[WOOD];
    finish_turns(&g, &mut s);
    // Field 1 (Mossgate, 2 wood): P1 on top. Field 5 (Rootmere, a free outpost): P2 played last.
    assert_eq!(s.players[1].res[WOOD], wood1 + 2);
    assert_eq!(s.players[2].outposts, 1 << 5);
    assert_eq!(s.players[0].outposts, 0);
    assert_eq!(s.round, 1);
    assert!(s.players.iter().take(3).all(|p| p.hand == 0b1_1111 && p.discarded == 0));
    assert_eq!(g.actor(&s), Actor::Chance, "the rows are refilled");
    settle_chance(&g, &mut s);
    assert!(s.port_row.iter().all(|&c| c != NONE) && s.character_row.iter().all(|&c| c != NONE));
    assert_eq!(s.phase, Phase::Discard);
}

#[test]
fn after_round_two_each_player_discards_a_network_card() {
    // "At the end of round 2, each player must discard a network card."
    let g = game(3);
    let mut s = last_chips(&g, 1);
    finish_turns(&g, &mut s);
    assert_eq!(s.phase, Phase::DiscardNetworkCard);
    for p in 0..3 {
        assert_eq!(s.current as usize, p);
        assert_eq!(legal(&g, &s).len(), 3);
        let first = legal(&g, &s)[0].clone();
        play(&g, &mut s, &first);
        assert_eq!(s.players[p].cards.count_ones(), 2);
        assert_eq!(s.players[p].card_discards.count_ones(), 1);
    }
    assert_eq!(s.round, 2);
}

#[test]
fn the_game_ends_after_four_rounds_and_five_with_five_players() {
    // "the 4th field with 1 to 4 players, and the 5th field with 5 players"
    for (n, rounds) in [(3, 4), (4, 4), (5, 5)] {
        let g = game(n);
        assert_eq!(g.rounds, rounds);
        let mut s = last_chips(&g, rounds - 2);
        finish_turns(&g, &mut s);
        assert_ne!(s.phase, Phase::GameOver);
        let mut s = last_chips(&g, rounds - 1);
        finish_turns(&g, &mut s);
        assert_eq!(s.phase, Phase::GameOver);
        assert_eq!(g.actor(&s), Actor::Terminal);
    }
}

#[test]
fn cargo_majority_pays_five_and_ties_split_rounded_down() {
    // "Receive 5 VP if you delivered the most cargo to a region ... 1-VP tiles count as 1
    // point ..., 2-VP tiles count as 2 points ... In case of a tie, the points are split evenly (rounded down)."
    let g = game(3);
    let s = at(&g, json!({"players": [
        {"territory_tiles": {"green": 2, "purple": 1}},
        {"capital_tiles": {"green": 1}, "territory_tiles": {"purple": 1}},
        {"territory_tiles": {"green": 1, "purple": 1, "silver": 3}}]}));
    // Green: 2 vs 2 (one capital tile) vs 1: 5/2 = 2 each. Purple: a three-way tie, 5/3 = 1.
    // Silver: P2 alone, 5.
    assert_eq!(g.tally(&s, 0)[2], 2 + 1);
    assert_eq!(g.tally(&s, 1)[2], 2 + 1);
    assert_eq!(g.tally(&s, 2)[2], 1 + 5);
    // "Receive 1 VP for each territory demand tile ... and 2 VP for each capital demand tile"
    assert_eq!((g.tally(&s, 0)[1], g.tally(&s, 1)[1], g.tally(&s, 2)[1]), (3, 3, 5));
    // "The player with the starting player marker receives 2 VP."
    assert_eq!((g.tally(&s, 0)[0], g.tally(&s, 1)[0]), (2, 0));
}

#[test]
fn ties_go_to_the_most_wood_and_steel_then_the_victory_is_shared() {
    // "In case of a tie, the player with the most remaining wood and steel resources wins.
    // If still tied, you share the victory."
    let g = game(3);
    let base = |w1: u16, w2: u16| at(&g, json!({"phase": "game-over", "start_player": 0, "players": [
        {"wood": 0, "steel": 0, "territory_tiles": {"silver": 0}},
        {"wood": w1, "steel": 1, "territory_tiles": {"green": 1}, "capital_tiles": {}, "achievements": []},
        {"wood": w2, "steel": 1, "territory_tiles": {"purple": 1}}]}));
    let s = base(3, 2);
    // P0: 2 (marker). P1: 1 + 5 = 6. P2: 1 + 5 = 6.
    assert_eq!(g.winners(&s), vec![1]);
    let t = base(2, 2);
    assert_eq!(g.winners(&t), vec![1, 2]);
    let r = g.score_report(&t);
    assert_eq!(r.tie_breakers, vec!["wood and steel left"]);
    assert_eq!(r.tie_breaker_values[1], vec![3.0]);
}

#[test]
fn the_four_kinds_of_characters() {
    // "Pay the cost shown at the top right of the card to hire a character. When a card is
    // taken from the display, it is not replaced until the end of the round."
    let g = game(3);
    let mut s = turn_position(&g);
    play(&g, &mut s, "play-1:character Lumber Merchant");
    // Immediate: cost 2 coins, gain 3 wood at once, then turned face down.
    assert_eq!(s.players[0].res, [6, 3, 2, 3]);
    assert_eq!(s.character_row[0], NONE);
    assert!(s.players[0].used & 1 != 0);
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("play-1:character")), "the field stays empty this round");
    // One-time: usable during a later turn, once.
    let mut t = turn_position(&g);
    play(&g, &mut t, "play-2:character Forester");
    assert!(is_legal(&g, &t, "use:Forester"));
    play(&g, &mut t, "use:Forester");
    assert_eq!(t.players[0].res[WOOD], 6);
    assert!(!is_legal(&g, &t, "use:Forester"));
    // Permanent: the Whale Tamer's whales move without krill.
    let u = at(&g, json!({"step": "move", "players": [{"krill": 0, "characters": ["Whale Tamer"], "whales": [{"port": "Fernwick"}]}]}));
    assert!(is_legal(&g, &u, "move-whale-1:Rootmere"));
    // End-game: the Cartographer scores 1 per region with an outpost, plus its printed 0.
    let v = at(&g, json!({"players": [{"characters": ["Cartographer", "Patron"], "outposts": ["Fernwick", "Glowcap", "Pearl Strand"]}]}));
    assert_eq!(g.tally(&v, 0)[6], 2 + 5);
    // A card that cannot be paid for cannot be taken.
    let w = at(&g, json!({"players": [{"coins": 1, "whales": [{"port": "Fernwick"}]}], "character_row": ["Lumber Merchant", "Forester", null, null, null]}));
    assert!(!is_legal(&g, &w, "play-1:character Lumber Merchant") && is_legal(&g, &w, "play-2:character Forester"));
}

#[test]
fn the_worker_boards_start_player_field_sets_the_next_rounds_order() {
    let g = game(3);
    let mut s = at(&g, json!({"current": 1, "players": [{"chips": [5]}, {"chips": [4]}, {"chips": [5]}], "port_row": [1, 2, 3, 4, 6]}));
    play(&g, &mut s, "play-4:worker");
    assert_eq!(s.start_player, 1);
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    // This round's order goes on clockwise: P2, then P0.
    assert_eq!(s.current, 2);
    for _ in 0..2 {
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
    }
    settle_chance(&g, &mut s);
    assert_eq!((s.phase, s.current), (Phase::Discard, 1), "the new starting player discards first and leads");
}

#[test]
fn resampling_redraws_only_what_a_seat_has_not_seen() {
    use crate::engine::rng::rng_from_seed;
    let g = game(4);
    let mut s = at(&g, json!({"phase": "discard"}));
    play(&g, &mut s, "discard:chip 3");
    play(&g, &mut s, "discard:chip 5");
    let mut rng = rng_from_seed(5);
    let mut seen_cards = std::collections::BTreeSet::new();
    let mut seen_chips = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let r = g.resample(&s, 2, &mut rng);
        assert_eq!(g.text(&r, Viewer::Seat(2)), g.text(&s, Viewer::Seat(2)));
        let mut a = vec![0.0; super::view::tensor_len()];
        let mut b = a.clone();
        g.observation_tensor(&r, 2, &mut a);
        g.observation_tensor(&s, 2, &mut b);
        assert_eq!(a, b);
        g.validate_state(&r).unwrap();
        assert_eq!(r.players[2].cards, s.players[2].cards);
        seen_cards.insert(r.players[0].cards);
        seen_chips.insert(r.players[1].discarded);
    }
    assert!(seen_cards.len() > 1 && seen_chips.len() > 1);
}

#[test]
fn the_observation_tensor_decodes_field_by_field() {
    use super::view::{layout as l, tensor_len};
    let g = game(3);
    let s = at(&g, json!({"phase": "turns", "current": 1, "start_player": 2, "players": [
        {"wood": 4, "steel": 0, "krill": 7, "coins": 3, "chips": [1, 5], "discarded": [5], "outposts": ["Fernwick", "Rootmere"],
         "whales": [{"port": "Fernwick", "cargo": "oil"}], "characters": ["Forester"], "territory_tiles": {"purple": 2},
         "capital_tiles": {"brown": 1}, "achievements": ["C"], "markers": {"green": "upper"}, "network_cards": [2, 7, 12]},
        {"chips": [1, 3, 5], "discarded": [3], "whales": [{"port": "Mossgate"}, {"port": "Mossgate"}], "network_cards": [1, 6, 11]}],
        "port_row": [3, 1, 2, 4, 5], "stacks": [[0, 255], [2, 0]],
        "resource_fields": {"4": 0}, "worker_fields": {"2": 2},
        "capital_display": {"green": ["medicine", "oil"]}, "territory_display": {"silver": ["coal", "coal", "oil", "textiles"]}}));
    let mut t = vec![0.0f32; tensor_len()];
    g.observation_tensor(&s, 0, &mut t);
    let one = |at: usize, len: usize| -> Vec<usize> { (0..len).filter(|&i| t[at + i] == 1.0).collect() };
    assert_eq!(one(l::OBSERVER, 5), vec![0]);
    assert_eq!(one(l::ACTOR, 7), vec![1]);
    assert_eq!(one(l::PHASE, 7), vec![3]);
    assert_eq!(one(l::STEP, 7), vec![0]);
    assert_eq!(one(l::STEP_FIELD, 5), Vec::<usize>::new(), "the chip step has no field");
    assert_eq!(one(l::ROUND, 5), vec![0]);
    assert_eq!(one(l::START_PLAYER, 5), vec![2]);
    let p0 = l::PLAYERS;
    let p1 = l::PLAYERS + l::PLAYER_SIZE;
    assert_eq!(&t[p0 + l::RES..p0 + l::RES + 4], &[4.0, 0.0, 7.0, 3.0]);
    assert_eq!(one(p0 + l::HAND, 5), vec![0, 4], "chips 2 and 4 lie on the board");
    assert_eq!(one(p0 + l::DISCARDED, 5), vec![4], "the observer's own discard");
    assert_eq!(one(p1 + l::DISCARDED, 5), Vec::<usize>::new(), "another's discard is hidden");
    assert_eq!(one(p1 + l::HAND, 5), vec![0, 2, 4], "P1's chip 2 is in the stack on port field 2");
    assert_eq!(one(p0 + l::OUTPOSTS, 32), vec![1, 5]);
    assert_eq!(one(p0 + l::WHALES, 32), vec![1], "whale 1 in Fernwick");
    assert_eq!(one(p0 + l::WHALES + 32, 32), Vec::<usize>::new(), "whale 2 in the supply");
    let mossgate = one(p1 + l::WHALES, 32);
    assert_eq!(mossgate.len(), 1);
    assert_eq!(one(p1 + l::WHALES + 32, 32), mossgate, "both whales in Mossgate, each in its own row");
    assert_eq!(one(p0 + l::CARGO, 6), vec![4], "whale 1 carries oil");
    assert_eq!(one(p0 + l::CHARACTERS, 64), vec![13]);
    assert_eq!(t[p0 + l::TERRITORY_TILES + 1], 2.0);
    assert_eq!(t[p0 + l::CAPITAL_TILES + 3], 1.0);
    assert_eq!(one(p0 + l::ACHIEVEMENTS, 4), vec![2]);
    assert_eq!(one(p0 + l::MARKERS, 8), vec![0], "green, upper field");
    assert_eq!(one(p0 + l::CARDS, 16), vec![1, 6, 11]);
    assert_eq!(one(p1 + l::CARDS, 16), Vec::<usize>::new(), "another's cards are hidden");
    assert_eq!(&t[p1 + l::CARDS_BY_DIFFICULTY..p1 + l::CARDS_BY_DIFFICULTY + 3], &[1.0, 1.0, 1.0]);
    assert_eq!(one(l::RESOURCE_FIELDS + 3 * 5, 5), vec![0]);
    assert_eq!(one(l::WORKER_FIELDS + 5, 5), vec![2]);
    assert_eq!(one(l::PORT_ROW, 32), vec![2]);
    assert_eq!(t[l::STACK_HEIGHT + 1], 2.0);
    assert_eq!(one(l::STACK_TOP + 5, 5), vec![0]);
    assert_eq!(one(l::CAPITAL_DISPLAY, 6), vec![5]);
    assert_eq!(one(l::CAPITAL_DISPLAY + 6, 6), vec![4]);
    let silver = l::TERRITORY_DISPLAY + 2 * 8 * 6;
    assert_eq!(one(silver + 2 * 6, 6), vec![4], "the third space of the silver row: oil");
    assert_eq!(t[l::CARGO_SUPPLY + 4], 5.0);
    assert_eq!(t[l::TERRITORY_STACKS + 2 * 6], 0.0, "both silver coal tiles are shown");
    assert_eq!(t[l::DECKS + 2], 6.0, "15 network cards, 9 dealt");
    // The same position seen by P1 shows P1's secrets and not P0's.
    g.observation_tensor(&s, 1, &mut t);
    let one = |at: usize, len: usize| -> Vec<usize> { (0..len).filter(|&i| t[at + i] == 1.0).collect() };
    assert_eq!(one(p0 + l::CARDS, 16), Vec::<usize>::new());
    assert_eq!(one(p1 + l::CARDS, 16), vec![0, 5, 10]);
    assert_eq!(one(p1 + l::DISCARDED, 5), vec![2]);
}

#[test]
fn after_the_bonuses_players_claim_only_what_a_port_bonus_made_possible() {
    // Phase C 2: "In clockwise order (starting with the starting player) you may fulfill
    // victory conditions that were made possible by a port bonus." (ruling 7) The green network
    // tile runs from Mossgate to Violet Reach (Mossgate, Sporeholm, Glowcap, Rootmere, Violet
    // Reach). P0 could claim it in its turn and declined: no bonus made it possible, so P0 is
    // not offered it in Phase C. P2's outpost in Rootmere comes from the Rootmere card's bonus
    // and joins the chain: P2 may claim it.
    let g = game(3);
    let p = |outposts: Value| json!({"chips": [5], "whales": [{"port": "Fernwick"}], "outposts": outposts});
    let mut s = at(&g, json!({"round": 0, "network_tiles": [2, 4, 7, 10], "port_row": [1, 2, 3, 4, 6], "stacks": [[2, 1]],
        "players": [p(json!(["Mossgate", "Sporeholm", "Glowcap", "Rootmere", "Violet Reach"])), p(json!([])),
            p(json!(["Mossgate", "Sporeholm", "Glowcap", "Violet Reach"]))]}));
    for q in 0..3 {
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
        if q == 0 {
            assert!(is_legal(&g, &s, "control-upper:green"), "P0 may claim at the end of its turn");
        }
        if s.phase == Phase::Turns && is_legal(&g, &s, "end-turn") {
            // A player is also asked where an easy card he might hold is joined (ruling 36).
            play(&g, &mut s, "end-turn");
        }
    }
    assert_eq!(s.phase, Phase::EndRoundClaims);
    assert_eq!(s.players[2].outposts & (1 << 5), 1 << 5, "P2's bonus outpost in Rootmere");
    assert_eq!(s.current, 2, "P0's claim was possible before the bonuses, P1 has none: both skipped");
    assert_eq!(legal(&g, &s), vec!["control-upper:green", "control-lower:green", "pass"]);
    play(&g, &mut s, "control-upper:green");
    play(&g, &mut s, "pass");
    assert_eq!(s.upper[0], 2);
    assert_eq!(s.round, 1);
    assert_eq!(s.bonus_outposts, [0; 5]);
    // The setup helper takes the bonus outposts of a Phase C position, and refuses one that is
    // not the player's outpost.
    let chain = json!(["Mossgate", "Sporeholm", "Glowcap", "Rootmere", "Violet Reach"]);
    let u = at(&g, json!({"phase": "end-round-claims", "step": "claim", "network_tiles": [2, 4, 7, 10],
        "players": [{"outposts": chain, "bonus_outposts": ["Rootmere"]}]}));
    assert_eq!(legal(&g, &u), vec!["control-upper:green", "control-lower:green", "pass"]);
    let e = g.setup(&json!({"phase": "end-round-claims", "players": [{"outposts": ["Mossgate"], "bonus_outposts": ["Rootmere"]}]}));
    assert!(matches!(&e, Err(crate::engine::EngineError::Setup { field, .. }) if field == "players[0].bonus_outposts[0]"), "{e:?}");
}

#[test]
fn a_turn_is_carried_out_in_a_fixed_order() {
    // "A turn consists of up to four actions, carried out in a fixed order: 1. Playing an action
    // chip is mandatory. 2. Moving transport whale(s), 3. loading or unloading cargo, and 4.
    // fulfilling victory conditions are optional." Before the chip nothing else is offered;
    // once the moves end no whale moves again; once the cargo step ends no cargo is handled.
    let g = game(3);
    let mut s = turn_position(&g);
    s.players[0].outposts = 1 | 1 << 3 | 1 << 4; // Mossgate, Sporeholm, Glowcap: the green tile
    let names = legal(&g, &s);
    assert!(names.iter().all(|n| n.starts_with("play-") || n.starts_with("use:")), "{names:?}");
    play(&g, &mut s, "play-5:port Rootmere");
    play(&g, &mut s, "take:coins");
    assert!(legal(&g, &s).iter().any(|n| n.starts_with("move-whale-")));
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("load-") || n.starts_with("control-")));
    play(&g, &mut s, "end-moves");
    assert!(is_legal(&g, &s, "load-1"));
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("move-whale-") || n.starts_with("control-")));
    play(&g, &mut s, "end-cargo");
    let names = legal(&g, &s);
    assert!(names.contains(&"control-upper:green".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("move-whale-") || n.starts_with("load-")), "{names:?}");
}

#[test]
fn whoever_last_saw_a_whale_is_seat_0_and_starts() {
    // "Whoever last saw a whale becomes the starting player and receives the starting player
    // marker." The engine cannot ask; the players seat that player as P0 (ruling 35), who holds
    // the marker, places the first whale and begins with 1 krill (2 with 2 players, where an
    // automa player starts, ruling 17).
    for n in [3, 4, 5] {
        let g = game(n);
        let mut s = g.initial_state();
        settle_chance(&g, &mut s);
        assert_eq!((s.start_player, s.current), (0, 0), "{n} players");
        assert_eq!(s.players[0].res[KRILL], 1);
        assert_eq!(s.players[1].res[KRILL], 2);
    }
}

#[test]
fn the_log_hides_the_secret_discard_and_the_dealt_cards_from_the_other_seats() {
    let g = game(3);
    let s = at(&g, json!({"phase": "discard"}));
    let mut after = s.clone();
    let mut v = Vec::new();
    g.legal_actions(&s, &mut v);
    g.apply(&mut after, v[2]);
    assert_eq!(g.describe_move(&s, v[2], &after, Some(0)), "P0 secretly discards chip 3.");
    assert_eq!(g.describe_move(&s, v[2], &after, Some(1)), "P0 discards a chip face down.");
    assert_eq!(g.action_string_for(&s, v[2], 1), "discard:a chip face down");
    // The network cards dealt at setup.
    let mut t = g.initial_state();
    while !matches!(t.draw, Draw::NetworkCard(..)) {
        g.legal_actions(&t, &mut v);
        g.apply(&mut t, v[0]);
    }
    g.legal_actions(&t, &mut v);
    let mut u = t.clone();
    g.apply(&mut u, v[0]);
    assert_eq!(g.describe_move(&t, v[0], &u, Some(1)), "P0 is dealt a network card (easy), face down.");
    assert!(g.describe_move(&t, v[0], &u, Some(0)).starts_with("P0 is dealt the easy network card "));
}

// ----- the audit's findings -----

/// P0 with no wood or steel, Forester (one-time: 3 wood), Ironmonger (one-time: 3 steel) and
/// Ferryman (one-time: free whale moves) in hand, at the start of a turn.
fn one_time_position(g: &Mistwind) -> State {
    at(g, json!({
        "players": [
            {"wood": 0, "steel": 0, "krill": 0, "coins": 5, "whales": [{"port": "Fernwick"}],
             "characters": ["Forester", "Ironmonger", "Ferryman"]},
            {"whales": [{"port": "Sporeholm"}]},
            {"whales": [{"port": "Glowcap"}]}
        ],
        "character_row": ["Lumber Merchant", "Smelter", "Whale Tamer", "Patron", "Cartographer"],
        "port_row": [1, 2, 3, 4, 6]
    }))
}

#[test]
fn a_one_time_character_can_pay_for_the_action_of_the_same_turn() {
    // "The ability may be used during your turn in the current or a later round (one-time
    // use)": during the whole turn, so also before the chip and while its action is carried out.
    let g = game(3);
    let mut s = one_time_position(&g);
    assert!(is_legal(&g, &s, "use:Forester") && is_legal(&g, &s, "use:Ironmonger"), "{:?}", legal(&g, &s));
    // On a port card: the resources arrive in time to build there.
    play(&g, &mut s, "play-1:port Mossgate");
    assert!(!is_legal(&g, &s, "build-outpost"));
    play(&g, &mut s, "use:Forester");
    play(&g, &mut s, "use:Ironmonger");
    assert_eq!((s.players[0].res[WOOD], s.players[0].res[STEEL]), (3, 3));
    play(&g, &mut s, "build-outpost");
    assert_eq!(s.players[0].outposts, 1 << 0);
    assert_eq!((s.players[0].res[WOOD], s.players[0].res[STEEL]), (2, 2));
    // Before the chip: the gain makes the worker board's outpost field payable.
    let mut t = one_time_position(&g);
    assert!(!is_legal(&g, &t, "play-1:worker"), "no wood or steel yet");
    play(&g, &mut t, "use:Forester");
    play(&g, &mut t, "use:Ironmonger");
    play(&g, &mut t, "play-1:worker");
    assert!(is_legal(&g, &t, "build:Tin Haven"));
}

#[test]
fn a_free_moves_character_is_offered_only_while_whales_may_move() {
    // "The ability may be used during your turn": free whale moves do something only before
    // the whales have finished moving, and only when their moves are not free already.
    let g = game(3);
    let mut s = one_time_position(&g);
    assert!(is_legal(&g, &s, "use:Ferryman"));
    play(&g, &mut s, "play-1:port Mossgate");
    play(&g, &mut s, "take:coins");
    assert!(is_legal(&g, &s, "use:Ferryman"), "the move step");
    play(&g, &mut s, "end-moves");
    assert!(!is_legal(&g, &s, "use:Ferryman"), "the cargo step: no whale moves any more");
    assert!(is_legal(&g, &s, "use:Forester"), "a gain stays usable all turn");
    // The worker board's free moves make the card useless this turn.
    let mut t = one_time_position(&g);
    play(&g, &mut t, "play-3:worker");
    assert!(!is_legal(&g, &t, "use:Ferryman"));
    // With only a free-moves card left, the empty claim step is skipped as before.
    let mut u = at(&g, json!({"players": [{"whales": [{"port": "Fernwick"}], "characters": ["Ferryman"]}],
                              "port_row": [1, 2, 3, 4, 6]}));
    play(&g, &mut u, "play-1:port Mossgate");
    play(&g, &mut u, "take:coins");
    assert!(is_legal(&g, &u, "use:Ferryman"));
    play(&g, &mut u, "move-whale-1:Lichen Bay");
    assert!(!is_legal(&g, &u, "use:Ferryman"), "every whale has moved");
    play(&g, &mut u, "end-moves");
    play(&g, &mut u, "end-cargo");
    assert_eq!(u.current, 1);
}

#[test]
fn the_worker_boards_fields_carry_out_their_abilities() {
    // "III. Worker Board (only one action chip per player per round): Each field has a
    // different ability." Side A (reconstructed): 1 build an outpost anywhere, 2 gain 2 coins
    // and 1 krill, 3 free whale moves this turn, 5 build a whale where you have an outpost.
    let g = game(3);
    let base = |extra: Value| {
        let mut p = json!({"wood": 3, "steel": 3, "krill": 0, "coins": 5, "whales": [{"port": "Fernwick"}]});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        at(&g, json!({"players": [p, {"whales": [{"port": "Sporeholm"}]}, {"whales": [{"port": "Glowcap"}]}],
                      "port_row": [1, 2, 3, 4, 6]}))
    };
    let mut s = base(json!({}));
    play(&g, &mut s, "play-1:worker");
    assert_eq!(legal(&g, &s).iter().filter(|n| n.starts_with("build:")).count(), 26);
    play(&g, &mut s, "build:Tin Haven");
    assert_eq!(s.players[0].res, [2, 2, 0, 5]);
    assert!(s.players[0].outposts != 0 && s.worker_fields[0] == 0);
    let mut s = base(json!({}));
    play(&g, &mut s, "play-2:worker");
    assert_eq!(s.players[0].res, [3, 3, 1, 7]);
    let mut s = base(json!({}));
    assert!(!is_legal(&g, &{ let mut m = s.clone(); play(&g, &mut m, "play-1:port Mossgate"); play(&g, &mut m, "take:coins"); m }, "move-whale-1:Sporeholm"),
        "without krill the whale cannot leave");
    play(&g, &mut s, "play-3:worker");
    assert!(is_legal(&g, &s, "move-whale-1:Driftwood"), "any distance without krill");
    // At the boundary: field 5 needs 2 wood and 2 steel and an outpost.
    let mut s = base(json!({"wood": 2, "steel": 2, "outposts": ["Peat Landing"]}));
    play(&g, &mut s, "play-5:worker");
    assert_eq!(legal(&g, &s), vec!["build:Peat Landing (brown, krill)"]);
    play(&g, &mut s, "build:Peat Landing");
    assert_eq!(s.players[0].res[..2], [0, 0]);
    assert_eq!(s.players[0].whales[1], 21);
    let short = base(json!({"wood": 2, "steel": 1, "outposts": ["Peat Landing"]}));
    assert!(!is_legal(&g, &short, "play-5:worker"));
}

#[test]
fn the_permanent_abilities_take_build_and_deliver() {
    // "The ability can be used at any time." Foreman: one more resource when taking at a port
    // card; Surveyor: outposts without steel; Broker: a coin per delivery.
    let g = game(3);
    let who = |c: &str, extra: Value| {
        let mut p = json!({"wood": 3, "steel": 0, "krill": 0, "coins": 0, "whales": [{"port": "Fernwick", "cargo": "textiles"}], "characters": [c]});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        at(&g, json!({"players": [p], "port_row": [1, 2, 3, 4, 6], "character_row": ["Lumber Merchant", "Smelter", "Whale Tamer", "Patron", "Cartographer"],
                      "territory_display": {"green": ["coal", "textiles", "oil", "oil"]}}))
    };
    let mut s = who("Foreman", json!({}));
    play(&g, &mut s, "play-2:port Fernwick");
    play(&g, &mut s, "take:wood");
    assert_eq!(s.players[0].res[WOOD], 3 + 1 + 1);
    let mut s = who("Surveyor", json!({}));
    play(&g, &mut s, "play-2:port Fernwick");
    play(&g, &mut s, "build-outpost");
    assert_eq!((s.players[0].res[WOOD], s.players[0].res[STEEL], s.players[0].outposts), (2, 0, 1 << 1));
    let mut s = who("Broker", json!({}));
    play(&g, &mut s, "play-2:port Fernwick");
    play(&g, &mut s, "take:wood");
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "deliver-1:demand row space 2");
    assert_eq!(s.players[0].res[COINS], 1);
    settle_chance(&g, &mut s);
    play(&g, &mut s, "choose:coins");
    assert_eq!(s.players[0].res[COINS], 2);
}

#[test]
fn the_setup_helper_refuses_positions_the_rules_cannot_reach() {
    // "only one outpost per player is allowed there"; "give one of each difficulty level to
    // every player".
    let g = game(3);
    let e = g.setup(&json!({"players": [{"outposts": ["Fernwick", "Fernwick"]}]})).unwrap_err().to_string();
    assert!(e.contains("players[0].outposts[1]"), "{e}");
    let e = g.setup(&json!({"players": [{"network_cards": [1, 2, 11]}]})).unwrap_err().to_string();
    assert!(e.contains("players[0].network_cards") && e.contains("two easy"), "{e}");
    let e = g.setup(&json!({"players": [{"network_cards": [6, 11], "claimed": [1], "card_discards": [2]}]})).unwrap_err().to_string();
    assert!(e.contains("two easy"), "{e}");
    assert!(g.setup(&json!({"players": [{"network_cards": [6, 11], "claimed": [1]}]})).is_ok());
}

#[test]
fn at_the_end_the_cards_still_held_are_turned_up_for_scoring() {
    // Scoring 6: "Receive the higher VP value on your network cards if you have completely
    // fulfilled their conditions during the game. You receive the lower VP value if the
    // conditions were only partially fulfilled." The cards still held are scored, so they are
    // turned up: the winner announced at the end depends on them.
    use crate::engine::rng::rng_from_seed;
    let g = game(3);
    let desc = |phase: &str, p0: [u8; 3]| {
        json!({"phase": phase, "players": [{"network_cards": p0}, {"network_cards": [2, 7, 12]}, {"network_cards": [3, 8, 13]}]})
    };
    let tensor = |s: &State| {
        let mut t = vec![0.0f32; super::view::tensor_len()];
        g.observation_tensor(s, 1, &mut t);
        t
    };
    let (mid, mid2) = (at(&g, desc("turns", [1, 6, 11])), at(&g, desc("turns", [4, 9, 14])));
    assert!(!g.text(&mid, Viewer::Seat(1)).contains(&g.card_words(0)));
    assert_eq!(tensor(&mid), tensor(&mid2), "hidden during the game");
    let (end, end2) = (at(&g, desc("game-over", [1, 6, 11])), at(&g, desc("game-over", [4, 9, 14])));
    assert!(g.text(&end, Viewer::Seat(1)).contains(&g.card_words(0)), "{}", g.text(&end, Viewer::Seat(1)));
    assert_ne!(tensor(&end), tensor(&end2), "turned up at the end");
    let mut rng = rng_from_seed(5);
    for _ in 0..20 {
        let r = g.resample(&end, 1, &mut rng);
        assert_eq!(r.players[0].cards, end.players[0].cards);
        assert_eq!(g.text(&r, Viewer::Seat(1)), g.text(&end, Viewer::Seat(1)));
    }
}

#[test]
fn the_turn_state_that_decides_the_legal_moves_is_observed() {
    // A player knows what they did on their turn, and the others saw it: two positions that
    // differ only in this turn's state (a whale moved, loaded, moves made free, the field of a
    // pending choice, the demand space of a resource choice) differ in the legal moves and
    // must look different to every seat, in the observation string and the tensor.
    let g = game(3);
    let cargo = at(&g, json!({"phase": "turns", "step": "cargo", "current": 0, "players": [
        {"krill": 0, "whales": [{"port": "Fernwick"}, {"port": "Fernwick"}]}]}));
    let mut pairs = vec![("a whale loaded", cargo.clone(), {
        let mut s = cargo.clone();
        s.cargo_done = 1;
        s
    })];
    assert_eq!(legal(&g, &pairs[0].2).iter().filter(|a| a.starts_with("load-")).collect::<Vec<_>>(), vec!["load-2"]);
    let mv = at(&g, json!({"phase": "turns", "step": "move", "current": 0, "players": [
        {"krill": 0, "whales": [{"port": "Fernwick"}, {"port": "Fernwick"}]}]}));
    let mut moved = mv.clone();
    moved.moved = 1;
    pairs.push(("a whale moved", mv.clone(), moved));
    let mut free = mv.clone();
    free.free_moves = true;
    pairs.push(("whale moves free", mv.clone(), free));
    let chip = at(&g, json!({"phase": "turns", "step": "chip", "current": 0, "port_row": [3, 1, 2, 4, 5], "players": [
        {"wood": 9, "steel": 9, "krill": 9, "coins": 9, "outposts": ["Fernwick"], "whales": [{"port": "Fernwick"}]}]}));
    let port_choice = |i: u8| {
        let mut s = chip.clone();
        s.step = Step::PortChoice(i);
        // An outpost in the first card's port: building one is open on the second card only.
        s.players[0].outposts = 1 << g.data.port_cards[s.port_row[0] as usize].port;
        s
    };
    pairs.push(("the port field of the choice", port_choice(0), port_choice(1)));
    let bottom = |i: u8| {
        let mut s = cargo.clone();
        s.step = Step::BottomChoice(i);
        s
    };
    pairs.push(("the demand space of the resource choice", bottom(0), bottom(1)));
    for (what, a, b) in &pairs {
        g.validate_state(a).unwrap();
        g.validate_state(b).unwrap();
        assert_ne!(legal(&g, a), legal(&g, b), "{what}: the legal moves differ");
        for seat in 0..3 {
            assert_ne!(g.text(a, Viewer::Seat(seat)), g.text(b, Viewer::Seat(seat)), "{what}: seat {seat}'s string");
            let mut x = vec![0.0f32; super::view::tensor_len()];
            let mut y = x.clone();
            g.observation_tensor(a, seat, &mut x);
            g.observation_tensor(b, seat, &mut y);
            assert_ne!(x, y, "{what}: seat {seat}'s tensor");
        }
    }
    // Which whale is where decides the moves' ids: the tensor tells the whales apart.
    let mut swapped = mv.clone();
    swapped.players[0].whales = [mv.players[0].whales[0], NONE, NONE];
    swapped.players[0].res[KRILL] = 1;
    let mut other = swapped.clone();
    other.players[0].whales = [NONE, mv.players[0].whales[0], NONE];
    assert_ne!(legal(&g, &swapped), legal(&g, &other));
    let mut x = vec![0.0f32; super::view::tensor_len()];
    let mut y = x.clone();
    g.observation_tensor(&swapped, 1, &mut x);
    g.observation_tensor(&other, 1, &mut y);
    assert_ne!(x, y, "whale 1 or whale 2 in Fernwick");
}

// ----- the 2-player game: two automa players (AUT) -----

/// The 2-player game's positions: P0 and P1 are seats 0 and 1, AUT1 and AUT2 positions 2 and 3.
const AUT1: u8 = 2;
const AUT2: u8 = 3;

#[test]
fn two_players_sit_between_two_automa_players_and_an_automa_player_starts() {
    // "Choose the action chips of two unused player colors for the automa players (AUT). ...
    // (turn order: AUT, PLA, AUT, PLA)" and "The game begins with one of the AUT as starting
    // player". "the starting player begins with 1 krill, the second player with 2 krill, the
    // third player with 3 krill, and so on" (ruling 17: P0 sits second, P1 fourth).
    let g = game(2);
    assert_eq!(g.spec().opponents, vec!["AUT1".to_string(), "AUT2".to_string()]);
    assert_eq!((g.positions, &g.order[..4]), (4, &[AUT1, 0, AUT2, 1][..]));
    assert_eq!(g.rounds, 4, "With 1 to 4 players, the game ends after 4 rounds");
    let mut s = g.initial_state();
    assert_eq!(s.start_player, AUT1);
    assert_eq!((s.players[0].res[KRILL], s.players[1].res[KRILL]), (2, 4));
    assert_eq!(s.players[AUT1 as usize].res, [0; 4]);
    settle_chance(&g, &mut s);
    // Only the players place whales and discard, clockwise from the starting player.
    assert_eq!((s.phase, s.current), (Phase::PlaceWhales, 0));
    play(&g, &mut s, "place-whale:Fernwick");
    assert_eq!(s.current, 1);
    play(&g, &mut s, "place-whale:Fernwick");
    assert_eq!((s.phase, s.current), (Phase::Discard, 0));
    play(&g, &mut s, "discard:chip 5");
    assert_eq!(s.current, 1);
    play(&g, &mut s, "discard:chip 5");
    // Phase B opens with AUT1's draw: a chance node over its whole deck, no decision.
    assert_eq!((g.actor(&s), s.draw), (Actor::Chance, Draw::Automa(AUT1)));
    let names = legal(&g, &s);
    assert_eq!(names, (1..=5).map(|n| format!("automa-chip:AUT1 draws chip {n}")).collect::<Vec<_>>());
    play(&g, &mut s, "automa-chip:AUT1 draws chip 2");
    assert_eq!((g.actor(&s), s.current), (Actor::Player(0), 0));
    play(&g, &mut s, "play-1:resources");
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert_eq!(s.draw, Draw::Automa(AUT2), "AUT, PLA, AUT, PLA");
    play(&g, &mut s, "automa-chip:AUT2 draws chip 4");
    assert_eq!(g.actor(&s), Actor::Player(1));
}

#[test]
fn an_automa_player_plays_four_chips_a_round_like_a_player() {
    // "The game begins with one of the AUT as starting player, who (like a human player)
    // places action chips": four chips a round; the fifth stays in its deck as its Phase A
    // discard (ruling 14).
    let g = game(2);
    let mut s = at(&g, json!({"players": [{"chips": [1, 2, 3, 4], "discarded": []}, {"chips": [1, 2, 3, 4], "discarded": []}]}));
    let mut draws = Vec::new();
    let mut v = Vec::new();
    while s.phase == Phase::Turns {
        g.legal_actions(&s, &mut v);
        if let Draw::Automa(q) = s.draw {
            draws.push((q, v.len()));
            g.apply(&mut s, v[0]);
        } else {
            // A player plays the port row (always open) and ends the turn.
            play_port_turn(&g, &mut s, &v);
        }
        while g.actor(&s) == Actor::Chance && !matches!(s.draw, Draw::Automa(_)) {
            settle_chance(&g, &mut s);
        }
    }
    // Each automa player drew from 5, 4, 3 and 2 chips left.
    assert_eq!(draws, vec![(AUT1, 5), (AUT2, 5), (AUT1, 4), (AUT2, 4), (AUT1, 3), (AUT2, 3), (AUT1, 2), (AUT2, 2)]);
}

/// A 2-player position at AUT `q`'s draw.
fn automa_turn(g: &Mistwind, q: u8, extra: Value) -> State {
    let mut desc = json!({"current": q});
    for (k, v) in extra.as_object().unwrap() {
        desc[k] = v.clone();
    }
    let s = at(g, desc);
    assert_eq!(s.draw, Draw::Automa(q));
    s
}

#[test]
fn the_zone_algorithm_places_on_the_matching_field_of_the_first_zone_with_it_free() {
    // "Draw a random action chip for the AUT and, starting in zone 1, ... 2. Check whether the
    // numbered field that matches the drawn action chip is still free. If so, place the AUT's
    // action chip on the matching field." Zone 1 is the resource board (reconstructed).
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!(s.resource_fields[2], AUT1);
    // "The AUT do not ..." take anything: it gains no resources (ruling 16).
    assert_eq!(s.players[AUT1 as usize].res, [0; 4]);
    assert_eq!(s.players[AUT1 as usize].hand, 0b1_1011);
    assert_eq!(s.current, 0, "the automa player's turn is only its chip");
}

#[test]
fn the_zone_algorithm_skips_a_zone_the_automa_player_already_used() {
    // "1. Check whether the AUT has already played an action chip in this zone. If so, repeat
    // step 1 for the next zone." AUT1 has a chip on the resource board (zone 1): chip 3 goes
    // to the character row (zone 2) although resource field 3 is free.
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({"automa": [{"chips": [2, 3, 4, 5]}], "resource_fields": {"1": AUT1}}));
    let card = s.character_row[2];
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!((s.resource_fields[2], s.character_chips[2]), (NONE, AUT1));
    // "The AUT ... do not take character cards": the card stays, its field is blocked.
    assert_eq!(s.character_row[2], card);
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("play-3:character")));
}

#[test]
fn the_zone_algorithm_goes_to_the_next_zone_when_the_field_is_taken() {
    // "If not, continue to the next zone and start again at step 1." P0's chip lies on
    // resource field 3, P1's on character field 3: AUT1's chip 3 goes to worker field 3
    // (zone 3).
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({"resource_fields": {"3": 0}, "character_chips": {"3": 1}}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!(s.worker_fields[2], AUT1);
    assert_eq!(s.players[AUT1 as usize].res, [0; 4], "the worker field's ability is not carried out");
}

#[test]
fn in_zone_4_the_automa_player_always_places_and_stacks_on_other_chips() {
    // "3. If the AUT reaches zone 4, it always discards its action chip, even if it has
    // already discarded an action chip in this zone." and "If another player's action chip is
    // already on the field matching the drawn action chip, the AUT's action chip is placed on
    // top of it, following the normal game rules." Zone 4 is the port row (reconstructed).
    let g = game(2);
    // AUT1 has played chip 1 in zone 1, chip 2 in zone 2 and chip 4 in zone 4 (port field 4);
    // chip 3's worker field is taken, so chip 3 reaches zone 4 again, onto P0's chip.
    let used = json!({"resource_fields": {"1": AUT1}, "character_chips": {"2": AUT1}, "worker_fields": {"3": 1},
                      "stacks": [[0, 0], [0, 0], [1, 0], [1, AUT1]], "automa": [{"chips": [3, 5]}]});
    let mut s = automa_turn(&g, AUT1, used);
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!((s.stack_height[2], s.stack_top[2]), (2, AUT1), "even if it has already discarded there");
    assert_eq!((s.stack_height[3], s.stack_top[3]), (1, AUT1));
    // Zone 4 by step 2 in every zone: chip 5's fields are taken by the other positions in
    // zones 1, 2 and 3 ("If not, continue to the next zone and start again at step 1").
    let blocked = json!({"resource_fields": {"5": 0}, "character_chips": {"5": 1}, "worker_fields": {"5": AUT2}});
    let mut s = automa_turn(&g, AUT1, blocked);
    play(&g, &mut s, "automa-chip:AUT1 draws chip 5");
    assert_eq!((s.stack_height[4], s.stack_top[4]), (1, AUT1));
    // A free field of a zone the automa player has not used comes first: resource field 4 is
    // taken, character field 4 is free.
    let mut s = automa_turn(&g, AUT1, json!({"resource_fields": {"4": 0}}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 4");
    assert_eq!((s.character_chips[3], s.stack_height[3]), (AUT1, 0));
}

#[test]
fn a_port_card_pays_for_every_chip_on_it_and_an_automa_player_there_gains_nothing() {
    // "receive as much of that resource as there are action chips on that field (including
    // the one you just played)": an automa player's chip counts. "The AUT do not build
    // outposts ... and do not receive achievements": it takes nothing itself.
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({"resource_fields": {"5": 0}, "character_chips": {"5": 1}, "worker_fields": {"5": AUT2}}));
    let before = s.players[AUT1 as usize];
    play(&g, &mut s, "automa-chip:AUT1 draws chip 5");
    let mut after = s.players[AUT1 as usize];
    assert_eq!(after.hand, before.hand & !(1 << 4), "its chip 5 is played");
    after.hand = before.hand;
    assert_eq!(after, before, "and it gained nothing");
    // AUT1's chip on port field 5, then P0's chip 5 on top of it takes 2 coins.
    let mut s = at(&g, json!({"current": 0, "players": [{"chips": [2, 3, 4, 5], "coins": 9}], "resource_fields": {"1": 0},
                              "stacks": [[0, 0], [0, 0], [0, 0], [0, 0], [1, AUT1]]}));
    let port = legal(&g, &s).into_iter().find(|n| n.starts_with("play-5:port")).expect("P0 may play chip 5 on the port card");
    play(&g, &mut s, &port);
    play(&g, &mut s, "take:coins");
    assert_eq!(s.players[0].res[3], 11, "two chips on the field: 2 coins");
}

#[test]
fn the_setup_helper_takes_the_chips_on_the_board_out_of_the_hands() {
    // A position has one chip of each number: a chip on a field is played, and marks the board
    // it was played on ("only one action chip per player per round" on each board).
    let g = game(2);
    let s = at(&g, json!({"current": 0, "resource_fields": {"1": AUT1}, "worker_fields": {"2": AUT1, "3": 0}}));
    assert_eq!(s.players[AUT1 as usize].hand, 0b1_1100);
    assert!(s.players[AUT1 as usize].used_resource_board && s.players[AUT1 as usize].used_worker_board);
    assert_eq!(s.players[0].hand, 0b1_1011);
    assert!(s.players[0].used_worker_board && !s.players[0].used_resource_board);
    assert!(!legal(&g, &s).iter().any(|n| n.contains(":worker")), "{:?}", legal(&g, &s));
    // A chip described both in a hand and on the board, or on two fields, is refused.
    let e = g.setup(&json!({"current": 0, "players": [{"chips": [1, 2, 3]}], "resource_fields": {"2": 0}})).unwrap_err();
    assert!(e.to_string().contains("chip 2 lies on the board"), "{e}");
    let e = g.setup(&json!({"current": 0, "resource_fields": {"2": 0}, "worker_fields": {"2": 0}})).unwrap_err();
    assert!(e.to_string().contains("P0's chip 2 lies on two fields"), "{e}");
}

#[test]
fn an_automa_player_on_worker_field_4_takes_the_starting_player_marker() {
    // "However, an AUT does take the starting player marker whenever it randomly places its
    // chip on the fourth field of the worker board."
    let g = game(2);
    let mut s = automa_turn(&g, AUT2, json!({"resource_fields": {"4": 0}, "character_chips": {"4": 1}}));
    assert_eq!(s.start_player, AUT1);
    play(&g, &mut s, "automa-chip:AUT2 draws chip 4");
    assert_eq!((s.worker_fields[3], s.start_player), (AUT2, AUT2));
    // The round goes on clockwise from AUT2 (table AUT1, P0, AUT2, P1): P1 plays next.
    assert_eq!((s.current, s.draw), (1, Draw::None));
    // The marker's 2 VP are the automa player's: no seat scores them.
    let r = g.score_report(&s);
    assert_eq!((r.points[0][0], r.points[1][0]), (0.0, 0.0));
    assert_eq!((r.opponents[1].name.as_str(), r.opponents[1].points[0]), ("AUT2", 2.0));
}

#[test]
fn an_automa_player_on_top_of_a_port_stack_takes_no_bonus() {
    // "the player whose action chip lies on top of a stack receives the port bonus" — the AUT
    // "do not build outposts" and hold no resources, so the bonus under its chip is lost
    // (ruling 16).
    let g = game(2);
    let mut s = at(&g, json!({"current": 1, "start_player": 0,
        "players": [{"chips": []}, {"chips": [1]}], "automa": [{"chips": [5]}, {"chips": [5]}],
        "stacks": [[2, AUT1], [1, 0]]}));
    let before = s.players[0].res;
    play(&g, &mut s, "play-1:resources");
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert_ne!(s.phase, Phase::Turns, "all chips are played");
    let bonus2 = g.data.port_cards[1].gain;
    let mut want = before;
    for r in 0..4 {
        want[r] += bonus2[r] as u16;
    }
    assert_eq!(s.players[0].res, want, "P0 takes field 2's bonus only");
    assert_eq!(s.players[AUT1 as usize].res, [0; 4]);
}

#[test]
fn the_automa_players_have_report_rows_and_never_win() {
    // The AUT simulate the absent players' turns; the 2-player game is won by one of the two
    // players (ruling 15), even when an automa player holds more points.
    let g = game(2);
    let s = at(&g, json!({"phase": "game-over", "start_player": AUT1,
        "players": [{"wood": 0, "steel": 0}, {"wood": 1, "steel": 0}]}));
    let r = g.score_report(&s);
    assert_eq!(r.totals, vec![0.0, 0.0]);
    assert_eq!(r.opponents.iter().map(|o| o.total).collect::<Vec<_>>(), vec![2.0, 0.0]);
    assert_eq!((r.winners.clone(), r.opponent_winners.len()), (vec![1], 0), "the tie goes to the most wood and steel");
    let mut ret = [0.0; 2];
    g.returns(&s, &mut ret);
    assert_eq!(ret, [-1.0, 1.0]);
}

#[test]
fn the_setup_helper_takes_2_player_positions_and_refuses_others() {
    let g = game(2);
    let s = at(&g, json!({"start_player": AUT2, "current": 0, "automa": [{"chips": [1, 2]}], "stacks": [[1, AUT2]]}));
    assert_eq!((s.start_player, s.players[AUT1 as usize].hand, s.stack_top[0]), (AUT2, 0b11, AUT2));
    for (desc, field) in [
        (json!({"start_player": 4}), "start_player"),
        (json!({"automa": [{}, {}, {}]}), "automa"),
        (json!({"automa": [{"chips": [6]}]}), "automa[0].chips"),
        (json!({"phase": "discard", "current": AUT1}), "current"),
    ] {
        let e = g.setup(&desc).unwrap_err().to_string();
        assert!(e.contains(field), "{desc}: {e}");
    }
}

#[test]
fn the_observation_shows_the_automa_players_chips_and_decks() {
    // The fields the automa players hold decide what the players may play: both the text
    // and the tensor show them, and the decks they draw from.
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({}));
    assert!(g.text(&s, Viewer::Seat(0)).starts_with("Mistwind, round 1/4 - AUT1 draws a chip\n"));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 2");
    let text = g.text(&s, Viewer::Seat(0));
    assert!(text.contains("Resource board: 1:- 2:AUT1"), "{text}");
    assert!(text.contains("AUT1 (starting player): automa, chips in its deck [1 3 4 5]"), "{text}");
    let mut t = vec![0.0f32; super::view::tensor_len()];
    g.observation_tensor(&s, 1, &mut t);
    use super::view::layout;
    assert_eq!(t[layout::RESOURCE_FIELDS + 5 + AUT1 as usize], 1.0);
    let aut = layout::PLAYERS + AUT1 as usize * layout::PLAYER_SIZE;
    assert_eq!(&t[aut + layout::HAND..aut + layout::HAND + 5], &[1.0, 0.0, 1.0, 1.0, 1.0]);
    assert_eq!(t[layout::START_PLAYER + AUT1 as usize], 1.0);
}

#[test]
fn an_automa_player_with_the_marker_leads_the_next_round() {
    // "an AUT does take the starting player marker whenever it randomly places its chip on the
    // fourth field of the worker board" and "The starting player begins with their first turn,
    // after which all other players take their turn clockwise": AUT2 takes the marker with the
    // round's last chip; in the next round P1, the first player clockwise from AUT2, discards
    // first, then P0, and AUT2 opens Phase B (rulings 10, 17).
    let g = game(2);
    let mut s = automa_turn(&g, AUT2, json!({"players": [{"chips": []}, {"chips": []}],
        "automa": [{"chips": [5]}, {"chips": [4, 5]}], "resource_fields": {"4": 0}, "character_chips": {"4": 1}}));
    play(&g, &mut s, "automa-chip:AUT2 draws chip 4");
    assert_eq!(s.start_player, AUT2);
    settle_chance(&g, &mut s);
    assert_eq!((s.round, s.phase, s.current), (1, Phase::Discard, 1));
    play(&g, &mut s, "discard:chip 1");
    assert_eq!(s.current, 0);
    play(&g, &mut s, "discard:chip 1");
    assert_eq!((s.phase, s.draw, s.round_lead), (Phase::Turns, Draw::Automa(AUT2), AUT2));
    // The network tiles' side for two players is "1-3" (ruling 19).
    assert_eq!(Data::tile_side(g.players), 0);
}

#[test]
fn saved_2_player_states_with_an_impossible_automa_player_are_refused() {
    let g = game(2);
    let s = automa_turn(&g, AUT1, json!({}));
    g.validate_state(&s).unwrap();
    let mut holds = s.clone();
    holds.players[AUT1 as usize].res[WOOD] = 1;
    let mut moving = s.clone();
    moving.step = Step::Move;
    let mut empty = s.clone();
    empty.players[AUT1 as usize].hand = 0b1;
    let mut no_draw = s.clone();
    no_draw.draw = Draw::None;
    for bad in [holds, moving, empty, no_draw] {
        assert!(g.validate_state(&bad).is_err());
    }
}

// ----- the solo mode -----

const S_AUT1: u8 = 1;
const S_AUT2: u8 = 2;
const S_AUT3: u8 = 3;

fn solo(difficulty: &str) -> Mistwind {
    Mistwind::load(&opts(json!({ "players": 1, "difficulty": difficulty }))).unwrap()
}

#[test]
fn the_difficulty_is_a_solo_option_and_every_difficulty_is_a_configuration() {
    // "How to Win the Game: Mushroom Farmer (Easy) ... Port Worker (Medium) ... Deep-Mist
    // Diver (Hard)": three configurations of the solo mode; "easy" is the default.
    let configs = Mistwind::configurations();
    for d in DIFFICULTY_LEVELS {
        assert!(configs.iter().any(|c| c["players"] == 1 && c["difficulty"] == d), "{d}: {configs:?}");
    }
    assert_eq!(solo("easy").difficulty, 0);
    assert_eq!(Mistwind::load(&opts(json!({"players": 1}))).unwrap().difficulty, 0);
    assert_eq!(solo("hard").spec().tiers, vec!["Mushroom Farmer", "Port Worker", "Deep-Mist Diver"]);
    let e = Mistwind::load(&opts(json!({"players": 3, "difficulty": "medium"}))).unwrap_err().to_string();
    assert!(e.contains("difficulty"), "{e}");
    assert!(game(3).spec().tiers.is_empty());
}

#[test]
fn solo_three_automa_players_begin_and_the_player_sits_fourth_with_4_krill() {
    // "Choose 3 unused action-chip decks to simulate 3 automa players (AUT1, AUT2, and AUT3).
    // ... Give one of the AUT the starting player marker. The 3 AUT players begin the game;
    // you are in fourth position. This means you begin with 4 krill" and "The game is played
    // over 4 rounds".
    let g = solo("easy");
    assert_eq!(g.spec().opponents, vec!["AUT1".to_string(), "AUT2".to_string(), "AUT3".to_string()]);
    assert_eq!((g.positions, &g.order[..4]), (4, &[S_AUT1, S_AUT2, S_AUT3, 0][..]));
    assert_eq!(g.rounds, 4);
    assert_eq!(Data::tile_side(g.players), 0, "the 1-3 side of the network tiles");
    let mut s = g.initial_state();
    assert_eq!(s.start_player, S_AUT1);
    assert_eq!(s.players[0].res, [1, 1, 4, 2], "wood 1, steel 1, krill 4, coins 2");
    settle_chance(&g, &mut s);
    assert_eq!((s.phase, s.current), (Phase::PlaceWhales, 0));
    play(&g, &mut s, "place-whale:Fernwick");
    assert_eq!((s.phase, s.current), (Phase::Discard, 0));
    play(&g, &mut s, "discard:chip 5");
    // "The player order can change ... whenever you or one of the AUT receives the starting
    // player marker": the turns go AUT1, AUT2, AUT3, P0 from AUT1.
    for (q, chip) in [(S_AUT1, 1), (S_AUT2, 2), (S_AUT3, 3)] {
        assert_eq!(s.draw, Draw::Automa(q));
        play(&g, &mut s, &format!("automa-chip:AUT{q} draws chip {chip}"));
    }
    assert_eq!(g.actor(&s), Actor::Player(0));
}

#[test]
fn solo_phase_a_puts_one_chip_of_each_automa_deck_face_down() {
    // "When you discard your action chip in Phase A, take the top action chip from each AUT
    // deck and place it face down on the compass on the game board." Each AUT plays four
    // chips; the chip left in its deck is the one face down (ruling 14): its draws are from 5,
    // 4, 3 and 2 chips, and it plays none after its fourth.
    let g = solo("easy");
    let mut s = at(&g, json!({"players": [{"chips": [1, 2, 3, 4], "discarded": []}]}));
    let mut draws = Vec::new();
    let mut v = Vec::new();
    while s.phase == Phase::Turns {
        g.legal_actions(&s, &mut v);
        if let Draw::Automa(q) = s.draw {
            draws.push((q, v.len()));
            g.apply(&mut s, *v.last().unwrap());
        } else if g.actor(&s) == Actor::Chance {
            g.apply(&mut s, v[0]);
        } else {
            play_port_turn(&g, &mut s, &v);
        }
    }
    let mut want = Vec::new();
    for left in [5, 4, 3, 2] {
        for q in [S_AUT1, S_AUT2, S_AUT3] {
            want.push((q, left));
        }
    }
    assert_eq!(draws, want);
}

#[test]
fn solo_the_first_rounds_blocking_placements() {
    // "If AUT1 has the starting player marker in Phase B of the first round, take the top
    // action chip from AUT1, reveal it, and place it on the matching numbered field in zone 1.
    // Repeat this process for the action chips of AUT2 and AUT3. If the numbered field for a
    // just-revealed action chip is already occupied, place it on the matching numbered field
    // in the next zone instead. These action fields are blocked for you."
    let g = solo("easy");
    let mut s = at(&g, json!({"current": S_AUT1}));
    assert_eq!((s.round, s.start_player, s.draw), (0, S_AUT1, Draw::Automa(S_AUT1)));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!(s.resource_fields[2], S_AUT1, "zone 1");
    play(&g, &mut s, "automa-chip:AUT2 draws chip 3");
    assert_eq!(s.character_chips[2], S_AUT2, "resource field 3 is occupied: the next zone");
    play(&g, &mut s, "automa-chip:AUT3 draws chip 3");
    assert_eq!(s.worker_fields[2], S_AUT3, "and the next");
    assert_eq!(g.actor(&s), Actor::Player(0));
    let names = legal(&g, &s);
    assert!(!names.iter().any(|n| n.starts_with("play-3:") && !n.starts_with("play-3:port")), "{names:?}");
    assert!(names.iter().any(|n| n == "play-1:resources"));
}

#[test]
fn solo_each_automa_player_places_at_most_one_chip_in_each_of_zones_1_to_3() {
    // "In future turns, each AUT may only ever place one action chip in zones 1-3. First check
    // whether an AUT has an action chip in zone 1. If so, check the next zone, and continue as
    // described in the 2-player rules." AUT2 has chips in zones 1 to 3: chip 2 goes to the
    // port row although resource, character and worker field 2 are free.
    let g = solo("easy");
    let desc = json!({"current": S_AUT2, "resource_fields": {"1": S_AUT2}, "character_chips": {"3": S_AUT2},
        "worker_fields": {"5": S_AUT2}, "automa": [{}, {"chips": [2, 4]}]});
    let mut s = at(&g, desc);
    play(&g, &mut s, "automa-chip:AUT2 draws chip 2");
    assert_eq!((s.resource_fields[1], s.character_chips[1], s.worker_fields[1]), (NONE, NONE, NONE));
    assert_eq!((s.stack_height[1], s.stack_top[1]), (1, S_AUT2));
    // With zone 1 used only, chip 4 goes to zone 2.
    let mut s = at(&g, json!({"current": S_AUT2, "resource_fields": {"1": S_AUT2}, "automa": [{}, {"chips": [2, 4]}]}));
    play(&g, &mut s, "automa-chip:AUT2 draws chip 4");
    assert_eq!(s.character_chips[3], S_AUT2);
}

#[test]
fn solo_an_automa_chip_on_a_port_card_takes_the_lowest_territory_tile_of_its_region() {
    // "If you place an AUT's action chip on a port card in the bottom row, give that AUT the
    // lowest revealed territory demand tile matching the region (color) of the port card."
    // Port field 1 holds the Mossgate card (green); AUT3 has used zones 1-3.
    let g = solo("easy");
    let desc = json!({"current": S_AUT3, "start_player": S_AUT3, "resource_fields": {"2": S_AUT3}, "character_chips": {"3": S_AUT3},
        "worker_fields": {"4": S_AUT3}, "automa": [{}, {}, {"chips": [1, 5]}],
        "territory_display": {"green": ["oil", "coal", "coffee", "textiles"]}});
    let mut s = at(&g, desc.clone());
    assert_eq!(g.data.ports[g.data.port_cards[s.port_row[0] as usize].port as usize].region, 0);
    let oil = g.data.cargo.iter().position(|c| c == "oil").unwrap() as u8;
    let coal = g.data.cargo.iter().position(|c| c == "coal").unwrap() as u8;
    let stack = s.territory_stack[0];
    let before = s.clone();
    play(&g, &mut s, "automa-chip:AUT3 draws chip 1");
    let log = g.describe_move(&before, 0, &s, Some(0));
    assert!(log.contains("takes the green oil demand tile"), "{log}");
    assert_eq!(s.players[S_AUT3 as usize].territory_tiles, [1, 0, 0, 0]);
    assert_eq!(s.territory_display[0][..4], [coal, g.data.cargo.iter().position(|c| c == "coffee").unwrap() as u8, g.data.cargo.iter().position(|c| c == "textiles").unwrap() as u8, NONE]);
    // "Then refill the topmost space from the supply": the next chance node.
    assert_eq!(s.draw, Draw::Territory(0, 3));
    assert_eq!(s.territory_stack[0], stack);
    assert_ne!(s.territory_display[0][0], oil);
    // An empty row gives nothing.
    let mut s = at(&g, desc.clone());
    s.territory_display[0] = [NONE; MAX_TERRITORY_ROW];
    s.territory_stack[0] = [0; CARGO_TYPES];
    play(&g, &mut s, "automa-chip:AUT3 draws chip 1");
    assert_eq!((s.stack_top[0], s.players[S_AUT3 as usize].territory_tiles), (S_AUT3, [0; 4]));
    // A row that is not full, its stack empty (P0 collected the rest): AUT3 takes the bottom
    // tile, the row slides down, and no refill draw follows; the AUT takes no resource of the
    // bottom space.
    let rest = g.data.territory_tiles[0].iter().map(|&c| c as u32).sum::<u32>() - 2;
    let mut short = desc.clone();
    short["territory_display"] = json!({"green": ["oil", "coal"]});
    short["players"] = json!([{"territory_tiles": {"green": rest}}]);
    let mut s = at(&g, short);
    assert_eq!(s.territory_stack[0], [0; CARGO_TYPES]);
    play(&g, &mut s, "automa-chip:AUT3 draws chip 1");
    assert_eq!(s.players[S_AUT3 as usize].territory_tiles, [1, 0, 0, 0]);
    assert_eq!(s.territory_display[0][..2], [coal, NONE]);
    assert_eq!(s.players[S_AUT3 as usize].res, [0; 4]);
    assert_eq!((s.draw, g.actor(&s)), (Draw::None, Actor::Player(0)), "no refill draw: P0 plays next");
    // "as many times as chips lie on the card": AUT1's chip counts for P0's take, and the
    // AUT1 gains nothing from the bonus under P0's chip.
    let mut s = at(&g, json!({"current": 0, "players": [{"chips": [2, 3, 4, 5], "coins": 9}], "resource_fields": {"1": 0},
                              "stacks": [[0, 0], [0, 0], [0, 0], [0, 0], [1, S_AUT1]]}));
    let port = legal(&g, &s).into_iter().find(|n| n.starts_with("play-5:port")).expect("P0 may play chip 5 on the port card");
    play(&g, &mut s, &port);
    play(&g, &mut s, "take:coins");
    assert_eq!(s.players[0].res[3], 11, "two chips on the field: 2 coins");
    assert_eq!(s.players[S_AUT1 as usize].res, [0; 4]);
    // In the 2-player game an automa chip on a port card takes nothing (ruling 16).
    let g2 = game(2);
    let mut s = automa_turn(&g2, AUT1, json!({"resource_fields": {"2": AUT1}, "character_chips": {"3": AUT1},
        "worker_fields": {"4": AUT1}, "automa": [{"chips": [1, 5]}]}));
    play(&g2, &mut s, "automa-chip:AUT1 draws chip 1");
    assert_eq!((s.stack_top[0], s.players[AUT1 as usize].territory_tiles), (AUT1, [0; 4]));
}

#[test]
fn solo_the_automa_players_pool_their_demand_tiles_for_the_cargo_majority() {
    // "For scoring cargo majority, all 3 AUT add up their collected demand tiles together, as
    // if they had been collected by a single player." P0 has 2 green points; the AUT 1 each:
    // pooled 3 beats 2 (alone, each AUT's 1 would not), and the 5 VP go in AUT1's row.
    let g = solo("easy");
    let aut = |k: [u8; 3]| json!([{"territory_tiles": {"green": k[0]}}, {"territory_tiles": {"green": k[1]}}, {"territory_tiles": {"green": k[2]}}]);
    let s = at(&g, json!({"players": [{"territory_tiles": {"green": 2}}], "automa": aut([1, 1, 1])}));
    let r = g.score_report(&s);
    assert_eq!(r.points[0][1..3], [2.0, 0.0]);
    assert_eq!(r.opponents.iter().map(|o| (o.points[1], o.points[2])).collect::<Vec<_>>(), vec![(1.0, 5.0), (1.0, 0.0), (1.0, 0.0)]);
    // Pooled 2 against 2: "In case of a tie, the points are split evenly (rounded down)".
    let s = at(&g, json!({"players": [{"territory_tiles": {"green": 2}}], "automa": aut([1, 1, 0])}));
    let r = g.score_report(&s);
    assert_eq!((r.points[0][2], r.opponents[0].points[2]), (2.0, 2.0));
    // Pooled 1 against 2: the player's.
    let s = at(&g, json!({"players": [{"territory_tiles": {"green": 2}}], "automa": aut([0, 0, 1])}));
    let r = g.score_report(&s);
    assert_eq!((r.points[0][2], r.opponents[0].points[2], r.opponents[2].points[2]), (5.0, 0.0, 0.0));
}

/// A finished solo game where P0 holds `achievements` (letters), control markers on the
/// upper field of `tiles` regions and the revealed network cards `claimed` (or the fields of
/// `extra`), with territory tiles added so the total is exactly `points`.
fn solo_end(g: &Mistwind, achievements: &[&str], tiles: usize, claimed: &[u8], points: u32) -> State {
    solo_end_with(g, achievements, tiles, json!({"claimed": claimed, "network_cards": []}), points)
}

fn solo_end_with(g: &Mistwind, achievements: &[&str], tiles: usize, extra: Value, points: u32) -> State {
    let regions = ["green", "purple", "silver", "brown"];
    let markers: Map<String, Value> = regions[..tiles].iter().map(|r| (r.to_string(), json!("upper"))).collect();
    let mut pd = json!({"achievements": achievements, "markers": markers});
    for (k, v) in extra.as_object().unwrap() {
        pd[k] = v.clone();
    }
    let base: u32 = g.tally(&at(g, json!({"phase": "game-over", "start_player": S_AUT1, "players": [pd.clone()]})), 0).iter().sum();
    // Each region with k territory tiles adds k + 5 (its majority).
    let need = points.checked_sub(base).unwrap_or_else(|| panic!("base {base} above {points}"));
    let mut m = 1;
    while need > 17 * m {
        m += 1;
    }
    assert!(need >= 6 * m, "base {base}, goal {points}");
    let mut left = need - 5 * m;
    let mut t = Map::new();
    for (k, r) in regions[..m as usize].iter().enumerate() {
        let x = if k as u32 == m - 1 { left } else { (left - (m - 1 - k as u32)).min(12) };
        left -= x;
        t.insert(r.to_string(), json!(x));
    }
    pd["territory_tiles"] = Value::Object(t);
    let s = at(g, json!({"phase": "game-over", "start_player": S_AUT1, "players": [pd]}));
    assert_eq!(g.tally(&s, 0).iter().sum::<u32>(), points);
    s
}

#[test]
fn solo_the_difficulty_goal_decides_the_game_at_its_boundaries() {
    // "Mushroom Farmer (Easy) - Obtain 1 achievement tile, 1 network tile, and at least 30
    // points. Port Worker (Medium) - Fulfill the conditions of your network card, obtain 2
    // achievement tiles, 2 network tiles, and at least 45 points. Deep-Mist Diver (Hard) -
    // Fulfill the conditions of your network card, obtain 3 achievement tiles, 3 network
    // tiles, and at least 60 points." A missed goal is a loss with no winning seat (ruling 24).
    let card = [6u8]; // a medium card, revealed
    for (d, n, pts) in [("easy", 1usize, 30u32), ("medium", 2, 45), ("hard", 3, 60)] {
        let g = solo(d);
        let letters = &["A", "B", "C"][..n];
        let fewer = &letters[..n - 1];
        let needs_card = d != "easy";
        let cards: &[u8] = if needs_card { &card } else { &[] };
        let won = solo_end(&g, letters, n, cards, pts);
        assert_eq!(g.winners(&won), vec![0], "{d}: the goal exactly");
        let mut ret = [0.0];
        g.returns(&won, &mut ret);
        assert_eq!(ret, [1.0]);
        let r = g.score_report(&won);
        assert_eq!(r.winners, vec![0]);
        assert_eq!(r.tier.as_deref(), Some(g.data.goals[g.difficulty].name.as_str()), "{d}");
        assert!(r.notes.iter().any(|x| x.starts_with(&format!("goal {}", g.data.goals[g.difficulty].name)) && !x.contains("not met")), "{:?}", r.notes);
        let mut losses = vec![("a point short", solo_end(&g, letters, n, cards, pts - 1)), ("an achievement short", solo_end(&g, fewer, n, cards, pts)),
            ("a network tile short", solo_end(&g, letters, n - 1, cards, pts))];
        if needs_card {
            losses.push(("no network card", solo_end(&g, letters, n, &[], pts)));
        }
        for (what, s) in losses {
            assert!(g.winners(&s).is_empty(), "{d}, {what}");
            g.returns(&s, &mut ret);
            assert_eq!(ret, [-1.0], "{d}, {what}");
            let r = g.score_report(&s);
            assert!(r.winners.is_empty() && r.opponent_winners.is_empty());
            assert!(r.to_table().contains("no winner"));
            assert!(r.notes.iter().any(|x| x.contains("not met")), "{d}, {what}: {:?}", r.notes);
            assert_ne!(r.tier.as_deref(), Some(g.data.goals[g.difficulty].name.as_str()));
        }
    }
    // A network card held (not revealed) with both destinations joined at the end fulfils it
    // (ruling 23): card 6, Rootmere to Duskharbor and Mossgate, joined by outposts; with one
    // destination cut off it is not fulfilled. The report's tier is the highest goal met,
    // here with easy chosen (ruling 24).
    let g = solo("easy");
    let chain = ["Rootmere", "Violet Reach", "Duskharbor", "Glowcap", "Sporeholm", "Mossgate"];
    let held = solo_end_with(&g, &["A", "B", "C"], 3, json!({"network_cards": [6], "outposts": chain}), 60);
    assert!(g.goal_standing(&held, 2).met());
    assert_eq!(g.score_report(&held).tier.as_deref(), Some("Deep-Mist Diver"));
    assert_eq!(g.winners(&held), vec![0]);
    let cut = solo_end_with(&g, &["A", "B", "C"], 3, json!({"network_cards": [6], "outposts": &chain[..5]}), 60);
    assert!(!g.goal_standing(&cut, 2).card);
    assert_eq!(g.score_report(&cut).tier.as_deref(), Some("Mushroom Farmer"));
    // "your network card" names no difficulty (ruling 23): a revealed easy card meets the
    // hard goal's card condition.
    let hard = solo("hard");
    assert_eq!(hard.data.network_cards[0].difficulty, 0, "card 1 is an easy card");
    let easy_card = solo_end(&hard, &["A", "B", "C"], 3, &[1], 60);
    assert!(hard.goal_standing(&easy_card, 2).card);
    assert_eq!(hard.winners(&easy_card), vec![0]);
    // "obtain N network tiles": markers on the lower fields count (ruling 23).
    let medium = solo("medium");
    let lower = solo_end_with(&medium, &["A", "B"], 0, json!({"claimed": [6], "network_cards": [], "markers": {"green": "lower", "purple": "lower"}}), 45);
    assert_eq!(medium.goal_standing(&lower, 1).tiles, (2, true));
    assert_eq!(medium.winners(&lower), vec![0]);
    // The report has no tie-break row: the goal decides.
    let r = medium.score_report(&lower);
    assert!(r.tie_breakers.is_empty() && !r.to_table().contains("tie-break"));
}

#[test]
fn solo_the_search_evaluation_is_the_progress_toward_the_goal_and_1_only_when_it_is_met() {
    // The solo game's return is 1 or -1 (ruling 24); the agents' evaluation grades a lost game
    // by its progress toward the goal so that a search has something to prefer.
    let g = solo("medium");
    let value = |s: &State| {
        let mut v = [9.0];
        g.evaluate(s, &mut v);
        v[0]
    };
    let won = solo_end(&g, &["A", "B"], 2, &[6], 45);
    assert_eq!(value(&won), 1.0);
    assert_eq!(g.goal_progress(&won), 1.0);
    // Each condition a quarter: one achievement of two, both tiles, the card, all points.
    let short = solo_end(&g, &["A"], 2, &[6], 45);
    assert_eq!(g.goal_progress(&short), (1.0 + 0.5 + 1.0 + 1.0) / 4.0);
    assert_eq!(value(&short), 2.0 * 3.5 / 4.0 - 1.0);
    // Points count by the fraction reached; no card held at all counts nothing.
    let poorer = solo_end(&g, &["A"], 1, &[], 30);
    assert_eq!(g.goal_progress(&poorer), (0.0 + 0.5 + 0.5 + 30.0 / 45.0) / 4.0);
    assert!(value(&poorer) < value(&short) && value(&short) < value(&won));
    // A held card with one destination joined is half of the card's condition (ruling 23:
    // both joined fulfil it).
    let chain = ["Rootmere", "Violet Reach", "Duskharbor", "Glowcap", "Sporeholm"];
    let half = solo_end_with(&g, &["A"], 1, json!({"network_cards": [6], "outposts": chain}), 30);
    assert_eq!(g.card_links(&half.players[0], 5), 1, "card 6 is index 5");
    assert_eq!(g.goal_progress(&half), g.goal_progress(&poorer) + 0.5 / 4.0);
    // The easy goal asks no card: it counts as met.
    let easy = solo("easy");
    assert_eq!(easy.goal_progress(&solo_end(&easy, &[], 0, &[], 15)), (1.0 + 0.0 + 0.0 + 0.5) / 4.0);
}

#[test]
fn solo_the_setup_helper_takes_solo_positions_and_the_observation_shows_the_automa_tiles() {
    let g = solo("medium");
    let s = at(&g, json!({"start_player": S_AUT3, "current": 0, "automa": [{"chips": [1, 2]}, {}, {"territory_tiles": {"silver": 2}}],
        "stacks": [[1, S_AUT3]]}));
    assert_eq!((s.start_player, s.players[S_AUT1 as usize].hand, s.players[S_AUT3 as usize].territory_tiles), (S_AUT3, 0b11, [0, 0, 2, 0]));
    g.validate_state(&s).unwrap();
    let text = g.text(&s, Viewer::Seat(0));
    assert!(text.contains("AUT3 (starting player): automa, chips in its deck [2 3 4 5] (3 to play, 1 face down on the compass), demand tiles green 0, purple 0, silver 2, brown 0"), "{text}");
    assert!(text.contains("AUT1: automa, chips in its deck [1 2] (1 to play, 1 face down on the compass)"), "{text}");
    assert!(text.contains("Table order (clockwise from the starting player): AUT3, P0, AUT1, AUT2\n"), "{text}");
    let mut t = vec![0.0f32; super::view::tensor_len()];
    g.observation_tensor(&s, 0, &mut t);
    use super::view::layout;
    let aut = layout::PLAYERS + S_AUT3 as usize * layout::PLAYER_SIZE;
    assert_eq!(&t[aut + layout::TERRITORY_TILES..aut + layout::TERRITORY_TILES + 4], &[0.0, 0.0, 2.0, 0.0]);
    for (desc, field) in [
        (json!({"start_player": 4}), "start_player"),
        (json!({"automa": [{}, {}, {}, {}]}), "automa"),
        (json!({"automa": [{"territory_tiles": {"green": 13}}]}), "automa[0].territory_tiles"),
        (json!({"automa": [{}, {"territory_tiles": {"green": 6}}, {"territory_tiles": {"green": 7}}]}), "automa[2].territory_tiles"),
        // "only one action chip per player per round" on the resource and worker boards.
        (json!({"resource_fields": {"1": S_AUT1, "2": S_AUT1}}), "resource_fields"),
        (json!({"resource_fields": {"1": 0, "2": 0}}), "resource_fields"),
        (json!({"worker_fields": {"1": 0, "2": 0}}), "worker_fields"),
        // "each AUT may only ever place one action chip in zones 1-3": one in each.
        (json!({"character_chips": {"1": S_AUT2, "2": S_AUT2}}), "character_chips"),
        // The chip on worker field 4 took the starting player marker, and nothing else takes it.
        (json!({"worker_fields": {"4": S_AUT2}, "start_player": S_AUT1}), "worker_fields.4"),
        (json!({"worker_fields": {"4": 0}, "start_player": S_AUT1}), "worker_fields.4"),
    ] {
        let e = g.setup(&desc).unwrap_err();
        assert!(matches!(&e, crate::engine::EngineError::Setup { field: f, .. } if f == field), "{desc}: {e}");
    }
    // A player may hire several characters in a round; the marker's holder may lie on field 4.
    at(&g, json!({"current": 0, "character_chips": {"1": 0, "2": 0}}));
    at(&g, json!({"worker_fields": {"4": S_AUT2}, "start_player": S_AUT2}));
    // Only the solo mode gives automa players demand tiles.
    let e = game(2).setup(&json!({"automa": [{"territory_tiles": {"green": 1}}]})).unwrap_err().to_string();
    assert!(e.contains("automa[0].territory_tiles"), "{e}");
    // A saved 2-player state whose automa player holds a tile is refused; a solo one is not.
    let mut bad = at(&game(2), json!({}));
    bad.players[AUT1 as usize].territory_tiles[0] = 1;
    assert!(game(2).validate_state(&bad).is_err());
}

/// Plays a solo round on from `s` (automa draws by their first outcome, P0's chips on the port
/// row, chip 5 discarded in Phase A, no claims) until `turns` turns are taken: who took them.
fn solo_turn_order(g: &Mistwind, s: &mut State, turns: usize) -> Vec<u8> {
    let mut who = Vec::new();
    let mut v = Vec::new();
    while who.len() < turns {
        g.legal_actions(s, &mut v);
        if let Draw::Automa(q) = s.draw {
            who.push(q);
            g.apply(s, v[0]);
        } else if g.actor(s) == Actor::Chance {
            g.apply(s, v[0]);
        } else if s.phase == Phase::Discard {
            play(g, s, "discard:chip 5");
        } else if s.phase == Phase::Turns {
            who.push(s.current);
            play_port_turn(g, s, &v);
        } else {
            play(g, s, "pass");
        }
    }
    who
}

#[test]
fn solo_the_starting_player_marker_changes_the_next_rounds_order() {
    // "The player order can change during the game whenever you or one of the AUT receives
    // the starting player marker" and "an AUT does take the starting player marker whenever it
    // randomly places its chip on the fourth field of the worker board" (rulings 10, 20).
    // AUT2, with chips in zones 1 and 2, draws chip 4: worker field 4 in zone 3.
    let g = solo("easy");
    let mut s = at(&g, json!({"current": S_AUT2, "players": [{"chips": [1]}], "resource_fields": {"2": S_AUT2}, "character_chips": {"3": S_AUT2},
        "automa": [{"chips": [2, 5]}, {"chips": [4, 5]}, {"chips": [3, 5]}]}));
    assert_eq!(s.start_player, S_AUT1);
    play(&g, &mut s, "automa-chip:AUT2 draws chip 4");
    assert_eq!((s.worker_fields[3], s.start_player), (S_AUT2, S_AUT2));
    // This round goes on as it began (AUT3, P0, AUT1); the next goes AUT2, AUT3, P0, AUT1.
    assert_eq!(solo_turn_order(&g, &mut s, 7), vec![S_AUT3, 0, S_AUT1, S_AUT2, S_AUT3, 0, S_AUT1]);
    assert_eq!(s.round, 1);
    // P0 on worker field 4: this round AUT1 plays its last chip; the next goes P0, AUT1, AUT2, AUT3.
    let mut s = at(&g, json!({"current": 0, "players": [{"chips": [4]}], "automa": [{"chips": [1, 5]}, {"chips": [5]}, {"chips": [5]}]}));
    for name in ["play-4:worker", "end-moves", "end-cargo"] {
        play(&g, &mut s, name);
    }
    assert_eq!(s.start_player, 0);
    assert_eq!(solo_turn_order(&g, &mut s, 5), vec![S_AUT1, 0, S_AUT1, S_AUT2, S_AUT3]);
    assert_eq!(s.round, 1);
}

#[test]
fn solo_the_automa_players_never_build_hire_claim_or_gain() {
    // "The AUT do not build outposts or transport whales, do not take character cards, do not
    // deliver cargo, and do not receive achievements" (ruling 16): at the end of random solo
    // games each AUT holds only its deck and the demand tiles given to it (ruling 21), and no
    // achievement, upper field or network tile marker is an AUT's.
    let mut rng = crate::engine::rng::rng_from_seed(7);
    let mut v = Vec::new();
    for d in DIFFICULTY_LEVELS {
        let g = solo(d);
        for _ in 0..3 {
            let mut s = g.initial_state();
            while s.phase != Phase::GameOver {
                g.legal_actions(&s, &mut v);
                let a = v[crate::engine::rng::below(&mut rng, v.len() as u32) as usize];
                g.apply(&mut s, a);
            }
            for q in 1..4 {
                let pl = &s.players[q];
                let mut bare = Player::new();
                bare.hand = pl.hand;
                bare.territory_tiles = pl.territory_tiles;
                assert_eq!(*pl, bare, "{d}: AUT{q}");
            }
            assert!(s.achievement_taken.iter().chain(&s.upper).all(|&p| p == NONE || p == 0), "{d}");
        }
    }
}

#[test]
fn an_automa_player_with_the_marker_leads_the_claims_and_the_network_card_discard() {
    // "In clockwise order (starting with the starting player) you may fulfill victory
    // conditions that were made possible by a port bonus" and "At the end of round 2, each
    // player must discard a network card": with AUT2 holding the marker (table AUT1, P0,
    // AUT2, P1), P1 is the first player clockwise from it, then P0 (ruling 17).
    // P0's bonus outpost in Rootmere joins Mossgate to Violet Reach (the green tile), P1's in
    // Oakshore joins Amethyst Deep to Oakshore (the purple tile).
    let g = game(2);
    let mut s = automa_turn(&g, AUT1, json!({"round": 1, "start_player": AUT2, "worker_fields": {"4": AUT2},
        "network_tiles": [2, 6, 7, 10], "port_row": [6, 24, 3, 4, 5], "stacks": [[1, 0], [1, 1]],
        "players": [{"chips": [], "outposts": ["Mossgate", "Sporeholm", "Glowcap", "Violet Reach"]},
            {"chips": [], "outposts": ["Amethyst Deep", "Plum Isle"]}],
        "automa": [{"chips": [3, 5]}, {"chips": [5]}]}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 3");
    assert_eq!((s.phase, s.current), (Phase::EndRoundClaims, 1));
    assert!(is_legal(&g, &s, "control-upper:purple"));
    play(&g, &mut s, "pass");
    assert_eq!(s.current, 0);
    play(&g, &mut s, "control-upper:green");
    play(&g, &mut s, "pass");
    assert_eq!((s.round, s.phase, s.current), (2, Phase::DiscardNetworkCard, 1));
    let first = legal(&g, &s)[0].clone();
    play(&g, &mut s, &first);
    assert_eq!(s.current, 0);
    let first = legal(&g, &s)[0].clone();
    play(&g, &mut s, &first);
    settle_chance(&g, &mut s);
    assert_eq!((s.phase, s.current), (Phase::Discard, 1));
}

// ----- resource board side B ("Alternative Tableau Sides") -----

fn side_b(players: usize) -> Mistwind {
    Mistwind::load(&opts(json!({"players": players, "resource_board": "B"}))).unwrap()
}

/// A 3-player turn of P0 with these players (port row 1, 2, 3, 4, 6), `extra` added to the
/// description.
fn three_player_turn(g: &Mistwind, players: Value, extra: Value) -> State {
    let mut desc = json!({"players": players, "port_row": [1, 2, 3, 4, 6]});
    for (k, v) in extra.as_object().unwrap() {
        desc[k] = v.clone();
    }
    at(g, desc)
}

/// A 3-player turn of P0 on resource board B, P1 and P2 holding the given resources.
fn side_b_position(g: &Mistwind, extra: Value) -> State {
    three_player_turn(g, json!([
        {"wood": 1, "steel": 1, "krill": 1, "coins": 1, "whales": [{"port": "Fernwick"}]},
        {"wood": 0, "steel": 2, "krill": 0, "coins": 0, "whales": [{"port": "Sporeholm"}]},
        {"wood": 0, "steel": 0, "krill": 0, "coins": 0, "whales": [{"port": "Glowcap"}]}]), extra)
}

#[test]
fn the_board_side_is_an_option_and_every_side_is_a_configuration() {
    // "Side "B" of the resource board ... offers more interactive actions": side A by default
    // ("each with side "A" face up"), every side in every player count and difficulty.
    let configs = Mistwind::configurations();
    for side in SIDES {
        for n in 1..=5 {
            assert!(configs.iter().any(|c| c["players"] == n && c["resource_board"] == side), "{n} players, side {side}");
        }
        for d in DIFFICULTY_LEVELS {
            assert!(configs.iter().any(|c| c["players"] == 1 && c["difficulty"] == d && c["resource_board"] == side));
        }
    }
    assert_eq!(game(3).resource_board[0].ability, ResourceAbility::Gain);
    assert_eq!(side_b(3).resource_board[1].ability, ResourceAbility::Income);
    let e = Mistwind::load(&opts(json!({"players": 3, "resource_board": "C"}))).unwrap_err().to_string();
    assert!(e.contains("resource_board"), "{e}");
}

#[test]
fn side_b_field_1_the_left_neighbour_names_a_type_and_five_others_are_received() {
    // "The player to your left names a type of resource. Receive 5 resources that are not of
    // the named type." Ruling 25: the left is the next player clockwise; naming is that
    // player's decision; the five come one at a time, any mix of the three other types.
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({}));
    play(&g, &mut s, "play-1:resources");
    assert_eq!((s.current, s.turn, s.step), (1, 0, Step::Name(5)));
    assert_eq!(legal(&g, &s), vec!["name:wood", "name:steel", "name:krill", "name:coins"]);
    let before = s.clone();
    play(&g, &mut s, "name:coins");
    let mut v = Vec::new();
    g.legal_actions(&before, &mut v);
    assert_eq!(g.describe_move(&before, v[3], &s, None), "P1 names coins: P0 receives 5 resources that are not coins.");
    assert_eq!((s.current, s.step), (0, Step::Receive(5, 3)));
    assert_eq!(legal(&g, &s), vec!["receive:wood", "receive:steel", "receive:krill"]);
    for r in ["wood", "wood", "steel", "krill", "krill"] {
        play(&g, &mut s, &format!("receive:{r}"));
    }
    assert_eq!(s.players[0].res, [3, 2, 3, 1]);
    assert_eq!((s.current, s.step), (0, Step::Move), "then the turn goes on");
}

#[test]
fn side_b_an_automa_player_to_the_left_names_a_type_at_random() {
    // Ruling 25: an automa player makes no choices; the type it names is a chance outcome,
    // each of the four as likely, as its chips are drawn at random. With 2 players P0's left
    // is AUT2 (AUT1, P0, AUT2, P1); solo, the player's left is AUT1.
    for (g, p, left, name) in [(side_b(2), 0u8, AUT2, "AUT2"), (side_b(2), 1, AUT1, "AUT1"), (Mistwind::load(&opts(json!({"players": 1, "resource_board": "B"}))).unwrap(), 0, S_AUT1, "AUT1")] {
        let mut s = at(&g, json!({"current": p}));
        play(&g, &mut s, "play-1:resources");
        assert_eq!(s.draw, Draw::Name(left));
        assert_eq!(g.actor(&s), Actor::Chance);
        let mut w = Vec::new();
        g.chance_weights(&s, |a, x| w.push((a, x)));
        assert_eq!(w, vec![(0, 1), (1, 1), (2, 1), (3, 1)]);
        let before = s.clone();
        play(&g, &mut s, &format!("automa-name:{name} names wood"));
        assert_eq!(g.describe_move(&before, 0, &s, None), format!("{name} names wood at random: P{p} receives 5 resources that are not wood."));
        assert_eq!((s.current, s.step), (p, Step::Receive(5, 0)));
    }
}

#[test]
fn side_b_fields_2_and_3_pay_an_income_for_every_later_chip_of_another_player() {
    // "Whenever another player places an action chip on the resource board this round, you
    // receive 1 coin or 1 krill" (field 2) and "1 wood or 1 steel" (field 3). Ruling 26: the
    // holder chooses, at once, before the placer carries out its field; field 2 first.
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({"resource_fields": {"2": 1, "3": 2}}));
    play(&g, &mut s, "play-4:resources");
    assert_eq!(s.players[0].res, [2, 2, 2, 2], "field 4: 1 of each");
    assert_eq!((s.current, s.turn, s.income), (1, 0, income_bit(1, 1) | income_bit(2, 2)));
    assert_eq!(legal(&g, &s), vec!["receive:krill", "receive:coins"]);
    let before = s.clone();
    play(&g, &mut s, "receive:krill");
    let a = GAIN_OF(2);
    assert_eq!(g.describe_move(&before, a, &s, None), "P1 receives 1 krill, the income of resource field 2 for P0's chip.");
    assert_eq!((s.current, s.income), (2, income_bit(2, 2)));
    assert_eq!(legal(&g, &s), vec!["receive:wood", "receive:steel"]);
    play(&g, &mut s, "receive:steel");
    assert_eq!((s.players[1].res, s.players[2].res), ([0, 2, 1, 0], [0, 1, 0, 0]));
    // Then P0's own field: one resource from the player to the left (P1).
    assert_eq!((s.current, s.step), (0, Step::FromLeft));
    // The holder's own chip earns it nothing; a chip placed before it earns nothing either.
    let mut t = side_b_position(&g, json!({}));
    play(&g, &mut t, "play-2:resources");
    assert_eq!((t.income, t.step), (0, Step::Move));
}

/// The action id that receives resource `r`.
#[allow(non_snake_case)]
fn GAIN_OF(r: usize) -> crate::engine::Action {
    super::actions::GAIN + r as crate::engine::Action
}

#[test]
fn side_b_an_automa_chip_pays_the_income_and_an_automa_holder_receives_none() {
    // Ruling 26: an automa player places action chips like a player, so its chip on the
    // resource board pays the holders; an automa player holding an income field receives
    // nothing (it has no player board, ruling 16).
    let g = side_b(2);
    let mut s = automa_turn(&g, AUT1, json!({"resource_fields": {"2": 0}}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 1");
    assert_eq!(s.resource_fields[0], AUT1);
    assert_eq!((s.current, s.turn, s.income), (0, AUT1, income_bit(1, 0)), "P0 decides its income in AUT1's turn");
    play(&g, &mut s, "receive:coins");
    assert_eq!(s.players[0].res[COINS], 3);
    assert_eq!(s.current, 0, "AUT1's turn ends: P0 is next (AUT1, P0, AUT2, P1)");
    assert_eq!(s.step, Step::Chip);
    // An automa player on field 2: P1's chip pays it nothing.
    let mut t = at(&g, json!({"current": 1, "resource_fields": {"2": AUT2}}));
    play(&g, &mut t, "play-1:resources");
    assert_eq!(t.income, 0);
}

#[test]
fn side_b_field_4_takes_a_resource_of_ones_choice_from_the_left() {
    // "Receive 1 steel, 1 wood, 1 krill, and 1 coin. You also receive 1 resource of your
    // choice from the player to your left." Ruling 27: one of the types the left neighbour
    // holds; none held (or an automa player, which holds none) gives nothing.
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({}));
    play(&g, &mut s, "play-4:resources");
    assert_eq!(legal(&g, &s), vec!["take-from-left:steel"], "P1 holds only steel");
    let before = s.clone();
    play(&g, &mut s, "take-from-left:steel");
    assert_eq!(g.describe_move(&before, super::actions::FROM_LEFT + 1, &s, None), "P0 takes 1 steel from P1.");
    assert_eq!((s.players[0].res, s.players[1].res), ([2, 3, 2, 2], [0, 1, 0, 0]));
    assert_eq!(s.step, Step::Move);
    // P2's left is P0; with P0 holding nothing there is nothing to take.
    let mut t = side_b_position(&g, json!({"current": 2, "players": [
        {"wood": 0, "steel": 0, "krill": 0, "coins": 0}, {}, {"wood": 0, "steel": 0, "krill": 0, "coins": 0}]}));
    play(&g, &mut t, "play-4:resources");
    assert_eq!((t.step, t.players[2].res), (Step::Move, [1, 1, 1, 1]));
    // With 2 players P0's left is AUT2: nothing to take.
    let g2 = side_b(2);
    let mut u = at(&g2, json!({"current": 0}));
    play(&g2, &mut u, "play-4:resources");
    assert_eq!(u.step, Step::Move);
}

#[test]
fn side_b_field_5_three_and_two_then_every_other_player_takes_one_of_the_two_types() {
    // "Receive 2 resources of any one type and 3 resources of another type. All other players
    // may then take 1 resource from the two chosen resource types." Ruling 28: from the
    // supply, each other player in turn from the left, its choice of the two types.
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({}));
    play(&g, &mut s, "play-5:resources");
    assert_eq!(s.step, Step::Split(4));
    assert_eq!(legal(&g, &s).len(), 12);
    play(&g, &mut s, "receive:3 wood and 2 coins");
    assert_eq!(s.players[0].res, [4, 1, 1, 3]);
    assert_eq!((s.current, s.turn, s.step), (1, 0, Step::Share(0, WOOD as u8, COINS as u8)));
    assert_eq!(legal(&g, &s), vec!["receive:wood", "receive:coins"]);
    let before = s.clone();
    play(&g, &mut s, "receive:coins");
    assert_eq!(g.describe_move(&before, GAIN_OF(COINS), &s, None), "P1 takes 1 coins of the types P0 chose.");
    assert_eq!(s.current, 2);
    play(&g, &mut s, "receive:wood");
    assert_eq!((s.players[1].res, s.players[2].res), ([0, 2, 0, 1], [1, 0, 0, 0]));
    assert_eq!((s.current, s.step), (0, Step::Move));
    // The automa players take nothing: solo, nobody else takes.
    let g1 = Mistwind::load(&opts(json!({"players": 1, "resource_board": "B"}))).unwrap();
    let mut t = at(&g1, json!({"current": 0}));
    play(&g1, &mut t, "play-5:resources");
    play(&g1, &mut t, "receive:3 krill and 2 steel");
    assert_eq!((t.current, t.step), (0, Step::Move));
}

#[test]
fn side_b_pending_decisions_are_observed_and_saved_states_are_checked() {
    // The observation shows whose turn it is, the incomes due and the types of the pending
    // choice: what decides the legal moves.
    use super::view::{layout as l, tensor_len};
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({"resource_fields": {"2": 1}}));
    play(&g, &mut s, "play-1:resources");
    let mut t = vec![0.0f32; tensor_len()];
    g.observation_tensor(&s, 2, &mut t);
    let one = |t: &[f32], at: usize, len: usize| -> Vec<usize> { (0..len).filter(|&i| t[at + i] == 1.0).collect() };
    assert_eq!(one(&t, l::TURN, 5), vec![0]);
    assert_eq!(one(&t, l::INCOME, 5), vec![1]);
    assert_eq!(one(&t, l::ACTOR, 7), vec![1]);
    assert!(g.text(&s, Viewer::Seat(2)).contains("P1 receives the income of resource field 2 (coins or krill) for P0's chip"), "{}", g.text(&s, Viewer::Seat(2)));
    play(&g, &mut s, "receive:coins");
    g.observation_tensor(&s, 2, &mut t);
    assert_eq!(one(&t, l::STEP, 12), vec![7], "step name");
    assert!(g.text(&s, Viewer::Seat(2)).contains("P1 names a type of resource; P0 then receives 5 resources not of it"));
    play(&g, &mut s, "name:krill");
    g.observation_tensor(&s, 2, &mut t);
    assert_eq!(one(&t, l::PENDING_TYPES, 4), vec![0, 1, 3]);
    assert_eq!(t[l::TO_RECEIVE], 5.0);
    assert!(g.text(&s, Viewer::Seat(2)).contains("P0's turn, step receive: 5 more resources, not krill"));
    // A saved state whose decider is not the one the rules name is refused.
    let mut bad = s.clone();
    bad.current = 1;
    let e = g.validate_state(&bad).unwrap_err().to_string();
    assert!(e.contains("decides"), "{e}");
    let mut bad = s.clone();
    bad.step = Step::Split(0);
    assert!(g.validate_state(&bad).is_err(), "field 1 is no three-and-two field");
    let mut bad = s.clone();
    bad.income = 0b0100;
    assert!(g.validate_state(&bad).is_err(), "field 3 is empty: no income is due");
}

#[test]
fn side_b_one_time_characters_serve_the_turns_player_not_the_others() {
    // Ruling 11 with side B: a one-time character is used at a decision of its owner's turn
    // (receiving, taking from the left, choosing the types), not at another player's decision
    // in that turn (naming a type, an income, a share), which is not their turn.
    let g = side_b(3);
    let mut s = side_b_position(&g, json!({"players": [
        {"wood": 1, "steel": 1, "krill": 1, "coins": 1, "characters": ["Forester"]},
        {"characters": ["Ironmonger"]}, {}]}));
    play(&g, &mut s, "play-5:resources");
    assert_eq!(legal(&g, &s)[0], "use:Forester", "{:?}", legal(&g, &s));
    play(&g, &mut s, "receive:3 wood and 2 coins");
    assert_eq!(s.current, 1);
    assert_eq!(legal(&g, &s), vec!["receive:wood", "receive:coins"], "P1's one-time card waits for its own turn");
    // Naming a type for P0 and an income in P0's turn are P1's decisions, not its turn.
    let players = json!([{"wood": 1, "steel": 1, "krill": 1, "coins": 1, "characters": ["Forester"]}, {"characters": ["Ironmonger"]}, {}]);
    let mut t = side_b_position(&g, json!({"players": players}));
    play(&g, &mut t, "play-1:resources");
    assert_eq!((t.current, legal(&g, &t)), (1, vec!["name:wood".to_string(), "name:steel".into(), "name:krill".into(), "name:coins".into()]));
    play(&g, &mut t, "name:wood");
    assert_eq!(legal(&g, &t)[0], "use:Forester", "P0's own decision again");
    let mut u = side_b_position(&g, json!({"players": players, "resource_fields": {"2": 1}}));
    play(&g, &mut u, "play-4:resources");
    assert_eq!((u.current, legal(&g, &u)), (1, vec!["receive:krill".to_string(), "receive:coins".into()]));
}

// ----- worker board side B ("Alternative Tableau Sides") -----

fn worker_b(players: usize) -> Mistwind {
    Mistwind::load(&opts(json!({"players": players, "worker_board": "B"}))).unwrap()
}

/// A 3-player turn of P0 on worker board B: P0 holds the given resources, P1 and P2 some.
fn worker_b_position(g: &Mistwind, extra: Value) -> State {
    three_player_turn(g, json!([
        {"wood": 2, "steel": 1, "krill": 0, "coins": 4, "whales": [{"port": "Fernwick"}]},
        {"wood": 0, "steel": 2, "krill": 1, "coins": 0, "whales": [{"port": "Sporeholm"}]},
        {"wood": 1, "steel": 0, "krill": 0, "coins": 0, "whales": [{"port": "Glowcap"}]}]), extra)
}

#[test]
fn worker_board_side_b_is_an_option_and_every_side_is_a_configuration() {
    // "Side "B" of the resource board and the worker board": each chosen on its own, side A
    // by default, every combination in every player count and difficulty.
    let configs = Mistwind::configurations();
    for rb in SIDES {
        for wb in SIDES {
            for n in 1..=5 {
                assert!(configs.iter().any(|c| c["players"] == n && c["resource_board"] == rb && c["worker_board"] == wb), "{n} players, {rb}/{wb}");
            }
            for d in DIFFICULTY_LEVELS {
                assert!(configs.iter().any(|c| c["players"] == 1 && c["difficulty"] == d && c["resource_board"] == rb && c["worker_board"] == wb));
            }
        }
    }
    assert_eq!(game(3).worker_board[0].ability, WorkerAbility::BuildOutpost);
    let g = worker_b(3);
    let abilities: Vec<WorkerAbility> = g.worker_board.iter().map(|f| f.ability).collect();
    assert_eq!(abilities, vec![WorkerAbility::DrawAndGive, WorkerAbility::BuyOutpost, WorkerAbility::LongMove, WorkerAbility::StartPlayerAndTrade, WorkerAbility::UseOccupied]);
    let e = Mistwind::load(&opts(json!({"players": 3, "worker_board": "C"}))).unwrap_err().to_string();
    assert!(e.contains("worker_board"), "{e}");
    // The data file's side B: its amounts are checked, errors name the field.
    let v: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    for (i, amounts, ok) in [(0, json!([2]), true), (0, json!([3]), false), (4, json!([1]), true), (4, json!([2]), false), (2, json!([2]), false)] {
        let mut d = v.clone();
        d["worker_board"]["B"][i]["amounts"] = amounts.clone();
        match (Data::from_value(&d), ok) {
            (Ok(_), true) => {}
            (Err(crate::engine::EngineError::DataFile { field, .. }), false) => assert_eq!(field, format!("worker_board.B[{i}].amounts")),
            (other, _) => panic!("field {i} amounts {amounts}: {other:?}"),
        }
    }
    let mut a_only = v.clone();
    a_only["worker_board"].as_object_mut().unwrap().remove("B");
    let a_only = Data::from_value(&a_only).unwrap();
    assert!(a_only.worker_sides[1].is_none());
}

#[test]
fn worker_b_field_1_draws_two_characters_keeps_one_and_gives_the_other_free() {
    // "Draw 2 character cards. Keep one and give the other to another player (these cards
    // are free)." Ruling 31: the two are drawn face up; the giver chooses the seat; a card that
    // must be used at once is used by whoever gets it.
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({}));
    play(&g, &mut s, "play-1:worker");
    assert_eq!((s.step, g.actor(&s)), (Step::Keep, Actor::Chance));
    let before = s.clone();
    play(&g, &mut s, "draw-character:Quartermaster");
    let a = (0..g.data.characters.len()).find(|&c| g.data.characters[c].name == "Quartermaster").unwrap() as crate::engine::Action;
    assert!(g.describe_move(&before, a, &s, None).starts_with("P0 draws the character Quartermaster"));
    play(&g, &mut s, "draw-character:Ferryman");
    assert_eq!(g.actor(&s), Actor::Player(0));
    assert_eq!(legal(&g, &s), vec!["keep:Quartermaster", "keep:Ferryman"]);
    assert!(g.text(&s, Viewer::Seat(1)).contains("characters drawn [Quartermaster, Ferryman]"), "drawn face up");
    let res = s.players[0].res;
    play(&g, &mut s, "keep:Ferryman");
    assert_eq!(s.players[0].res, res, "free");
    assert_eq!(legal(&g, &s), vec!["use:Ferryman", "give-character:P1", "give-character:P2"], "the card kept is the player's at once (ruling 11)");
    play(&g, &mut s, "give-character:P2");
    let (lm, fm) = (a as usize, (0..g.data.characters.len()).find(|&c| g.data.characters[c].name == "Ferryman").unwrap());
    assert!(s.players[0].characters & (1 << fm) != 0 && s.players[2].characters & (1 << lm) != 0);
    assert_eq!(s.players[2].res, [2, 1, 1, 0], "the Quartermaster's wood, steel and krill, used at once");
    assert!(s.players[2].used & (1 << lm) != 0);
    assert_eq!((s.step, s.drawn), (Step::Move, [NONE; 2]));
    // Solo no other seat takes a character: the other is discarded.
    let g1 = Mistwind::load(&opts(json!({"players": 1, "worker_board": "B"}))).unwrap();
    let mut t = at(&g1, json!({"current": 0}));
    play(&g1, &mut t, "play-1:worker");
    play(&g1, &mut t, "draw-character:Dockhand");
    play(&g1, &mut t, "draw-character:Ferryman");
    let deck = t.character_deck;
    play(&g1, &mut t, "keep:Dockhand");
    assert_eq!((t.step, t.drawn, t.character_deck), (Step::Move, [NONE; 2], deck));
    assert!((1..4).all(|q| t.players[q].characters == 0), "the automa players take no character cards");
}

#[test]
fn worker_b_field_1_needs_a_card_in_the_deck_and_takes_the_last_one_alone() {
    // Ruling 31: the field draws what the deck has; with one card left it is kept, with none
    // the field cannot be used.
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({}));
    s.character_deck = 1 << 12;
    assert!(is_legal(&g, &s, "play-1:worker"));
    play(&g, &mut s, "play-1:worker");
    let name = &g.data.characters[12].name;
    play(&g, &mut s, &format!("draw-character:{name}"));
    assert_eq!(legal(&g, &s), vec![format!("keep:{name}")]);
    play(&g, &mut s, &format!("keep:{name}"));
    assert_eq!(s.step, Step::Move);
    let mut t = worker_b_position(&g, json!({}));
    t.character_deck = 0;
    assert!(!is_legal(&g, &t, "play-1:worker"));
}

#[test]
fn worker_b_field_2_buys_an_outpost_for_three_coins_or_one_coin_to_each_occupant() {
    // "Buy an outpost with coins. Pay 3 coins if there are no outposts of other players at the
    // port. If the port is occupied, pay 1 coin to every player with an outpost there."
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({}));
    s.players[1].outposts = 1 << 3 | 1 << 4;
    s.players[2].outposts = 1 << 4;
    s.players[0].outposts = 1 << 5;
    play(&g, &mut s, "play-2:worker");
    let ports = legal(&g, &s);
    assert!(ports.contains(&"build:Mossgate (green capital)".to_string()) && ports.contains(&"build:Glowcap (green, coffee)".to_string()));
    assert!(!ports.iter().any(|p| p.starts_with("build:Rootmere")), "one outpost per player per port");
    let before = s.clone();
    play(&g, &mut s, "build:Glowcap");
    assert_eq!(g.describe_move(&before, super::actions::BUILD_AT + 4, &s, None), "P0 buys an outpost in Glowcap for 2 coins, 1 each to P1 and P2.");
    assert_eq!((s.players[0].res[COINS], s.players[1].res[COINS], s.players[2].res[COINS]), (2, 1, 1));
    assert_eq!(s.players[0].res[WOOD..=STEEL], [2, 1], "coins only");
    assert!(s.players[0].outposts & (1 << 4) != 0);
    let mut t = worker_b_position(&g, json!({}));
    play(&g, &mut t, "play-2:worker");
    play(&g, &mut t, "build:Mossgate");
    assert_eq!(t.players[0].res[COINS], 1, "3 coins at a port without other outposts");
    // At the boundary: 2 coins buy into a port with two occupants, not into an empty one.
    let mut u = worker_b_position(&g, json!({}));
    u.players[0].res[COINS] = 2;
    u.players[1].outposts = 1 << 4;
    u.players[2].outposts = 1 << 4;
    play(&g, &mut u, "play-2:worker");
    assert_eq!(legal(&g, &u), vec!["build:Glowcap (green, coffee)"]);
    let mut v = worker_b_position(&g, json!({}));
    v.players[0].res[COINS] = 0;
    assert!(!is_legal(&g, &v, "play-2:worker"), "no port affordable");
}

#[test]
fn worker_b_field_3_moves_a_whale_two_fields_free_and_further_for_a_resource_each() {
    // "Move a transport whale up to 2 fields. You may move any number of fields further if you
    // pay 1 resource of your choice to any player per additional field moved. When doing so,
    // you ignore krill costs and outposts/transport whales. During the movement you may load
    // or unload once."
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({}));
    play(&g, &mut s, "play-3:worker");
    assert_eq!(s.step, Step::LongMove);
    let krill = s.players[0].res[KRILL];
    play(&g, &mut s, "move-whale-1:Lichen Bay");
    assert!(is_legal(&g, &s, "load-1"), "krill at Lichen Bay, on the way");
    play(&g, &mut s, "load-1");
    assert_eq!(s.players[0].res[KRILL], krill + 1, "no krill paid to leave, one loaded");
    assert!(!is_legal(&g, &s, "load-1"), "once");
    assert!(is_legal(&g, &s, "move-whale-1:Fernwick"), "ruling 30: back to a port passed");
    play(&g, &mut s, "move-whale-1:Sporeholm");
    assert_eq!((s.step, s.long.fields), (Step::LongMove, 2), "two fields free");
    play(&g, &mut s, "move-whale-1:Glowcap");
    assert_eq!(s.step, Step::PayField(1));
    let pays = legal(&g, &s);
    assert!(pays.contains(&"pay:1 wood to P1".to_string()) && pays.contains(&"pay:1 coins to P2".to_string()));
    assert!(!pays.iter().any(|p| p.contains("krill to") && p.contains("P0")), "to another player");
    play(&g, &mut s, "pay:1 wood to P1");
    assert_eq!((s.players[0].res[WOOD], s.players[1].res[WOOD]), (1, 1));
    assert_eq!(s.step, Step::LongMove);
    play(&g, &mut s, "end-long-move");
    assert_eq!((s.players[0].whales[0], s.step, s.moved, s.cargo_done), (4, Step::Move, 0, 0), "step 2 and 3 still to come");
    // Without a resource the move stops after the free fields.
    let mut t = worker_b_position(&g, json!({}));
    t.players[0].res = [0; 4];
    play(&g, &mut t, "play-3:worker");
    play(&g, &mut t, "move-whale-1:Mossgate");
    play(&g, &mut t, "move-whale-1:Sporeholm");
    assert_eq!(legal(&g, &t), vec!["end-long-move", "load-1"], "no third field, mushrooms to load on the way");
}

#[test]
fn worker_b_field_3_a_payment_to_an_automa_player_returns_to_the_supply() {
    // Ruling 30: an automa player has no player board: a resource paid to it leaves the game's
    // players (as the rulebook's "any player" allows).
    let g = worker_b(2);
    let mut s = at(&g, json!({"current": 0, "players": [{"wood": 1, "steel": 0, "krill": 0, "coins": 0, "whales": [{"port": "Fernwick"}]}, {"whales": [{"port": "Glowcap"}]}]}));
    play(&g, &mut s, "play-3:worker");
    for q in ["Lichen Bay", "Sporeholm", "Glowcap"] {
        play(&g, &mut s, &format!("move-whale-1:{q}"));
    }
    let pays = legal(&g, &s);
    assert_eq!(pays, vec!["pay:1 wood to P1", "pay:1 wood to AUT1", "pay:1 wood to AUT2"]);
    play(&g, &mut s, "pay:1 wood to AUT1");
    assert_eq!(s.players[0].res, [0; 4]);
    assert_eq!(s.players[AUT1 as usize].res, [0; 4]);
}

#[test]
fn worker_b_field_4_takes_the_marker_two_krill_and_trades_with_up_to_two_players() {
    // "You receive the starting player marker and 2 krill. You may trade up to 1 resource of
    // your choice with up to 2 different players." Ruling 32: the player offers one of theirs
    // for one of the other's; the other accepts or declines; each is asked once.
    let g = Mistwind::load(&opts(json!({"players": 4, "worker_board": "B"}))).unwrap();
    let mut s = at(&g, json!({"players": [
        {"wood": 2, "steel": 0, "krill": 0, "coins": 1, "whales": [{"port": "Fernwick"}]},
        {"wood": 0, "steel": 1, "krill": 0, "coins": 0, "whales": [{"port": "Sporeholm"}]},
        {"wood": 0, "steel": 1, "krill": 0, "coins": 0, "whales": [{"port": "Glowcap"}]},
        {"wood": 0, "steel": 1, "krill": 0, "coins": 0, "whales": [{"port": "Glowcap"}]}]}));
    play(&g, &mut s, "play-4:worker");
    assert_eq!((s.start_player, s.players[0].res[KRILL]), (0, 2));
    assert_eq!(legal(&g, &s), vec!["trade-with:P1", "trade-with:P2", "trade-with:P3", "end-trades"]);
    play(&g, &mut s, "trade-with:P1");
    assert!(is_legal(&g, &s, "offer:1 wood for 1 steel") && !is_legal(&g, &s, "offer:1 steel for 1 wood"), "what each holds");
    play(&g, &mut s, "offer:1 krill for 1 steel");
    assert_eq!((s.current, s.turn), (1, 0), "P1 decides");
    assert_eq!(legal(&g, &s), vec!["accept-trade", "decline-trade"]);
    play(&g, &mut s, "decline-trade");
    assert_eq!((s.current, s.players[0].res), (0, [2, 0, 2, 1]));
    assert_eq!(legal(&g, &s), vec!["trade-with:P2", "trade-with:P3", "end-trades"], "each player asked once");
    play(&g, &mut s, "trade-with:P2");
    play(&g, &mut s, "offer:1 wood for 1 steel");
    play(&g, &mut s, "accept-trade");
    assert_eq!((s.players[0].res, s.players[2].res), ([1, 1, 2, 1], [1, 0, 0, 0]));
    play(&g, &mut s, "trade-with:P3");
    play(&g, &mut s, "offer:1 coins for 1 steel");
    play(&g, &mut s, "accept-trade");
    assert_eq!(s.trades, 2);
    assert_eq!(s.step, Step::Move, "two trades: no more");
    // Solo, and with a table that holds nothing, there is no one to trade with.
    let g1 = Mistwind::load(&opts(json!({"players": 1, "worker_board": "B"}))).unwrap();
    let mut t = at(&g1, json!({"current": 0}));
    play(&g1, &mut t, "play-4:worker");
    assert_eq!((t.start_player, t.step), (0, Step::Move));
}

#[test]
fn worker_b_field_4_an_automa_chip_takes_the_starting_player_marker() {
    // "an AUT does take the starting player marker whenever it randomly places its chip on
    // the fourth field of the worker board" (on side B too: it gives the marker).
    let g = worker_b(2);
    let mut s = automa_turn(&g, AUT1, json!({"resource_fields": {"4": 0}, "character_chips": {"4": 1}}));
    play(&g, &mut s, "automa-chip:AUT1 draws chip 4");
    assert_eq!((s.worker_fields[3], s.start_player), (AUT1, AUT1));
    assert_eq!(s.players[AUT1 as usize].res, [0; 4], "and nothing else");
}

#[test]
fn worker_b_field_5_pays_a_resource_to_use_a_field_another_players_chip_holds() {
    // "Pay 1 resource to any other player in order to use an action field on the resource
    // board or worker board on which another player's action chip already lies (you do not
    // have to pay the player whose action chip is there)." Ruling 33.
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({"resource_fields": {"3": 1}, "worker_fields": {"2": 2}}));
    play(&g, &mut s, "play-5:worker");
    assert_eq!(s.step, Step::PayToUse);
    assert!(is_legal(&g, &s, "pay:1 coins to P1") && is_legal(&g, &s, "pay:1 wood to P2"));
    play(&g, &mut s, "pay:1 steel to P2");
    assert_eq!((s.players[0].res[STEEL], s.players[2].res[STEEL]), (0, 1));
    assert_eq!(legal(&g, &s), vec!["use-field:resources 3", "use-field:worker 2"]);
    let res = s.players[0].res;
    play(&g, &mut s, "use-field:resources 3");
    let gain = g.resource_board[2].gain;
    assert_eq!(s.players[0].res, std::array::from_fn(|r| res[r] + gain[r] as u16));
    assert!(!s.players[0].used_resource_board && s.resource_fields[2] == 1, "no chip placed: P1's chip stays");
    assert_eq!(s.step, Step::Move);
    // The worker field used: field 2, buying an outpost.
    let mut t = worker_b_position(&g, json!({"worker_fields": {"2": 2}}));
    play(&g, &mut t, "play-5:worker");
    play(&g, &mut t, "pay:1 wood to P1");
    play(&g, &mut t, "use-field:worker 2");
    assert_eq!(t.step, Step::WorkerBuild(1));
    // Nobody else's chip on either board: the field cannot be used; nor with nothing to pay.
    let u = worker_b_position(&g, json!({}));
    assert!(!is_legal(&g, &u, "play-5:worker"));
    let mut v = worker_b_position(&g, json!({"resource_fields": {"3": 1}}));
    v.players[0].res = [0; 4];
    assert!(!is_legal(&g, &v, "play-5:worker"));
}

#[test]
fn worker_b_field_5_cannot_use_a_field_it_cannot_carry_out() {
    // Ruling 33: a field is usable only if its action can be carried out after the payment.
    let g = Mistwind::load(&opts(json!({"players": 3, "worker_board": "B", "resource_board": "B"}))).unwrap();
    let mut s = worker_b_position(&g, json!({"worker_fields": {"2": 2}}));
    s.players[0].res = [0, 0, 0, 3];
    // Paying a coin leaves 2, too few for an outpost at a port without others' outposts (3).
    assert!(!is_legal(&g, &s, "play-5:worker"));
    s.players[0].res = [0, 0, 0, 4];
    play(&g, &mut s, "play-5:worker");
    assert_eq!(legal(&g, &s), vec!["pay:1 coins to P1", "pay:1 coins to P2"]);
    play(&g, &mut s, "pay:1 coins to P1");
    assert_eq!(legal(&g, &s), vec!["use-field:worker 2"]);
}

/// Both boards on side B, 3 players, with these options added.
fn both_b(extra: Value) -> Mistwind {
    let mut o = json!({"players": 3, "worker_board": "B", "resource_board": "B"});
    for (k, v) in extra.as_object().unwrap() {
        o[k] = v.clone();
    }
    Mistwind::load(&opts(o)).unwrap()
}

#[test]
fn ruling_33_field_5_uses_an_income_field_and_its_user_receives_the_income_this_round() {
    // Worker board side B, field 5: "Pay 1 resource to any other player in order to use an
    // action field on the resource board or worker board on which another player's action
    // chip already lies"; resource board side B, field 2: "Whenever another player places an
    // action chip on the resource board this round, you receive 1 coin or 1 krill". The
    // sentence names no exception: the user of the income field holds its right ("you") for
    // the rest of the round, beside the chip's owner (ruling 33, the default).
    let g = both_b(json!({}));
    assert!(g.field5_income_fields);
    let mut s = side_b_position(&g, json!({"resource_fields": {"2": 1}}));
    play(&g, &mut s, "play-5:worker");
    play(&g, &mut s, "pay:1 wood to P2");
    assert_eq!(legal(&g, &s), vec!["use-field:resources 2"]);
    let before = s.clone();
    let a = super::actions::USE_FIELD + 1;
    play(&g, &mut s, "use-field:resources 2");
    assert_eq!(
        g.describe_move(&before, a, &s, None),
        "P0 uses field 2 of the resource board (this round, 1 coins or 1 krill whenever another player places a chip on the \
         resource board), where P1's chip lies, and receives that income for the rest of the round."
    );
    assert_eq!(s.players[0].income_rights, 0b10);
    assert!(!s.players[0].used_resource_board && s.resource_fields[1] == 1, "no chip placed: P1's chip stays");
    assert!(g.text(&s, Viewer::Seat(2)).contains("2:P1 (income also to P0)"), "{}", g.text(&s, Viewer::Seat(2)));
    let mut t = vec![0.0f32; super::view::tensor_len()];
    g.observation_tensor(&s, 2, &mut t);
    assert_eq!(t[super::view::layout::INCOME_RIGHTS..super::view::layout::INCOME_RIGHTS + 5], [0.0, 1.0, 0.0, 0.0, 0.0]);
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    // P1's turn on the port row pays nothing; P2's chip on the resource board pays both the
    // right's holder (P0) and the chip's owner (P1), in table order.
    assert_eq!(s.current, 1);
    play(&g, &mut s, "play-5:port Rootmere");
    play(&g, &mut s, "take:coins");
    play(&g, &mut s, "end-moves");
    play(&g, &mut s, "end-cargo");
    assert_eq!(s.current, 2);
    play(&g, &mut s, "play-1:resources");
    assert_eq!(s.income, income_bit(1, 0) | income_bit(1, 1));
    assert_eq!((s.current, s.turn), (0, 2));
    assert_eq!(legal(&g, &s), vec!["receive:krill", "receive:coins"]);
    let coins = s.players[0].res[COINS];
    let before = s.clone();
    play(&g, &mut s, "receive:coins");
    assert_eq!(g.describe_move(&before, GAIN_OF(COINS), &s, None), "P0 receives 1 coins, the income of resource field 2 for P2's chip.");
    assert_eq!(s.players[0].res[COINS], coins + 1);
    assert_eq!(s.current, 1, "then the chip's owner");
    play(&g, &mut s, "receive:krill");
    assert_eq!((s.income, s.current, s.step), (0, 0, Step::Name(5)), "then P2's own field: P0, to its left, names a type");

    // Not the next round: the right ends with the round. P0 has played its last chip (on
    // worker field 5, using field 2); P1 and P2 play theirs; Phase C clears the right.
    let mut s = at(&g, json!({"current": 1, "port_row": [1, 2, 3, 4, 6],
        "resource_fields": {"2": 1}, "worker_fields": {"5": 0},
        "players": [{"chips": [], "income_rights": [2], "whales": [{"port": "Fernwick"}]},
                    {"chips": [5], "whales": [{"port": "Fernwick"}]},
                    {"chips": [5], "whales": [{"port": "Fernwick"}]}]}));
    assert_eq!(s.players[0].income_rights, 0b10);
    for _ in 0..2 {
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
    }
    assert_eq!(s.round, 1);
    assert_eq!(s.players[0].income_rights, 0);
    s.resource_fields[1] = 1;
    assert_eq!(g.income_due(&s, 2), income_bit(1, 1), "next round only a chip lying there pays its owner");
}

#[test]
fn ruling_33_without_field5_income_fields_the_income_fields_are_not_offered() {
    // With `field5_income_fields=False`, the reading that an income field does nothing when
    // used (its effect is the standing right of the chip lying there), so field 5 has nothing
    // to carry out on it (ruling 33's option).
    let g = both_b(json!({"field5_income_fields": false}));
    let on = both_b(json!({}));
    let desc = json!({"resource_fields": {"2": 1}, "worker_fields": {"2": 2}});
    for (g, offered) in [(&g, vec!["use-field:worker 2"]), (&on, vec!["use-field:resources 2", "use-field:worker 2"])] {
        let mut s = worker_b_position(g, desc.clone());
        s.players[0].res = [0, 0, 0, 4];
        play(g, &mut s, "play-5:worker");
        play(g, &mut s, "pay:1 coins to P1");
        assert_eq!(legal(g, &s), offered);
        // With 3 coins only the income field (needing nothing) is left after the payment.
        let mut t = worker_b_position(g, desc.clone());
        t.players[0].res = [0, 0, 0, 3];
        assert_eq!(is_legal(g, &t, "play-5:worker"), g.field5_income_fields);
    }
    // The option travels in the configuration, and a right cannot be described with it off.
    assert_eq!(g.config()["field5_income_fields"], json!(false));
    let e = g.setup(&json!({"players": [{"income_rights": [2]}, {}, {}], "resource_fields": {"2": 1}, "worker_fields": {"5": 0}}));
    let e = e.unwrap_err().to_string();
    assert!(e.contains("players[0].income_rights"), "{e}");
}

#[test]
fn ruling_33_income_rights_are_checked_naming_the_field() {
    // A right comes only from the chip on worker board side B's field 5, on an income field
    // where another position's chip lies.
    let g = both_b(json!({}));
    for (desc, why) in [
        (json!({"players": [{"income_rights": [2]}, {}, {}], "resource_fields": {"2": 1}}), "field 5"),
        (json!({"players": [{"income_rights": [2]}, {}, {}], "worker_fields": {"5": 0}}), "no chip"),
        (json!({"players": [{"income_rights": [4]}, {}, {}], "resource_fields": {"4": 1}, "worker_fields": {"5": 0}}), "not an income field"),
        (json!({"players": [{"income_rights": [9]}, {}, {}]}), "1 to 5"),
    ] {
        let e = g.setup(&desc).unwrap_err().to_string();
        assert!(e.contains("players[0].income_rights") && e.contains(why), "{desc}: {e}");
    }
    let ok = at(&g, json!({"players": [{"income_rights": [2]}, {}, {}], "resource_fields": {"2": 1}, "worker_fields": {"5": 0}}));
    let mut bad = ok.clone();
    bad.players[0].income_rights = 0b1000;
    let e = g.validate_state(&bad).unwrap_err().to_string();
    assert!(e.contains("players[0].income_rights"), "{e}");
}

#[test]
fn a_state_of_format_version_5_is_refused_naming_its_version() {
    // A version 5 state has no income rights (ruling 33): it is refused, as JSON and as
    // bytes, naming its version and the one read now.
    use std::sync::Arc;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saved/mistwind/v5");
    let stem = "mistwind-1p-difficulty=easy-resource_board=B-worker_board=B-middle";
    let text = std::fs::read_to_string(dir.join(format!("{stem}.json"))).unwrap();
    let bytes = std::fs::read(dir.join(format!("{stem}.bin"))).unwrap();
    let g = Arc::new(Mistwind::load(&opts(json!({"players": 1, "resource_board": "B", "worker_board": "B"}))).unwrap());
    for e in [crate::engine::GameState::from_json(&g, text.trim_end()).err(), crate::engine::GameState::from_bytes(&g, &bytes).err()] {
        let m = e.expect("a version 5 state is refused").to_string();
        assert!(m.contains("version 5") && m.contains("reads version 6"), "{m}");
    }
}

#[test]
fn worker_b_field_3_goes_back_and_forth_for_its_payments_and_delivers_on_the_way() {
    // Ruling 30: "any number of fields further" for a resource each: the whale may come back
    // to a port it passed; a delivery on the way with its bottom-space choice returns to the
    // move; the whale then moves again in step 2, by the usual krill rule.
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({"players": [
        {"wood": 2, "steel": 0, "krill": 0, "coins": 0, "outposts": ["Sporeholm"], "whales": [{"port": "Fernwick", "cargo": "mushrooms"}]},
        {"whales": [{"port": "Glowcap"}]}, {"whales": [{"port": "Glowcap"}]}],
        "territory_display": {"green": ["mushrooms", "coal", "coffee", "oil"]}}));
    play(&g, &mut s, "play-3:worker");
    play(&g, &mut s, "move-whale-1:Lichen Bay");
    play(&g, &mut s, "move-whale-1:Fernwick");
    play(&g, &mut s, "move-whale-1:Lichen Bay");
    assert_eq!(s.step, Step::PayField(1));
    play(&g, &mut s, "pay:1 wood to P1");
    play(&g, &mut s, "move-whale-1:Sporeholm");
    play(&g, &mut s, "pay:1 wood to P2");
    assert_eq!((s.long.fields, s.players[0].res[WOOD]), (4, 0));
    assert!(!legal(&g, &s).iter().any(|n| n.starts_with("move-whale")), "nothing left to pay with");
    play(&g, &mut s, "deliver-1:demand row space 1");
    assert_eq!(s.step, Step::BottomChoice(0));
    settle_chance(&g, &mut s);
    play(&g, &mut s, "choose:wood");
    assert_eq!((s.step, s.long.cargo, s.cargo_done), (Step::LongMove, true, 0));
    assert_eq!(s.players[0].territory_tiles[0], 1);
    play(&g, &mut s, "end-long-move");
    assert!(is_legal(&g, &s, "move-whale-1:Glowcap"), "step 2: the same whale moves again (from its outpost, free)");
}

#[test]
fn worker_b_field_5_on_field_4_moves_the_marker_and_the_setup_helper_takes_it() {
    // Ruling 33: field 5 used on field 4 gives the marker to its user while the other chip
    // stays on field 4, a position the setup helper takes.
    let g = worker_b(3);
    let mut s = worker_b_position(&g, json!({"worker_fields": {"4": 1}, "start_player": 1, "current": 0}));
    play(&g, &mut s, "play-5:worker");
    play(&g, &mut s, "pay:1 wood to P2");
    play(&g, &mut s, "use-field:worker 4");
    assert_eq!((s.start_player, s.worker_fields[3]), (0, 1));
    assert_eq!(s.players[0].res[KRILL], 2, "and its 2 krill");
    let t = g.setup(&json!({"players": [{}, {}, {}], "worker_fields": {"4": 1, "5": 0}, "start_player": 0, "current": 2}));
    assert!(t.is_ok(), "{:?}", t.err());
    let u = g.setup(&json!({"players": [{}, {}, {}], "worker_fields": {"4": 1}, "start_player": 0, "current": 2}));
    assert!(u.is_err(), "without a chip on field 5 the marker is field 4's");
}

#[test]
fn worker_b_in_the_2_player_game_trades_ask_only_the_other_seat_and_field_5_uses_an_automa_field() {
    // Ruling 32: the automa players hold nothing and are never asked; ruling 33: an automa
    // chip counts as another player's, and a side B resource field used this way runs its own
    // choices (the automa player to the left names a type at random).
    let g = Mistwind::load(&opts(json!({"players": 2, "worker_board": "B", "resource_board": "B"}))).unwrap();
    let mut s = at(&g, json!({"current": 0, "players": [{"wood": 1, "steel": 0, "krill": 0, "coins": 0}, {"wood": 0, "steel": 1, "krill": 0, "coins": 0}]}));
    play(&g, &mut s, "play-4:worker");
    assert_eq!(legal(&g, &s), vec!["trade-with:P1", "end-trades"]);
    let mut t = at(&g, json!({"current": 0, "resource_fields": {"1": AUT1}, "players": [{"wood": 1, "steel": 0, "krill": 0, "coins": 0}, {}]}));
    play(&g, &mut t, "play-5:worker");
    play(&g, &mut t, "pay:1 wood to AUT2");
    play(&g, &mut t, "use-field:resources 1");
    assert_eq!((t.step, t.draw), (Step::Name(5), Draw::Name(AUT2)), "AUT2, to P0's left, names the type");
    assert_eq!(t.income, 0);
}

#[test]
fn the_tie_break_counts_steel_and_not_coins() {
    // "In case of a tie, the player with the most remaining wood and steel resources wins.
    // If still tied, you share the victory." Steel decides; coins never do.
    let g = game(3);
    let end = |steel: [u16; 2], coins: [u16; 2]| at(&g, json!({"phase": "game-over", "start_player": 0, "players": [
        {"wood": 0, "steel": 0, "coins": 0, "territory_tiles": {"silver": 0}},
        {"wood": 2, "steel": steel[0], "coins": coins[0], "territory_tiles": {"green": 1}},
        {"wood": 2, "steel": steel[1], "coins": coins[1], "territory_tiles": {"purple": 1}}]}));
    // P1 and P2 both have 6 points and 2 wood.
    assert_eq!(g.winners(&end([2, 1], [0, 9])), vec![1], "one more steel wins; nine more coins do not");
    assert_eq!(g.winners(&end([1, 2], [9, 0])), vec![2]);
    assert_eq!(g.winners(&end([1, 1], [0, 9])), vec![1, 2], "equal wood and steel: coins leave the victory shared");
}

/// Ports 6 to 5 + `n`: `n` outposts, none on Mossgate (0) or Rootmere (5).
fn outposts(n: u32) -> u32 {
    ((1 << n) - 1) << 6
}

#[test]
fn the_port_bonus_outpost_is_built_up_to_the_twelfth_and_not_past_it() {
    // "Each player also receives ... 12 outposts"; Rootmere's port bonus builds a free outpost
    // (field 5, where P2 plays last and lies on top).
    let g = game(3);
    for (held, built) in [(11, true), (12, false)] {
        let mut s = last_chips(&g, 0);
        s.players[2].outposts = outposts(held);
        finish_turns(&g, &mut s);
        // So many outposts fulfil claims: P2 forgoes them (in the turn and in Phase C).
        while let Some(end) = legal(&g, &s).into_iter().find(|n| n == "end-turn" || n == "pass") {
            play(&g, &mut s, &end);
        }
        assert_eq!(s.players[2].outposts & 1 << 5 != 0, built, "holding {held} outposts");
        assert_eq!(s.players[2].outposts.count_ones(), 12);
    }
}

#[test]
fn building_an_outpost_needs_one_of_the_twelve_left() {
    // "Each player also receives ... 12 outposts": the 12th is built, a 13th is not.
    let g = game(3);
    for (held, offered) in [(11, true), (12, false)] {
        let mut s = turn_position(&g);
        s.players[0].outposts = outposts(held);
        play(&g, &mut s, "play-1:port Mossgate");
        assert_eq!(is_legal(&g, &s, "build-outpost"), offered, "holding {held} outposts");
        if offered {
            play(&g, &mut s, "build-outpost");
            assert_eq!(s.players[0].outposts.count_ones(), 12);
        }
    }
}

#[test]
fn the_network_card_discard_comes_at_the_end_of_round_2_and_in_no_other_round() {
    // "At the end of round 2, each player must discard a network card."
    for n in [3, 5] {
        let g = game(n);
        for round in 0..g.rounds - 1 {
            let mut s = last_chips(&g, round);
            for (p, pl) in s.players.iter_mut().take(n).enumerate() {
                pl.cards |= 1 << p;
            }
            finish_turns(&g, &mut s);
            assert_eq!(s.round, round + 1);
            assert_eq!(s.phase == Phase::DiscardNetworkCard, round + 1 == 2, "{n} players, the end of round {}", round + 1);
        }
    }
}

#[test]
fn worker_b_field_2_buys_an_outpost_only_while_one_of_the_twelve_is_left() {
    // "Each player receives (in their chosen color) 12 outposts"; worker board side B: "Buy an
    // outpost with coins." The 12th is bought, a 13th is not.
    let g = worker_b(3);
    for (held, offered) in [(11, true), (12, false)] {
        let mut s = worker_b_position(&g, json!({}));
        s.players[0].outposts = outposts(held);
        assert_eq!(is_legal(&g, &s, "play-2:worker"), offered, "holding {held} outposts");
        if offered {
            play(&g, &mut s, "play-2:worker");
            play(&g, &mut s, "build:Mossgate");
            assert_eq!((s.players[0].outposts.count_ones(), s.players[0].res[COINS]), (12, 1));
        }
    }
}

#[test]
fn ruling_36_whether_a_player_is_asked_to_claim_depends_on_what_the_table_sees() {
    // "I. Network Cards: Reveal your secret network card if you have fulfilled all the
    // conditions shown on it": which cards a player holds is his secret (the table sees how
    // many, of which difficulty), so whether he is asked at step 4 must not tell whether he can
    // claim one (ruling 36). P0's whale in Fernwick and outposts in Mossgate and Sporeholm join
    // the easy card "Fernwick: Mossgate, Sporeholm" (card 0). Holding another easy card (card
    // 2, Mirror Sound, not joined), P0 is asked and may only end the turn; holding only a hard
    // card (none of which his network joins), or no card, he is not asked.
    let g = game(3);
    for (cards, asked) in [(json!([2]), true), (json!([12]), false), (json!([]), false)] {
        let mut s = at(&g, json!({
            "players": [
                {"wood": 3, "steel": 3, "krill": 2, "coins": 5, "whales": [{"port": "Fernwick"}],
                 "outposts": ["Mossgate", "Sporeholm"], "network_cards": cards},
                {"whales": [{"port": "Sporeholm"}]},
                {"whales": [{"port": "Glowcap"}]}
            ],
            "character_row": ["Lumber Merchant", "Forester", "Whale Tamer", "Surveyor", "Cartographer"],
            "port_row": [1, 2, 3, 4, 6]
        }));
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
        if asked {
            assert_eq!((s.current, legal(&g, &s)), (0, vec!["end-turn".to_string()]), "{cards}: asked, nothing to claim");
            play(&g, &mut s, "end-turn");
        }
        assert_eq!(s.current, 1, "{cards}: the turn passes to P1");
    }
}

// ----- what a person at the table is told: the map, the move names, the log -----

#[test]
fn the_moves_name_each_port_with_its_region_and_cargo() {
    let g = game(3);
    let s = at(&g, json!({"step": "move", "players": [{"krill": 5, "whales": [{"port": "Fernwick"}]}]}));
    let names = legal(&g, &s);
    assert!(names.iter().any(|n| n == "move-whale-1:Rootmere (green, textiles)"), "{names:?}");
    assert!(names.iter().any(|n| n == "move-whale-1:Mossgate (green capital)"), "{names:?}");
    assert!(names.iter().any(|n| n == "move-whale-1:Lichen Bay (green, krill)"), "{names:?}");
    let t = turn_position(&g);
    let names = legal(&g, &t);
    assert!(names.iter().any(|n| n == "play-1:port Mossgate (green capital)"), "{names:?}");
    // The table shows them so too.
    let table = g.text(&t, Viewer::Seat(0));
    assert!(table.contains("whales: 1@Fernwick (green, coal)"), "{table}");
    assert!(table.contains("  1: Mossgate (green capital; bonus: 2 wood) chips 0 top -"), "{table}");
}

#[test]
fn the_old_move_names_without_the_port_note_still_parse() {
    use std::sync::Arc;
    let g = Arc::new(game(3));
    let at_move = at(&g, json!({"step": "move", "players": [{"krill": 5, "whales": [{"port": "Fernwick"}]}]}));
    let s = crate::engine::GameState::from_parts(Arc::clone(&g), at_move, crate::engine::rng::rng_from_seed(1), false);
    let a = s.string_to_action("move-whale-1:Rootmere").unwrap();
    assert_eq!(s.action_to_string(a), "move-whale-1:Rootmere (green, textiles)");
    assert_eq!(s.string_to_action("MOVE-WHALE-1:rootmere").unwrap(), a);
    assert!(s.string_to_action("move-whale-1:Atlantis").is_err());
}

#[test]
fn the_map_shows_the_ports_by_region_their_links_and_pieces() {
    let g = game(3);
    let s = at(&g, json!({"players": [
        {"whales": [{"port": "Fernwick", "cargo": "coal"}], "outposts": ["Sporeholm"]},
        {"whales": [{"port": "Quicksilver"}]}, {}]}));
    let map = g.view(&s, "map", None).unwrap();
    for q in 0..g.data.ports.len() {
        assert!(map.contains(&format!("  {} (", g.port_name(q as u8))), "port {q} on the map:\n{map}");
    }
    assert!(map.contains("green region (capital Mossgate)"), "{map}");
    assert!(map.contains("  Fernwick (coal): to Mossgate, Lichen Bay, Driftwood (brown); P0's whale 1 carrying coal"), "{map}");
    assert!(map.contains("  Sporeholm (mushrooms): to Mossgate, Lichen Bay, Glowcap, Tin Haven (silver); outposts P0"), "{map}");
    assert!(map.contains("  Quicksilver (capital): to Pearl Strand, Mirror Sound, Tin Haven; P1's whale 1"), "{map}");
    assert_eq!(g.views().iter().map(|v| v.0).collect::<Vec<_>>(), ["map"]);
    assert!(g.view(&s, "atlas", None).is_none());
}

#[test]
fn a_seats_map_shows_only_its_own_network_cards() {
    let g = game(3);
    let s = at(&g, json!({"players": [{"network_cards": [1]}, {"network_cards": [2]}, {}]}));
    let words = |c: usize| g.card_words(c);
    let (mine, theirs) = (g.view(&s, "map", Some(0)).unwrap(), g.view(&s, "map", Some(1)).unwrap());
    assert!(mine.contains(&format!("P0's network cards: [{} (destinations joined:", words(0))), "{mine}");
    assert!(!mine.contains(&words(1)) && mine.contains("P1's network cards: [easy (face down)]"), "{mine}");
    assert!(theirs.contains(&words(1)) && !theirs.contains(&words(0)), "{theirs}");
    let all = g.view(&s, "map", None).unwrap();
    assert!(all.contains(&words(0)) && all.contains(&words(1)));
}

#[test]
fn the_log_tells_each_port_bonus() {
    // "the player whose action chip lies on top of a stack receives the port bonus — even if
    // they are the only one there".
    let g = game(3);
    let mut s = last_chips(&g, 0);
    for _ in 0..g.players - 1 {
        play(&g, &mut s, "play-5:port Rootmere");
        play(&g, &mut s, "take:coins");
        play(&g, &mut s, "end-moves");
        play(&g, &mut s, "end-cargo");
    }
    play(&g, &mut s, "play-5:port Rootmere");
    play(&g, &mut s, "take:coins");
    play(&g, &mut s, "end-moves");
    let before = s.clone();
    play(&g, &mut s, "end-cargo");
    let mut v = Vec::new();
    g.legal_actions(&before, &mut v);
    let end = v.iter().copied().find(|&a| g.action_to_string(&before, a) == "end-cargo").unwrap();
    let line = g.describe_move(&before, end, &s, None);
    assert!(line.contains("All chips are played: the port bonuses are paid."), "{line}");
    assert!(line.contains("Port bonus of field 1 (Mossgate (green capital; bonus: 2 wood)): P1, on top, gains 2 wood."), "{line}");
    assert!(line.contains("Port bonus of field 5 (Rootmere (green, textiles; bonus: a free outpost)): P2, on top, builds a free outpost in Rootmere."), "{line}");
    assert!(line.contains("Round 1 ends."), "{line}");
}

#[test]
fn the_log_tells_that_an_automa_player_on_top_takes_no_bonus() {
    // The AUT "do not build outposts" and hold no resources (ruling 16).
    let g = game(2);
    let mut s = at(&g, json!({"current": 1, "start_player": 0,
        "players": [{"chips": []}, {"chips": [1]}], "automa": [{"chips": [5]}, {"chips": [5]}],
        "stacks": [[2, AUT1], [1, 0]]}));
    play(&g, &mut s, "play-1:resources");
    play(&g, &mut s, "end-moves");
    let before = s.clone();
    play(&g, &mut s, "end-cargo");
    let mut v = Vec::new();
    g.legal_actions(&before, &mut v);
    let end = v.iter().copied().find(|&a| g.action_to_string(&before, a) == "end-cargo").unwrap();
    let line = g.describe_move(&before, end, &s, Some(0));
    assert!(line.contains("Port bonus of field 1 (") && line.contains("AUT1, on top, takes no bonus (an automa player)."), "{line}");
    assert!(line.contains(&format!("Port bonus of field 2 ({}): P0, on top, gains {}.", g.port_card_label(1), super::view::res_words(&g.data.port_cards[1].gain))), "{line}");
}

#[test]
fn the_log_tells_an_immediate_characters_gain() {
    // An immediate character "must be used immediately": its gain comes at once.
    let g = game(3);
    let s = turn_position(&g);
    let mut v = Vec::new();
    g.legal_actions(&s, &mut v);
    let a = v.iter().copied().find(|&a| g.action_to_string(&s, a) == "play-1:character Lumber Merchant").unwrap();
    let mut after = s.clone();
    g.apply(&mut after, a);
    assert_eq!(g.describe_move(&s, a, &after, None), "P0 plays chip 1 and hires Lumber Merchant, paying 2 coins; Lumber Merchant is used at once: P0 gains 3 wood.");
}

/// Plays random games of `g`, calling `f(before, action, after)` for every move.
fn random_games(g: &Mistwind, games: u64, mut f: impl FnMut(&State, crate::engine::Action, &State)) {
    use crate::engine::rng::{below, rng_from_seed};
    let mut v = Vec::new();
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut s = g.initial_state();
        loop {
            let a = match g.actor(&s) {
                Actor::Terminal => break,
                Actor::Chance => g.sample_chance(&s, &mut rng),
                Actor::Player(_) => {
                    g.legal_actions(&s, &mut v);
                    v[below(&mut rng, v.len() as u32) as usize]
                }
            };
            let before = s.clone();
            g.apply(&mut s, a);
            f(&before, a, &s);
        }
    }
}

#[test]
fn every_change_of_a_players_holdings_is_told_in_the_log() {
    // Every resource gained or paid, outpost built and character hired is in the move's
    // sentence: nothing passes in silence.
    let mut changes = 0;
    for (players, board) in [(3, "A"), (1, "A"), (2, "B"), (4, "B"), (5, "A")] {
        let g = Mistwind::load(&opts(json!({"players": players, "resource_board": board, "worker_board": board}))).unwrap();
        random_games(&g, 4, |b, a, after| {
            let line = g.describe_move(b, a, after, None);
            for q in 0..g.positions {
                let (x, y) = (&b.players[q], &after.players[q]);
                for r in 0..4 {
                    if x.res[r] != y.res[r] {
                        changes += 1;
                        assert!(line.contains(RESOURCES[r]) && line.contains(&g.who(q)), "{}'s {} {} -> {}, untold: {line:?} ({})", g.who(q), RESOURCES[r], x.res[r], y.res[r], g.action_to_string(b, a));
                    }
                }
                for port in super::rules::bits((y.outposts & !x.outposts) as u64) {
                    assert!(line.contains(g.port_name(port as u8)) && line.contains("outpost"), "an outpost in {}, untold: {line:?}", g.port_name(port as u8));
                }
                for c in super::rules::bits(y.characters & !x.characters) {
                    assert!(line.contains(&g.data.characters[c].name), "{} untold: {line:?}", g.data.characters[c].name);
                }
            }
        });
    }
    assert!(changes > 1000, "{changes} changes seen");
}
