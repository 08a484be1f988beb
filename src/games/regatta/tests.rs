//! Regatta's tests: its rules, and through it each point of the engine contract
//! (`docs/engine-contract.md`), on something besides North Wind. The shared checks
//! (conformance, fuzzing, golden files, no allocation) reach it through the registry.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{Phase, Regatta, State};
use crate::engine::{Actor, GameState, MAX_SEATS};
use crate::engine::prelude::*;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn game(players: usize, pace_boat: bool) -> Regatta {
    Regatta::load(&opts(json!({"players": players, "pace_boat": pace_boat}))).unwrap()
}

/// A race about to begin a round, built with the setup helper.
fn at(g: &Regatta, positions: &[u32], pace: u32, round: u32) -> State {
    g.setup(&json!({"positions": positions, "pace": pace, "round": round})).unwrap()
}

/// Plays one round: the seats' settings (1-3), the wind, and the pace boat's move (2 or 3).
fn round(g: &Regatta, s: &mut State, settings: &[u32], wind: u32, pace: Option<u32>) {
    for &set in settings {
        assert!(matches!(g.actor(s), Actor::Player(_)));
        g.apply(s, set - 1);
    }
    assert_eq!(g.actor(s), Actor::Chance);
    g.apply(s, wind);
    if let Some(m) = pace {
        g.apply(s, m - 2);
    }
}

#[test]
fn one_seat_needs_the_pace_boat_and_two_to_five_seats_are_listed_with_and_without_it() {
    let configs = Regatta::configurations();
    assert_eq!(configs.len(), 1 + 2 * 4, "{configs:?}");
    assert!(configs.iter().all(|c| c["players"] != 1 || c["pace_boat"] == true), "{configs:?}");
}

// ----- the rules ---------------------------------------------------------------------------

#[test]
fn boats_move_their_setting_plus_the_wind_shared_settings_lose_one_and_three_capsizes_in_wind_two() {
    let g = game(3, false);
    let mut s = at(&g, &[0, 0, 0], 0, 0);
    round(&g, &mut s, &[1, 2, 2], 1, None);
    assert_eq!(&s.position[..3], &[2, 2, 2], "1+1; 2+1-1 twice");
    round(&g, &mut s, &[3, 1, 2], 2, None);
    assert_eq!(&s.position[..3], &[2, 5, 6], "a 3 in wind 2 stays; 1+2; 2+2");
    assert_eq!(&s.revealed[..3], &[3, 1, 2], "last round's settings are revealed");
}

