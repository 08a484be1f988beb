//! A fixed workload for profilers: the engine's `simulate` (the loop behind `tw.simulate`)
//! for Norsewind, `GAMES` random games on one thread, seed 1, with `PLAYERS` players (1: the
//! solo game, at `LEVEL`). Instructions per decision under callgrind are the difference
//! between a run of N games and a run of none, divided by the decisions printed
//! (docs/performance.md, "Norsewind's hot paths"; each round in docs/dev/performance-history.md):
//!
//! ```text
//! CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
//!     cargo build --release --example profile_norsewind
//! valgrind --tool=callgrind target/release/examples/profile_norsewind 1000 2
//! valgrind --tool=callgrind target/release/examples/profile_norsewind 0 2
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```
//!
//! A fourth argument holds words separated by commas: `free` (the free-start variant),
//! `tiles` (random kingdom tiles) and `digest`, which also prints a digest of every game's
//! result (scores, winners, moves, decisions, category points, the Vikings' scores and
//! wins, truncations and the tier), to check that a change plays exactly the same games:
//! `profile_norsewind 20000 2 1 free,digest`.

use tradewinds::engine::prelude::*;
use tradewinds::engine::{simulate, Result};
use tradewinds::games::norsewind::Norsewind;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let games = number(0, 1000) as usize;
    let players = number(1, 2);
    let level = number(2, 1);
    let variant = args.get(3).map(String::as_str).unwrap_or("");
    let mut options = serde_json::json!({ "players": players });
    if players == 1 {
        options["level"] = level.into();
    }
    if variant.contains("free") {
        options["free_start"] = true.into();
    }
    if variant.contains("tiles") {
        options["random_kingdom_tiles"] = true.into();
    }
    let game = Norsewind::load(options.as_object().expect("an object"))?;
    let r = simulate(&game, games, 1, 1, None)?;
    let decisions: u64 = r.decisions.iter().sum();
    if variant.contains("digest") {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x100_0000_01b3);
        };
        r.scores.iter().chain(&r.category_points).chain(&r.opponent_scores).for_each(|x| mix(x.to_bits()));
        r.winners.iter().chain(&r.opponent_wins).chain(&r.truncated).for_each(|&w| mix(w as u64));
        r.moves.iter().chain(&r.decisions).for_each(|&m| mix(m));
        r.tier.iter().for_each(|&t| mix(t as u64));
        println!("digest {h:016x}");
    }
    println!("{decisions} decisions in {games} games");
    Ok(())
}
