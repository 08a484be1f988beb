//! The rollout loop makes no heap allocation per step, a clone of a game's state none at all,
//! and the loop `simulate` runs
//! (`play_game` with random agents, through the type-erased game the Python API and the CLI
//! use) allocates per game, never per step: one counting allocator proves both, for
//! `random_rollout` and for `simulate`, on every registered game and configuration.
//!
//! The batched step (`engine::vector`, behind `tw.VectorGame`) is held to the same rule
//! through the type-erased vector game the bindings use, in every configuration, with the
//! caller playing every seat or seat 0 against random agents, with chance resolved inside
//! the call or left to the caller, writing the legal actions both as a mask and as lists
//! (the lists of a thread pool's ranges are joined in place): a call in which no game ends
//! allocates nothing at all (the step, the agents, the restart bookkeeping and the
//! observations of the seats to act), and a game's end costs only what the game's `returns` costs. On a thread pool the only
//! allocations are rayon's job queue's, one block per 63 jobs handed to it, whatever the
//! number of games.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value};
use tradewinds::engine::rng::rng_from_seed;
use tradewinds::engine::{random_rollout, GameDefinition};
use tradewinds::games::{all_configurations, load, registered, visit, Visitor};

struct Counting;
/// Allocations by every thread (simulate plays on its own thread pool).
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Allocations by this thread alone (the test harness allocates on other threads).
    static MINE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count_one() {
    ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    let _ = MINE.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The counter is global: the tests of this binary take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Plays 50 random rollouts of one configuration and returns (allocations, decisions).
struct Rollouts<'a>(&'a Map<String, Value>);

impl Visitor for Rollouts<'_> {
    type Output = (usize, u64);
    fn visit<G: GameDefinition>(self) -> Self::Output {
        let game = G::load(self.0).expect("a listed configuration loads");
        // Room for every action id: a legal list never grows the caller's buffer.
        let mut buf = Vec::with_capacity(game.spec().num_distinct_actions.max(game.spec().max_chance_outcomes));
        let mut states: Vec<_> = (0..50).map(|_| game.initial_state()).collect();
        let mut rng = rng_from_seed(7);
        let before = MINE.with(|c| c.get());
        let mut decisions = 0;
        for s in states.iter_mut() {
            decisions += random_rollout(&game, s, &mut rng, &mut buf);
        }
        (MINE.with(|c| c.get()) - before, decisions)
    }
}

#[test]
fn random_rollouts_do_not_allocate() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in registered() {
        for options in all_configurations(name) {
            let (allocations, decisions) = visit(name, Rollouts(&options)).expect("registered");
            assert!(decisions > 50, "{name} {options:?}: {decisions}");
            assert_eq!(allocations, 0, "{name} {options:?}: {allocations} allocations in {decisions} decisions");
        }
    }
}

/// Plays 20 random games of one configuration step by step, cloning the game's state at every
/// step, and returns (allocations made by the clones, clones).
struct Clones<'a>(&'a Map<String, Value>);

impl Visitor for Clones<'_> {
    type Output = (usize, u64);
    fn visit<G: GameDefinition>(self) -> Self::Output {
        use tradewinds::engine::rng::below;
        use tradewinds::engine::Actor;
        let game = G::load(self.0).expect("a listed configuration loads");
        let mut buf = Vec::with_capacity(game.spec().num_distinct_actions.max(game.spec().max_chance_outcomes));
        let mut rng = rng_from_seed(11);
        let (mut allocations, mut clones) = (0, 0);
        for _ in 0..20 {
            let mut state = game.initial_state();
            loop {
                let before = MINE.with(|c| c.get());
                let copy = std::hint::black_box(state.clone());
                allocations += MINE.with(|c| c.get()) - before;
                clones += 1;
                drop(copy);
                let action = match game.actor(&state) {
                    Actor::Terminal => break,
                    Actor::Chance => game.sample_chance(&state, &mut rng),
                    Actor::Player(_) => {
                        game.legal_actions(&state, &mut buf);
                        buf[below(&mut rng, buf.len() as u32) as usize]
                    }
                };
                game.apply(&mut state, action);
            }
        }
        (allocations, clones)
    }
}

