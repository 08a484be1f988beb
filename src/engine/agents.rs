//! Built-in agents that play inside Rust during bulk simulation: `random` (uniform over the
//! legal moves), `greedy` (one-ply lookahead on the game's evaluation, in a state resampled
//! for the deciding player) and `mcts` (UCT; for
//! games with hidden information, single-observer information-set MCTS over states resampled
//! for the deciding player), with its named levels `mcts:fast` and `mcts:strong`. They work
//! for every game through the `Game` trait.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game};
use super::rng::{below, unit_f64, Rng};

/// Which agent plays a seat, as written on the command line: `random`, `greedy`,
/// `mcts`, `mcts:iterations=200,exploration=1.4,rollout_depth=200`, `mcts:playout=greedy,epsilon=0.1`,
/// `mcts:ms=20`, or a named level `mcts:fast`, `mcts:strong` (which later parameters may amend:
/// `mcts:strong,ms=30`).
#[derive(Debug, Clone, PartialEq)]
pub enum AgentSpec {
    Random,
    Greedy,
    Mcts(MctsConfig),
}

#[derive(Debug, Clone, PartialEq)]
pub struct MctsConfig {
    /// Simulations per decision.
    pub iterations: u32,
    /// The UCT exploration constant c in mean + c·sqrt(ln N / n).
    pub exploration: f64,
    /// Playout decisions before the position is scored by the game's evaluation.
    pub rollout_depth: u32,
    /// How the playout picks its moves.
    pub playout: Playout,
    /// For `Playout::Greedy`: the chance of a uniformly random move instead of the greedy one.
    pub epsilon: f64,
    /// A wall-clock budget per decision in milliseconds (0: none). The search stops at the
    /// first iteration that starts after the budget is spent, or after `iterations`, whichever
    /// comes first. A time budget makes the choice depend on the machine's speed and load.
    pub ms: u32,
}

/// How an MCTS playout picks a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly at random over the legal moves.
    Random,
    /// ε-greedy over the one-ply evaluations: the legal move whose resulting position the
    /// game's evaluation rates best for the mover (ties broken at random), or with probability
    /// ε a uniformly random one.
    Greedy,
}

impl Playout {
    fn name(self) -> &'static str {
        match self {
            Playout::Random => "random",
            Playout::Greedy => "greedy",
        }
    }
}

/// The highest `iterations` a spec accepts; also the cap when only `ms` bounds the search.
pub const MAX_ITERATIONS: u32 = 10_000_000;

/// The highest `ms` a spec accepts (one minute per decision).
pub const MAX_MS: u32 = 60_000;

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { iterations: 200, exploration: 1.4, rollout_depth: 200, playout: Playout::Random, epsilon: 0.1, ms: 0 }
    }
}