#[test]
fn with_gusts_the_wind_blows_up_to_three_and_a_wind_of_three_capsizes_sails_two_and_three() {
    let g = Regatta::load(&opts(json!({"players": 3, "gusts": true}))).unwrap();
    assert_eq!(g.spec().max_chance_outcomes, 4);
    let mut s = at(&g, &[0, 0, 0], 0, 0);
    for set in 0..3 {
        g.apply(&mut s, set);
    }
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes);
    assert_eq!(outcomes, [(0, 1.0 / 6.0), (1, 2.0 / 6.0), (2, 2.0 / 6.0), (3, 1.0 / 6.0)]);
    let before = s.clone();
    g.apply(&mut s, 3);
    assert_eq!(&s.position[..3], &[4, 0, 0], "1+3; sails 2 and 3 capsize in a wind of 3");
    assert_eq!(
        g.describe_move(&before, 3, &s, None),
        "The wind blows 3: P0 at sails 1 moves 4 to 4; P1 at sails 2 moves 0 to 0 (sails 2 capsize in a wind of 3); \
         P2 at sails 3 moves 0 to 0 (sails 3 capsize in a wind of 3)."
    );
    round(&g, &mut s, &[3, 2, 1], 2, None);
    assert_eq!(&s.position[..3], &[4, 4, 3], "sails 3 still capsize in a wind of 2; 2+2; 1+2");
    // Without gusts the wind never blows 3.
    let calm = game(3, false);
    let mut t = at(&calm, &[0, 0, 0], 0, 0);
    (0..3).for_each(|set| calm.apply(&mut t, set));
    calm.chance_outcomes(&t, &mut outcomes);
    assert_eq!(outcomes, [(0, 0.25), (1, 0.5), (2, 0.25)]);
    // The shared checks hold the variant to the contract, as they hold every configuration.
    for players in 1..=MAX_SEATS {
        let g = Regatta::load(&opts(json!({"players": players, "pace_boat": true, "gusts": true}))).unwrap();
        crate::harness::conformance::check_random_games(Arc::new(g), 50, players as u64, 5).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn the_race_ends_after_the_round_a_boat_finishes_or_after_course_rounds() {
    let g = game(2, false);
    let mut s = at(&g, &[10, 0], 0, 3);
    round(&g, &mut s, &[1, 1], 0, None);
    assert_eq!(s.phase, Phase::Choose(0), "10 + 1 - 1 = 10: one short of 12... still racing");
    round(&g, &mut s, &[2, 1], 0, None);
    assert_eq!(s.phase, Phase::Over, "12 reaches the finish");
    let mut s = at(&g, &[0, 0], 0, 11);
    round(&g, &mut s, &[1, 2], 0, None);
    assert_eq!((s.round, s.phase), (12, Phase::Over), "the twelfth round is the last");
}

#[test]
fn scores_are_distance_plus_two_for_finishing_and_the_best_score_wins_ties_shared() {
    let g = game(3, false);
    let mut s = at(&g, &[11, 11, 3], 0, 5);
    round(&g, &mut s, &[1, 2, 3], 0, None);
    let r = g.score_report(&s);
    assert_eq!(r.points, vec![vec![12.0, 2.0], vec![12.0, 2.0], vec![6.0, 0.0]]);
    assert_eq!(r.winners, vec![0, 1]);
    let mut returns = [0.0; 3];
    g.returns(&s, &mut returns);
    assert_eq!(returns, [0.5, 0.5, -1.0], "two winners share +1, the loser takes -1");
}

// ----- the contract ------------------------------------------------------------------------

/// Seats: 1 to 5; 0 and 6 are refused naming the option.
#[test]
fn seats_run_from_one_to_five() {
    for n in 1..=MAX_SEATS {
        assert_eq!(game(n, true).spec().players, n);
    }
    for bad in [0, 6] {
        let e = Regatta::load(&opts(json!({"players": bad}))).unwrap_err().to_string();
        assert!(e.contains("players") && e.contains("1..=5"), "{e}");
    }
    let e = Regatta::load(&opts(json!({"players": 1}))).unwrap_err().to_string();
    assert!(e.contains("pace_boat"), "a solo seat needs the pace boat: {e}");
}

/// Opponents that are not seats: named in the spec, moved by chance, a row in the score
/// report with its categories, able to win; no returns and no observation of their own.
#[test]
fn the_pace_boat_is_an_opponent_with_a_report_row_and_no_returns() {
    let g = game(2, true);
    assert_eq!(g.spec().opponents, vec!["pace boat".to_string()]);
    let mut s = at(&g, &[9, 4], 8, 2);
    round(&g, &mut s, &[1, 3], 0, Some(3));
    assert_eq!(s.pace, 11);
    round(&g, &mut s, &[1, 1], 0, Some(2));
    assert_eq!(s.phase, Phase::Over);
    let r = g.score_report(&s);
    assert_eq!(r.opponents.len(), 1);
    assert_eq!((r.opponents[0].points.clone(), r.opponents[0].total), (vec![12.0, 2.0], 14.0));
    assert_eq!(r.opponent_winners, vec![0], "the pace boat finished first");
    assert!(r.winners.is_empty(), "no seat won");
    assert_eq!(r.winner_names(), vec!["pace boat".to_string()]);
    assert!(r.to_table().contains("winner: pace boat"), "{}", r.to_table());
    let mut returns = [9.0; 2];
    g.returns(&s, &mut returns);
    assert_eq!(returns, [-1.0, -1.0], "every seat lost");
    assert!(!g.is_truncated(&s));
    let mut scores = [0.0; 2];
    g.scores(&s, &mut scores);
    assert_eq!(scores, [10.0, 7.0], "scores are the seats' totals only");
}

/// A lost solo game: no winning seat, not truncated, return -1, no tier.
#[test]
fn a_lost_solo_game_has_no_winning_seat_and_returns_minus_one() {
    let g = game(1, true);
    let mut s = at(&g, &[6], 10, 4);
    round(&g, &mut s, &[1], 0, Some(2));
    let r = g.score_report(&s);
    assert!(r.terminal && !r.truncated && r.winners.is_empty() && r.tier.is_none());
    assert_eq!(r.opponent_winners, vec![0]);
    let mut returns = [0.0];
    g.returns(&s, &mut returns);
    assert_eq!(returns, [-1.0]);
}

/// A tie with the pace boat is a loss for the solo seat (it must beat it); a win returns +1
/// and reaches the tier of its margin, at each tier's boundary and one below.
#[test]
fn a_solo_win_returns_plus_one_and_reaches_the_tier_of_its_margin() {
    let g = game(1, true);
    assert_eq!(g.spec().tiers, vec!["bronze", "silver", "gold"]);
    // The last round: the seat sets 1 in no wind (one space), the pace boat moves 2.
    for (seat, pace, tier) in [(5, 4, None), (5, 3, Some("bronze")), (5, 2, Some("bronze")), (5, 1, Some("silver")),
                               (5, 0, Some("silver")), (6, 0, Some("gold"))] {
        let mut s = at(&g, &[seat], pace, 11);
        round(&g, &mut s, &[1], 0, Some(2));
        assert_eq!(s.phase, Phase::Over);
        let r = g.score_report(&s);
        assert_eq!((r.totals[0], r.opponents[0].total), ((seat + 1) as f64, (pace + 2) as f64));
        assert_eq!(r.tier.as_deref(), tier, "seat {seat}, pace boat {pace}");
        let mut returns = [0.0];
        g.returns(&s, &mut returns);
        assert_eq!(returns, [if tier.is_some() { 1.0 } else { -1.0 }], "seat {seat}, pace boat {pace}");
    }
}

/// Tiers and opponents reach the simulation results.
#[test]
fn simulation_results_say_who_or_what_won_and_the_tier() {
    let g = game(1, true);
    let r = crate::engine::simulate(&g, 400, 3, 1, None).unwrap();
    assert_eq!(r.opponents, vec!["pace boat".to_string()]);
    assert_eq!((r.opponent_scores.len(), r.opponent_wins.len(), r.tier.len()), (400, 400, 400));
    for i in 0..400 {
        assert_ne!(r.winners[i], r.opponent_wins[i], "game {i}: the seat or the pace boat wins, not both");
        assert_eq!(r.tier[i] >= 0, r.winners[i], "game {i}: a tier exactly when the seat won");
    }
    let wins = r.winners.iter().filter(|&&w| w).count();
    assert!(wins > 0 && wins < 400, "{wins} wins");
    assert!(r.tier.iter().all(|&t| (-1..3).contains(&t)));
}

/// Secret choices: the other seats see that a seat has set its sails, not how; the move is
/// shown to them without its value; the shared check rejects a game that shows it.
#[test]
fn secret_sail_settings_are_hidden_from_the_other_seats() {
    let g = Arc::new(game(3, false));
    let s = GameState::new(Arc::clone(&g), 1, true);
    assert!(g.decision_is_secret(s.inner()));
    let after: Vec<GameState<Regatta>> = (0..3).map(|a| {
        let mut t = s.clone();
        t.apply(a).unwrap();
        t
    }).collect();
    for q in 1..3 {
        let seen: Vec<String> = after.iter().map(|t| t.observation_string(q).unwrap()).collect();
        assert!(seen.iter().all(|v| *v == seen[0]), "{seen:?}");
        assert!(seen[0].contains("P0 at 0 sails set"), "{}", seen[0]);
        assert_eq!(s.action_string_for(2, q).unwrap(), "P0 sets sails in secret");
    }
    assert!(after[2].observation_string(0).unwrap().contains("P0 at 0 sails 3"));
    assert_eq!(s.action_string_for(2, 0).unwrap(), "set sails to 3");
    assert!(!g.decision_is_secret(after[0].inner()) || after[0].current_player() == 1);
}

/// Resampling draws the other seats' hidden settings and keeps the resampler's own.
#[test]
fn resampling_redraws_only_the_hidden_settings() {
    let g = Arc::new(game(3, false));
    let mut s = GameState::new(Arc::clone(&g), 1, true);
    for a in [2, 0] {
        s.apply(a).unwrap();
    }
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        let r = s.resample(2, seed).unwrap();
        assert_eq!(r.inner().setting[2], 0);
        assert_eq!(r.inner().position, s.inner().position);
        seen.insert((r.inner().setting[0], r.inner().setting[1]));
        let mine = s.resample(0, seed).unwrap();
        assert_eq!(mine.inner().setting[0], 3, "P0 knows its own setting");
    }
    assert_eq!(seen.len(), 9, "every combination of the two hidden settings comes up");
}

