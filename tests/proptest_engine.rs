//! Property tests over every registered game and configuration: random sequences of
//! operations (legal and arbitrary actions, action names, clones, JSON and binary round
//! trips, resamples) with the invariants of `harness::invariants` (the conformance
//! invariants) checked after every step. Proptest shrinks a failure to a short sequence.

use proptest::prelude::*;
use tradewinds::harness::configurations::registry;
use tradewinds::harness::invariants::{check_apply, check_apply_text, check_state, play_random, random_legal};
use tradewinds::engine::rng::rng_from_seed;
use tradewinds::engine::{DynGame, DynState, EngineError};

#[derive(Debug, Clone)]
enum Op {
    /// The legal action at this index (modulo the number of legal actions).
    Legal(u16),
    /// Any action id.
    Raw(u32),
    /// An id near the node's action space (legal or not).
    Near(u8),
    /// A legal action by its name (in upper case when the flag is set).
    Name(u16, bool),
    /// Random legal moves, seeded.
    Forward(u8, u64),
    /// All the heavy checks now.
    Heavy,
    /// Continue from the state reloaded from its JSON (true) or binary (false) save.
    Reload(bool),
    /// Continue from a resample for this player (modulo the player count, plus one out of
    /// range), seeded.
    Resample(u8, u64),
    /// Apply a legal action to a clone: the original must not change; continue from the clone.
    Clone(u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        40 => any::<u16>().prop_map(Op::Legal),
        6 => any::<u32>().prop_map(Op::Raw),
        8 => any::<u8>().prop_map(Op::Near),
        6 => (any::<u16>(), any::<bool>()).prop_map(|(i, up)| Op::Name(i, up)),
        6 => (any::<u8>(), any::<u64>()).prop_map(|(k, s)| Op::Forward(k, s)),
        2 => Just(Op::Heavy),
        3 => any::<bool>().prop_map(Op::Reload),
        3 => (any::<u8>(), any::<u64>()).prop_map(|(p, s)| Op::Resample(p, s)),
        3 => any::<u16>().prop_map(Op::Clone),
    ]
}

fn entry_index() -> impl Strategy<Value = usize> {
    0..registry().len()
}

fn run_ops(index: usize, seed: u64, explicit: bool, ops: &[Op]) -> Result<(), String> {
    let entry = &registry()[index];
    let game: &dyn DynGame = &*entry.game;
    let spec = game.spec().clone();
    let mut state = game.new_state(seed, explicit);
    check_state(game, &*state, true, seed)?;
    for (step, op) in ops.iter().enumerate() {
        let ctx = |e: String| format!("{} {:?} step {step} {op:?}: {e}", entry.name, entry.options);
        let heavy = step % 16 == 15;
        match *op {
            Op::Legal(i) => {
                let legal = state.legal_actions();
                let a = if legal.is_empty() { i as u32 } else { legal[i as usize % legal.len()] };
                check_apply(game, &mut state, a, heavy, seed).map_err(ctx)?;
            }
            Op::Raw(a) => {
                check_apply(game, &mut state, a, heavy, seed).map_err(ctx)?;
            }
            Op::Near(k) => {
                let space = if state.is_chance() { spec.max_chance_outcomes } else { spec.num_distinct_actions };
                check_apply(game, &mut state, (k as usize % (space + 3)) as u32, heavy, seed).map_err(ctx)?;
            }
            Op::Name(i, upper) => {
                let legal = state.legal_actions();
                if legal.is_empty() {
                    let accepted = check_apply_text(game, &mut state, "pass", heavy, seed).map_err(ctx)?;
                    prop_assert_ok(!accepted, || ctx("a terminal state accepted a named action".into()))?;
                } else {
                    let name = state.action_to_string(legal[i as usize % legal.len()]);
                    let text = if upper { name.to_uppercase() } else { name };
                    let accepted = check_apply_text(game, &mut state, &text, heavy, seed).map_err(ctx)?;
                    prop_assert_ok(accepted, || ctx(format!("the legal action named {text:?} was not applied")))?;
                }
            }
            Op::Forward(k, s) => {
                play_random(game, &mut state, k as usize, &mut rng_from_seed(s), 1, 32).map_err(ctx)?;
            }
            Op::Heavy => check_state(game, &*state, true, step as u64).map_err(ctx)?,
            Op::Reload(json) => {
                let back = if json { game.state_from_json(&state.to_json()) } else { game.state_from_bytes(&state.to_bytes()) }
                    .map_err(|e| ctx(e.to_string()))?;
                prop_assert_ok(back.equals(&*state), || ctx("a round trip changed the state".into()))?;
                state = back;
            }
            Op::Resample(p, s) => {
                let p = p as usize % (spec.players + 1);
                match state.resample(p, s) {
                    Ok(r) => {
                        prop_assert_ok(p < spec.players, || ctx(format!("resample for player {p} accepted")))?;
                        let seen = state.observation_string(p).map_err(|e| e.to_string())?;
                        prop_assert_ok(r.observation_string(p).map_err(|e| e.to_string())? == seen, || {
                            ctx(format!("resampling changed what player {p} sees"))
                        })?;
                        check_state(game, &*r, heavy, s).map_err(ctx)?;
                        state = r;
                    }
                    Err(EngineError::InvalidRequest(_)) if p == spec.players => {}
                    Err(e) => return Err(ctx(format!("resample for {p}: {e}"))),
                }
            }
            Op::Clone(i) => {
                let before = state.to_json();
                let mut copy: Box<dyn DynState> = state.clone_box();
                let legal = copy.legal_actions();
                if !legal.is_empty() {
                    check_apply(game, &mut copy, legal[i as usize % legal.len()], heavy, seed).map_err(ctx)?;
                    prop_assert_ok(state.to_json() == before, || ctx("applying to a clone changed the original".into()))?;
                    state = copy;
                }
            }
        }
    }
    Ok(())
}

