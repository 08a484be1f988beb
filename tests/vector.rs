//! Batched stepping (`engine::vector`) on every registered game in every configuration,
//! through the type-erased vector game the Python bindings use: each game of a batch plays
//! exactly the game a single state plays from its seed, whatever the thread count; built-in
//! agents play their seats inside the call; an illegal action anywhere changes nothing.
//! Then the contract points of the test game regatta (a solo seat against the pace boat, an
//! opponent that is not a seat; secret sail settings) and North Wind with agents. Nothing
//! here depends on a game's exact numbers.

#![allow(clippy::needless_range_loop)] // parallel per-game arrays are indexed by game

use serde_json::{Map, Value};
use tradewinds::engine::rng::{below, rng_from_seed, Rng};
use tradewinds::engine::{
    AgentSpec, DynGame, DynState, DynVector, LegalOutput, VectorBuffers, VectorConfig, CHANCE, TERMINAL,
};
use tradewinds::games::{all_configurations, load, registered};
use tradewinds::harness::scaled;

fn configurations() -> Vec<(&'static str, Map<String, Value>)> {
    registered().flat_map(|name| all_configurations(name).into_iter().map(move |o| (name, o))).collect()
}

fn buffers(v: &dyn DynVector) -> VectorBuffers {
    VectorBuffers::new(v.num_games(), v.row_sizes())
}

/// A uniformly random legal action of every game, read from the mask (-1 where no seat acts).
fn random_actions(v: &dyn DynVector, b: &VectorBuffers, rng: &mut Rng) -> Vec<i64> {
    let a = v.row_sizes().actions;
    (0..v.num_games())
        .map(|i| {
            let legal: Vec<usize> = (0..a).filter(|&x| b.legal_mask[i * a + x]).collect();
            if legal.is_empty() {
                -1
            } else {
                legal[below(rng, legal.len() as u32) as usize] as i64
            }
        })
        .collect()
}

fn mask_of(state: &dyn DynState) -> Vec<bool> {
    state.legal_action_mask()
}

#[test]
fn every_game_of_a_batch_plays_the_game_a_state_plays_from_its_seed() {
    const N: usize = 5;
    for (name, options) in configurations() {
        let game = load(name, &options).unwrap();
        let config = VectorConfig { num_games: N, seed: 77, legal: LegalOutput::Both, ..Default::default() };
        let mut v = game.vector(config).unwrap();
        let sizes = v.row_sizes();
        let mut b = buffers(&*v);
        v.write(b.outputs()).unwrap();
        let mut singles: Vec<Box<dyn DynState>> = (0..N).map(|i| game.new_state(v.game_seed(i, 0), false)).collect();
        let mut episodes = vec![0u64; N];
        let mut obs = vec![0.0f32; N * sizes.observation];
        let mut rng = rng_from_seed(5);
        let mut ended = 0;
        // Until every game has ended once (long games take thousands of steps), at most 5,000 steps.
        for step in 0..5_000 {
            if ended >= N {
                break;
            }
            for i in 0..N {
                let s = &singles[i];
                assert_eq!(b.current_player[i], s.current_player(), "{name} {options:?} step {step} game {i}");
                assert_eq!(&b.legal_mask[i * sizes.actions..(i + 1) * sizes.actions], &mask_of(&**s)[..]);
                let listed: Vec<u32> = b.legal_actions_of(i).iter().map(|&a| a as u32).collect();
                assert_eq!(listed, s.legal_actions(), "{name} {options:?} step {step} game {i}");
            }
            v.observe(None, &mut obs).unwrap();
            for i in 0..N {
                let p = singles[i].current_player() as usize;
                let want = singles[i].observation_tensor(p).unwrap();
                assert_eq!(&obs[i * sizes.observation..(i + 1) * sizes.observation], &want[..], "{name} game {i}");
            }
            let actions = random_actions(&*v, &b, &mut rng);
            ended += v.step(&actions, b.outputs()).unwrap();
            for i in 0..N {
                singles[i].apply(actions[i] as u32).unwrap();
                let done = b.terminated[i] || b.truncated[i];
                assert_eq!(done, singles[i].is_terminal(), "{name} game {i}");
                let returns = &b.returns[i * sizes.players..(i + 1) * sizes.players];
                if done {
                    assert_eq!(returns, &singles[i].returns()[..]);
                    assert_eq!(b.truncated[i], singles[i].is_truncated());
                    episodes[i] += 1;
                    singles[i] = game.new_state(v.game_seed(i, episodes[i]), false);
                } else {
                    assert!(returns.iter().all(|&r| r == 0.0));
                }
            }
            let mut e = vec![0; N];
            v.episodes(&mut e);
            assert_eq!(e, episodes);
        }
        assert!(ended >= N, "{name} {options:?}: {ended} games ended in 5,000 steps");
    }
}