/// A clone of a game's state (what search clones at every node) allocates nothing, at every
/// step of random games, in every registered configuration.
#[test]
fn cloning_a_game_state_does_not_allocate() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in registered() {
        for options in all_configurations(name) {
            let (allocations, clones) = visit(name, Clones(&options)).expect("registered");
            assert!(clones > 100, "{name} {options:?}: {clones}");
            assert_eq!(allocations, 0, "{name} {options:?}: {allocations} allocations in {clones} clones");
        }
    }
}

/// Allocations made by one-thread simulation of `games` games, and the steps played.
fn count(game: &dyn tradewinds::engine::DynGame, games: usize) -> (usize, u64) {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let r = game.simulate(&[], 0, games, 1, 1, None).expect("simulate runs");
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    let steps = r.moves.iter().sum();
    drop(r);
    (after - before, steps)
}

/// Games per run: whole chunks of `simulate`, so both runs have the same per-chunk costs.
const GAMES_PER_RUN: usize = tradewinds::engine::simulate::CHUNK;
/// A bound on allocations per game (the game's records: scores, winners, score report).
const PER_GAME_BOUND: usize = 64;

#[test]
fn simulate_allocates_per_game_not_per_step() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in registered() {
        for options in all_configurations(name) {
            let game = load(name, &options).expect("a listed configuration loads");
            count(&*game, 1); // first-use costs (thread-local state) out of the way
            let (small, _) = count(&*game, GAMES_PER_RUN);
            let (large, steps) = count(&*game, 2 * GAMES_PER_RUN);
            // The second run plays the first run's games and as many more; what it
            // allocates beyond the first run is what those extra games cost.
            let extra = large.saturating_sub(small);
            let per_game = extra as f64 / GAMES_PER_RUN as f64;
            let steps_per_game = steps as f64 / (2 * GAMES_PER_RUN) as f64;
            eprintln!("{name} {options:?}: {per_game:.1} allocations per game of {steps_per_game:.0} steps");
            assert!(
                per_game <= PER_GAME_BOUND as f64,
                "{name} {options:?}: {per_game:.1} allocations per game ({steps_per_game:.0} steps per game): \
                 the simulation loop allocates per step"
            );
        }
    }
}

/// What counting allocations over the steps of a vector game found.
#[derive(Debug, Default)]
struct VectorCount {
    /// Calls in which no game ended, and the allocations made in them.
    quiet_calls: usize,
    quiet_allocations: usize,
    /// Games that ended, and the allocations made in the calls they ended in.
    ended: usize,
    ending_allocations: usize,
    /// Decisions of the caller's seats.
    decisions: usize,
}

/// A uniformly random legal action of every game into `actions`, from the mask, or at an
/// explicit chance node a uniformly random possible outcome, without allocating (`-1` where
/// nothing is possible).
fn pick(b: &tradewinds::engine::VectorBuffers, sizes: tradewinds::engine::vector::RowSizes, rng: &mut tradewinds::engine::Rng, actions: &mut [i64]) {
    fn kth(rng: &mut tradewinds::engine::Rng, possible: impl Iterator<Item = bool> + Clone) -> i64 {
        let count = possible.clone().filter(|&m| m).count();
        if count == 0 {
            return -1;
        }
        let k = tradewinds::engine::rng::below(rng, count as u32) as usize;
        possible.enumerate().filter(|&(_, m)| m).nth(k).map_or(-1, |(x, _)| x as i64)
    }
    for (i, a) in actions.iter_mut().enumerate() {
        *a = if b.current_player[i] == tradewinds::engine::CHANCE {
            kth(rng, b.chance_probabilities[i * sizes.chance..(i + 1) * sizes.chance].iter().map(|&p| p > 0.0))
        } else {
            kth(rng, b.legal_mask[i * sizes.actions..(i + 1) * sizes.actions].iter().copied())
        };
    }
}

