//! Nauticus's Rust tests (the shared conformance suite runs every configuration in
//! `tests/conformance.rs`); rule tests quote the
//! rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::data::{ComponentData, Source};
use crate::engine::{Actor, EngineError, GameState};
use crate::engine::prelude::*;

use super::data::{Data, KINDS};
use super::state::Step;
use super::Nauticus;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Nauticus {
    Nauticus::load(&opts(json!({ "players": players }))).unwrap()
}

// ----- helpers ---------------------------------------------------------------------------

pub(super) type St = GameState<Nauticus>;

/// The layout of the tests: "buy hull parts" on the space of the 2-point bonus (space 4,
/// whose prices reproduce the rulebook's buying examples).
pub(super) const LAYOUT: [&str; 8] = [
    "withdraw money",
    "transport",
    "deliver goods",
    "buy hull parts",
    "buy masts",
    "buy sails",
    "buy goods",
    "score the crowns",
];

/// `LAYOUT` with `tile` moved to space `space` (1..=8), swapped with the tile there.
pub(super) fn layout_with(tile: &str, space: usize) -> Vec<&str> {
    let mut l = LAYOUT.to_vec();
    let from = l.iter().position(|t| *t == tile).unwrap();
    l.swap(from, space - 1);
    l
}

pub(super) fn position(players: usize, desc: Value) -> St {
    let g = Arc::new(game(players));
    let inner = g.setup(&desc).unwrap_or_else(|e| panic!("{e}"));
    GameState::from_parts(g, inner, crate::engine::rng::rng_from_seed(1), true)
}

/// The start player is about to choose; the turntable's anchor points to space 2, so the
/// space of "buy hull parts" has 2 blue workers.
fn choosing(players: usize, players_desc: Value) -> St {
    position(players, json!({"pointing": 2, "spaces": LAYOUT, "players": players_desc}))
}

fn legal_names(st: &St) -> Vec<String> {
    st.legal_actions().iter().map(|&a| st.action_to_string(a)).collect()
}

fn has(st: &St, action: &str) -> bool {
    legal_names(st).iter().any(|n| n == action)
}

pub(super) fn play(st: &mut St, action: &str) {
    let a = st.string_to_action(action).unwrap_or_else(|e| panic!("{action}: {e}\n{}", st.render()));
    st.apply(a).unwrap();
}

/// Plays the one legal action whose name begins with `prefix` (ship targets carry the ship's
/// description after its number).
pub(super) fn play_starting(st: &mut St, prefix: &str) {
    let matches: Vec<String> = legal_names(st).into_iter().filter(|n| n.starts_with(prefix)).collect();
    assert_eq!(matches.len(), 1, "{prefix:?} matches {matches:?}; legal: {:?}", legal_names(st));
    play(st, &matches[0]);
}

fn has_starting(st: &St, prefix: &str) -> bool {
    legal_names(st).iter().any(|n| n.starts_with(prefix))
}

fn pl(st: &St, p: usize) -> super::state::Player {
    st.inner().players[p]
}

fn ships(st: &St, p: usize) -> Vec<super::Ship> {
    st.inner().ships_of(p).map(|(_, s)| *s).collect()
}

fn kind(st: &St, name: &str) -> usize {
    (0..KINDS as u8).find(|&k| st.game().data.kind_name(k) == name).unwrap() as usize
}

fn warehouse(st: &St, p: usize, name: &str) -> u8 {
    pl(st, p).warehouse[kind(st, name)]
}

// ----- component data --------------------------------------------------------------------

#[test]
fn component_counts_match_the_rulebook_list() {
    // "18 single-vessel (1-tile) hull tiles • 18 bow tiles • 18 stern tiles • 9 center-hull
    // tiles • 72 masts (4 sets of 15 masts, each set with a different coat of arms, plus 12
    // masts with a crown) • 72 sails (...) • 48 goods tiles (12 each of coffee, grain, salt and
    // fish) • 28 worker cubes • 42 coins (26 x 1-Taler, 16 x 5-Taler) • 12 pass tiles • 4
    // "extra action" tiles"
    let d = Data::shipped();
    assert_eq!(d.stock[..4], [18, 18, 18, 9]);
    assert_eq!(d.stock[4..9].iter().map(|&n| n as u32).sum::<u32>(), 72);
    assert_eq!(d.stock[4..8], [15; 4]);
    assert_eq!(d.stock[8], 12);
    assert_eq!(d.stock[9..14].iter().map(|&n| n as u32).sum::<u32>(), 72);
    assert_eq!(d.stock[9..13], [15; 4]);
    assert_eq!(d.stock[13], 12);
    assert_eq!(d.stock[14..18], [12; 4]);
    let c = &d.file.components;
    assert_eq!(c.worker_cubes.value, 28);
    assert_eq!(c.coins_of_1.value + c.coins_of_5.value, 42);
    assert_eq!((c.coins_of_1.value, c.coins_of_5.value), (26, 16));
    assert_eq!(c.pass_tiles.value, 12);
    assert_eq!(c.extra_action_tiles.value, 4);
    assert_eq!(c.warehouses.value, 4);
    assert_eq!(d.file.prices.len() + d.turntable.len(), 16);
    assert_eq!(d.pass_penalties, [3, 2, 1]);
    assert_eq!(d.coats.len(), 4);
}

#[test]
fn reconstructed_values_are_marked_and_printed_ones_match_the_rulebook() {
    let d = Data::shipped();
    let f = &d.file;
    assert_eq!(f.rules.warehouse_spaces.source, Source::Reconstructed);
    assert_eq!(f.rules.starting_taler.source, Source::Printed);
    assert_eq!(f.turntable[0].source, Source::Printed);
    assert!(f.turntable[1..].iter().all(|s| s.source == Source::Reconstructed));
    assert!(f.prices.iter().all(|p| p.source == Source::Reconstructed));
    assert_eq!(f.coats_of_arms.iter().filter(|c| c.source == Source::Printed).count(), 2);
    assert!(f.bonuses.iter().all(|b| b.source == Source::Printed));
    // "Every space, except the anchor space, shows 1, 2 or 3 workers."
    assert_eq!(d.turntable[0], 0);
    assert!(d.turntable[1..].iter().all(|&w| (1..=3).contains(&w)));
    // "The numbers 0–3 printed on the game board next to the storage spaces".
    for p in d.prices {
        let mut sorted = p;
        sorted.sort();
        assert_eq!(sorted, [0, 1, 2, 3]);
    }
    // The bonuses in printed order.
    let b = d.bonuses;
    assert_eq!((b[0].workers, b[0].choice), (3, None));
    assert_eq!(b[1].choice, Some(super::data::Category::Mast));
    assert_eq!(b[2].choice, Some(super::data::Category::Sail));
    assert_eq!(b[3].points, 2);
    assert_eq!(b[4].workers, 2);
    assert_eq!((b[5].workers, b[5].choice), (1, Some(super::data::Category::Good)));
    assert_eq!((b[6].workers, b[6].points), (1, 1));
    assert_eq!(b[7].taler, 4);
    assert_eq!(d.rounds[&2], 4);
    assert_eq!(d.rounds[&3], 5);
    assert_eq!(d.rounds[&4], 5);
    assert_eq!(d.set_points, [2, 5, 9, 14, 20]);
    assert_eq!(d.ship_points, [2, 8, 20, 35]);
}

fn shipped_json() -> Value {
    serde_json::from_str(Data::SHIPPED).unwrap()
}

fn data_error(v: &Value) -> String {
    match Data::from_value(v) {
        Err(EngineError::DataFile { field, .. }) => field,
        other => panic!("{other:?}"),
    }
}

#[test]
fn data_validation_names_the_offending_field() {
    let mut v = shipped_json();
    v["prices"][2]["prices"][1] = json!(4);
    assert_eq!(data_error(&v), "prices[2].prices[1]");

    let mut v = shipped_json();
    v["turntable"][0]["value"] = json!(1);
    assert_eq!(data_error(&v), "turntable[0].value");

    let mut v = shipped_json();
    v["turntable"][3]["value"] = json!(4);
    assert_eq!(data_error(&v), "turntable[3].value");

    let mut v = shipped_json();
    v["rounds"].as_object_mut().unwrap().remove("3");
    assert_eq!(data_error(&v), "rounds.3");

    let mut v = shipped_json();
    v["seat_compensation"]["4"].as_array_mut().unwrap().pop();
    assert_eq!(data_error(&v), "seat_compensation.4");

    let mut v = shipped_json();
    v["coats_of_arms"][3]["name"] = json!("whale");
    assert_eq!(data_error(&v), "coats_of_arms[3].name");

    let mut v = shipped_json();
    v["bonuses"][1]["good"] = json!(true);
    assert_eq!(data_error(&v), "bonuses[1]");

    let mut v = shipped_json();
    v["components"]["bows"]["source"] = json!("guessed");
    assert_eq!(data_error(&v), "components.bows.source");

    let mut v = shipped_json();
    v["rules"]["warehouse_spaces"]["value"] = json!(1);
    assert_eq!(data_error(&v), "rules.warehouse_spaces.value");

    let mut v = shipped_json();
    v["rules"]["reward_repeats_per_ship"]["value"] = json!(1);
    assert_eq!(data_error(&v), "rules.reward_repeats_per_ship.value");
}

#[test]
fn a_users_data_file_changes_the_game_and_travels_in_its_config() {
    let mut v = shipped_json();
    v["rules"]["warehouse_spaces"]["value"] = json!(10);
    let g = Nauticus::load(&opts(json!({"players": 2, "data": v}))).unwrap();
    assert_eq!(g.data.rules.warehouse_spaces, 10);
    let again = crate::games::load_json(&g.config()).unwrap();
    assert_eq!(again.config()["data"]["rules"]["warehouse_spaces"]["value"], 10);
    assert_eq!(again.config(), g.config());
    assert!(game(2).config().get("data").is_none());
}

// ----- setup -------------------------------------------------------------------------------