/// Plays `steps` steps of random actions (from a fixed stream) and returns every output and
/// every observation, flattened to bits.
fn trace(game: &dyn DynGame, config: VectorConfig, steps: usize) -> Vec<u64> {
    let mut v = game.vector(config).unwrap();
    let mut b = buffers(&*v);
    v.write(b.outputs()).unwrap();
    let mut obs = vec![0.0f32; v.num_games() * v.row_sizes().observation];
    let mut rng = rng_from_seed(11);
    let mut out = Vec::new();
    for _ in 0..steps {
        let actions = random_actions(&*v, &b, &mut rng);
        out.push(v.step(&actions, b.outputs()).unwrap() as u64);
        v.observe(None, &mut obs).unwrap();
        out.extend(b.current_player.iter().map(|&x| x as u64));
        out.extend(b.legal_mask.iter().map(|&x| x as u64));
        out.extend(b.legal_offsets.iter().map(|&x| x as u64));
        // (What lies past the last offset is not part of the output.)
        let listed = b.legal_offsets.last().map_or(0, |&n| n as usize);
        out.extend(b.legal_actions[..listed].iter().map(|&x| x as u64));
        out.extend(b.returns.iter().map(|x| x.to_bits()));
        out.extend(b.terminated.iter().chain(&b.truncated).map(|&x| x as u64));
        out.extend(b.chance_probabilities.iter().map(|x| x.to_bits()));
        out.extend(obs.iter().map(|x| x.to_bits() as u64));
    }
    out
}

#[test]
fn outputs_are_bit_identical_whatever_the_thread_count() {
    for (name, options) in configurations() {
        let game = load(name, &options).unwrap();
        let players = game.spec().players;
        // Seat 0 is the caller's; with several seats the others are played by random agents
        // in one run and by the caller in the other.
        let agents = if players > 1 {
            std::iter::once(None).chain((1..players).map(|_| Some(AgentSpec::Random))).collect()
        } else {
            Vec::new()
        };
        for (agents, explicit_chance) in [(Vec::new(), false), (agents, false), (Vec::new(), true)] {
            let config = |threads| VectorConfig {
                num_games: scaled(64),
                seed: 3,
                agents: agents.clone(),
                explicit_chance,
                threads,
                legal: LegalOutput::Both,
                ..Default::default()
            };
            let one = trace(&*game, config(1), 40);
            assert_eq!(one, trace(&*game, config(2), 40), "{name} {options:?}");
            assert_eq!(one, trace(&*game, config(0), 40), "{name} {options:?}");
        }
    }
}

