//! The table's order and the automa players (AUT) of the 2-player game and the solo mode.
//!
//! The table has `positions` positions: the seats, then the automa players. Everything that
//! goes "clockwise" (turns, Phase A, the whale placement, the claims after the bonuses, the
//! network card discard) walks `Mistwind::order`; what only players do walks the seats in
//! that order. An automa player is moved by the game: at its turn a chance node draws a chip
//! from its deck (`Draw::Automa`) and `automa_place` carries out the zone algorithm.

use super::actions::{CHARACTER_ROW, RESOURCE_BOARD, WORKER_BOARD};
use super::state::{State, MAX_PLAYERS, NONE};
use super::Mistwind;

impl Mistwind {
    /// Whether table position `pos` is an automa player.
    pub fn is_automa(&self, pos: usize) -> bool {
        pos >= self.players && pos < self.positions
    }

    /// The position `k` places clockwise after `pos`.
    #[inline]
    pub fn clockwise(&self, pos: usize, k: usize) -> usize {
        self.order[(self.slot[pos] as usize + k) % self.positions] as usize
    }

    /// The `k`-th seat (from 0, modulo the seats) clockwise from position `from`, `from` itself
    /// first when it is a seat: the order of what only the players do.
    #[inline]
    pub fn seat_order(&self, from: usize, k: usize) -> usize {
        self.seats[from][k % self.players] as usize
    }

    /// The name of a table position: `P0` for a seat, `AUT1` for the first automa player.
    pub fn who(&self, pos: usize) -> String {
        if self.is_automa(pos) {
            format!("AUT{}", pos - self.players + 1)
        } else {
            format!("P{pos}")
        }
    }

    /// The chips position `pos` still plays this round (bit `n - 1` for chip `n`): a player's
    /// hand less the chips discarded in Phase A; an automa player's deck while it holds more
    /// chips than a player discards (the chip left in its deck is its face-down discard,
    /// ruling 14).
    pub fn playable(&self, s: &State, pos: usize) -> u8 {
        let pl = &s.players[pos];
        if self.is_automa(pos) {
            if pl.hand.count_ones() > self.discards() as u32 {
                pl.hand
            } else {
                0
            }
        } else {
            pl.hand & !pl.discarded
        }
    }

    /// The chip on each field of a location with one chip per field.
    fn fields(s: &State, location: u8) -> &[u8; 5] {
        match location {
            RESOURCE_BOARD => &s.resource_fields,
            CHARACTER_ROW => &s.character_chips,
            _ => &s.worker_fields,
        }
    }

    /// Where automa player `pos` would place chip `i` (field `i + 1`): the zone (0 to 3) and
    /// its location. "starting in zone 1 ... 1. Check whether the AUT has already played an
    /// action chip in this zone. If so, repeat step 1 for the next zone. ... 2. Check whether
    /// the numbered field that matches the drawn action chip is still free. If so, place the
    /// AUT's action chip on the matching field. If not, continue to the next zone ... 3. If
    /// the AUT reaches zone 4, it always discards its action chip".
    pub fn automa_zone(&self, s: &State, pos: usize, i: usize) -> (usize, u8) {
        for (z, &location) in self.data.zones[..3].iter().enumerate() {
            let fields = Self::fields(s, location);
            if fields.contains(&(pos as u8)) {
                continue;
            }
            if fields[i] == NONE {
                return (z, location);
            }
        }
        (3, self.data.zones[3])
    }

    /// Automa player `pos` plays chip `i` (drawn from its deck) by the zone algorithm. On the
    /// port row it goes on top of the stack ("placed on top of it, following the normal game
    /// rules"); on worker field 4 it takes the starting player marker; it does nothing else
    /// (ruling 16).
    pub(crate) fn automa_place(&self, s: &mut State, pos: usize, i: usize) {
        s.players[pos].hand &= !(1 << i);
        let (_, location) = self.automa_zone(s, pos, i);
        let p = pos as u8;
        match location {
            RESOURCE_BOARD => {
                s.resource_fields[i] = p;
                s.players[pos].used_resource_board = true;
                // Side B: the chip earns the income fields' holders their income (ruling 26).
                s.income = self.income_due(s, pos);
            }
            CHARACTER_ROW => s.character_chips[i] = p,
            WORKER_BOARD => {
                s.worker_fields[i] = p;
                s.players[pos].used_worker_board = true;
                if self.worker_board[i].ability.takes_marker() {
                    s.start_player = p;
                }
            }
            _ => {
                s.stack_height[i] += 1;
                s.stack_top[i] = p;
                // Solo: "If you place an AUT's action chip on a port card in the bottom row,
                // give that AUT the lowest revealed territory demand tile matching the region
                // (color) of the port card." An empty row gives nothing.
                if self.players == 1 && s.port_row[i] != NONE {
                    let r = self.data.ports[self.data.port_cards[s.port_row[i] as usize].port as usize].region as usize;
                    if s.territory_display[r][0] != NONE {
                        self.take_territory(s, pos, r, 0);
                    }
                }
            }
        }
    }
}

/// The tables behind [`Mistwind::clockwise`] and [`Mistwind::seat_order`], from the table's
/// clockwise `order` of `positions` positions of which the first `players` are seats: each
/// position's place in the order, and from each position the seats in clockwise order, that
/// position first when it is a seat.
pub(crate) fn seating(order: &[u8; MAX_PLAYERS], players: usize, positions: usize) -> ([u8; MAX_PLAYERS], [[u8; MAX_PLAYERS]; MAX_PLAYERS]) {
    let mut slot = [0u8; MAX_PLAYERS];
    for (i, &q) in order[..positions].iter().enumerate() {
        slot[q as usize] = i as u8;
    }
    let mut seats = [[0u8; MAX_PLAYERS]; MAX_PLAYERS];
    for (from, row) in seats.iter_mut().enumerate() {
        let clockwise = (0..positions).map(|j| order[(slot[from] as usize + j) % positions]);
        for (k, q) in clockwise.filter(|&q| (q as usize) < players).enumerate() {
            row[k] = q;
        }
    }
    (slot, seats)
}
