//! Native benchmark for every game of `tradewinds::games::GAMES` in every configuration of
//! `tradewinds::games::all_configurations` (each player count and mode):
//!
//! * rollouts on one core: `engine::random_rollout` (one RNG, no per-game bookkeeping) in
//!   games/s, decisions/s and steps/s;
//! * the bulk simulator `engine::simulate` (the loop `tw.simulate` runs: `play_game` with
//!   random agents, a score report per game) on one thread and on all cores, and the ratio
//!   all-cores / one-core;
//! * batched stepping (`engine::vector`, behind `tw.VectorGame`): 8,192 games stepped
//!   together, every decision a random legal action chosen in Rust from the mask, on one
//!   thread and on all cores: decisions/s of the time inside the step calls, and the ratio
//!   all-cores / one thread (with the CPU each run got);
//! * the state: `size_of` of the game's state and of the engine's `GameState` (the state
//!   behind a Python `State`), and nanoseconds per clone of each, over positions sampled
//!   along random games.
//!
//! A *decision* is an action chosen by a player; a *step* is any applied action, decisions
//! plus chance outcomes (OpenSpiel's history length).
//!
//! Every figure is the median over the repetitions, with the minimum and maximum beside it.
//! The bench asserts what it computed: every repetition reproduces the checksum (scores,
//! decision and step counts, truncations) of an untimed first pass, and `simulate` gives the
//! same checksum on one thread and on all cores.
//!
//! Run with `cargo bench --bench rollouts`; options after `--`: `--reps N` (default 5),
//! `--games N` (rollout games per repetition, default 2000), `--sim-games N` (games per
//! `simulate` call, default 8192), `--vector-games N` (games of the batched runs, default
//! 8192), `--json` (one JSON object per configuration instead of the table).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Map, Value};
use tradewinds::engine::rng::{below, derive_seed, rng_from_seed};
use tradewinds::engine::prelude::*;
use tradewinds::engine::{random_rollout, simulate, Actor, GameState, SimulationResult, VectorBuffers, VectorConfig, VectorGame};
use tradewinds::games::{all_configurations, visit, Visitor, GAMES};

struct Args {
    reps: usize,
    games: u64,
    sim_games: usize,
    vector_games: usize,
    json: bool,
}

fn parse_args() -> Args {
    let mut a = Args { reps: 5, games: 2000, sim_games: 8192, vector_games: 8192, json: false };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut num = |name: &str| -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| panic!("{name} needs a positive integer"))
        };
        match arg.as_str() {
            "--reps" => a.reps = num("--reps") as usize,
            "--games" => a.games = num("--games"),
            "--sim-games" => a.sim_games = num("--sim-games") as usize,
            "--vector-games" => a.vector_games = num("--vector-games") as usize,
            "--json" => a.json = true,
            // `cargo bench` passes `--bench` to harness-less benches.
            "--bench" => {}
            other => {
                panic!("unknown argument {other:?}; use --reps N, --games N, --sim-games N, --vector-games N, --json")
            }
        }
    }
    a
}

/// Median, minimum and maximum.
#[derive(Clone, Copy)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

fn spread(mut v: Vec<f64>) -> Spread {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    Spread { median, min: v[0], max: v[n - 1] }
}

impl Spread {
    fn json(&self) -> Value {
        json!({"median": self.median, "min": self.min, "max": self.max})
    }
    fn text(&self, unit: &str) -> String {
        format!("{} {unit} ({}–{})", si(self.median), si(self.min), si(self.max))
    }
}

/// A rate with three significant digits and an SI prefix.
fn si(x: f64) -> String {
    let (v, p) = if x >= 1e9 {
        (x / 1e9, "G")
    } else if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let digits = if v >= 100.0 { 0 } else if v >= 10.0 { 1 } else { 2 };
    format!("{v:.digits$}{p}")
}

/// What a set of games added up to: the checksum every timed repetition must reproduce.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Tally {
    checksum: f64,
    decisions: u64,
    steps: u64,
    truncated: u64,
}

fn score_checksum<G: Game>(game: &G, state: &G::State, scores: &mut [f64]) -> f64 {
    game.scores(state, scores);
    scores.iter().enumerate().map(|(p, s)| (p as f64 + 1.0) * s).sum()
}