/// The default evaluation measures a solo seat against the pace boat.
#[test]
fn evaluate_measures_a_single_seat_against_the_opponent() {
    let g = game(1, true);
    let mut out = [0.0];
    g.evaluate(&at(&g, &[8], 4, 2), &mut out);
    assert!(out[0] > 0.7, "{out:?}: 4 spaces ahead");
    g.evaluate(&at(&g, &[4], 8, 2), &mut out);
    assert!(out[0] < -0.7, "{out:?}: 4 spaces behind");
    g.evaluate(&at(&g, &[5], 5, 2), &mut out);
    assert_eq!(out[0], 0.0);
}

/// Saved states carry this game's own format version; another game's state is refused.
#[test]
fn saved_states_carry_this_games_format_version() {
    let g = crate::games::load("regatta", &opts(json!({"players": 2}))).unwrap();
    let nw = crate::games::load("north-wind", &opts(json!({"players": 2}))).unwrap();
    assert_eq!((g.state_format(), nw.state_format()), (1, 3));
    let saved: Value = serde_json::from_str(&g.new_state(3, false).to_json()).unwrap();
    assert_eq!(saved["format"], 1);
    let theirs = nw.new_state(3, false);
    for e in [g.state_from_json(&theirs.to_json()).err(), g.state_from_bytes(&theirs.to_bytes()).err()] {
        let e = e.expect("another game's state is refused").to_string();
        assert!(e.contains("a state of game \"north-wind\""), "{e}");
    }
}