/// The named MCTS levels: `mcts:NAME` stands for these parameters (docs/agents.md gives each
/// level's measured cost and strength).
pub const MCTS_LEVELS: [(&str, MctsConfig); 2] = [
    (
        "fast",
        MctsConfig { iterations: 100, exploration: 1.4, rollout_depth: 4, playout: Playout::Greedy, epsilon: 0.1, ms: 0 },
    ),
    (
        "strong",
        MctsConfig { iterations: 400, exploration: 1.4, rollout_depth: 40, playout: Playout::Greedy, epsilon: 0.1, ms: 0 },
    ),
];

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Greedy => write!(f, "greedy"),
            AgentSpec::Mcts(c) => {
                // The first three parameters always; the others where they differ from the default.
                write!(f, "mcts:iterations={},exploration={},rollout_depth={}", c.iterations, c.exploration, c.rollout_depth)?;
                let d = MctsConfig::default();
                if c.playout != d.playout {
                    write!(f, ",playout={}", c.playout.name())?;
                }
                if c.epsilon != d.epsilon {
                    write!(f, ",epsilon={}", c.epsilon)?;
                }
                if c.ms != d.ms {
                    write!(f, ",ms={}", c.ms)?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for AgentSpec {
    type Err = EngineError;
    fn from_str(text: &str) -> Result<Self> {
        let bad = |m: String| EngineError::option("agents", m);
        let (name, params) = match text.trim().split_once(':') {
            Some((n, p)) => (n.trim(), Some(p)),
            None => (text.trim(), None),
        };
        match name {
            "random" | "greedy" => {
                if params.is_some_and(|p| !p.trim().is_empty()) {
                    return Err(bad(format!("{name:?} takes no parameters")));
                }
                Ok(if name == "random" { AgentSpec::Random } else { AgentSpec::Greedy })
            }
            "mcts" => {
                let mut c = MctsConfig::default();
                let mut iterations_given = false;
                let mut ms_given = false;
                for (i, kv) in params.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()).enumerate() {
                    let Some((k, v)) = kv.split_once('=') else {
                        match MCTS_LEVELS.iter().find(|(level, _)| *level == kv) {
                            Some((_, level)) if i == 0 => {
                                c = level.clone();
                                iterations_given = true;
                                continue;
                            }
                            Some(_) => return Err(bad(format!("the level {kv:?} comes first: mcts:{kv},key=value"))),
                            None => return Err(bad(format!(
                                "{kv:?} is neither key=value nor a level; the levels are {}", level_names()))),
                        }
                    };
                    let v = v.trim();
                    match k.trim() {
                        "iterations" => {
                            c.iterations = v.parse().ok().filter(|&n| (1..=MAX_ITERATIONS).contains(&n))
                                .ok_or_else(|| bad(format!("iterations={v}: an integer in 1..={MAX_ITERATIONS}")))?;
                            iterations_given = true;
                        }
                        "exploration" => {
                            c.exploration = v.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0)
                                .ok_or_else(|| bad(format!("exploration={v}: a number >= 0")))?
                        }
                        "rollout_depth" => {
                            c.rollout_depth = v.parse().ok()
                                .ok_or_else(|| bad(format!("rollout_depth={v}: an integer >= 0")))?
                        }
                        "playout" => {
                            c.playout = match v {
                                "random" => Playout::Random,
                                "greedy" => Playout::Greedy,
                                _ => return Err(bad(format!("playout={v}: random or greedy"))),
                            }
                        }
                        "epsilon" => {
                            c.epsilon = v.parse().ok().filter(|x: &f64| (0.0..=1.0).contains(x))
                                .ok_or_else(|| bad(format!("epsilon={v}: a number in 0..=1")))?
                        }
                        "ms" => {
                            c.ms = v.parse().ok().filter(|&n| (1..=MAX_MS).contains(&n))
                                .ok_or_else(|| bad(format!("ms={v}: an integer in 1..={MAX_MS}")))?;
                            ms_given = true;
                        }
                        other => return Err(bad(format!(
                            "unknown mcts parameter {other:?}; parameters are iterations, exploration, rollout_depth, playout, epsilon, ms"))),
                    }
                }
                if ms_given && !iterations_given {
                    // Only the clock bounds the search.
                    c.iterations = MAX_ITERATIONS;
                }
                Ok(AgentSpec::Mcts(c))
            }
            other => Err(bad(format!("unknown agent {other:?}; agents are {}", built_in_agents()))),
        }
    }
}

/// The built-in agents' specs, as the unknown-agent message lists them: `random, greedy,
/// mcts:fast, mcts:strong, mcts[:iterations=N,exploration=C,rollout_depth=D,playout=random|greedy,epsilon=E,ms=M]`.
pub fn built_in_agents() -> String {
    format!(
        "random, greedy, {}, mcts[:iterations=N,exploration=C,rollout_depth=D,playout=random|greedy,epsilon=E,ms=M]",
        level_names()
    )
}

fn level_names() -> String {
    MCTS_LEVELS.iter().map(|(name, _)| format!("mcts:{name}")).collect::<Vec<_>>().join(", ")
}

