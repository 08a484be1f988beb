//! Norsewind's action ids. Player actions form one fixed space; chance outcomes are a
//! separate space (a card id for reveals and deals, a slot for the Viking ship, a tile kind,
//! a colour order, a Viking card's side).

use crate::engine::Action;

use super::data::MAX_DISPLAY;

/// Build the card of market slot `s` (0..5) in kingdom `k`: `BUILD + s * 4 + k`.
pub const BUILD: Action = 0;
/// Acquire the castle at display position `i` for kingdom `k`: `CASTLE + i * 4 + k`.
pub const CASTLE: Action = 20;
/// Place a citizen figure of colour `c` (4: neutral) on place `q` of kingdom `k`
/// (`q` 0: the kingdom tile, 1..=4: the buildings in order): `CITIZEN + (c * 4 + k) * 5 + q`.
pub const CITIZEN: Action = CASTLE + (MAX_DISPLAY as Action) * 4;
/// Place an upgrade disc as a shield on place `q` of kingdom `k` (`q` 0: the tile,
/// 1..=4: the buildings, 5: the castle): `SHIELD + k * 6 + q`.
pub const SHIELD: Action = CITIZEN + 100;
pub const PRESTIGE: Action = SHIELD + 24;
/// Keep the replaced castle's discs: none, on the shield space, on the prestige space, both.
pub const KEEP: Action = PRESTIGE + 24;
/// Variant: place the starting card in kingdom `k`.
pub const START: Action = KEEP + 4;
pub const PASS: Action = START + 4;
/// Action A's rare case: every market card costs more than the player has, so the market
/// is discarded and renewed (ruling 8).
pub const RENEW: Action = PASS + 1;
pub const NUM_ACTIONS: usize = RENEW as usize + 1;

/// Place numbers of a kingdom for discs.
pub const PLACE_TILE: u8 = 0;
pub const PLACE_CASTLE: u8 = 5;

pub const KEEP_NAMES: [&str; 4] = ["none", "shield", "prestige", "both"];

pub fn build(slot: usize, k: usize) -> Action {
    BUILD + (slot * 4 + k) as Action
}
pub fn castle(i: usize, k: usize) -> Action {
    CASTLE + (i * 4 + k) as Action
}
pub fn citizen(colour: u8, k: usize, place: u8) -> Action {
    CITIZEN + ((colour as usize * 4 + k) * 5 + place as usize) as Action
}
pub fn shield(k: usize, place: u8) -> Action {
    SHIELD + (k * 6 + place as usize) as Action
}
pub fn prestige(k: usize, place: u8) -> Action {
    PRESTIGE + (k * 6 + place as usize) as Action
}

/// An action taken apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Build { slot: usize, kingdom: usize },
    Castle { index: usize, kingdom: usize },
    Citizen { colour: u8, kingdom: usize, place: u8 },
    Shield { kingdom: usize, place: u8 },
    Prestige { kingdom: usize, place: u8 },
    Keep { shield: bool, prestige: bool },
    Start { kingdom: usize },
    Pass,
    Renew,
}

pub fn decode(a: Action) -> Option<Move> {
    let a = a as usize;
    let (c, s, p, k, st) = (CITIZEN as usize, SHIELD as usize, PRESTIGE as usize, KEEP as usize, START as usize);
    Some(match a {
        _ if a < CASTLE as usize => Move::Build { slot: a / 4, kingdom: a % 4 },
        _ if a < c => Move::Castle { index: (a - CASTLE as usize) / 4, kingdom: (a - CASTLE as usize) % 4 },
        _ if a < s => {
            let i = a - c;
            Move::Citizen { colour: (i / 20) as u8, kingdom: (i / 5) % 4, place: (i % 5) as u8 }
        }
        _ if a < p => Move::Shield { kingdom: (a - s) / 6, place: ((a - s) % 6) as u8 },
        _ if a < k => Move::Prestige { kingdom: (a - p) / 6, place: ((a - p) % 6) as u8 },
        _ if a < st => Move::Keep { shield: (a - k) & 1 != 0, prestige: (a - k) & 2 != 0 },
        _ if a < PASS as usize => Move::Start { kingdom: a - st },
        _ if a == PASS as usize => Move::Pass,
        _ if a == RENEW as usize => Move::Renew,
        _ => return None,
    })
}

/// Chance outcomes: a colour order is one of the 24 permutations of the four colours.
pub fn permutation(index: u32) -> [u8; 4] {
    let mut pool = [0u8, 1, 2, 3];
    let mut out = [0u8; 4];
    let mut i = index as usize;
    for (j, o) in out.iter_mut().enumerate() {
        let f = [6, 2, 1, 1][j];
        let pick = i / f;
        i %= f;
        *o = pool[pick];
        for m in pick..3 - j {
            pool[m] = pool[m + 1];
        }
    }
    out
}
