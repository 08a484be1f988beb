//! Secrets are kept on every channel, for every registered game: not only the observation
//! (checked in [`super::invariants::check_state`]) but also who is asked, what he is
//! offered, the move names a seat sees, the seat's log and its picture.
//!
//! For a position `s`, a seat `p` and `r`, a resample of `s` for `p` (what is hidden from `p`
//! drawn afresh):
//! - whether `p` is asked, and what `p` is offered (the legal moves and their names), are the
//!   same in `s` and `r`;
//! - a move possible in both is shown to `p` by the same string ([`View::action_string_for`]);
//! - the picture of the table drawn for `p`, and the one drawn for the whole table, are the
//!   same ([`Picture::svg`]), and every picture is well-formed XML;
//! - every named view of the game ([`View::views`]) shows `p` the same text in both;
//! - the next move, made in both, leaves `p` asked in both or in neither, and offered the same;
//!   and where it leaves `p` seeing the same (observation string and tensor), it gets the same
//!   sentence in `p`'s log.
//!
//! A log is its moves' sentences (the log checks of [`super::log`] hold it to that), so
//! comparing each next sentence along a game compares `r.log(p)` with `s.log(p)` move by move.
//! A move may reveal something by the rules (a card turned up), and then what `p` sees, and the
//! sentence that tells it, may differ between the two; whether `p` is asked next, and what it
//! is offered, may not. Three kinds of move may reveal what decides even that, and are not
//! compared after they are made: a chance outcome, a secret decision (the last of a round
//! reveals them all) and a move that ends the game (the final count may show what was hidden).
//!
//! [`View::action_string_for`]: crate::engine::game::View::action_string_for
//! [`Picture::svg`]: crate::engine::game::Picture::svg
//! [`View::views`]: crate::engine::game::View::views

use crate::engine::game::{Action, Actor, Game};
use crate::engine::rng::{derive_seed, rng_from_seed};
use crate::engine::svg::Viewer;

/// How much was compared, so a test can assert that the check was not vacuous.
#[derive(Debug, Default, Clone, Copy)]
pub struct SecretStats {
    pub resamples: u64,
    pub sentences_compared: u64,
    pub pictures_compared: u64,
}

/// Where two texts first differ, with a little context (for a failure message).
fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let window = |t: &str| {
        let start = (0..=at.saturating_sub(80)).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        let end = (at + 80).min(t.len());
        let end = (end..=t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(t.len());
        t[start..end].to_string()
    };
    format!("{:?} / {:?}", window(a), window(b))
}

/// The pictures of `s` that a resample `r` for `p` must leave alone: the one drawn for `p`
/// and the one drawn for the whole table; every picture drawn is well-formed.
fn pictures_alike<G: Game>(game: &G, s: &G::State, r: &G::State, p: usize, stats: &mut SecretStats) -> Result<(), String> {
    for viewer in [Viewer::Seat(p), Viewer::Table] {
        let (here, there) = (game.svg(s, viewer), game.svg(r, viewer));
        super::xml::check_well_formed(&here).map_err(|e| format!("the picture {} is not well-formed XML: {e}", viewer.caption()))?;
        stats.pictures_compared += 1;
        ensure!(
            here == there,
            "the picture {} depends on what is hidden from P{p}: {}",
            viewer.caption(),
            first_difference(&here, &there)
        );
    }
    Ok(())
}

fn legal<G: Game>(game: &G, s: &G::State) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal_actions(s, &mut out);
    out
}

/// `p` is asked in both positions or in neither, and where asked is offered the same moves
/// under the same names.
fn asked_alike<G: Game>(game: &G, s: &G::State, r: &G::State, p: usize, when: &str) -> Result<(), String> {
    let asked_s = game.actor(s) == Actor::Player(p);
    let asked_r = game.actor(r) == Actor::Player(p);
    ensure!(
        asked_s == asked_r,
        "{when}, P{p} is {}asked, and in a resample for P{p} {}asked: being asked tells P{p} what is hidden from it",
        if asked_s { "" } else { "not " },
        if asked_r { "" } else { "not " }
    );
    if asked_s {
        let (ls, lr) = (legal(game, s), legal(game, r));
        let names = |st: &G::State, l: &[Action]| -> Vec<String> { l.iter().map(|&a| game.action_to_string(st, a)).collect() };
        ensure!(
            ls == lr && names(s, &ls) == names(r, &lr),
            "{when}, P{p} is offered {:?}, and in a resample for P{p} {:?}",
            names(s, &ls),
            names(r, &lr)
        );
    }
    Ok(())
}

/// Checks, for every seat, that a resample of `s` for it keeps who is asked, what is offered,
/// the move names it sees, its views, its log's next sentence for `next` (the move made next
/// in `s`, a legal one) and, with `draw`, its picture of the table. `seed` seeds the resamples.
pub fn check_secrets<G: Game>(game: &G, s: &G::State, next: Action, seed: u64, draw: bool, stats: &mut SecretStats) -> Result<(), String> {
    let players = game.spec().players;
    let legal_s = legal(game, s);
    let actor = game.actor(s);
    let reveals = matches!(actor, Actor::Chance | Actor::Terminal) || game.decision_is_secret(s);
    if draw {
        let everything = game.svg(s, Viewer::All);
        super::xml::check_well_formed(&everything).map_err(|e| format!("the picture with everything shown is not well-formed XML: {e}"))?;
    }
    for p in 0..players {
        let r = game.resample(s, p, &mut rng_from_seed(derive_seed(seed, p as u64)));
        stats.resamples += 1;
        asked_alike(game, s, &r, p, "here")?;
        if draw {
            pictures_alike(game, s, &r, p, stats)?;
        }
        for &(name, _) in game.views() {
            let (shown, there) = (game.view(s, name, Some(p)), game.view(&r, name, Some(p)));
            ensure!(shown.is_some(), "the view {name:?} the game lists is missing");
            ensure!(shown == there, "P{p}'s view {name:?} depends on what is hidden from P{p}: {shown:?}, and in a resample for P{p} {there:?}");
        }
        let legal_r = legal(game, &r);
        for &a in legal_s.iter().filter(|a| legal_r.binary_search(a).is_ok()) {
            let (shown, there) = (game.action_string_for(s, a, p), game.action_string_for(&r, a, p));
            ensure!(shown == there, "P{p} sees a move as {shown:?}, and in a resample for P{p} as {there:?}");
        }
        if reveals || legal_r.binary_search(&next).is_err() {
            continue;
        }
        let (mut s2, mut r2) = (s.clone(), r.clone());
        game.apply(&mut s2, next);
        game.apply(&mut r2, next);
        if game.actor(&s2) == Actor::Terminal || game.actor(&r2) == Actor::Terminal {
            continue;
        }
        asked_alike(game, &s2, &r2, p, &format!("after {:?}", game.action_to_string(s, next)))?;
        let len: usize = game.spec().observation_tensor_shape.iter().product();
        let seen = |st: &G::State| {
            let mut t = vec![0.0; len];
            game.observation_tensor(st, p, &mut t);
            (game.text(st, Viewer::Seat(p)), t)
        };
        if seen(&s2) != seen(&r2) {
            continue;
        }
        let (text, there) = (game.describe_move(s, next, &s2, Some(p)), game.describe_move(&r, next, &r2, Some(p)));
        stats.sentences_compared += 1;
        ensure!(
            text == there,
            "P{p}'s log of {:?} depends on what is hidden from P{p}: {text:?}, and in a resample for P{p} {there:?}",
            game.action_to_string(s, next)
        );
    }
    Ok(())
}
