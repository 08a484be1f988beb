//! Resampling the hidden information for one player: which face-down card lies in which
//! stack, and the cards the lookout has looked at.
//!
//! The stacks are a uniformly random split of the non-destination cards, and every reveal
//! is a uniform draw from its stack, so given what a player saw the posterior weight of a
//! split is (prior count of card arrangements) x the product, over that player's voyages,
//! of the falling factorials (n)_k, where n is how many copies of a card type the stack
//! holds and k how many the player saw in one voyage. A dynamic programme over the card
//! types and the free slots of the three stacks samples a split exactly from that
//! posterior; it reads only the player's own knowledge, never the true stacks.

use crate::engine::rng::{below, unit_f64, Rng};
use crate::engine::prelude::*;

use super::data::{Kind, RUN_LEN};
use super::state::{Phase, State, NONE, PUBLIC, VIEWS};
use super::NorthWind;

/// ln((n)_k) = ln(n!/(n-k)!), or -inf when k > n.
fn ln_falling(n: u32, k: u32) -> f64 {
    if k > n {
        return f64::NEG_INFINITY;
    }
    ((n - k + 1)..=n).map(|x| (x as f64).ln()).sum()
}

fn ln_factorial(n: u32) -> f64 {
    (1..=n).map(|x| (x as f64).ln()).sum()
}

impl NorthWind {
}