#[test]
fn an_illegal_action_in_any_game_is_an_error_naming_it_and_changes_no_game() {
    for (name, options) in configurations() {
        let game = load(name, &options).unwrap();
        let mut v = game.vector(VectorConfig { num_games: 4, seed: 1, ..Default::default() }).unwrap();
        let mut b = buffers(&*v);
        v.write(b.outputs()).unwrap();
        let mut rng = rng_from_seed(2);
        for _ in 0..5 {
            let a = random_actions(&*v, &b, &mut rng);
            v.step(&a, b.outputs()).unwrap();
        }
        let saved: Vec<String> = (0..4).map(|i| v.state(i).unwrap().to_json()).collect();
        let written = b.clone();
        let legal = random_actions(&*v, &b, &mut rng);
        let a = v.row_sizes().actions;
        let unused = (0..a).find(|&x| !b.legal_mask[3 * a + x]).unwrap_or(a) as i64;
        for (game_index, bad) in [(3, unused), (2, -2), (1, u32::MAX as i64 + 1)] {
            let mut actions = legal.clone();
            actions[game_index] = bad;
            let err = v.step(&actions, b.outputs()).unwrap_err();
            assert!(err.to_string().contains(&format!("game {game_index}:")), "{name}: {err}");
        }
        assert!(v.step(&legal[..3], b.outputs()).is_err());
        assert!(v.reset_games(&[true], b.outputs()).is_err());
        assert_eq!((0..4).map(|i| v.state(i).unwrap().to_json()).collect::<Vec<_>>(), saved, "{name}");
        assert_eq!(b, written, "{name}");
        assert!(v.observe(Some(game.spec().players), &mut vec![0.0; 4 * v.row_sizes().observation]).is_err());
    }
}

#[test]
fn agents_play_their_seats_inside_the_call() {
    for (name, options) in configurations() {
        let game = load(name, &options).unwrap();
        let players = game.spec().players;
        let caller = players - 1;
        let agents: Vec<Option<AgentSpec>> =
            (0..players).map(|p| if p == caller { None } else { Some(AgentSpec::Random) }).collect();
        let mut v = game.vector(VectorConfig { num_games: 8, seed: 5, agents, ..Default::default() }).unwrap();
        let mut b = buffers(&*v);
        v.write(b.outputs()).unwrap();
        let mut rng = rng_from_seed(3);
        for _ in 0..300 {
            assert!(b.current_player.iter().all(|&p| p == caller as i32), "{name} {options:?}");
            let a = random_actions(&*v, &b, &mut rng);
            v.step(&a, b.outputs()).unwrap();
        }
    }
}

#[test]
fn explicit_chance_leaves_every_chance_node_to_the_caller() {
    for (name, options) in configurations() {
        let game = load(name, &options).unwrap();
        let mut v = game.vector(VectorConfig { num_games: 6, explicit_chance: true, ..Default::default() }).unwrap();
        let sizes = v.row_sizes();
        let mut b = buffers(&*v);
        v.write(b.outputs()).unwrap();
        let mut rng = rng_from_seed(4);
        let mut chance_nodes = 0;
        for _ in 0..300 {
            let mut actions = random_actions(&*v, &b, &mut rng);
            for i in 0..6 {
                let row = &b.chance_probabilities[i * sizes.chance..(i + 1) * sizes.chance];
                if b.current_player[i] == CHANCE {
                    chance_nodes += 1;
                    assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{name}");
                    let outcomes: Vec<usize> = (0..sizes.chance).filter(|&x| row[x] > 0.0).collect();
                    actions[i] = outcomes[below(&mut rng, outcomes.len() as u32) as usize] as i64;
                } else {
                    assert!(row.iter().all(|&p| p == 0.0));
                }
            }
            v.step(&actions, b.outputs()).unwrap();
        }
        assert!(chance_nodes > 0, "{name} {options:?}");
    }
}

// ----- regatta: the contract points ---------------------------------------------------------

fn regatta(players: usize, pace_boat: bool) -> std::sync::Arc<dyn DynGame> {
    let options = serde_json::json!({"players": players, "pace_boat": pace_boat});
    load("regatta", options.as_object().unwrap()).unwrap()
}

#[test]
fn regatta_solo_seat_against_the_pace_boat_gets_plus_or_minus_one() {
    let game = regatta(1, true);
    let mut v = game.vector(VectorConfig { num_games: 16, seed: 8, ..Default::default() }).unwrap();
    let mut b = buffers(&*v);
    v.write(b.outputs()).unwrap();
    let mut rng = rng_from_seed(1);
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..400 {
        assert!(b.current_player.iter().all(|&p| p == 0));
        let a = random_actions(&*v, &b, &mut rng);
        v.step(&a, b.outputs()).unwrap();
        for i in 0..16 {
            if b.terminated[i] {
                match b.returns[i] {
                    1.0 => wins += 1,
                    -1.0 => losses += 1,
                    r => panic!("a solo return of {r}"),
                }
            }
        }
    }
    assert!(wins > 0 && losses > 0, "{wins} wins, {losses} losses");
}