#[test]
fn each_player_starts_with_15_taler_4_workers_10_points_the_extra_action_and_seat_compensation() {
    // "4 workers ... 15 Taler ... 1 "extra action" tile ... The player in position 2 receives 1
    // additional Taler. In a three-player game, the player in position 3 receives 2
    // additional Taler and 1 additional worker. In a four-player game, the player in position
    // 3 receives 1 additional Taler and 1 additional worker, and the player in position 4
    // receives 2 additional Taler and 2 additional workers."
    let expect: [(usize, &[(u32, u32)]); 3] = [
        (2, &[(15, 4), (16, 4)]),
        (3, &[(15, 4), (16, 4), (17, 5)]),
        (4, &[(15, 4), (16, 4), (16, 5), (17, 6)]),
    ];
    for (n, seats) in expect {
        let g = game(n);
        let s = g.initial_state();
        for (p, &(taler, workers)) in seats.iter().enumerate() {
            let pl = s.players[p];
            assert_eq!((pl.taler, pl.workers), (taler, workers), "{n} players, seat {p}");
            // "The victory point markers ... are placed on space 10".
            assert_eq!(pl.points, 10);
            assert!(pl.extra);
            assert_eq!(pl.passes, 0);
            assert_eq!(pl.warehouse, [0; KINDS]);
        }
        assert_eq!(s.stock, g.data.stock);
        assert_eq!(s.start, 0);
        // "aligned so that the space with the anchor points to the bonus space with the 3 workers"
        assert_eq!(s.pointing, 0);
        assert_eq!(g.blue_workers(&s, 0), 0);
        assert_eq!(s.step, Step::Deal);
    }
}

#[test]
fn the_action_tiles_are_shuffled_onto_the_eight_spaces_at_random() {
    // "the 8 action tiles are collected ..., shuffled face down, and then laid out randomly,
    // face up, on the 8 action spaces"
    let g = Arc::new(game(3));
    let mut st = GameState::new(Arc::clone(&g), 5, true);
    for left in (2..=8).rev() {
        let outcomes = st.chance_outcomes();
        assert_eq!(outcomes.len(), left);
        assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / left as f64).abs() < 1e-12));
        st.apply(outcomes[outcomes.len() - 1].0).unwrap();
    }
    // Seven draws decide the eighth tile.
    assert_eq!(st.actor(), Actor::Player(0));
    let mut tiles = st.inner().spaces;
    tiles.sort();
    assert_eq!(tiles, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(st.inner().spaces, [7, 6, 5, 4, 3, 2, 1, 0]);
}

#[test]
fn the_game_lasts_four_rounds_with_two_players_and_five_otherwise_each_of_seven_phases() {
    // "In a three- or four-player game, 5 rounds are played. In a two-player game, only 4
    // rounds are played. Each round consists of exactly 7 action phases."
    for (n, rounds) in [(2, 4u8), (3, 5), (4, 5)] {
        let g = Arc::new(game(n));
        let mut st = GameState::new(Arc::clone(&g), 11, false);
        let mut rng = crate::engine::rng::rng_from_seed(3);
        let mut chosen_in_round = std::collections::BTreeMap::<u8, u32>::new();
        while !st.is_terminal() {
            let legal = st.legal_actions();
            let a = legal[crate::engine::rng::below(&mut rng, legal.len() as u32) as usize];
            if st.inner().step == Step::Choose {
                *chosen_in_round.entry(st.inner().round).or_default() += 1;
            }
            st.apply(a).unwrap();
        }
        assert_eq!(chosen_in_round.len(), rounds as usize, "{n} players");
        assert!(chosen_in_round.values().all(|&c| c == 7), "{chosen_in_round:?}");
        assert_eq!(st.inner().round, rounds);
    }
}

#[test]
fn setup_descriptions_are_checked_field_by_field() {
    let g = game(3);
    let bad = |d: Value| match g.setup(&d) {
        Err(EngineError::Setup { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(bad(json!({"start": 3})), "start");
    assert_eq!(bad(json!({"spaces": ["buy hull parts"]})), "spaces");
    assert_eq!(bad(json!({"spaces": LAYOUT, "phases": 1, "turned": []})), "turned");
    assert_eq!(bad(json!({"players": [{"warehouse": {"whale mast": 5}}]})), "players[0].warehouse");
    assert_eq!(bad(json!({"players": [{"warehouse": {"golden mast": 1}}]})), "players[0].warehouse.golden mast");
    assert_eq!(bad(json!({"players": [{"ships": [{"hull": ["bow", "bow"]}]}]})), "players[0].ships[0].hull");
    assert_eq!(bad(json!({"players": [{"ships": [{"hull": ["bow"], "masts": 2, "coat": "whale"}]}]})), "players[0].ships[0]");
    assert_eq!(bad(json!({"players": [{"ships": [{"hull": ["bow"], "masts": 1}]}]})), "players[0].ships[0].coat");
    assert_eq!(bad(json!({"players": [{"passes": 4}]})), "players[0].passes");
    assert_eq!(bad(json!({"players": [{"delivered": {"coffee": 13}}]})), "players");
}

// ----- the round -----------------------------------------------------------------------------

#[test]
fn the_start_player_chooses_any_face_up_tile_and_takes_its_bonus_even_when_passing() {
    // "The player receives this bonus in every case, regardless of whether they then carry
    // out the chosen action or pass." "Only the start player who chose the action receives
    // the bonus."
    let mut st = choosing(3, json!([{"extra": false}, {"extra": false}, {"extra": false}]));
    assert_eq!(legal_names(&st).len(), 8);
    play(&mut st, "choose: buy hull parts"); // space 4: 2 victory points
    assert_eq!(pl(&st, 0).points, 12);
    play(&mut st, "pass");
    assert_eq!(pl(&st, 0).points, 12);
    assert_eq!(st.actor(), Actor::Player(1));
    play(&mut st, "pass");
    play(&mut st, "pass");
    assert_eq!((pl(&st, 1).points, pl(&st, 2).points), (10, 10));
    // "The corresponding action tile is turned over and is no longer available for the rest
    // of the round." "The start player figure is passed to the next player clockwise."
    assert_eq!(st.actor(), Actor::Player(1));
    assert_eq!(st.inner().start, 1);
    assert!(!has(&st, "choose: buy hull parts"));
    assert_eq!(legal_names(&st).len(), 7);
    // "After the first action phase of a round, the anchor tile is placed on the turned-over
    // action tile."
    assert_eq!(st.inner().anchor, 3);
}

#[test]
fn every_bonus_in_printed_order() {
    // "3 workers; Mast; Sail; 2 victory points; 2 workers; 1 worker + 1 good; 1 worker + 1
    // victory point; 4 Taler"
    let cases: [(usize, &str, i32, u32, u32, Option<&str>); 8] = [
        (1, "take as the bonus: a whale mast", 0, 3, 0, None),
        (2, "take as the bonus: an anchor mast", 0, 0, 0, Some("anchor mast")),
        (3, "take as the bonus: a whale sail", 0, 0, 0, Some("whale sail")),
        (4, "", 2, 0, 0, None),
        (5, "", 0, 2, 0, None),
        (6, "take as the bonus: salt", 0, 1, 0, Some("salt")),
        (7, "", 1, 1, 0, None),
        (8, "", 0, 0, 4, None),
    ];
    for (space, pick, points, workers, taler, tile) in cases {
        let mut st = position(
            2,
            json!({"pointing": 2, "spaces": layout_with("transport", space), "players": [{"extra": false}]}),
        );
        play(&mut st, "choose: transport");
        if let Some(t) = tile {
            // A free tile of the player's choice, never a crown.
            assert!(!has_starting(&st, "take a crown"));
            play(&mut st, pick);
            // "(Do you still remember the Golden Rule?)": it goes to the warehouse.
            assert_eq!(warehouse(&st, 0, t), 1, "space {space}");
        }
        assert_eq!(st.inner().step, Step::Turn, "space {space}");
        let p = pl(&st, 0);
        assert_eq!((p.points, p.workers, p.taler), (10 + points, 4 + workers, 15 + taler), "space {space}");
    }
}

#[test]
fn a_bonus_tile_that_does_not_fit_into_the_warehouse_is_not_received() {
    // "if the warehouse is full, no further ship parts or goods can be stored."
    // 7 of 8 spaces used: a mast (2 spaces) does not fit, a sail (1) does.
    let full = json!({"coffee": 3, "grain": 2, "fish": 2});
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("transport", 2), "players": [{"extra": false, "warehouse": full}]}));
    play(&mut st, "choose: transport");
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(st.inner().stock[4..8], [15; 4]);
    assert_eq!(st.inner().warehouse_used(0, 2), 7);
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("transport", 3), "players": [{"extra": false, "warehouse": full}]}));
    play(&mut st, "choose: transport");
    assert_eq!(st.inner().step, Step::BonusTile);
    play(&mut st, "take as the bonus: a whale sail");
    assert_eq!(st.inner().warehouse_used(0, 2), 8);
}

#[test]
fn blue_workers_follow_the_turntable_and_the_anchor_turns_it_for_the_next_round() {
    // "When an action is chosen, the workers assigned to the chosen action on the turntable
    // are available to all players who carry out this action." "The turntable is turned so
    // that the anchor on the wheel points to the action tile on which the anchor tile is
    // lying."
    let g = game(2);
    let mut st = choosing(2, json!([{"extra": false}, {"extra": false}]));
    let blue: Vec<u8> = (0..8).map(|sp| g.blue_workers(st.inner(), sp)).collect();
    assert_eq!(blue, [2, 0, 1, 2, 3, 1, 2, 3]);
    // Seven phases of passing; the first action (on space 6) carries the anchor tile.
    let order = ["buy sails", "withdraw money", "transport", "deliver goods", "buy hull parts", "buy masts", "buy goods"];
    for t in order {
        play(&mut st, &format!("choose: {t}"));
        if st.inner().step == Step::BonusTile {
            let first = legal_names(&st)[0].clone();
            play(&mut st, &first);
        }
        play(&mut st, "pass");
        play(&mut st, "pass");
    }
    // "The remaining eighth action is not carried out in this round."
    assert_eq!(st.inner().round, 1);
    assert_eq!(st.inner().step, Step::Deal);
    assert_eq!(st.inner().pointing, 5);
    assert_eq!(g.blue_workers(st.inner(), 5), 0);
    assert_eq!(g.blue_workers(st.inner(), 6), 1);
    // "The start player figure is not (additionally) passed at the end of a round": 7 phases
    // moved it 7 times.
    assert_eq!(st.inner().start, 1);
}

#[test]
fn passing_turns_the_pass_tiles_minus_3_first() {
    // "If a player passes, they turn over one of their 3 pass tiles to its back. It makes
    // sense to turn over the -3 tile first, then the -2 tile, and on the third pass, the -1
    // tile." A fourth pass turns nothing more.
    let mut st = choosing(2, json!([{"extra": false, "passes": 2}, {"extra": false, "passes": 3}]));
    play(&mut st, "choose: withdraw money");
    play(&mut st, "pass");
    assert_eq!(pl(&st, 0).passes, 3);
    play(&mut st, "pass");
    assert_eq!(pl(&st, 1).passes, 3);
    // "In addition, turning over a pass tile grants 1 additional crown".
    assert_eq!(st.inner().crowns(0), 3);
}

