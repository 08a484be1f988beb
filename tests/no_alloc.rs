//! The rollout loop makes no heap allocation per step: a counting allocator proves it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value};
use tradewinds::engine::rng::rng_from_seed;
use tradewinds::engine::{random_rollout, Game};
use tradewinds::games::north_wind::NorthWind;

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn random_rollouts_do_not_allocate() {
    for players in 2..=4 {
        let mut o = Map::new();
        o.insert("players".into(), Value::from(players));
        let game = NorthWind::new(&o).unwrap();
        let mut buf = Vec::with_capacity(64);
        let mut states: Vec<_> = (0..50).map(|_| game.initial_state()).collect();
        let mut rng = rng_from_seed(players as u64);
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        let mut decisions = 0;
        for s in states.iter_mut() {
            decisions += random_rollout(&game, s, &mut rng, &mut buf);
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert!(decisions > 10_000, "{decisions}");
        assert_eq!(after - before, 0, "{players} players: {} allocations in {decisions} decisions", after - before);
    }
}