/// The untimed pass: `random_rollout`'s loop, spelled out to count the chance steps too
/// (it draws from the RNG in the same order, so the timed runs must agree with it).
fn counted_rollouts<G: Game>(game: &G, games: u64) -> Tally {
    let mut buf = Vec::with_capacity(64);
    let mut scores = vec![0.0; game.spec().players];
    let mut t = Tally { checksum: 0.0, decisions: 0, steps: 0, truncated: 0 };
    for i in 0..games {
        let mut rng = rng_from_seed(derive_seed(1, i));
        let mut state = game.initial_state();
        loop {
            match game.actor(&state) {
                Actor::Terminal => break,
                Actor::Chance => {
                    let a = game.sample_chance(&state, &mut rng);
                    game.apply(&mut state, a);
                }
                Actor::Player(_) => {
                    game.legal_actions(&state, &mut buf);
                    let a = buf[below(&mut rng, buf.len() as u32) as usize];
                    game.apply(&mut state, a);
                    t.decisions += 1;
                }
            }
            t.steps += 1;
        }
        t.checksum += score_checksum(game, &state, &mut scores);
        t.truncated += game.is_truncated(&state) as u64;
    }
    t
}

/// One timed repetition of `games` random rollouts through `random_rollout`; returns the
/// seconds taken and asserts the untimed pass's checksum, decision count and truncations.
fn timed_rollouts<G: Game>(game: &G, games: u64, expected: &Tally) -> f64 {
    let mut buf = Vec::with_capacity(64);
    let mut scores = vec![0.0; game.spec().players];
    let start = Instant::now();
    let mut decisions = 0u64;
    let mut checksum = 0f64;
    let mut truncated = 0u64;
    for i in 0..games {
        let mut rng = rng_from_seed(derive_seed(1, i));
        let mut state = game.initial_state();
        decisions += random_rollout(game, &mut state, &mut rng, &mut buf);
        checksum += score_checksum(game, &state, &mut scores);
        truncated += game.is_truncated(&state) as u64;
    }
    let t = start.elapsed().as_secs_f64();
    let got = Tally { checksum, decisions, steps: expected.steps, truncated };
    assert_eq!(&got, expected, "random rollouts are not reproducible");
    t
}

fn sim_tally(r: &SimulationResult) -> Tally {
    let p = r.players;
    let checksum = r
        .scores
        .chunks(p)
        .map(|row| row.iter().enumerate().map(|(q, s)| (q as f64 + 1.0) * s).sum::<f64>())
        .sum::<f64>()
        + r.category_points.iter().sum::<f64>()
        + r.winners.iter().enumerate().filter(|(_, &w)| w).map(|(i, _)| (i % p) as f64).sum::<f64>();
    Tally {
        checksum,
        decisions: r.decisions.iter().sum(),
        steps: r.moves.iter().sum(),
        truncated: r.truncated.iter().filter(|&&t| t).count() as u64,
    }
}

/// CPU seconds this process has used, all threads (Linux; `None` elsewhere). Read from
/// `/proc/self/stat` in clock ticks of 1/100 s (Linux's fixed `USER_HZ`).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// One timed `simulate` call (from the call to its return, thread-pool start included).
struct SimRun {
    seconds: f64,
    threads: usize,
    /// CPU time / wall time: the cores the run actually got (NaN when unknown).
    cores: f64,
}

fn timed_simulate<G: Game>(game: &G, games: usize, threads: usize, expected: &Tally) -> SimRun {
    let cpu = process_cpu_seconds();
    let start = Instant::now();
    let r = simulate(game, games, 2, threads, None).expect("simulate runs");
    let seconds = start.elapsed().as_secs_f64();
    let cores = match (cpu, process_cpu_seconds()) {
        (Some(a), Some(b)) => (b - a) / seconds,
        _ => f64::NAN,
    };
    assert_eq!(&sim_tally(&r), expected, "simulate on {threads} threads (0 = all) gave other games");
    SimRun { seconds, threads: r.threads, cores }
}

/// A uniformly random legal action of every game into `actions`, from the mask.
fn pick_from_mask(b: &VectorBuffers, width: usize, rng: &mut tradewinds::engine::Rng, actions: &mut [i64]) {
    for (i, a) in actions.iter_mut().enumerate() {
        let row = &b.legal_mask[i * width..(i + 1) * width];
        let k = below(rng, row.iter().filter(|&&m| m).count() as u32) as usize;
        *a = row.iter().enumerate().filter(|(_, &m)| m).nth(k).map_or(-1, |(x, _)| x as i64);
    }
}