#[test]
fn end_of_round_penalties_for_unturned_pass_tiles_may_go_below_zero() {
    // "A player who does not pass at all during a round loses a total of 6 victory points. A
    // player who passes once already reduces this loss to 3 victory points." "(In the
    // unlikely case that a player's score drops below 0 victory points, the score may go
    // negative.)" "Afterward, all pass tiles are turned back".
    let mut st = position(
        4,
        json!({"pointing": 2, "spaces": LAYOUT, "phases": 6, "anchor": "transport",
               "turned": ["transport", "deliver goods", "buy hull parts", "buy masts", "buy sails", "buy goods"],
               "players": [{"extra": false, "points": 2, "passes": 0}, {"extra": false, "passes": 1},
                           {"extra": false, "passes": 2}, {"extra": false, "passes": 3}]}),
    );
    play(&mut st, "choose: withdraw money"); // space 1: 3 workers for P0
    for _ in 0..4 {
        play(&mut st, "withdraw 2 Taler for a worker");
        play(&mut st, "finish the action");
    }
    assert_eq!(st.inner().step, Step::Deal);
    let points: Vec<i32> = (0..4).map(|p| pl(&st, p).points).collect();
    assert_eq!(points, [2 - 6, 10 - 3, 10 - 1, 10]);
    assert!((0..4).all(|p| pl(&st, p).passes == 0));
    assert_eq!(st.inner().round, 1);
}

// ----- buying -------------------------------------------------------------------------------

#[test]
fn worked_example_buying_hull_parts() {
    // "The start player chooses the action "buy hull parts". They receive a bonus of 2
    // victory points ... They buy all 4 hull parts, and therefore must pay 6 Taler and spend 4
    // workers. 2 blue workers are available to them from the turntable, so they still need to
    // spend 2 workers from their personal stock ... they receive a free hull part of their
    // choice as well, which they place in their warehouse. Then the next player ... buy a bow
    // and a stern and pay 1 + 3 = 4 Taler for it. Since this uses the 2 available blue
    // workers, they need not spend any workers from their own stock. The third player "buys"
    // the 0-cost single-vessel tile and places it in their warehouse. ... The unused worker is
    // forfeited."
    let mut st = choosing(3, json!([{"extra": false}, {"extra": false}, {"extra": false}]));
    play(&mut st, "choose: buy hull parts");
    assert_eq!(pl(&st, 0).points, 12);
    assert_eq!(st.inner().turn.blue, 2);
    play(&mut st, "buy: a single hull for 0 Taler");
    // The free single hull goes straight to the warehouse: no placement to choose.
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(warehouse(&st, 0, "single hull"), 1);
    play(&mut st, "buy: a bow for 1 Taler");
    play(&mut st, "begin a new ship: the bow");
    play(&mut st, "buy: a stern for 3 Taler");
    // "They immediately form a 2-tile ship from the bow and stern."
    play_starting(&mut st, "put on ship 1: the stern");
    play(&mut st, "buy: a centre for 2 Taler");
    // "They set the center part aside for now."
    play(&mut st, "put in the warehouse: the centre");
    assert_eq!(st.inner().step, Step::Gift);
    play(&mut st, "take as the gift: a single hull");
    // "Both 1-tile hulls must go into the warehouse, since they were received for free."
    assert_eq!(warehouse(&st, 0, "single hull"), 2);
    assert_eq!((pl(&st, 0).taler, pl(&st, 0).workers), (15 - 6, 4 - 2));
    let sh = ships(&st, 0);
    assert_eq!(sh.len(), 1);
    assert!(sh[0].bow && sh[0].stern && sh[0].hull_closed());
    // "it is not possible to later insert a center part."
    assert!(!sh[0].accepts(super::data::CENTRE));
    play(&mut st, "finish the action");

    assert_eq!(st.actor(), Actor::Player(1));
    assert_eq!(st.inner().turn.blue, 2);
    play(&mut st, "buy: a bow for 1 Taler");
    play(&mut st, "begin a new ship: the bow");
    play(&mut st, "buy: a stern for 3 Taler");
    play_starting(&mut st, "put on ship 1: the stern");
    assert_eq!((pl(&st, 1).taler, pl(&st, 1).workers), (16 - 4, 4));
    play(&mut st, "finish the action");

    assert_eq!(st.actor(), Actor::Player(2));
    play(&mut st, "buy: a single hull for 0 Taler");
    assert_eq!(warehouse(&st, 2, "single hull"), 1);
    assert_eq!((pl(&st, 2).taler, pl(&st, 2).workers), (17, 5));
    assert_eq!(st.inner().turn.blue, 1);
    play(&mut st, "finish the action");
    // The unused blue worker is forfeited: the next action brings its own count.
    assert_eq!(st.inner().step, Step::Choose);
    play(&mut st, "choose: withdraw money");
    assert_eq!(st.inner().turn.blue, 2);
    assert_eq!(pl(&st, 2).workers, 5);
}

#[test]
fn worked_example_buying_masts_with_a_duplicate_for_4_taler() {
    // "Player A buys 1 green-red "whale" mast for 0 Taler and 2 light-green "anchor" masts, one
    // for 1 Taler and the second for 4 Taler. For this they need 3 workers. They must place
    // the "whale" mast in storage; the two "anchor" masts can be placed directly on their
    // ship."
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy masts", 4),
               "players": [{"extra": false, "ships": [{"hull": ["bow", "stern"]}]}]}),
    );
    play(&mut st, "choose: buy masts");
    play(&mut st, "buy: a whale mast for 0 Taler");
    assert_eq!(warehouse(&st, 0, "whale mast"), 1);
    play(&mut st, "buy: an anchor mast for 1 Taler");
    play_starting(&mut st, "put on ship 1: the anchor mast");
    // "the second and every further identical tile costs 4 Taler"
    assert!(has(&st, "buy: an anchor mast for 4 Taler"));
    // The players see what was bought in this action, which sets these prices.
    let seen = st.observation_string(1).unwrap();
    assert!(seen.contains(", bought 1 whale mast, 1 anchor mast"), "{seen}");
    assert!(has(&st, "buy: a compass mast for 3 Taler"));
    play(&mut st, "buy: an anchor mast for 4 Taler");
    play_starting(&mut st, "put on ship 1: the anchor mast");
    assert_eq!(pl(&st, 0).taler, 15 - 5);
    // 2 blue workers and 1 of the player's.
    assert_eq!(pl(&st, 0).workers, 3);
    let sh = ships(&st, 0)[0];
    assert_eq!((sh.masts, sh.coat), (2, 1));
    // A third identical mast also costs 4, but a ship has one mast per hull tile.
    assert!(has(&st, "buy: an anchor mast for 4 Taler"));
    play(&mut st, "buy: an anchor mast for 4 Taler");
    assert!(!has_starting(&st, "put the anchor mast on ship"));
    assert!(has(&st, "put in the warehouse: the anchor mast"));
}

#[test]
fn worked_example_buying_goods_and_the_cheaper_alternative() {
    // "Player A buys 4 goods: fish, grain and 2 coffee. The second coffee costs them 4 Taler.
    // For this they need 4 workers and 7 Taler. They place 1 coffee and the grain directly
    // beneath 2 of their hulls in their shipyard. They place the free coffee and the fish in
    // their warehouse, even though they could have placed the fish on the remaining free
    // hull."
    let yard = json!([{"hull": ["single hull"]}, {"hull": ["single hull"]}, {"hull": ["single hull"]}]);
    let desc = json!({"pointing": 2, "spaces": layout_with("buy goods", 4),
                      "players": [{"extra": false, "ships": yard}]});
    let mut st = position(2, desc.clone());
    play(&mut st, "choose: buy goods");
    play(&mut st, "buy: fish for 2 Taler");
    assert!(has_starting(&st, "load on ship 3: the fish"));
    play(&mut st, "put in the warehouse: the fish");
    play(&mut st, "buy: grain for 1 Taler");
    play_starting(&mut st, "load on ship 1: the grain");
    play(&mut st, "buy: coffee for 0 Taler");
    play(&mut st, "buy: coffee for 4 Taler");
    play_starting(&mut st, "load on ship 2: the coffee");
    assert_eq!(pl(&st, 0).taler, 15 - 7);
    assert_eq!(pl(&st, 0).workers, 4 - 2);
    assert_eq!((warehouse(&st, 0, "coffee"), warehouse(&st, 0, "fish")), (1, 1));
    // No gift: coffee, grain and fish are only three different goods.
    assert_eq!(st.inner().step, Step::Turn);

    // "It might have been more sensible for Player A to buy the salt for 3 Taler instead of
    // the second coffee for 4 Taler, and then receive an additional coffee as a gift ... This
    // would have saved them 1 Taler and gained them 1 additional good".
    let mut st = position(2, desc);
    play(&mut st, "choose: buy goods");
    play(&mut st, "buy: fish for 2 Taler");
    play(&mut st, "put in the warehouse: the fish");
    play(&mut st, "buy: grain for 1 Taler");
    play_starting(&mut st, "load on ship 1: the grain");
    play(&mut st, "buy: coffee for 0 Taler");
    play(&mut st, "buy: salt for 3 Taler");
    play_starting(&mut st, "load on ship 2: the salt");
    assert_eq!(st.inner().step, Step::Gift);
    play(&mut st, "take as the gift: coffee");
    assert_eq!(pl(&st, 0).taler, 15 - 6);
    assert_eq!(warehouse(&st, 0, "coffee"), 2);
    assert_eq!(pl(&st, 0).workers, 4 - 2);
}