/// Steps a vector game of `games` games `calls` times after a warm-up (each call also writes
/// the observations of the seats to act), counting allocations per call: on this thread
/// alone (`threads` 1), or on every thread (a pool of `threads`).
fn count_vector(
    game: &dyn tradewinds::engine::DynGame,
    config: tradewinds::engine::VectorConfig,
    calls: usize,
) -> VectorCount {
    let threads = config.threads;
    let mut v = game.vector(config).expect("a vector game builds");
    let sizes = v.row_sizes();
    let n = v.num_games();
    let mut b = tradewinds::engine::VectorBuffers::new(n, sizes);
    let mut obs = vec![0.0f32; n * sizes.observation];
    let mut actions = vec![0i64; n];
    let mut rng = rng_from_seed(3);
    v.write(b.outputs()).expect("outputs fit");
    let counter = || if threads == 1 { MINE.with(|c| c.get()) } else { ALLOCATIONS.load(Ordering::SeqCst) };
    let mut count = VectorCount::default();
    for call in 0..calls + 200 {
        pick(&b, sizes, &mut rng, &mut actions);
        let decisions = (0..n).filter(|&i| actions[i] >= 0 && b.current_player[i] >= 0).count();
        let before = counter();
        let ended = v.step(&actions, b.outputs()).expect("legal actions");
        v.observe(None, &mut obs).expect("outputs fit");
        let allocations = counter() - before;
        if call < 200 {
            continue; // warm-up: every game's agents have sized their scratch, the pool is up
        }
        count.decisions += decisions;
        if ended == 0 {
            count.quiet_calls += 1;
            count.quiet_allocations += allocations;
        } else {
            count.ended += ended;
            count.ending_allocations += allocations;
        }
    }
    count
}

/// A bound on the allocations of a game's end: what the game's `returns` costs (the default
/// builds the list of winners).
const PER_ENDED_GAME_BOUND: usize = 4;

#[test]
fn vector_steps_do_not_allocate() {
    use tradewinds::engine::{AgentSpec, LegalOutput, VectorConfig};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in registered() {
        for options in all_configurations(name) {
            let game = load(name, &options).expect("a listed configuration loads");
            let players = game.spec().players;
            let random_others: Vec<Option<AgentSpec>> =
                (0..players).map(|p| (p > 0).then_some(AgentSpec::Random)).collect();
            for agents in [Vec::new(), random_others] {
                for explicit_chance in [false, true] {
                    let config = VectorConfig {
                        num_games: 8,
                        seed: 1,
                        agents: agents.clone(),
                        explicit_chance,
                        legal: LegalOutput::Both,
                        ..Default::default()
                    };
                    let c = count_vector(&*game, config, 1500);
                    eprintln!("{name} {options:?} agents {agents:?} explicit chance {explicit_chance}: {c:?}");
                    assert!(c.quiet_calls > 100 && c.decisions > 1000, "{name} {options:?}: {c:?}");
                    assert_eq!(c.quiet_allocations, 0, "{name} {options:?}: a vector step allocates ({c:?})");
                    assert!(
                        c.ending_allocations <= PER_ENDED_GAME_BOUND * c.ended,
                        "{name} {options:?}: the end of a game allocates more than its returns may ({c:?})"
                    );
                }
            }
        }
    }
}

#[test]
fn vector_steps_on_a_thread_pool_allocate_nothing_per_game() {
    use tradewinds::engine::{LegalOutput, VectorConfig};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in registered() {
        for options in all_configurations(name) {
            let game = load(name, &options).expect("a listed configuration loads");
            let config = VectorConfig { num_games: 512, seed: 1, threads: 2, legal: LegalOutput::Both, ..Default::default() };
            let c = count_vector(&*game, config, 300);
            eprintln!("{name} {options:?} on 2 threads: {c:?}");
            // Each call hands the pool two jobs (the step, the observations); rayon's job queue
            // allocates a block for every 63 jobs it is handed, whatever the games do.
            assert!(
                c.quiet_allocations <= 2 * c.quiet_calls / 32 + 1,
                "{name} {options:?}: more allocations than the thread pool's job queue makes ({c:?})"
            );
        }
    }
}