/// One batched run: `steps` steps of `games` games on `threads` threads (0 = all cores).
struct VectorRun {
    /// Seconds inside the step calls (choosing the actions, on the calling thread, is not
    /// counted).
    inside: f64,
    /// CPU time / wall time over the whole run: the cores it got (NaN when unknown).
    cores: f64,
    threads: usize,
    /// Every output of every step, folded: the same whatever the thread count.
    checksum: u64,
}

fn timed_vector<G: Game>(game: &Arc<G>, games: usize, steps: usize, threads: usize) -> VectorRun {
    let config = VectorConfig { num_games: games, seed: 3, threads, ..VectorConfig::default() };
    let mut v = VectorGame::new(Arc::clone(game), config).expect("a vector game");
    let mut b = v.buffers();
    v.write(b.outputs()).expect("outputs fit");
    let width = v.row_sizes().actions;
    let mut actions = vec![0i64; games];
    let mut rng = rng_from_seed(5);
    let mut checksum = 0u64;
    let mut inside = 0.0;
    let cpu = process_cpu_seconds();
    let start = Instant::now();
    for _ in 0..steps {
        pick_from_mask(&b, width, &mut rng, &mut actions);
        let t = Instant::now();
        let ended = v.step(&actions, b.outputs()).expect("legal actions");
        inside += t.elapsed().as_secs_f64();
        checksum = checksum.wrapping_mul(0x100_0000_01B3).wrapping_add(ended as u64);
        for (i, r) in b.returns.iter().enumerate() {
            checksum ^= r.to_bits().rotate_left(i as u32 % 64);
        }
    }
    for &p in &b.current_player {
        checksum = checksum.wrapping_mul(31).wrapping_add(p as u64);
    }
    let wall = start.elapsed().as_secs_f64();
    let cores = match (cpu, process_cpu_seconds()) {
        (Some(a), Some(b)) => (b - a) / wall,
        _ => f64::NAN,
    };
    VectorRun { inside, cores, threads: v.threads(), checksum }
}

/// Positions sampled along random games: every `every`-th state of `games` games.
fn sample_positions<G: Game>(game: &Arc<G>, games: u64, every: u64) -> Vec<GameState<G>> {
    let mut out = Vec::new();
    for i in 0..games {
        let mut s = GameState::new(Arc::clone(game), derive_seed(7, i), false);
        let mut rng = rng_from_seed(derive_seed(8, i));
        let mut k = 0u64;
        while !s.is_terminal() {
            if k % every == 0 {
                out.push(s.clone());
            }
            let legal = s.legal_actions();
            s.apply(legal[below(&mut rng, legal.len() as u32) as usize]).expect("a legal action");
            k += 1;
        }
    }
    out
}

/// Nanoseconds per clone over the sampled positions (each cloned `rounds` times).
fn clone_ns<T: Clone>(items: &[T], rounds: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..rounds {
        for x in items {
            black_box(black_box(x).clone());
        }
    }
    start.elapsed().as_secs_f64() * 1e9 / (rounds * items.len()) as f64
}