#[test]
fn the_gift_is_once_per_action_free_of_workers_and_taler_and_needs_room() {
    // "If a player buys all 4 different ship parts/goods within one action, they receive 1
    // additional ship part/good of that action tile's type as a gift (without spending any
    // Taler or worker)."
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy sails", 4),
               "players": [{"extra": false, "workers": 10, "taler": 30}]}),
    );
    play(&mut st, "choose: buy sails");
    for (sail, price) in [("whale", 0), ("anchor", 1), ("compass", 3), ("lighthouse", 2)] {
        let article = if sail == "anchor" { "an" } else { "a" };
        play(&mut st, &format!("buy: {article} {sail} sail for {price} Taler"));
        if price > 0 {
            play(&mut st, &format!("put in the warehouse: the {sail} sail"));
        }
    }
    let before = (pl(&st, 0).taler, pl(&st, 0).workers);
    // The gift is a sail of the tile's type: never a crown sail.
    assert!(!has(&st, "take as the gift: a crown sail"));
    play(&mut st, "take as the gift: a whale sail");
    assert_eq!((pl(&st, 0).taler, pl(&st, 0).workers), before);
    assert_eq!(warehouse(&st, 0, "whale sail"), 2);
    // Buying more does not bring a second gift.
    play(&mut st, "buy: a whale sail for 4 Taler");
    play(&mut st, "put in the warehouse: the whale sail");
    assert_eq!(st.inner().step, Step::Turn);
    // Four more types again in the same action: still no second gift.
    for sail in ["anchor", "compass"] {
        play(&mut st, &format!("buy: an {sail} sail for 4 Taler").replace("an compass", "a compass"));
        play(&mut st, &format!("put in the warehouse: the {sail} sail"));
    }
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(st.inner().warehouse_used(0, 2), 8);

    // With a full warehouse the gift cannot be stored and is not received.
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy hull parts", 4),
               "players": [{"extra": false, "warehouse": {"coffee": 6}}]}),
    );
    play(&mut st, "choose: buy hull parts");
    play(&mut st, "buy: a single hull for 0 Taler");
    play(&mut st, "buy: a bow for 1 Taler");
    play(&mut st, "begin a new ship: the bow");
    play(&mut st, "buy: a stern for 3 Taler");
    play(&mut st, "begin a new ship: the stern");
    play(&mut st, "buy: a centre for 2 Taler");
    play(&mut st, "put in the warehouse: the centre");
    assert_eq!(st.inner().warehouse_used(0, 2), 8);
    assert_eq!(st.inner().step, Step::Turn);
}

#[test]
fn the_golden_rule_a_free_tile_needs_room_in_the_warehouse_a_paid_one_a_place() {
    // "whenever a player receives a tile (a ship part or a good) for free, they must first
    // place this tile in their warehouse." "if the warehouse is full, no further ship parts or
    // goods can be stored."
    let full = json!({"coffee": 4, "grain": 4});
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy masts", 4),
               "players": [{"extra": false, "warehouse": full, "ships": [{"hull": ["single hull"]}]}]}),
    );
    play(&mut st, "choose: buy masts");
    // The 0-Taler whale mast cannot be stored; the paid ones can go on the ship.
    assert!(!has(&st, "buy: a whale mast for 0 Taler"));
    assert!(has(&st, "buy: an anchor mast for 1 Taler"));
    play(&mut st, "buy: an anchor mast for 1 Taler");
    assert_eq!(legal_names(&st).len(), 1);
    play_starting(&mut st, "put on ship 1: the anchor mast");
    // Now no ship takes a mast and the warehouse is full: nothing is for sale.
    assert!(!has_starting(&st, "buy"));
    // One space short of a mast (7 of 8 used): a mast (2 spaces) does not fit ...
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy masts", 4),
               "players": [{"extra": false, "warehouse": {"coffee": 7}}]}),
    );
    play(&mut st, "choose: buy masts");
    assert!(!has_starting(&st, "buy"));
    // ... and with 6 used it does: "Masts take up 2 spaces."
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy masts", 4),
               "players": [{"extra": false, "warehouse": {"coffee": 6}}]}),
    );
    play(&mut st, "choose: buy masts");
    play(&mut st, "buy: a whale mast for 0 Taler");
    assert_eq!(st.inner().warehouse_used(0, 2), 8);
}

#[test]
fn buying_needs_a_worker_and_the_price_in_taler() {
    // "each use of the action requires 1 worker." Exactly the price is enough.
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy hull parts", 2),
               "players": [{"extra": false, "taler": 2, "workers": 1}]}),
    );
    // Space 2 has no blue workers (the anchor sector) and prices single 3, bow 2, stern 0,
    // centre 1.
    play(&mut st, "choose: buy hull parts");
    // The bonus of space 2: a free mast to the warehouse.
    play(&mut st, "take as the bonus: a whale mast");
    assert_eq!(st.inner().turn.blue, 0);
    assert!(!has_starting(&st, "buy: a single hull"));
    assert!(has(&st, "buy: a bow for 2 Taler"));
    play(&mut st, "buy: a bow for 2 Taler");
    play(&mut st, "begin a new ship: the bow");
    assert_eq!((pl(&st, 0).taler, pl(&st, 0).workers), (0, 0));
    // No worker left: no further use.
    assert_eq!(legal_names(&st), ["finish the action"]);
}

#[test]
fn a_used_up_stack_cannot_be_bought() {
    // "If the stack of a particular tile type is used up, players can no longer acquire or
    // otherwise obtain that tile type."
    let yard: Vec<Value> = (0..4).map(|_| json!({"hull": ["centre", "centre"]})).collect();
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": LAYOUT,
               "players": [{"extra": false}, {"extra": false, "warehouse": {"centre": 1}, "ships": yard}]}),
    );
    assert_eq!(st.inner().stock[super::data::CENTRE as usize], 0);
    play(&mut st, "choose: buy hull parts");
    assert!(!has_starting(&st, "buy: a centre"));
    assert!(has(&st, "buy: a bow for 1 Taler"));
}

// ----- the shipyard --------------------------------------------------------------------------

#[test]
fn ships_grow_from_an_end_or_the_middle_without_gaps_and_are_never_rearranged() {
    // "3- and 4-tile ships can only be started from one end, or from the middle. So you cannot
    // leave a gap between a bow and a stern ... A player who places a bow and a stern
    // separately from each other in their shipyard has begun 2 ships "under construction". It
    // is not possible to later combine these into a single ship."
    use super::data::{BOW, CENTRE, SINGLE, STERN};
    let mut s = super::Ship::begun_with(0, CENTRE);
    assert!(s.accepts(BOW) && s.accepts(STERN) && s.accepts(CENTRE));
    s.add(CENTRE);
    // At most 2 centres: a ship has at most 4 tiles.
    assert!(!s.accepts(CENTRE));
    s.add(BOW);
    assert!(!s.accepts(BOW) && s.accepts(STERN));
    s.add(STERN);
    assert_eq!(s.parts(), 4);
    assert!(s.hull_closed());
    // A bow: not yet committed to a size.
    let mut b = super::Ship::begun_with(0, BOW);
    assert!(b.accepts(CENTRE) && b.accepts(STERN) && !b.accepts(BOW));
    b.add(STERN);
    // "it is not possible to later insert a center part."
    assert!(!b.accepts(CENTRE));
    // A single hull is a ship of its own.
    let single = super::Ship::begun_with(0, SINGLE);
    assert!(single.hull_closed() && !single.accepts(BOW) && !single.accepts(CENTRE));

    // In play: a stern may begin a second ship beside an open bow; nothing joins them later.
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy hull parts", 4),
               "players": [{"extra": false, "ships": [{"hull": ["bow"]}]}]}),
    );
    play(&mut st, "choose: buy hull parts");
    play(&mut st, "buy: a stern for 3 Taler");
    assert!(has_starting(&st, "put on ship 1: the stern"));
    assert!(has(&st, "put in the warehouse: the stern"));
    play(&mut st, "begin a new ship: the stern");
    assert_eq!(ships(&st, 0).len(), 2);
    play(&mut st, "buy: a centre for 2 Taler");
    // The centre may go to either open ship (or stand alone, or to the warehouse).
    assert!(has_starting(&st, "put on ship 1: the centre"));
    assert!(has_starting(&st, "put on ship 2: the centre"));
    assert!(has(&st, "begin a new ship: the centre"));
}

#[test]
fn masts_one_per_hull_tile_one_coat_of_arms_per_ship_crowns_wild() {
    // "only one type of mast may be built on a given ship — mixing different mast types is
    // not allowed. (Exception: crown masts are wild. They can be combined with any other mast
    // type.)" "(hull + 1 mast + 1 sail)": one mast per hull tile.
    use super::data::{BOW, CENTRE, CROWN_MAST, MAST, STERN};
    let whale = MAST;
    let anchor = MAST + 1;
    let mut s = super::Ship::begun_with(0, BOW);
    s.add(CENTRE);
    assert!(s.accepts(whale));
    s.add(whale);
    assert!(!s.accepts(anchor));
    assert!(s.accepts(CROWN_MAST));
    s.add(CROWN_MAST);
    // Two hull tiles, two masts: no third until the hull grows. "It does not matter whether
    // the hull is already complete or not."
    assert!(!s.accepts(whale) && !s.accepts(CROWN_MAST));
    s.add(STERN);
    assert!(s.accepts(whale));
    // A ship with only crown masts has no coat of arms yet.
    let mut c = super::Ship::begun_with(0, BOW);
    c.add(CROWN_MAST);
    c.add(STERN);
    assert!(c.accepts(whale) && c.accepts(anchor));
    c.add(anchor);
    assert!(!c.accepts(whale));
}

#[test]
fn sails_go_on_masts_of_their_coat_of_arms_crown_sails_wild() {
    // "Bought (paid) sails can be placed directly ... onto masts bearing the same coat of arms.
    // (Exception: crown sails are wild and can be placed onto masts of any type.)"
    use super::data::{CROWN_MAST, CROWN_SAIL, MAST, SAIL, SINGLE, STERN, BOW};
    let mut s = super::Ship::begun_with(0, SINGLE);
    assert!(!s.accepts(SAIL) && !s.accepts(CROWN_SAIL));
    s.add(MAST);
    assert!(s.accepts(SAIL) && !s.accepts(SAIL + 1) && s.accepts(CROWN_SAIL));
    s.add(SAIL);
    // One sail per mast.
    assert!(!s.accepts(SAIL) && !s.accepts(CROWN_SAIL));
    assert!(s.complete());
    // Ruling 1: a crown mast bears a crown, not a coat of arms ("5 types of masts,
    // distinguished by the coats of arms on the flags"): it carries a crown sail, never a
    // regular one; its wildness is that it "can be combined with any other mast type".
    let mut c = super::Ship::begun_with(0, BOW);
    c.add(STERN);
    c.add(CROWN_MAST);
    c.add(CROWN_MAST);
    assert!(!c.accepts(SAIL) && !c.accepts(SAIL + 2) && c.accepts(CROWN_SAIL));
    // A crown sail may sit on a regular mast, and a regular sail still finds its own mast
    // beside a crown mast.
    let mut m = super::Ship::begun_with(0, BOW);
    m.add(STERN);
    m.add(MAST);
    m.add(CROWN_MAST);
    m.add(CROWN_SAIL);
    assert!(m.accepts(SAIL) && !m.accepts(SAIL + 1));
    m.add(SAIL);
    assert!(m.complete());
    // Two whale masts with two crown sails on them: no mast is left for a whale sail.
    let mut w = super::Ship::begun_with(0, BOW);
    w.add(STERN);
    w.add(MAST);
    w.add(MAST);
    w.add(CROWN_SAIL);
    assert!(w.accepts(SAIL));
    w.add(CROWN_SAIL);
    assert!(!w.accepts(SAIL));
}

