//! Nauticus's Rust tests. The first is the shared conformance suite; rule tests quote the
//! rulebook sentence they check.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::data::{ComponentData, Source};
use crate::engine::{Actor, EngineError, Game, GameDefinition, GameState};
use crate::harness::conformance::check_random_games;

use super::data::{Data, KINDS};
use super::state::Step;
use super::Nauticus;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Nauticus {
    Nauticus::load(&opts(json!({ "players": players }))).unwrap()
}

#[test]
fn conformance_random_games_all_player_counts() {
    for cfg in Nauticus::configurations() {
        let g = Nauticus::load(&cfg).unwrap();
        let stats = check_random_games(Arc::new(g), 4, 7, 9).unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
        assert_eq!(stats.terminals, 4);
        assert!(stats.decisions > 200, "{stats:?}");
        // Random play reaches most kinds of decision.
        assert!(stats.distinct_actions_seen >= 60, "{stats:?}");
    }
}

// ----- helpers ---------------------------------------------------------------------------

type St = GameState<Nauticus>;

/// The layout of the tests: "buy hull parts" on the space of the 2-point bonus (space 4,
/// whose prices reproduce the rulebook's buying examples).
const LAYOUT: [&str; 8] = [
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
fn layout_with(tile: &str, space: usize) -> Vec<&str> {
    let mut l = LAYOUT.to_vec();
    let from = l.iter().position(|t| *t == tile).unwrap();
    l.swap(from, space - 1);
    l
}

fn position(players: usize, desc: Value) -> St {
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

fn play(st: &mut St, action: &str) {
    let a = st.string_to_action(action).unwrap_or_else(|e| panic!("{action}: {e}\n{}", st.render()));
    st.apply(a).unwrap();
}

/// Plays the one legal action whose name begins with `prefix` (ship targets carry the ship's
/// description after its number).
fn play_starting(st: &mut St, prefix: &str) {
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
    let again = crate::games::load_json(&g.config());
    // The game is not registered yet, so the config names a game the registry does not know.
    assert!(again.is_err());
    assert_eq!(g.config()["data"]["rules"]["warehouse_spaces"]["value"], 10);
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
    play(&mut st, "choose buy hull parts"); // space 4: 2 victory points
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
    assert!(!has(&st, "choose buy hull parts"));
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
        (1, "take a whale mast as the bonus", 0, 3, 0, None),
        (2, "take an anchor mast as the bonus", 0, 0, 0, Some("anchor mast")),
        (3, "take a whale sail as the bonus", 0, 0, 0, Some("whale sail")),
        (4, "", 2, 0, 0, None),
        (5, "", 0, 2, 0, None),
        (6, "take salt as the bonus", 0, 1, 0, Some("salt")),
        (7, "", 1, 1, 0, None),
        (8, "", 0, 0, 4, None),
    ];
    for (space, pick, points, workers, taler, tile) in cases {
        let mut st = position(
            2,
            json!({"pointing": 2, "spaces": layout_with("transport", space), "players": [{"extra": false}]}),
        );
        play(&mut st, "choose transport");
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
    play(&mut st, "choose transport");
    assert_eq!(st.inner().step, Step::Turn);
    assert_eq!(st.inner().stock[4..8], [15; 4]);
    assert_eq!(st.inner().warehouse_used(0, 2), 7);
    let mut st = position(2, json!({"pointing": 2, "spaces": layout_with("transport", 3), "players": [{"extra": false, "warehouse": full}]}));
    play(&mut st, "choose transport");
    assert_eq!(st.inner().step, Step::BonusTile);
    play(&mut st, "take a whale sail as the bonus");
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
        play(&mut st, &format!("choose {t}"));
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
    play(&mut st, "choose withdraw money");
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
    play(&mut st, "choose withdraw money"); // space 1: 3 workers for P0
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
