//! The rollout loop makes no heap allocation per step, and the loop `simulate` runs
//! (`play_game` with random agents, through the type-erased game the Python API and the CLI
//! use) allocates per game, never per step: one counting allocator proves both, for
//! `random_rollout` and for `simulate`, on every registered game and configuration.

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
        let mut buf = Vec::with_capacity(64);
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