#[test]
fn a_crown_mast_carries_a_crown_sail_and_sails_never_restrict_masts() {
    // "only one type of mast may be built on a given ship — mixing different mast types is
    // not allowed. (Exception: crown masts are wild. They can be combined with any other mast
    // type.)" "sails can be placed ... onto masts bearing the same coat of arms. (Exception:
    // crown sails are wild and can be placed onto masts of any type.)" (ruling 1)
    use super::data::{BOW, CROWN_MAST, CROWN_SAIL, MAST, SAIL, STERN};
    let (whale, anchor) = (0u8, 1u8);
    // A bow and stern with one crown mast: a whale sail has no whale mast to sit on, and
    // an anchor mast is its only regular mast type, so it is accepted.
    let mut s = super::Ship::begun_with(0, BOW);
    s.add(STERN);
    s.add(CROWN_MAST);
    assert!(!s.accepts(SAIL + whale));
    assert!(s.accepts(MAST + anchor));
    s.add(MAST + anchor);
    assert!(s.accepts(SAIL + anchor) && !s.accepts(SAIL + whale));
    s.add(SAIL + anchor);
    // The anchor mast carries its sail; the crown mast takes only a crown sail.
    assert!(!s.accepts(SAIL + anchor) && s.accepts(CROWN_SAIL));
    // Two crown masts: the same answer for every regular sail, on either mast.
    let mut c = super::Ship::begun_with(0, BOW);
    c.add(STERN);
    c.add(CROWN_MAST);
    c.add(CROWN_MAST);
    for coat in 0..4 {
        assert!(!c.accepts(SAIL + coat));
    }
    c.add(CROWN_SAIL);
    assert!(c.accepts(CROWN_SAIL) && (0..4).all(|k| !c.accepts(SAIL + k)));
}

#[test]
fn a_crown_sail_stays_on_the_regular_mast_it_was_placed_on() {
    // "crown sails are wild and can be placed onto masts of any type"; "parts once placed
    // cannot later be rearranged" (ruling 1: a crown sail stands on a free crown mast when
    // the ship has one, otherwise on a regular mast, and stays there).
    use super::data::{BOW, CROWN_MAST, CROWN_SAIL, MAST, SAIL, STERN};
    let whale = 0u8;
    // The crown sail comes first: it stands on the whale mast, the only mast. The crown mast
    // that follows takes only a crown sail, so no whale sail fits any more.
    let mut s = super::Ship::begun_with(0, BOW);
    s.add(STERN);
    s.add(MAST + whale);
    s.add(CROWN_SAIL);
    assert_eq!(s.crown_sails_on_regular_masts, 1);
    s.add(CROWN_MAST);
    assert!(!s.accepts(SAIL + whale), "the crown sail would have to move to the crown mast");
    assert!(s.accepts(CROWN_SAIL));
    s.add(CROWN_SAIL);
    assert_eq!((s.crown_sails, s.crown_sails_on_regular_masts), (2, 1));
    assert!(s.complete());
    // The crown mast comes first: the crown sail stands on it, and the whale mast keeps its
    // room for a whale sail.
    let mut t = super::Ship::begun_with(0, BOW);
    t.add(STERN);
    t.add(MAST + whale);
    t.add(CROWN_MAST);
    t.add(CROWN_SAIL);
    assert_eq!(t.crown_sails_on_regular_masts, 0);
    assert!(t.accepts(SAIL + whale));
    // The crown mast already carries a crown sail: the next one stands on the whale mast.
    let mut u = super::Ship::begun_with(0, BOW);
    u.add(STERN);
    u.add(CROWN_MAST);
    u.add(CROWN_SAIL);
    u.add(MAST + whale);
    u.add(CROWN_SAIL);
    assert_eq!(u.crown_sails_on_regular_masts, 1);
    assert!(u.complete());

    // The audit's position, played: a bow and stern with a whale mast; transport brings the
    // crown sail (onto the whale mast), then the crown mast; the whale sail in the warehouse
    // then has no mast to go to, and is not offered for transport.
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("transport", 4),
               "players": [{"extra": false, "workers": 4,
                            "warehouse": {"crown sail": 1, "crown mast": 1, "whale sail": 1},
                            "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 1}]}]}),
    );
    play(&mut st, "choose: transport");
    assert!(has(&st, "transport: a whale sail from the warehouse"));
    play(&mut st, "transport: a crown sail from the warehouse");
    play(&mut st, "put on ship 1: the crown sail (bow+stern, 1 whale mast)");
    play(&mut st, "transport: a crown mast from the warehouse");
    play(&mut st, "put on ship 1: the crown mast (bow+stern, 1 whale mast, 1 crown sail on a regular mast)");
    assert!(!has(&st, "transport: a whale sail from the warehouse"), "{:?}", legal_names(&st));
    assert!(has(&st, "finish the action"));
    // The same ship described with its crown sail on the crown mast (the default: a crown
    // sail stands on a crown mast while one is free) does take the whale sail.
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("transport", 4),
               "players": [{"extra": false, "workers": 4, "warehouse": {"whale sail": 1},
                            "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 1,
                                       "crown_masts": 1, "crown_sails": 1}]}]}),
    );
    play(&mut st, "choose: transport");
    assert!(has(&st, "transport: a whale sail from the warehouse"));
}

#[test]
fn described_crown_sails_on_regular_masts_are_checked_naming_the_field() {
    // Ruling 1: a regular mast carries one sail, a crown mast only a crown sail.
    let g = game(2);
    let ship = |extra: Value| {
        let mut sh = json!({"hull": ["bow", "stern"], "coat": "whale", "masts": 1, "crown_masts": 1});
        for (k, v) in extra.as_object().unwrap() {
            sh[k] = v.clone();
        }
        g.setup(&json!({"players": [{"ships": [sh]}]}))
    };
    for bad in [
        json!({"crown_sails": 1, "crown_sails_on_regular_masts": 2}),
        json!({"crown_sails": 2, "crown_sails_on_regular_masts": 0}),
        json!({"crown_sails": 1, "sails": 1, "crown_sails_on_regular_masts": 1}),
    ] {
        let e = ship(bad.clone()).unwrap_err().to_string();
        assert!(e.contains("players[0].ships[0].crown_sails_on_regular_masts"), "{bad}: {e}");
    }
    assert_eq!(ship(json!({"crown_sails": 2})).unwrap().ships[0].crown_sails_on_regular_masts, 1);
    assert!(ship(json!({"crown_sails": 1, "crown_sails_on_regular_masts": 1})).is_ok());
    // A loaded state with impossible counts is refused, naming the field.
    let st = position(2, json!({"players": [{"ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 1,
                                                       "crown_masts": 1, "crown_sails": 1}]}]}));
    let mut saved: Value = serde_json::from_str(&st.to_json()).unwrap();
    saved["state"]["ships"][0]["crown_sails_on_regular_masts"] = json!(2);
    let e = GameState::from_json(&Arc::new(game(2)), &saved.to_string()).err().unwrap().to_string();
    assert!(e.contains("crown_sails_on_regular_masts"), "{e}");
}

#[test]
fn a_state_of_format_version_2_is_refused_naming_its_version() {
    // A version 2 ship does not say where its crown sails stand (ruling 1), so version 2
    // states are refused, as JSON and as bytes, naming their version and the one read now.
    let g = Arc::new(game(2));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saved/nauticus/v2");
    let text = std::fs::read_to_string(dir.join("nauticus-2p-middle.json")).unwrap();
    let bytes = std::fs::read(dir.join("nauticus-2p-middle.bin")).unwrap();
    for e in [GameState::from_json(&g, text.trim_end()).err(), GameState::from_bytes(&g, &bytes).err()] {
        let m = e.expect("a version 2 state is refused").to_string();
        assert!(m.contains("version 2") && m.contains("reads version 3"), "{m}");
    }
}

#[test]
fn goods_one_under_each_hull_tile_even_on_unfinished_ships() {
    // "Bought (paid) goods can be placed directly onto hull parts, even onto unfinished ships.
    // Every hull part offers space for exactly 1 good ... Both identical and different goods
    // can be loaded onto a single ship."
    use super::data::{BOW, CENTRE, GOOD};
    let mut s = super::Ship::begun_with(0, BOW);
    assert!(s.accepts(GOOD));
    s.add(GOOD);
    assert!(!s.accepts(GOOD + 1));
    s.add(CENTRE);
    assert!(s.accepts(GOOD));
    s.add(GOOD);
    assert_eq!(s.goods[0], 2);
    assert!(!s.complete());
}

// ----- transport, money, delivery, crowns ----------------------------------------------------

#[test]
fn transport_moves_stored_tiles_to_the_shipyard_one_worker_each() {
    // "You may transport any number of stored tiles from the warehouse to the shipyard, but
    // each transported tile requires 1 worker. The transported ship parts/goods are
    // immediately attached to/placed on ships, or a new ship is begun with them."
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("transport", 4),
               "players": [{"extra": false, "workers": 1,
                            "warehouse": {"single hull": 1, "whale mast": 1, "coffee": 1, "crown sail": 1}}]}),
    );
    play(&mut st, "choose: transport");
    // Nothing in the shipyard yet: only the hull can move (a mast needs a hull, a sail a mast).
    let names = legal_names(&st);
    assert!(names.contains(&"transport: a single hull from the warehouse".to_string()));
    assert!(!names.iter().any(|n| n.contains("mast") || n.contains("sail") || n.contains("coffee")));
    play(&mut st, "transport: a single hull from the warehouse");
    // It cannot go back into the warehouse.
    assert_eq!(legal_names(&st), ["begin a new ship: the single hull"]);
    play(&mut st, "begin a new ship: the single hull");
    play(&mut st, "transport: a whale mast from the warehouse");
    play_starting(&mut st, "put on ship 1: the whale mast");
    play(&mut st, "transport: coffee from the warehouse");
    play_starting(&mut st, "load on ship 1: the coffee");
    // 2 blue workers and 1 of the player's; none is left for the crown sail.
    assert_eq!(pl(&st, 0).workers, 0);
    assert_eq!(legal_names(&st), ["finish the action"]);
}