fn run<G: Game>(label: &str, game: G, args: &Args) -> Value {
    let game = Arc::new(game);
    let g = &*game;

    // Rollouts, one core.
    let expected = counted_rollouts(g, args.games);
    let mut secs = Vec::new();
    for _ in 0..args.reps {
        secs.push(timed_rollouts(g, args.games, &expected));
    }
    let games_s = spread(secs.iter().map(|t| args.games as f64 / t).collect());
    let decisions_s = spread(secs.iter().map(|t| expected.decisions as f64 / t).collect());
    let steps_s = spread(secs.iter().map(|t| expected.steps as f64 / t).collect());

    // Bulk simulation: one thread and all cores, alternating which goes first.
    let first = simulate(g, args.sim_games, 2, 1, None).expect("simulate runs");
    let sim_expected = sim_tally(&first);
    let (mut one, mut all, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let (mut got, mut per_cpu) = (Vec::new(), Vec::new());
    let mut cores = 0;
    for rep in 0..args.reps {
        let (r1, rall);
        if rep % 2 == 0 {
            r1 = timed_simulate(g, args.sim_games, 1, &sim_expected);
            rall = timed_simulate(g, args.sim_games, 0, &sim_expected);
        } else {
            rall = timed_simulate(g, args.sim_games, 0, &sim_expected);
            r1 = timed_simulate(g, args.sim_games, 1, &sim_expected);
        }
        cores = rall.threads;
        one.push(r1.seconds);
        all.push(rall.seconds);
        ratio.push(r1.seconds / rall.seconds);
        got.push(rall.cores / r1.cores);
        per_cpu.push((r1.seconds / rall.seconds) / (rall.cores / r1.cores));
    }
    let n = args.sim_games as f64;
    let sim1_games = spread(one.iter().map(|t| n / t).collect());
    let sim1_decisions = spread(one.iter().map(|t| sim_expected.decisions as f64 / t).collect());
    let sim1_steps = spread(one.iter().map(|t| sim_expected.steps as f64 / t).collect());
    let simall_games = spread(all.iter().map(|t| n / t).collect());
    let simall_decisions = spread(all.iter().map(|t| sim_expected.decisions as f64 / t).collect());
    let scaling = spread(ratio);
    // How many more cores the all-cores runs got than the one-thread runs: on a machine
    // busy with other work this, not the code, can bound the scaling.
    let got_ratio = if got.iter().all(|x| x.is_finite()) { Some((spread(got), spread(per_cpu))) } else { None };

    // Batched stepping: one thread and all cores, alternating which goes first.
    let vector_steps = (1_000_000 / args.vector_games).max(1);
    let vector_decisions = (vector_steps * args.vector_games) as f64;
    let reference = timed_vector(&game, args.vector_games, vector_steps, 1).checksum;
    let (mut v1, mut vall, mut vratio, mut vgot) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut vector_threads = 0;
    for rep in 0..args.reps {
        let (r1, rall) = if rep % 2 == 0 {
            let r1 = timed_vector(&game, args.vector_games, vector_steps, 1);
            (r1, timed_vector(&game, args.vector_games, vector_steps, 0))
        } else {
            let rall = timed_vector(&game, args.vector_games, vector_steps, 0);
            (timed_vector(&game, args.vector_games, vector_steps, 1), rall)
        };
        assert!(r1.checksum == reference && rall.checksum == reference, "batched steps depend on the thread count");
        vector_threads = rall.threads;
        v1.push(vector_decisions / r1.inside);
        vall.push(vector_decisions / rall.inside);
        vratio.push(r1.inside / rall.inside);
        vgot.push(rall.cores / r1.cores);
    }
    let vector_one = spread(v1);
    let vector_all = spread(vall);
    let vector_scaling = spread(vratio);
    let vector_got = if vgot.iter().all(|x| x.is_finite()) { Some(spread(vgot)) } else { None };

    // State size and clone cost.
    let positions = sample_positions(&game, 8, 8);
    let inner: Vec<G::State> = positions.iter().map(|s| s.inner().clone()).collect();
    let mean_history = positions.iter().map(|s| s.history().len()).sum::<usize>() as f64 / positions.len() as f64;
    let rounds = (2_000_000 / inner.len()).max(1);
    let state_clone = spread((0..args.reps).map(|_| clone_ns(&inner, rounds)).collect());
    let wrapper_rounds = (200_000 / positions.len()).max(1);
    let wrapper_clone = spread((0..args.reps).map(|_| clone_ns(&positions, wrapper_rounds)).collect());
    let state_bytes = std::mem::size_of::<G::State>();
    let wrapper_bytes = std::mem::size_of::<GameState<G>>();

    if !args.json {
        let per_game = expected.decisions as f64 / args.games as f64;
        let steps_per_game = expected.steps as f64 / args.games as f64;
        println!("{label}");
        println!(
            "  rollouts, 1 core    {}  {}  {}   ({per_game:.1} decisions, {steps_per_game:.1} steps/game, truncated {}, checksum {})",
            games_s.text("games/s"),
            decisions_s.text("decisions/s"),
            steps_s.text("steps/s"),
            expected.truncated,
            expected.checksum
        );
        println!(
            "  simulate, 1 thread  {}  {}  {}",
            sim1_games.text("games/s"),
            sim1_decisions.text("decisions/s"),
            sim1_steps.text("steps/s")
        );
        let got_text = match got_ratio {
            Some((g, e)) => format!(
                "\n                      the {cores}-thread runs got {:.2}x ({:.2}–{:.2}) the CPU of the 1-thread runs: \
                 scaling per CPU obtained {:.2}x ({:.2}–{:.2})",
                g.median, g.min, g.max, e.median, e.min, e.max
            ),
            None => String::new(),
        };
        println!(
            "  simulate, {cores} threads {}  {}   scaling {:.2}x ({:.2}–{:.2}){got_text}",
            simall_games.text("games/s"),
            simall_decisions.text("decisions/s"),
            scaling.median,
            scaling.min,
            scaling.max
        );
        let vector_got_text = match vector_got {
            Some(g) => format!(" (the {vector_threads}-thread runs got {:.2}x the CPU of the 1-thread runs)", g.median),
            None => String::new(),
        };
        println!(
            "  batched {} games   1 thread {}   {vector_threads} threads {}   scaling {:.2}x ({:.2}–{:.2}){vector_got_text}",
            args.vector_games,
            vector_one.text("decisions/s"),
            vector_all.text("decisions/s"),
            vector_scaling.median,
            vector_scaling.min,
            vector_scaling.max
        );
        println!(
            "  state {state_bytes} bytes, clone {:.1} ns ({:.1}–{:.1});  GameState {wrapper_bytes} bytes + history \
             (mean {mean_history:.0} actions), clone {:.0} ns ({:.0}–{:.0})",
            state_clone.median, state_clone.min, state_clone.max, wrapper_clone.median, wrapper_clone.min, wrapper_clone.max
        );
    }
    json!({
        "config": label,
        "rollouts": {
            "games": args.games, "decisions": expected.decisions, "steps": expected.steps,
            "truncated": expected.truncated, "checksum": expected.checksum,
            "games_per_s": games_s.json(), "decisions_per_s": decisions_s.json(), "steps_per_s": steps_s.json(),
        },
        "simulate": {
            "games": args.sim_games, "decisions": sim_expected.decisions, "steps": sim_expected.steps,
            "checksum": sim_expected.checksum, "cores": cores,
            "one_thread": {"games_per_s": sim1_games.json(), "decisions_per_s": sim1_decisions.json(),
                           "steps_per_s": sim1_steps.json()},
            "all_cores": {"games_per_s": simall_games.json(), "decisions_per_s": simall_decisions.json()},
            "scaling": scaling.json(),
            "cpu_all_over_one": got_ratio.map(|g| g.0.json()),
            "scaling_per_cpu_obtained": got_ratio.map(|g| g.1.json()),
        },
        "vector": {
            "games": args.vector_games, "steps": vector_steps, "threads": vector_threads, "checksum": reference,
            "one_thread_decisions_per_s": vector_one.json(), "all_cores_decisions_per_s": vector_all.json(),
            "scaling": vector_scaling.json(), "cpu_all_over_one": vector_got.map(|g| g.json()),
        },
        "state": {
            "size_bytes": state_bytes, "clone_ns": state_clone.json(),
            "game_state_size_bytes": wrapper_bytes, "game_state_clone_ns": wrapper_clone.json(),
            "mean_history_len": mean_history,
        },
    })
}

fn describe(options: &Map<String, Value>) -> String {
    let parts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(" ")
}

struct Bench<'a> {
    label: &'a str,
    options: &'a Map<String, Value>,
    args: &'a Args,
}

impl Visitor for Bench<'_> {
    type Output = Value;
    fn visit<G: GameDefinition>(self) -> Value {
        run(self.label, G::load(self.options).expect("a listed configuration"), self.args)
    }
}

fn main() {
    let args = parse_args();
    if !args.json {
        println!(
            "{} repetitions; figures are median (min–max); {} cores available",
            args.reps,
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
        );
    }
    for &name in GAMES {
        for options in all_configurations(name) {
            let label = format!("{name} {}", describe(&options));
            // The registry calls the bench with the game's concrete type.
            let report = visit(name, Bench { label: &label, options: &options, args: &args }).expect("a listed game");
            if args.json {
                println!("{report}");
            }
        }
    }
}
