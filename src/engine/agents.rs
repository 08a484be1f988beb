//! Built-in agents that play inside Rust during bulk simulation: `random` (uniform over the
//! legal moves), `greedy` (one-ply lookahead on the game's evaluation) and `mcts` (UCT; for
//! games with hidden information, single-observer information-set MCTS over states resampled
//! for the deciding player). They work for every game through the `Game` trait.

use std::fmt;
use std::str::FromStr;

use super::error::{EngineError, Result};
use super::game::{Action, Actor, Game};
use super::rng::{below, Rng};

/// Which agent plays a seat, as written on the command line: `random`, `greedy`,
/// `mcts`, `mcts:iterations=200,exploration=1.4,rollout_depth=200`.
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
    /// Random-playout decisions before the position is scored by the game's evaluation.
    pub rollout_depth: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { iterations: 200, exploration: 1.4, rollout_depth: 200 }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Greedy => write!(f, "greedy"),
            AgentSpec::Mcts(c) => write!(
                f,
                "mcts:iterations={},exploration={},rollout_depth={}",
                c.iterations, c.exploration, c.rollout_depth
            ),
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
                for kv in params.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let (k, v) = kv.split_once('=').ok_or_else(|| bad(format!("{kv:?} is not key=value")))?;
                    match k.trim() {
                        "iterations" => {
                            c.iterations = v.trim().parse().ok().filter(|&n| (1..=10_000_000).contains(&n))
                                .ok_or_else(|| bad(format!("iterations={v}: an integer in 1..=10000000")))?
                        }
                        "exploration" => {
                            c.exploration = v.trim().parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0)
                                .ok_or_else(|| bad(format!("exploration={v}: a number >= 0")))?
                        }
                        "rollout_depth" => {
                            c.rollout_depth = v.trim().parse().ok()
                                .ok_or_else(|| bad(format!("rollout_depth={v}: an integer >= 0")))?
                        }
                        other => return Err(bad(format!(
                            "unknown mcts parameter {other:?}; parameters are iterations, exploration, rollout_depth"))),
                    }
                }
                Ok(AgentSpec::Mcts(c))
            }
            other => Err(bad(format!("unknown agent {other:?}; agents are random, greedy, mcts[:iterations=N,exploration=C,rollout_depth=D]"))),
        }
    }
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
        AgentSpec::Greedy => greedy(game, state, player, rng, scratch),
        AgentSpec::Mcts(c) => mcts(c, game, state, player, rng, scratch),
    }
}

/// One-ply lookahead: the action whose resulting position the game evaluates best for
/// `player` (ties broken at random).
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
/// availability), samples chance as it goes, expands one node, plays randomly for
/// `rollout_depth` decisions, and backs up the game's evaluation.
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
    let tree = &mut scratch.tree;
    tree.clear();
    tree.push(Node { action: 0, player, visits: 0, available: 0, total: 0.0, children: Vec::new() });
    for _ in 0..c.iterations {
        let mut det = game.resample(state, player, rng);
        let path = &mut scratch.path;
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
                Actor::Player(_) => {
                    if depth >= c.rollout_depth {
                        break;
                    }
                    game.legal_actions(&det, &mut scratch.buf);
                    let a = scratch.buf[below(rng, scratch.buf.len() as u32) as usize];
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
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        assert_eq!("random".parse::<AgentSpec>().unwrap(), AgentSpec::Random);
        assert_eq!(" greedy ".parse::<AgentSpec>().unwrap(), AgentSpec::Greedy);
        let m: AgentSpec = "mcts:iterations=50,exploration=0.7".parse().unwrap();
        assert_eq!(m, AgentSpec::Mcts(MctsConfig { iterations: 50, exploration: 0.7, rollout_depth: 200 }));
        assert_eq!(m.to_string().parse::<AgentSpec>().unwrap(), m);
        for bad in ["", "alphazero", "mcts:iterations=0", "mcts:depth=3", "random:x=1", "mcts:exploration=-1"] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }
}