#[test]
fn withdraw_money_gives_2_taler_per_worker() {
    // "For each worker a player spends, they receive 2 Taler from the general supply."
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("withdraw money", 4), "players": [{"extra": false, "workers": 1}]}));
    play(&mut st, "choose: withdraw money");
    for _ in 0..3 {
        play(&mut st, "withdraw 2 Taler for a worker");
    }
    assert_eq!((pl(&st, 0).taler, pl(&st, 0).workers), (21, 0));
    assert!(!has(&st, "withdraw 2 Taler for a worker"));
}

#[test]
fn deliver_only_whole_cargoes_of_complete_fully_loaded_ships_one_worker_per_good() {
    // "This action can only be carried out by players who own at least 1 completely finished
    // ship ... that is fully loaded with goods ... they must always deliver the entire cargo of
    // a ship. Each delivered good requires 1 worker. Partial deliveries are not possible."
    let full = json!({"hull": ["bow", "centre", "stern"], "coat": "whale", "masts": 3, "sails": 3,
                      "goods": {"coffee": 2, "fish": 1}});
    let unloaded = json!({"hull": ["single hull"], "coat": "whale", "masts": 1, "sails": 1});
    let unfinished = json!({"hull": ["single hull"], "coat": "whale", "masts": 1, "goods": {"salt": 1}});
    // Space 2: no blue workers.
    let desc = |workers: u32| {
        json!({"pointing": 2, "spaces": layout_with("deliver goods", 2),
               "players": [{"extra": false, "workers": workers, "ships": [full, unloaded, unfinished]}]})
    };
    let mut st = position(2, desc(2));
    play(&mut st, "choose: deliver goods");
    play(&mut st, "take as the bonus: a whale mast");
    assert!(!has_starting(&st, "deliver"), "{:?}", legal_names(&st));
    let mut st = position(2, desc(3));
    play(&mut st, "choose: deliver goods");
    play(&mut st, "take as the bonus: a whale mast");
    assert_eq!(legal_names(&st).iter().filter(|n| n.starts_with("deliver")).count(), 1);
    play_starting(&mut st, "deliver the cargo of ship 1");
    assert_eq!(pl(&st, 0).delivered, [2, 0, 0, 1]);
    assert_eq!(pl(&st, 0).workers, 0);
    // "As soon as a ship has been unloaded, it can be loaded again".
    assert!(ships(&st, 0)[0].accepts(super::data::GOOD));
}

#[test]
fn worked_example_scoring_the_crowns_and_the_15_point_cap() {
    // "Player B owns 1 crown mast on a ship and 1 crown sail in their warehouse. In addition,
    // they have turned over 1 pass tile. They use the 2 blue workers currently assigned to
    // this action, and spend 1 further worker from their own stock. For this they receive 3 x
    // 3 = 9 victory points ... Had they spent 2 more workers, they would have received the
    // maximum amount of 15 victory points."
    let b = json!({"extra": false, "passes": 1, "warehouse": {"crown sail": 1},
                   "ships": [{"hull": ["single hull"], "crown_masts": 1}]});
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("score the crowns", 1), "players": [{"extra": false}, b]}));
    play(&mut st, "choose: score the crowns");
    play(&mut st, "pass");
    assert_eq!(st.actor(), Actor::Player(1));
    assert_eq!(st.inner().turn.blue, 2);
    for _ in 0..3 {
        play(&mut st, "score the crowns with a worker: 3 points");
    }
    assert_eq!(pl(&st, 1).points, 19);
    assert_eq!(pl(&st, 1).workers, 3);
    play(&mut st, "score the crowns with a worker: 3 points");
    play(&mut st, "score the crowns with a worker: 3 points");
    assert_eq!(pl(&st, 1).points, 25);
    // "a player can receive a maximum of 15 victory points per round from this action."
    assert!(!has_starting(&st, "score"));
}

#[test]
fn the_crown_cap_cuts_the_last_use_short_and_resets_each_round() {
    // The last phase of a round; P0 has scored 13 of the 15 crown points of this round.
    let p0 = json!({"extra": false, "passes": 3, "crown_points": 13});
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("score the crowns", 4), "phases": 6, "anchor": "withdraw money",
               "turned": ["withdraw money", "transport", "deliver goods", "buy masts", "buy sails", "buy goods"],
               "players": [p0, {"extra": false, "passes": 3}]}),
    );
    play(&mut st, "choose: score the crowns");
    // 3 crowns, 2 points left under the cap.
    play(&mut st, "score the crowns with a worker: 2 points");
    assert_eq!(pl(&st, 0).points, 10 + 2 + 2);
    assert_eq!(pl(&st, 0).crown_points, 15);
    assert!(!has_starting(&st, "score"));
    play(&mut st, "finish the action");
    play(&mut st, "pass");
    // A new round: a new 15.
    assert_eq!(st.inner().round, 1);
    assert_eq!(pl(&st, 0).crown_points, 0);
}

#[test]
fn the_extra_action_is_offered_only_for_an_action_it_can_carry_out_and_finished_only_after_a_use() {
    // Ruling 7 (ruling 3's standard): "to carry out an additional action"; deliver goods "can
    // only be carried out by players who own at least 1 completely finished ship ... that is
    // fully loaded". With no ship, no crown and nothing in the warehouse, transport, deliver
    // goods and score the crowns cannot be carried out.
    let mut st = choosing(2, json!([{}]));
    play(&mut st, "choose: buy hull parts");
    let extra: Vec<String> = legal_names(&st).into_iter().filter(|n| n.starts_with("use the extra action")).collect();
    assert_eq!(
        extra,
        ["use the extra action: buy hull parts", "use the extra action: buy masts", "use the extra action: buy sails",
         "use the extra action: buy goods", "use the extra action: withdraw money"]
    );
    play(&mut st, "use the extra action: withdraw money");
    // "First, the player receives 2 workers"; no finishing before a use.
    assert_eq!(pl(&st, 0).workers, 6);
    assert_eq!(legal_names(&st), ["withdraw 2 Taler for a worker"]);
    play(&mut st, "withdraw 2 Taler for a worker");
    assert!(has(&st, "finish the extra action"));
    play(&mut st, "finish the extra action");
    assert!(!pl(&st, 0).extra);
    // The chosen action is still open: the extra action was no pass.
    assert_eq!(pl(&st, 0).passes, 0);
    assert!(has(&st, "pass"));
    // With a pass tile turned (a crown) the crowns can be scored; with a loaded ship, goods
    // delivered; with a tile a ship takes in the warehouse, transported.
    let mut st = choosing(
        2,
        json!([{"warehouse": {"whale sail": 1},
                "ships": [{"hull": ["single hull"], "coat": "whale", "masts": 1, "sails": 1, "goods": {"coffee": 1}},
                          {"hull": ["single hull"], "coat": "whale", "masts": 1}]}]),
    );
    play(&mut st, "choose: buy hull parts");
    play(&mut st, "pass");
    for t in ["transport", "deliver goods", "score the crowns"] {
        assert!(has(&st, &format!("use the extra action: {t}")), "{t}");
    }
}

// ----- rewards ----------------------------------------------------------------------------

#[test]
fn completing_a_ship_brings_one_reward_per_mast_each_at_most_twice() {
    // "For every mast a completed ship has, the player receives 1 reward." "Each reward may be
    // chosen at most 2 times per completed ship."
    let ship = json!({"hull": ["bow", "centre", "centre", "stern"], "coat": "whale", "masts": 3,
                      "crown_masts": 1, "sails": 2, "crown_sails": 1});
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy sails", 4), "players": [{"extra": false, "ships": [ship]}]}),
    );
    play(&mut st, "choose: buy sails");
    play(&mut st, "buy: a whale sail for 0 Taler");
    // A free sail goes to the warehouse, so a transport would be needed; buy a paid one.
    assert_eq!(st.inner().step, Step::Turn);
    play(&mut st, "buy: a whale sail for 4 Taler");
    play_starting(&mut st, "put on ship 1: the whale sail");
    // "they interrupt their turn and immediately receive one or more rewards."
    assert_eq!(st.inner().step, Step::Reward);
    assert_eq!(legal_names(&st).len(), 6);
    play(&mut st, "reward: a crown mast");
    play(&mut st, "reward: a crown mast");
    assert!(!has(&st, "reward: a crown mast"));
    play(&mut st, "reward: 2 different goods");
    play(&mut st, "take as a reward: coffee");
    assert!(!has(&st, "take as a reward: coffee"));
    play(&mut st, "take as a reward: fish");
    assert_eq!(st.inner().step, Step::Reward);
    play(&mut st, "reward: 7 Taler");
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(warehouse(&st, 0, "crown mast"), 2);
    assert_eq!((warehouse(&st, 0, "coffee"), warehouse(&st, 0, "fish")), (1, 1));
    assert_eq!(pl(&st, 0).taler, 15 - 4 + 7);
    // A whale sail, 2 crown masts, coffee and fish: 1 + 4 + 2 = 7 spaces.
    assert_eq!(st.inner().warehouse_used(0, 2), 7);
    // Nothing of the rewards is left pending: the state saves and loads.
    assert_eq!(GameState::from_json(st.game(), &st.to_json()).unwrap().inner(), st.inner());
}

#[test]
fn worked_example_a_reward_is_usable_at_once_in_the_same_transport() {
    // "Should this happen as a result of the "transport" action, the player may, for example,
    // immediately use a further "transport" action to build a crown sail taken as a reward —
    // which had to go into the warehouse — into a ship, and may even complete that ship as a
    // result, thereby receiving further rewards. Taler or workers received can likewise be
    // used immediately for further actions."
    let yard = json!([{"hull": ["bow", "stern"], "coat": "whale", "masts": 2, "sails": 1},
                       {"hull": ["single hull"], "crown_masts": 1}]);
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("transport", 2),
               "players": [{"extra": false, "workers": 1, "warehouse": {"whale sail": 1}, "ships": yard}]}),
    );
    play(&mut st, "choose: transport");
    play(&mut st, "take as the bonus: a whale mast");
    play(&mut st, "transport: a whale sail from the warehouse");
    play_starting(&mut st, "put on ship 1: the whale sail");
    assert_eq!(pl(&st, 0).workers, 0);
    play(&mut st, "reward: a crown sail");
    play(&mut st, "reward: 3 workers");
    // The crown sail went to the warehouse; the workers received pay for moving it.
    play(&mut st, "transport: a crown sail from the warehouse");
    play_starting(&mut st, "put on ship 2: the crown sail");
    // The second ship is complete too: its reward comes at once.
    assert_eq!(st.inner().step, Step::Reward);
    play(&mut st, "reward: 3 victory points");
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(pl(&st, 0).points, 13);
    assert_eq!(pl(&st, 0).workers, 2);
    assert!(ships(&st, 0).iter().all(|s| s.complete()));
}