/// A state saved before the game took up an option (its configuration lacks the option) loads
/// into the game with the option at its default, and is refused by a game with another value.
#[test]
fn a_state_saved_before_an_option_existed_loads_with_the_options_default() {
    let g = crate::games::load("regatta", &opts(json!({"players": 2}))).unwrap();
    let mut saved: Value = serde_json::from_str(&g.new_state(3, false).to_json()).unwrap();
    let config = saved["config"].as_str().unwrap().replace(r#""gusts":false,"#, "");
    assert!(!config.contains("gusts"), "{config}");
    saved["config"] = config.into();
    let loaded = g.state_from_json(&saved.to_string()).unwrap();
    assert_eq!(loaded.to_json(), g.new_state(3, false).to_json(), "saved again with the whole configuration");
    let gusty = crate::games::load("regatta", &opts(json!({"players": 2, "gusts": true}))).unwrap();
    let e = gusty.state_from_json(&saved.to_string()).err().expect("another value of the option is refused").to_string();
    assert!(e.contains("gusts: saved false, this game true"), "{e}");
}

/// Setup descriptions are checked field by field.
#[test]
fn setup_descriptions_name_the_bad_field() {
    let g = game(2, false);
    for (d, field) in [(json!({"positions": [1]}), "positions"), (json!({"pace": -1}), "pace"),
                       (json!({"wind": 1}), "wind"), (json!({"positions": [1, "x"]}), "positions[1]")] {
        let e = g.setup(&d).unwrap_err().to_string();
        assert!(e.contains(field), "{d}: {e}");
    }
    assert_eq!(at(&g, &[12, 3], 0, 4).phase, Phase::Over, "a finished race is over");
}

#[test]
fn the_log_hides_a_secret_setting_until_the_wind_reveals_it() {
    let g = Arc::new(game(2, false));
    let mut s = GameState::new(Arc::clone(&g), 1, true);
    s.apply(1).unwrap(); // P0 sets 2
    s.apply(2).unwrap(); // P1 sets 3
    s.apply(2).unwrap(); // wind 2
    let own: Vec<String> = s.log(Some(0)).unwrap().into_iter().map(|e| e.text).collect();
    let other: Vec<String> = s.log(Some(1)).unwrap().into_iter().map(|e| e.text).collect();
    assert_eq!(own[0], "P0 sets sails to 2 in secret.");
    assert_eq!(other[0], "P0 sets sails in secret.");
    assert_eq!(other[1], "P1 sets sails to 3 in secret.");
    assert_eq!(own[2], "The wind blows 2: P0 at sails 2 moves 4 to 4; P1 at sails 3 moves 0 to 0 (sails 3 capsize in a wind of 2).");
    assert_eq!(own[2], other[2]);
}