impl Resample for NorthWind {
    fn resample(&self, s: &State, player: usize, rng: &mut Rng) -> State {
        let mut out = s.clone();
        if s.phase == Phase::Deal {
            // Nobody has seen a dealt card: shuffle the dealt ones among the stacks, keeping
            // each stack's size.
            let mut dealt: Vec<u8> = self.data.deal_cards[..s.deal_next as usize].to_vec();
            for i in (1..dealt.len()).rev() {
                let j = below(rng, i as u32 + 1) as usize;
                dealt.swap(i, j);
            }
            let mut k = 0;
            for st in 0..3 {
                let dest = 1u32 << self.data.destination_card[st];
                let n = (s.stack_cards[st] & !dest).count_ones() as usize;
                out.stack_cards[st] = dest;
                for &c in &dealt[k..k + n] {
                    out.stack_cards[st] |= 1 << c;
                }
                k += n;
            }
            return out;
        }
        if s.phase == Phase::GameOver {
            return out;
        }
        let types = &self.data.types;
        let nt = types.len();
        let slots = self.data.slots_per_stack as usize;
        let voyage = s.phase.in_voyage();
        let vstack = s.voyage.stack as usize;
        // Cards of the current voyage that `player` has seen.
        let mut visible: u32 = 0;
        if voyage {
            for i in 0..s.voyage.revealed as usize {
                visible |= 1 << s.voyage.order[i];
            }
            if player == s.active as usize {
                for c in [s.voyage.peeked, s.voyage.slid] {
                    if c != NONE {
                        visible |= 1 << c;
                    }
                }
            }
        }
        // Log-weight of type t having n copies in stack st: the likelihood of the player's
        // observations, normalized per (stack, type).
        let mut lw = vec![[[f64::NEG_INFINITY; 17]; 3]; nt];
        for (t, ty) in types.iter().enumerate() {
            if matches!(ty.kind, Kind::Destination { .. }) {
                continue;
            }
            for st in 0..3 {
                let cur = if voyage && st == vstack {
                    ty.cards.iter().filter(|&&c| visible >> c & 1 == 1).count() as u32
                } else {
                    0
                };
                for n in 0..=ty.count as u32 {
                    let mut w = ln_falling(n, cur);
                    match ty.multi {
                        Some(m) => {
                            let runs = &s.runs[player][st][m as usize];
                            for (j, &r) in runs.iter().enumerate().take(RUN_LEN).skip(1) {
                                if r > 0 {
                                    w += r as f64 * ln_falling(n, j as u32);
                                }
                            }
                        }
                        None => {
                            if s.seen[player][st] >> t & 1 == 1 && n == 0 {
                                w = f64::NEG_INFINITY;
                            }
                        }
                    }
                    lw[t][st][n as usize] = w;
                }
                let best = lw[t][st][..=ty.count as usize].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                if best.is_finite() {
                    for n in 0..=ty.count as usize {
                        lw[t][st][n] -= best;
                    }
                }
            }
        }
        // The dealt types, in order; f[k][r0][r1][r2] = total weight of placing types k.. into
        // the free slots r.
        let order: Vec<usize> =
            (0..nt).filter(|&t| !matches!(types[t].kind, Kind::Destination { .. })).collect();
        let dim = slots + 1;
        let idx = |r0: usize, r1: usize, r2: usize| (r0 * dim + r1) * dim + r2;
        let mut f = vec![vec![0.0f64; dim * dim * dim]; order.len() + 1];
        f[order.len()][idx(0, 0, 0)] = 1.0;
        // The possible splits of each type over the stacks, with their weights: the number
        // of arrangements of its copies (a multinomial) times the likelihood.
        let splits: Vec<Vec<([usize; 3], f64)>> = order
            .iter()
            .map(|&t| {
                let c = types[t].count as usize;
                let mut v = Vec::new();
                for a0 in 0..=c.min(slots) {
                    for a1 in 0..=(c - a0).min(slots) {
                        let a2 = c - a0 - a1;
                        if a2 > slots {
                            continue;
                        }
                        let ln_multinomial = ln_factorial(c as u32)
                            - ln_factorial(a0 as u32)
                            - ln_factorial(a1 as u32)
                            - ln_factorial(a2 as u32);
                        let w = (ln_multinomial + lw[t][0][a0] + lw[t][1][a1] + lw[t][2][a2]).exp();
                        if w > 0.0 {
                            v.push(([a0, a1, a2], w));
                        }
                    }
                }
                v
            })
            .collect();
        // Free slots always add up to the copies still to place: only that plane is filled.
        let mut need = vec![0usize; order.len() + 1];
        for k in (0..order.len()).rev() {
            need[k] = need[k + 1] + types[order[k]].count as usize;
        }
        for k in (0..order.len()).rev() {
            for r0 in 0..dim {
                for r1 in 0..dim {
                    let Some(r2) = need[k].checked_sub(r0 + r1).filter(|&r2| r2 < dim) else { continue };
                    let mut total = 0.0;
                    for &(a, w) in &splits[k] {
                        if a[0] <= r0 && a[1] <= r1 && a[2] <= r2 {
                            total += w * f[k + 1][idx(r0 - a[0], r1 - a[1], r2 - a[2])];
                        }
                    }
                    f[k][idx(r0, r1, r2)] = total;
                }
            }
        }
        if f[0][idx(slots, slots, slots)] <= 0.0 {
            // No split agrees with the knowledge (only possible for a hand-edited state).
            return out;
        }
        // Sample forward.
        let mut r = [slots, slots, slots];
        let mut new_stacks = [0u32; 3];
        for st in 0..3 {
            new_stacks[st] = 1 << self.data.destination_card[st];
        }
        let mut options: Vec<([usize; 3], f64)> = Vec::new();
        for (k, &t) in order.iter().enumerate() {
            options.clear();
            for &(a, w) in &splits[k] {
                if a[0] <= r[0] && a[1] <= r[1] && a[2] <= r[2] {
                    let rest = f[k + 1][idx(r[0] - a[0], r[1] - a[1], r[2] - a[2])];
                    if rest > 0.0 {
                        options.push((a, w * rest));
                    }
                }
            }
            let total: f64 = options.iter().map(|o| o.1).sum();
            let mut u = unit_f64(rng) * total;
            let mut chosen = options.last().map(|o| o.0).unwrap_or([0, 0, 0]);
            for (a, w) in &options {
                if u < *w {
                    chosen = *a;
                    break;
                }
                u -= w;
            }
            // Copies seen this voyage keep their ids in the voyage's stack; the other copies
            // are interchangeable and get their places in random order.
            let mut ids: Vec<u8> = types[t].cards.iter().copied().filter(|&c| visible >> c & 1 == 1).collect();
            let seen_now = ids.len();
            ids.extend(types[t].cards.iter().copied().filter(|&c| visible >> c & 1 == 0));
            for i in (seen_now + 1..ids.len()).rev() {
                let j = seen_now + below(rng, (i - seen_now + 1) as u32) as usize;
                ids.swap(i, j);
            }
            let mut stack_order = [0usize, 1, 2];
            if voyage {
                stack_order = [vstack, (vstack + 1) % 3, (vstack + 2) % 3];
            }
            let mut it = ids.into_iter();
            for &st in &stack_order {
                for _ in 0..chosen[st] {
                    new_stacks[st] |= 1 << it.next().expect("split sums to the count");
                }
                r[st] -= chosen[st];
            }
        }
        out.stack_cards = new_stacks;
        // Cards of this voyage the player has not seen are redrawn from the new stack.
        if voyage {
            let mut drawn = visible;
            if player != s.active as usize {
                for which in 0..2 {
                    let c = if which == 0 { s.voyage.peeked } else { s.voyage.slid };
                    if c == NONE {
                        continue;
                    }
                    let pool = new_stacks[vstack] & !drawn;
                    let n = pool.count_ones();
                    let mut pick = below(rng, n);
                    let mut m = pool;
                    let mut card = 0u8;
                    while m != 0 {
                        let b = m.trailing_zeros() as u8;
                        if pick == 0 {
                            card = b;
                            break;
                        }
                        pick -= 1;
                        m &= m - 1;
                    }
                    drawn |= 1 << card;
                    if which == 0 {
                        out.voyage.peeked = card;
                    } else {
                        out.voyage.slid = card;
                    }
                }
            }
            out.voyage.drawn = drawn;
        }
        // The other players' private memories (cards their lookouts slid under) are unknown
        // to `player`: in the resampled world they remember only what was public.
        for v in 0..VIEWS {
            if v != player && v != PUBLIC {
                out.seen[v] = s.seen[PUBLIC];
                out.runs[v] = s.runs[PUBLIC];
            }
        }
        out
    }
}