// ----- the extra action ------------------------------------------------------------------

#[test]
fn the_extra_action_brings_2_workers_prices_of_2_and_4_and_the_gift() {
    // "First, the player receives 2 workers from the general supply. They then choose one of
    // the 8 known actions ... if the player chooses a paid action, every ship part or good has
    // a purchase price of 2 Taler. ... if they want to buy further tiles of the same type, the
    // price rises to 4 Taler starting with the second tile. If a player buys all 4 tiles, they
    // receive 1 additional tile for free. Once a player has carried out their extra action,
    // they return the tile to the box."
    let mut st = choosing(2, json!([{"workers": 0}]));
    play(&mut st, "choose: withdraw money"); // space 1: 3 workers for the start player
    assert!(has(&st, "use the extra action: buy hull parts"));
    play(&mut st, "use the extra action: buy hull parts");
    assert!(!pl(&st, 0).extra);
    assert_eq!(pl(&st, 0).workers, 3 + 2);
    // Blue workers belong to the action tile, not to the extra action.
    assert_eq!(st.inner().turn.blue, 2);
    for part in ["single hull", "bow", "stern", "centre"] {
        play(&mut st, &format!("buy: a {part} for 2 Taler"));
        if part != "centre" {
            play(&mut st, &format!("put in the warehouse: the {part}"));
        } else {
            play(&mut st, "begin a new ship: the centre");
        }
    }
    play(&mut st, "take as the gift: a bow");
    assert!(has(&st, "buy: a bow for 4 Taler"));
    assert_eq!(pl(&st, 0).taler, 15 - 8);
    assert_eq!(pl(&st, 0).workers, 5 - 4);
    assert_eq!(st.inner().turn.blue, 2);
    play(&mut st, "finish the extra action");
    // "before or after the current action": the chosen action is still to come.
    assert!(has(&st, "pass") && has(&st, "withdraw 2 Taler for a worker"));
    assert!(!has_starting(&st, "use the extra action"));
    play(&mut st, "withdraw 2 Taler for a worker");
    assert_eq!(st.inner().turn.blue, 1);
    play(&mut st, "finish the action");
    assert_eq!(st.actor(), Actor::Player(1));
}

#[test]
fn the_extra_action_may_follow_the_action_and_use_a_turned_over_tile_without_turning_any() {
    // "The extra action does not cause the corresponding action tile to be turned over, and it
    // may also be used to carry out an action whose action tile has already been turned
    // over!"
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": LAYOUT, "phases": 1, "anchor": "withdraw money",
               "turned": ["withdraw money"], "players": [{}, {"extra": false}]}),
    );
    play(&mut st, "choose: transport");
    play(&mut st, "take as the bonus: a whale mast");
    play(&mut st, "pass");
    assert_eq!(st.actor(), Actor::Player(0));
    // Every action P0 can carry out with the 2 workers (not deliver goods with no ship, nor
    // transport the whale mast with no ship to take it).
    assert_eq!(legal_names(&st).iter().filter(|n| n.starts_with("use the extra action")).count(), 6);
    assert!(!has(&st, "use the extra action: deliver goods") && !has(&st, "use the extra action: transport"));
    play(&mut st, "use the extra action: withdraw money");
    // The 2 workers of the extra action, withdrawn.
    play(&mut st, "withdraw 2 Taler for a worker");
    play(&mut st, "withdraw 2 Taler for a worker");
    play(&mut st, "finish the extra action");
    assert_eq!(pl(&st, 0).taler, 19);
    assert_eq!(pl(&st, 0).workers, 4);
    assert_eq!(st.inner().face_down.count_ones(), 1);
    assert_eq!(st.actor(), Actor::Player(1));
    // Once per game.
    play(&mut st, "pass");
    play(&mut st, "choose: deliver goods");
    play(&mut st, "take as the bonus: a whale sail");
    play(&mut st, "pass");
    assert_eq!(st.actor(), Actor::Player(0));
    assert!(!has_starting(&st, "use the extra action"));
}

#[test]
fn a_player_who_holds_the_extra_action_ends_the_turn_by_choice() {
    let mut st = choosing(2, json!([{}, {"extra": false}]));
    play(&mut st, "choose: withdraw money");
    play(&mut st, "pass");
    assert!(has(&st, "end the turn"));
    play(&mut st, "end the turn");
    assert_eq!(st.actor(), Actor::Player(1));
    assert!(pl(&st, 0).extra);
}

#[test]
fn the_extra_action_scores_the_crowns_a_second_time_up_to_another_15() {
    // "if the extra action ... is used, a player can gain victory points from scoring the
    // crowns a second time within a round — theoretically making it possible, once per game,
    // in one round, to gain up to 15 victory points twice."
    let p = json!({"passes": 3, "crown_points": 15, "workers": 10,
                   "warehouse": {"crown sail": 2}});
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("score the crowns", 4), "players": [p]}));
    play(&mut st, "choose: score the crowns");
    assert!(!has_starting(&st, "score"));
    play(&mut st, "use the extra action: score the crowns");
    play(&mut st, "score the crowns with a worker: 5 points");
    play(&mut st, "score the crowns with a worker: 5 points");
    play(&mut st, "score the crowns with a worker: 5 points");
    assert!(!has_starting(&st, "score"));
    assert_eq!(pl(&st, 0).points, 10 + 2 + 15);
}

// ----- final scoring ------------------------------------------------------------------------

#[test]
fn worked_example_final_scoring() {
    // "the set of 2 grain is worth 5 victory points, the fish set is worth 9 victory points,
    // and the coffee set is worth 25 victory points. In total, the player receives 39 victory
    // points for their delivered goods." "6 victory points (3 x 2) for their 3 completed
    // 1-tile ships, 8 victory points for their completed 2-tile ship, and 20 victory points
    // for their completed 3-tile ship. In total ... 34 victory points for their completed
    // ships." "the player still has 2 workers and 3 tiles in the warehouse. For these they
    // receive 5 Taler. For the ship parts of unfinished ships (3 hull parts, 1 mast, 1 sail)
    // they likewise receive 5 Taler, and for undelivered goods they receive 3 Taler. In total,
    // the player receives 13 Taler for their remaining material, which they add to their
    // remaining money of 8 Taler. In sum, that is 21 Taler, for which the player receives a
    // further 7 victory points."
    let single = json!({"hull": ["single hull"], "coat": "whale", "masts": 1, "sails": 1});
    let mut loaded = single.clone();
    loaded["goods"] = json!({"salt": 1});
    let yard = json!([
        single, single, loaded,
        {"hull": ["bow", "stern"], "coat": "anchor", "masts": 2, "sails": 2, "goods": {"salt": 2}},
        {"hull": ["bow", "centre", "stern"], "coat": "compass", "masts": 2, "crown_masts": 1, "sails": 1, "crown_sails": 2},
        {"hull": ["bow", "centre", "stern"], "coat": "lighthouse", "masts": 1, "sails": 1},
    ]);
    let p = json!({"taler": 8, "workers": 2, "points": 10,
                   "warehouse": {"bow": 1, "whale mast": 1, "coffee": 1},
                   "delivered": {"grain": 2, "fish": 3, "coffee": 6}, "ships": yard});
    let st = position(2, json!({"players": [p]}));
    let r = st.score_report();
    assert_eq!(r.categories, ["victory point track", "delivered goods", "completed ships", "remaining material"]);
    assert_eq!(r.points[0], [10.0, 39.0, 34.0, 7.0]);
    assert_eq!(r.totals[0], 90.0);
    // "They keep the 21 Taler, since it may count as a tiebreaker".
    assert_eq!(r.tie_breaker_values[0], [0.0, 21.0]);
}

#[test]
fn delivered_sets_beyond_five_add_5_each() {
    // "For every further good in a set, the victory points increase by an additional 5 points."
    let d = Data::shipped();
    let values: Vec<u32> = (0..=8).map(|n| d.set_value(n)).collect();
    assert_eq!(values, [0, 2, 5, 9, 14, 20, 25, 30, 35]);
}

/// The last action phase of a 2-player game's last round: each player's pass tiles are all
/// turned, so the round costs nothing, and the start player P0 chooses the 2-point bonus.
fn last_phase(p0: Value, p1: Value) -> St {
    position(
        2,
        json!({"round": 3, "phases": 6, "pointing": 2, "spaces": LAYOUT, "anchor": "withdraw money",
               "turned": ["withdraw money", "transport", "deliver goods", "buy masts", "buy sails", "buy goods"],
               "players": [p0, p1]}),
    )
}

fn finish_game(st: &mut St) {
    play(st, "choose: buy hull parts");
    play(st, "pass");
    play(st, "pass");
    assert!(st.is_terminal());
}

#[test]
fn ties_go_to_the_most_remaining_money_then_the_most_taler_then_are_shared() {
    // "In case of a tie, the player with the most remaining money (0, 1 or 2 Taler) wins. If
    // there is still a tie, the player who has the most Taler overall — that is, including the
    // Taler for which they already received victory points — wins. If there is still a tie, the
    // players involved share the corresponding placement."
    let base = |points: i32, taler: u32| json!({"extra": false, "passes": 3, "workers": 0, "points": points, "taler": taler});
    // P0 has 9 + 2 (the bonus) + 1 (5 Taler) = 12 with 2 Taler left over; P1 12 + 0 with
    // none.
    let mut st = last_phase(base(9, 5), base(12, 0));
    finish_game(&mut st);
    let r = st.score_report();
    assert_eq!(r.totals, [12.0, 12.0]);
    assert_eq!(r.tie_breaker_values, [[2.0, 5.0], [0.0, 0.0]]);
    assert_eq!(st.winners(), [0]);
    assert_eq!(st.returns(), [1.0, -1.0]);
    // Equal totals and remaining money; 8 Taler against 5.
    let mut st = last_phase(base(9, 5), base(10, 8));
    finish_game(&mut st);
    assert_eq!(st.score_report().totals, [12.0, 12.0]);
    assert_eq!(st.winners(), [1]);
    // Everything equal: shared.
    let mut st = last_phase(base(9, 5), base(11, 5));
    finish_game(&mut st);
    assert_eq!(st.score_report().totals, [12.0, 12.0]);
    assert_eq!(st.winners(), [0, 1]);
    assert_eq!(st.returns(), [0.0, 0.0]);
}

// ----- observation, text, strings -----------------------------------------------------------

