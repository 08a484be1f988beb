//! Resampling the hidden information for one player: the other players' network cards (held
//! and discarded, each of a known difficulty) and the chips they discarded in Phase A.
//!
//! The decks' order is not part of the state (every draw is a chance outcome), so nothing
//! else is hidden. Each card a player has not seen is equally likely to be any unseen card
//! of its difficulty, and each face-down chip any of its owner's unplayed chips: the
//! resample deals them again uniformly, reading only what `player` knows.

use crate::engine::prelude::*;
use crate::engine::rng::{below, Rng};

use super::state::{Phase, State, MAX_PLAYERS};
use super::Mistwind;

impl Resample for Mistwind {
    fn resample(&self, s: &State, player: usize, rng: &mut Rng) -> State {
        let mut out = s.clone();
        let d = &self.data;
        // At the end the cards still held are turned up for scoring: only the discarded ones
        // stay hidden.
        let open = s.phase == Phase::GameOver;
        // Network cards: per difficulty, the cards `player` has not seen (undealt, or held or
        // discarded by another) are dealt again to the same slots.
        for diff in 0..3u8 {
            let of = |m: u16| -> u16 {
                let mut r = 0;
                for c in 0..d.network_cards.len() {
                    if m & (1 << c) != 0 && d.network_cards[c].difficulty == diff {
                        r |= 1 << c;
                    }
                }
                r
            };
            let mut unseen = of(s.network_deck);
            let mut held = [0u32; MAX_PLAYERS];
            let mut gone = [0u32; MAX_PLAYERS];
            for q in 0..self.players {
                if q == player {
                    continue;
                }
                let pl = &s.players[q];
                if !open {
                    held[q] = of(pl.cards).count_ones();
                    unseen |= of(pl.cards);
                    out.players[q].cards &= !of(pl.cards);
                }
                gone[q] = of(pl.card_discards).count_ones();
                unseen |= of(pl.card_discards);
                out.players[q].card_discards &= !of(pl.card_discards);
            }
            let mut take = |unseen: &mut u16| -> u16 {
                let k = below(rng, unseen.count_ones());
                let mut m = *unseen;
                for _ in 0..k {
                    m &= m - 1;
                }
                let bit = m & m.wrapping_neg();
                *unseen &= !bit;
                bit
            };
            for q in 0..self.players {
                for _ in 0..held[q] {
                    out.players[q].cards |= take(&mut unseen);
                }
                for _ in 0..gone[q] {
                    out.players[q].card_discards |= take(&mut unseen);
                }
            }
            out.network_deck = (out.network_deck & !of(s.network_deck)) | unseen;
        }
        // Phase A: the chips another player discarded are any of their unplayed chips.
        for q in 0..self.players {
            if q == player {
                continue;
            }
            let pl = &s.players[q];
            let k = pl.discarded.count_ones();
            let mut pool = pl.hand;
            let mut chosen = 0u8;
            for _ in 0..k {
                let i = below(rng, pool.count_ones());
                let mut m = pool;
                for _ in 0..i {
                    m &= m - 1;
                }
                let bit = m & m.wrapping_neg();
                pool &= !bit;
                chosen |= bit;
            }
            out.players[q].discarded = chosen;
        }
        out
    }
}
