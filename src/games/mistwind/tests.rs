//! Mistwind's rule tests: the conformance suite first, then each rule with the rulebook
//! sentence it checks, positions built with the setup helper.

use serde_json::json;

use serde_json::{Map, Value};

use crate::engine::{Actor, Game, GameDefinition};
use crate::harness::conformance::check_configuration;

use super::actions::*;
use super::data::*;
use super::state::*;
use super::Mistwind;

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

pub(super) fn game(players: usize) -> Mistwind {
    Mistwind::load(&opts(json!({ "players": players }))).unwrap()
}

#[test]
fn conformance_in_every_player_count() {
    for n in 3..=5 {
        let stats = check_configuration("mistwind", json!({"players": n}).as_object().unwrap(), 8, 7, 2).unwrap_or_else(|e| panic!("{n} players: {e}"));
        assert_eq!(stats.terminals, 8);
    }
}