#[test]
fn action_names_read_as_phrases() {
    let mut st = choosing(2, json!([{}]));
    assert!(has(&st, "choose: buy hull parts"));
    play(&mut st, "choose: buy hull parts");
    let names = legal_names(&st);
    for n in ["buy: a single hull for 0 Taler", "buy: a bow for 1 Taler", "buy: a stern for 3 Taler", "buy: a centre for 2 Taler", "pass", "use the extra action: withdraw money"] {
        assert!(names.contains(&n.to_string()), "{n}: {names:?}");
    }
    let g = Arc::new(game(2));
    let st = GameState::new(g, 1, true);
    assert_eq!(st.action_to_string(3), "lay on space 1: buy goods (bonus 3 workers)");
}

#[test]
fn the_table_shows_spaces_supply_players_and_ships() {
    let st = position(
        2,
        json!({"pointing": 2, "spaces": LAYOUT,
               "players": [{"warehouse": {"bow": 1}, "ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 1, "goods": {"coffee": 1}}]}]}),
    );
    let text = st.inner().clone();
    let t = st.game().text(&text, Viewer::Table);
    assert!(t.contains("space 4: buy hull parts   bonus 2 victory points "), "{t}");
    assert!(t.contains("P0: 10 points, 15 Taler, 4 workers, 0 of 3 pass tiles turned, 0 crowns, holds the extra action"), "{t}");
    assert!(t.contains("warehouse (1 of 8 spaces): 1 bow"), "{t}");
    assert!(t.contains("ship 1: bow+stern, 1 whale mast, cargo coffee"), "{t}");
    assert!(t.contains("Supply: 18 single hull, 16 bow, 17 stern"), "{t}");
}

#[test]
fn setup_positions_and_saved_states_round_trip() {
    let st = position(
        4,
        json!({"round": 2, "phases": 3, "start": 2, "pointing": 5, "spaces": LAYOUT, "anchor": "transport",
               "turned": ["transport", "buy sails", "deliver goods"], "chosen": "buy goods", "actor": 0,
               "players": [{"ships": [{"hull": ["bow"], "coat": "whale", "masts": 1}]}]}),
    );
    let json = st.to_json();
    let back = GameState::from_json(st.game(), &json).unwrap();
    assert_eq!(back.inner(), st.inner());
    assert_eq!(st.actor(), Actor::Player(0));
    assert_eq!(st.inner().turn.done, 2);
}

// ----- the evaluation of the search agents (heuristic.rs) ----------------------------------------

fn value(st: &St, p: usize) -> f64 {
    let mut out = [0.0; super::state::MAX_PLAYERS];
    st.game().position_values(st.inner(), &mut out);
    out[p]
}

/// A tile on a ship is worth more than the same tile in the warehouse, which is worth more
/// than none; a complete ship more than one a tile short; a complete loaded ship's cargo less
/// than the same goods delivered.
#[test]
fn evaluation_credits_tiles_on_ships_completion_and_delivery() {
    let at = |ship: Value, warehouse: Value, delivered: Value| {
        position(2, json!({"players": [{"ships": [ship], "warehouse": warehouse, "delivered": delivered}]}))
    };
    let short = json!({"hull": ["bow", "stern"], "coat": "anchor", "masts": 2, "sails": 1});
    let complete = json!({"hull": ["bow", "stern"], "coat": "anchor", "masts": 2, "sails": 2});
    let none = value(&at(short.clone(), json!({}), json!({})), 0);
    let stored = value(&at(short.clone(), json!({"anchor sail": 1}), json!({})), 0);
    assert!(none < stored, "{none} {stored}");
    // The sail bought: into the warehouse, or onto the ship, which completes it and brings a
    // reward for each of its 2 masts along with the ship's 8 points.
    let bought = || {
        let mut st = position(
            2,
            json!({"pointing": 2, "spaces": layout_with("buy sails", 4), "players": [{"extra": false, "ships": [short.clone()]}]}),
        );
        play(&mut st, "choose: buy sails");
        play(&mut st, "buy: an anchor sail for 1 Taler");
        st
    };
    let mut kept = bought();
    play(&mut kept, "put in the warehouse: the anchor sail");
    let mut placed = bought();
    play_starting(&mut placed, "put on ship 1: the anchor sail");
    assert_eq!(placed.inner().step, Step::Reward);
    assert!(value(&placed, 0) > value(&kept, 0) + 1.0, "{} {}", value(&kept, 0), value(&placed, 0));
    let placed = value(&at(complete.clone(), json!({}), json!({})), 0);

    let mut loaded = complete.clone();
    loaded["goods"] = json!({"coffee": 2});
    let loaded = value(&at(loaded, json!({}), json!({})), 0);
    let delivered = value(&at(complete.clone(), json!({}), json!({"coffee": 2})), 0);
    assert!(placed < loaded && loaded < delivered, "{placed} {loaded} {delivered}");

    // A longer ship is worth more per tile: a bow and a stern each begun as a ship of their
    // own are worth less than a bow+stern ship.
    let apart = position(2, json!({"players": [{"ships": [{"hull": ["bow"]}, {"hull": ["stern"]}]}]}));
    let joined = position(2, json!({"players": [{"ships": [{"hull": ["bow", "stern"]}]}]}));
    assert!(value(&apart, 0) < value(&joined, 0));
}

/// Unturned pass tiles cost their penalty in full once the round has no action phase to
/// spare for them; the measure is the margin over the best other seat, and at the end the
/// game's returns.
#[test]
fn evaluation_charges_unturned_pass_tiles_and_compares_with_the_best_opponent() {
    let early = position(3, json!({"phases": 0, "spaces": LAYOUT}));
    let late = position(3, json!({"phases": 6, "spaces": LAYOUT, "turned": LAYOUT[..6], "anchor": LAYOUT[0]}));
    // -3, -2, -1 unturned: 6 points, 3/7 of it with 7 phases left, all of it with 1.
    assert!((value(&early, 0) - value(&late, 0) - 6.0 * (1.0 - 3.0 / 7.0)).abs() < 1.0, "{} {}", value(&early, 0), value(&late, 0));
    let ahead = position(3, json!({"players": [{"points": 30}, {}, {"points": 20}]}));
    let mut out = [0.0; 3];
    ahead.game().evaluate(ahead.inner(), &mut out);
    assert!(out[0] > 0.5 && out[1] < -0.5 && out[2] < 0.0 && out[2] > out[1], "{out:?}");
}

/// Two players: P0 has bought an anchor sail, the last tile of a bow-and-stern ship with 2
/// anchor masts and 1 sail.
pub(super) fn last_sail_bought() -> St {
    let mut st = position(
        2,
        json!({"pointing": 2, "spaces": layout_with("buy sails", 4),
               "players": [{"extra": false, "ships": [{"hull": ["bow", "stern"], "coat": "anchor", "masts": 2, "sails": 1}]}]}),
    );
    play(&mut st, "choose: buy sails");
    play(&mut st, "buy: an anchor sail for 1 Taler");
    st
}

/// `greedy` (one ply on the evaluation) puts a bought sail on the ship it completes rather
/// than into the warehouse.
#[test]
fn greedy_puts_the_last_sail_on_the_ship_it_completes() {
    use crate::engine::agents::{choose, AgentScratch, AgentSpec};
    let st = last_sail_bought();
    assert!(has(&st, "put in the warehouse: the anchor sail"));
    let mut rng = crate::engine::rng::rng_from_seed(1);
    let mut scratch = AgentScratch::default();
    let a = choose(&AgentSpec::Greedy, st.game().as_ref(), st.inner(), 0, &mut rng, &mut scratch);
    assert!(st.action_to_string(a).starts_with("put on ship 1: the anchor sail"), "{}", st.action_to_string(a));
}

/// The search agents beat random play and `greedy` builds and completes ships.
#[test]
fn search_agents_beat_random_play_and_greedy_completes_ships() {
    use crate::engine::simulate::simulate_agents;
    use crate::engine::AgentSpec;
    let g = game(2);
    let r = simulate_agents(&g, &[AgentSpec::Greedy, AgentSpec::Random], 0, 40, 3, 0, None).unwrap();
    let wins = (0..40).filter(|&i| r.winners[i * 2]).count();
    assert!(wins >= 36, "greedy won {wins} of 40 against random");
    let mcts: AgentSpec = "mcts:iterations=40,rollout_depth=40".parse().unwrap();
    let r = simulate_agents(&g, &[mcts, AgentSpec::Random], 0, 8, 3, 0, None).unwrap();
    let wins = (0..8).filter(|&i| r.winners[i * 2]).count();
    assert!(wins >= 6, "mcts won {wins} of 8 against random");
    // Greedy self-play: the completed-ships category (the third) averages several points.
    let r = simulate_agents(&g, &[AgentSpec::Greedy, AgentSpec::Greedy], 0, 20, 3, 0, None).unwrap();
    let nc = r.categories.len();
    let ships: f64 = (0..40).map(|i| r.category_points[i * nc + 2]).sum::<f64>() / 40.0;
    assert!(ships >= 5.0, "greedy's completed ships average {ships} points");
}

#[test]
fn the_goods_reward_needs_two_kinds_of_good_left_in_the_supply() {
    // "2 goods: The player receives 2 different goods and places them in their warehouse."
    // "If the stack of a particular tile type is used up, players can no longer acquire or
    // otherwise obtain that tile type." With one kind left, 2 different goods cannot be had.
    let ship = json!({"hull": ["bow", "centre", "centre", "stern"], "coat": "whale", "masts": 3,
                      "crown_masts": 1, "sails": 2, "crown_sails": 1});
    for (delivered, offered) in [(json!({"coffee": 12, "grain": 12}), true), (json!({"coffee": 12, "grain": 12, "salt": 12}), false)] {
        let mut st = position(
            2,
            json!({"pointing": 2, "spaces": layout_with("buy sails", 4),
                   "players": [{"extra": false, "ships": [ship]}, {"delivered": delivered}]}),
        );
        play(&mut st, "choose: buy sails");
        play(&mut st, "buy: a whale sail for 0 Taler");
        play(&mut st, "buy: a whale sail for 4 Taler");
        play_starting(&mut st, "put on ship 1: the whale sail");
        assert_eq!(st.inner().step, Step::Reward);
        assert_eq!(has(&st, "reward: 2 different goods"), offered, "{delivered} used up");
        if offered {
            play(&mut st, "reward: 2 different goods");
            assert_eq!(legal_names(&st), vec!["take as a reward: salt", "take as a reward: fish"]);
            play(&mut st, "take as a reward: salt");
            play(&mut st, "take as a reward: fish");
            assert_eq!((warehouse(&st, 0, "salt"), warehouse(&st, 0, "fish")), (1, 1));
        }
    }
}