/// Scratch memory an agent reuses between decisions.
#[derive(Default)]
pub struct AgentScratch {
    buf: Vec<Action>,
    values: Vec<f64>,
    tree: Vec<Node>,
    path: Vec<usize>,
}

impl AgentScratch {
    /// Scratch sized once for a game of `actions` player actions and `players` seats, so that
    /// the random and greedy agents never grow it (MCTS still grows its search tree).
    pub fn with_capacity(actions: usize, players: usize) -> Self {
        AgentScratch {
            buf: Vec::with_capacity(actions),
            values: Vec::with_capacity(players),
            tree: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl AgentScratch {
    /// The legal actions of the state that [`choose`] was last called on: every agent lists
    /// them here last (the search agents again after their search), so that a caller may
    /// count them without listing them once more.
    pub fn last_legal_actions(&self) -> &[Action] {
        &self.buf
    }
}

/// Picks `player`'s action in `state` (which must be `player`'s decision node).
pub fn choose<G: Game>(
    spec: &AgentSpec,
    game: &G,
    state: &G::State,
    player: usize,
    rng: &mut Rng,
    scratch: &mut AgentScratch,
) -> Action {
    match spec {
        AgentSpec::Random => {
            game.legal_actions(state, &mut scratch.buf);
            scratch.buf[below(rng, scratch.buf.len() as u32) as usize]
        }
        AgentSpec::Greedy => {
            // The evaluation reads the whole position, the other seats' hidden holdings
            // included: it is asked about a world drawn for `player`, which `player` cannot
            // tell from this one (for a game that hides nothing, the state itself).
            let world = game.resample(state, player, rng);
            greedy(game, &world, player, rng, scratch)
        }
        AgentSpec::Mcts(c) => mcts(c, game, state, player, rng, scratch),
    }
}

/// One-ply lookahead: the action whose resulting position the game evaluates best for
/// `player` (ties broken at random). It reads all of `state`: the `greedy` agent gives it a
/// world resampled for `player`, an MCTS playout the world of its iteration.
fn greedy<G: Game>(game: &G, state: &G::State, player: usize, rng: &mut Rng, scratch: &mut AgentScratch) -> Action {
    game.legal_actions(state, &mut scratch.buf);
    let n = game.spec().players;
    scratch.values.resize(n, 0.0);
    let mut best = f64::NEG_INFINITY;
    let mut chosen = scratch.buf[0];
    let mut ties = 0u32;
    for i in 0..scratch.buf.len() {
        let a = scratch.buf[i];
        let mut next = state.clone();
        game.apply(&mut next, a);
        game.evaluate(&next, &mut scratch.values);
        let v = scratch.values[player];
        if v > best + 1e-12 {
            best = v;
            chosen = a;
            ties = 1;
        } else if (v - best).abs() <= 1e-12 {
            ties += 1;
            if below(rng, ties) == 0 {
                chosen = a;
            }
        }
    }
    chosen
}

#[derive(Debug, Clone)]
struct Node {
    action: Action,
    /// The player who chose `action` (the node's value is kept from that player's view).
    player: usize,
    visits: u32,
    /// How often the node's action was legal when its parent was visited (ISMCTS availability).
    available: u32,
    total: f64,
    children: Vec<usize>,
}

/// Open-loop information-set MCTS. Each iteration draws a state consistent with what the
/// deciding player has seen (`Game::resample`; for perfect-information games that is the
/// state itself), descends the tree by UCB over the actions legal in that draw (counting
/// availability), samples chance as it goes, expands one node, plays out `rollout_depth`
/// decisions (at random, or ε-greedy over one-ply evaluations), and backs up the game's
/// evaluation. With a time budget, no iteration starts after the budget is spent (the first
/// one always runs).
fn mcts<G: Game>(
    c: &MctsConfig,
    game: &G,
    state: &G::State,
    player: usize,
    rng: &mut Rng,
    scratch: &mut AgentScratch,
) -> Action {
    let n = game.spec().players;
    scratch.values.resize(n, 0.0);
    // Taken out of the scratch for the search, so that the playout may borrow the rest.
    let mut tree = std::mem::take(&mut scratch.tree);
    let mut path = std::mem::take(&mut scratch.path);
    tree.clear();
    tree.push(Node { action: 0, player, visits: 0, available: 0, total: 0.0, children: Vec::new() });
    let deadline = (c.ms > 0).then(|| Instant::now() + Duration::from_millis(u64::from(c.ms)));
    for iteration in 0..c.iterations {
        if iteration > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut det = game.resample(state, player, rng);
        path.clear();
        path.push(0);
        let mut node = 0usize;
        let mut expanded = false;
        loop {
            match game.actor(&det) {
                Actor::Terminal => break,
                Actor::Chance => {
                    let a = game.sample_chance(&det, rng);
                    game.apply(&mut det, a);
                }
                Actor::Player(p) => {
                    if expanded {
                        break;
                    }
                    game.legal_actions(&det, &mut scratch.buf);
                    // Availability of the existing children; the untried legal actions.
                    let mut untried = 0u32;
                    for &a in &scratch.buf {
                        match tree[node].children.iter().find(|&&ch| tree[ch].action == a) {
                            Some(&ch) => tree[ch].available += 1,
                            None => untried += 1,
                        }
                    }
                    let a;
                    let child;
                    if untried > 0 {
                        let mut k = below(rng, untried);
                        let mut pick = scratch.buf[0];
                        for &b in &scratch.buf {
                            if !tree[node].children.iter().any(|&ch| tree[ch].action == b) {
                                if k == 0 {
                                    pick = b;
                                    break;
                                }
                                k -= 1;
                            }
                        }
                        a = pick;
                        child = tree.len();
                        tree.push(Node { action: a, player: p, visits: 0, available: 1, total: 0.0, children: Vec::new() });
                        tree[node].children.push(child);
                        expanded = true;
                    } else {
                        let mut best = f64::NEG_INFINITY;
                        let mut pick = tree[node].children[0];
                        for &ch in &tree[node].children {
                            let nd = &tree[ch];
                            if scratch.buf.binary_search(&nd.action).is_err() {
                                continue;
                            }
                            let mean = nd.total / nd.visits.max(1) as f64;
                            let ucb = mean
                                + c.exploration * ((nd.available.max(1) as f64).ln() / nd.visits.max(1) as f64).sqrt();
                            if ucb > best {
                                best = ucb;
                                pick = ch;
                            }
                        }
                        child = pick;
                        a = tree[child].action;
                    }
                    game.apply(&mut det, a);
                    path.push(child);
                    node = child;
                }
            }
        }
        // Playout.
        let mut depth = 0;
        loop {
            match game.actor(&det) {
                Actor::Terminal => break,
                Actor::Chance => {
                    let a = game.sample_chance(&det, rng);
                    game.apply(&mut det, a);
                }
                Actor::Player(p) => {
                    if depth >= c.rollout_depth {
                        break;
                    }
                    let a = match c.playout {
                        Playout::Greedy if unit_f64(rng) >= c.epsilon => greedy(game, &det, p, rng, scratch),
                        _ => {
                            game.legal_actions(&det, &mut scratch.buf);
                            scratch.buf[below(rng, scratch.buf.len() as u32) as usize]
                        }
                    };
                    game.apply(&mut det, a);
                    depth += 1;
                }
            }
        }
        game.evaluate(&det, &mut scratch.values);
        for &i in path.iter() {
            let nd = &mut tree[i];
            nd.visits += 1;
            nd.total += scratch.values[nd.player];
        }
    }
    // The most visited action among those legal in the true state.
    game.legal_actions(state, &mut scratch.buf);
    let mut best = scratch.buf[0];
    let mut best_visits = 0;
    for &ch in &tree[0].children {
        let nd = &tree[ch];
        if nd.visits > best_visits && scratch.buf.binary_search(&nd.action).is_ok() {
            best_visits = nd.visits;
            best = nd.action;
        }
    }
    scratch.tree = tree;
    scratch.path = path;
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::rng_from_seed;
    use crate::engine::game::Rules;
    use crate::engine::toy::{Race, RaceState};

    fn mcts(spec: &str) -> MctsConfig {
        match spec.parse::<AgentSpec>().unwrap() {
            AgentSpec::Mcts(c) => c,
            other => panic!("{spec} parsed as {other:?}"),
        }
    }

    #[test]
    fn specs_parse_and_print() {
        assert_eq!("random".parse::<AgentSpec>().unwrap(), AgentSpec::Random);
        assert_eq!(" greedy ".parse::<AgentSpec>().unwrap(), AgentSpec::Greedy);
        let m: AgentSpec = "mcts:iterations=50,exploration=0.7".parse().unwrap();
        assert_eq!(
            m,
            AgentSpec::Mcts(MctsConfig { iterations: 50, exploration: 0.7, ..MctsConfig::default() })
        );
        assert_eq!(m.to_string().parse::<AgentSpec>().unwrap(), m);
        for bad in ["", "alphazero", "mcts:iterations=0", "mcts:depth=3", "random:x=1", "mcts:exploration=-1"] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_default_spec_prints_as_before() {
        let m: AgentSpec = "mcts".parse().unwrap();
        assert_eq!(m.to_string(), "mcts:iterations=200,exploration=1.4,rollout_depth=200");
        assert_eq!(mcts("mcts"), MctsConfig { iterations: 200, exploration: 1.4, rollout_depth: 200, playout: Playout::Random, epsilon: 0.1, ms: 0 });
    }

    #[test]
    fn playout_epsilon_and_ms_parse_print_and_round_trip() {
        let c = mcts("mcts:playout=greedy,epsilon=0.25,rollout_depth=6");
        assert_eq!((c.playout, c.epsilon, c.rollout_depth, c.iterations), (Playout::Greedy, 0.25, 6, 200));
        let shown = AgentSpec::Mcts(c.clone()).to_string();
        assert_eq!(shown, "mcts:iterations=200,exploration=1.4,rollout_depth=6,playout=greedy,epsilon=0.25");
        assert_eq!(mcts(&shown), c);
        // A time budget alone: only the clock bounds the search.
        // A level counts as giving the iterations: its budget, and at most the time.
        assert_eq!(mcts("mcts:strong,ms=30").iterations, mcts("mcts:strong").iterations);
        let t = mcts("mcts:ms=20");
        assert_eq!((t.ms, t.iterations), (20, MAX_ITERATIONS));
        assert_eq!(AgentSpec::Mcts(t.clone()).to_string(), "mcts:iterations=10000000,exploration=1.4,rollout_depth=200,ms=20");
        assert_eq!(mcts(&AgentSpec::Mcts(t.clone()).to_string()), t);
        // Both: whichever ends first; the order of the parameters does not matter.
        assert_eq!(mcts("mcts:ms=5,iterations=300"), mcts("mcts:iterations=300,ms=5"));
        assert_eq!(mcts("mcts:ms=5,iterations=300").iterations, 300);
        assert_eq!(mcts(&format!("mcts:iterations={MAX_ITERATIONS},ms={MAX_MS}")).ms, MAX_MS);
        for bad in [
            "mcts:ms=0", "mcts:ms=60001", "mcts:ms=-1", "mcts:ms=1.5", "mcts:ms=", "mcts:iterations=10000001",
            "mcts:iterations=-3", "mcts:playout=smart", "mcts:epsilon=1.5", "mcts:epsilon=-0.1", "mcts:epsilon=NaN",
        ] {
            let e = bad.parse::<AgentSpec>().unwrap_err().to_string();
            let key = bad["mcts:".len()..].split('=').next().unwrap();
            assert!(e.contains(key), "{bad}: {e}");
        }
    }

    #[test]
    fn levels_expand_to_their_parameters_and_may_be_amended() {
        for (name, level) in MCTS_LEVELS.iter() {
            let spec: AgentSpec = format!("mcts:{name}").parse().unwrap();
            assert_eq!(spec, AgentSpec::Mcts(level.clone()));
            // Shown as the expansion, so a result records the exact parameters it was played with.
            let shown = spec.to_string();
            assert!(!shown.contains(name), "{shown}");
            assert_eq!(shown.parse::<AgentSpec>().unwrap(), spec);
        }
        let fast = mcts("mcts:fast");
        assert_eq!(mcts("mcts:fast,ms=3"), MctsConfig { ms: 3, ..fast.clone() });
        assert_eq!(mcts("mcts: fast , iterations=7").iterations, 7);
        assert!(mcts("mcts:strong").iterations > fast.iterations);
        for bad in ["mcts:turbo", "mcts:iterations=5,fast", "mcts:fast,strong", "greedy:fast"] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
        let e = "alphazero".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.ends_with(&format!("unknown agent \"alphazero\"; agents are {}", built_in_agents())), "{e}");
        assert_eq!(
            built_in_agents(),
            "random, greedy, mcts:fast, mcts:strong, mcts[:iterations=N,exploration=C,rollout_depth=D,playout=random|greedy,epsilon=E,ms=M]"
        );
        let e = "mcts:turbo".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("mcts:fast") && e.contains("mcts:strong"), "{e}");
    }

    /// The decision states of a few random games of the test game.
    fn decisions(game: &Race) -> Vec<(RaceState, usize)> {
        let mut out = Vec::new();
        for seed in 0..6 {
            let mut rng = rng_from_seed(seed);
            let mut state = game.initial_state();
            let mut buf = Vec::new();
            loop {
                match game.actor(&state) {
                    Actor::Terminal => break,
                    Actor::Chance => {
                        let a = game.sample_chance(&state, &mut rng);
                        game.apply(&mut state, a);
                    }
                    Actor::Player(p) => {
                        out.push((state.clone(), p));
                        game.legal_actions(&state, &mut buf);
                        let a = buf[below(&mut rng, buf.len() as u32) as usize];
                        game.apply(&mut state, a);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_configuration_picks_a_legal_action_and_the_same_one_for_the_same_seed() {
        let game = Race::new(15);
        let states = decisions(&game);
        assert!(states.len() > 20);
        let specs = [
            "mcts:iterations=30",
            "mcts:iterations=30,playout=greedy",
            "mcts:iterations=30,playout=greedy,epsilon=0",
            "mcts:iterations=30,playout=greedy,epsilon=1,rollout_depth=3",
            "mcts:fast",
            "mcts:strong",
        ];
        let mut scratch = AgentScratch::default();
        let mut legal = Vec::new();
        for text in specs {
            let spec: AgentSpec = text.parse().unwrap();
            for (i, (state, p)) in states.iter().enumerate() {
                game.legal_actions(state, &mut legal);
                let first = choose(&spec, &game, state, *p, &mut rng_from_seed(i as u64), &mut scratch);
                let again = choose(&spec, &game, state, *p, &mut rng_from_seed(i as u64), &mut AgentScratch::default());
                assert!(legal.contains(&first), "{text}: {first} not in {legal:?}");
                assert_eq!(first, again, "{text}, state {i}: same seed, another choice");
            }
        }
    }

    #[test]
    fn a_time_budget_returns_a_legal_action() {
        let game = Race::new(15);
        let mut scratch = AgentScratch::default();
        let mut legal = Vec::new();
        for text in ["mcts:ms=1", "mcts:ms=2,playout=greedy", "mcts:fast,ms=1", "mcts:iterations=1,ms=1000"] {
            let spec: AgentSpec = text.parse().unwrap();
            for (i, (state, p)) in decisions(&game).iter().enumerate().take(8) {
                game.legal_actions(state, &mut legal);
                let a = choose(&spec, &game, state, *p, &mut rng_from_seed(i as u64), &mut scratch);
                assert!(legal.contains(&a), "{text}: {a} not in {legal:?}");
                assert_eq!(scratch.last_legal_actions(), &legal[..], "{text}");
            }
        }
    }
}