fn prop_assert_ok(cond: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(message())
    }
}

/// A state of configuration `index` after `moves` random legal moves.
fn reached(index: usize, seed: u64, explicit: bool, moves: u16) -> Box<dyn DynState> {
    let game = &*registry()[index].game;
    let mut state = game.new_state(seed, explicit);
    let mut rng = rng_from_seed(seed.rotate_left(17));
    for _ in 0..moves {
        match random_legal(&*state, &mut rng) {
            Some(a) => state.apply(a).unwrap(),
            None => break,
        }
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_operation_sequences_keep_the_invariants(
        index in entry_index(),
        seed in any::<u64>(),
        explicit in any::<bool>(),
        ops in prop::collection::vec(op(), 0..160),
    ) {
        if let Err(e) = run_ops(index, seed, explicit, &ops) {
            return Err(TestCaseError::fail(e));
        }
    }

    #[test]
    fn saves_round_trip_exactly(
        index in entry_index(), seed in any::<u64>(), explicit in any::<bool>(), moves in 0u16..1500,
    ) {
        let game = &*registry()[index].game;
        let state = reached(index, seed, explicit, moves);
        let json = state.to_json();
        let from_json = game.state_from_json(&json).unwrap();
        prop_assert!(from_json.equals(&*state));
        prop_assert_eq!(from_json.to_json(), json);
        let bytes = state.to_bytes();
        let from_bytes = game.state_from_bytes(&bytes).unwrap();
        prop_assert!(from_bytes.equals(&*state));
        prop_assert_eq!(from_bytes.to_bytes(), bytes);
    }

    #[test]
    fn the_same_seed_and_actions_give_the_same_game(
        index in entry_index(), seed in any::<u64>(), explicit in any::<bool>(), moves in 0u16..800,
    ) {
        let a = reached(index, seed, explicit, moves);
        // Replaying the recorded moves (decisions and chance outcomes) on a fresh state with
        // explicit chance reaches the same position: the same whole table, the same node,
        // and the same view for every player.
        let game = &*registry()[index].game;
        let mut replay = game.new_state(seed, true);
        for &x in &a.history() {
            replay.apply(x).unwrap();
        }
        prop_assert_eq!(replay.move_number(), a.move_number());
        prop_assert_eq!(replay.render(), a.render());
        prop_assert_eq!(replay.public_string(), a.public_string());
        prop_assert_eq!(replay.current_player(), a.current_player());
        prop_assert_eq!(replay.is_terminal(), a.is_terminal());
        prop_assert_eq!(replay.legal_actions(), a.legal_actions());
        prop_assert_eq!(replay.returns(), a.returns());
        for p in 0..game.spec().players {
            prop_assert_eq!(replay.observation_string(p).unwrap(), a.observation_string(p).unwrap());
            prop_assert_eq!(replay.observation_tensor(p).unwrap(), a.observation_tensor(p).unwrap());
        }
    }

    #[test]
    fn resampling_keeps_the_players_view_and_validates(
        index in entry_index(), seed in any::<u64>(), moves in 0u16..1500, player in any::<u8>(), rseed in any::<u64>(),
    ) {
        let game = &*registry()[index].game;
        let state = reached(index, seed, false, moves);
        let p = player as usize % game.spec().players;
        let r = state.resample(p, rseed).unwrap();
        prop_assert_eq!(r.observation_string(p).unwrap(), state.observation_string(p).unwrap());
        prop_assert_eq!(r.observation_tensor(p).unwrap(), state.observation_tensor(p).unwrap());
        prop_assert_eq!(r.current_player(), state.current_player());
        if state.current_player() == p as i32 {
            // What p may do depends only on what p knows.
            prop_assert_eq!(r.legal_actions(), state.legal_actions());
        }
        // The same seed gives the same resample.
        prop_assert!(state.resample(p, rseed).unwrap().equals(&*r));
        check_state(game, &*r, true, rseed).map_err(TestCaseError::fail)?;
    }
}