#[test]
fn regatta_from_one_to_five_seats_with_agents_on_every_other_seat() {
    for players in 1..=5 {
        for pace_boat in [false, true] {
            if players == 1 && !pace_boat {
                continue;
            }
            let game = regatta(players, pace_boat);
            for seat in 0..players {
                let agents = (0..players).map(|p| (p != seat).then_some(AgentSpec::Greedy)).collect();
                let mut v = game.vector(VectorConfig { num_games: 4, seed: seat as u64, agents, ..Default::default() }).unwrap();
                let mut b = buffers(&*v);
                v.write(b.outputs()).unwrap();
                let mut rng = rng_from_seed(2);
                let mut ended = 0;
                for _ in 0..60 {
                    assert!(b.current_player.iter().all(|&p| p == seat as i32));
                    let a = random_actions(&*v, &b, &mut rng);
                    ended += v.step(&a, b.outputs()).unwrap();
                    for i in 0..4 {
                        let r = &b.returns[i * players..(i + 1) * players];
                        assert!(r.iter().all(|x| (-1.0..=1.0).contains(x)));
                        if b.terminated[i] && !pace_boat && players > 1 {
                            assert!(r.iter().sum::<f64>().abs() < 1e-9, "zero-sum without the pace boat");
                        }
                    }
                }
                assert!(ended > 0, "{players} seats, seat {seat}");
            }
        }
    }
}

#[test]
fn regatta_secret_settings_stay_hidden_in_the_batch_observations() {
    // Seat 0 sets its sails; seat 1's observation must be the same whatever seat 0 chose.
    let game = regatta(3, false);
    let mut seen = Vec::new();
    for choice in 0..3i64 {
        let mut v = game.vector(VectorConfig { num_games: 2, seed: 4, ..Default::default() }).unwrap();
        let mut b = buffers(&*v);
        v.write(b.outputs()).unwrap();
        assert_eq!(b.current_player, [0, 0]);
        v.step(&[choice, choice], b.outputs()).unwrap();
        assert_eq!(b.current_player, [1, 1]);
        let mut to_move = vec![0.0; 2 * v.row_sizes().observation];
        let mut seat1 = to_move.clone();
        v.observe(None, &mut to_move).unwrap();
        v.observe(Some(1), &mut seat1).unwrap();
        assert_eq!(to_move, seat1);
        seen.push(seat1);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
}

// ----- North Wind -----------------------------------------------------------------------------

#[test]
fn north_wind_against_built_in_agents_ends_games_with_returns_in_bounds() {
    let options = serde_json::json!({"players": 3});
    let game = load("north-wind", options.as_object().unwrap()).unwrap();
    let spec = game.spec().clone();
    let agents = vec![None, Some(AgentSpec::Greedy), Some(AgentSpec::Random)];
    let mut v = game.vector(VectorConfig { num_games: 16, seed: 2, agents, threads: 2, ..Default::default() }).unwrap();
    let mut b = buffers(&*v);
    v.write(b.outputs()).unwrap();
    let mut rng = rng_from_seed(9);
    let mut ended = 0;
    while ended < 16 {
        assert!(b.current_player.iter().all(|&p| p == 0));
        let a = random_actions(&*v, &b, &mut rng);
        ended += v.step(&a, b.outputs()).unwrap();
        for i in 0..16 {
            if b.terminated[i] || b.truncated[i] {
                let r = &b.returns[3 * i..3 * i + 3];
                assert!(r.iter().all(|&x| x >= spec.min_return && x <= spec.max_return));
                if spec.zero_sum {
                    assert!(r.iter().sum::<f64>().abs() < 1e-9);
                }
            }
        }
    }
    let mut e = vec![0; 16];
    v.episodes(&mut e);
    assert_eq!(e.iter().sum::<u64>(), ended as u64);
    assert!(b.current_player.iter().all(|&p| p != TERMINAL));
}
