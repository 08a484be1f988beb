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

use std::sync::LazyLock;

use crate::engine::rng::{below, unit_f64, Rng};
use crate::engine::prelude::*;

use super::data::{Kind, MAX_CARDS, MAX_MULTI_TYPES, RUN_LEN};
use super::state::{Phase, State, NONE, PUBLIC, VIEWS};
use super::NorthWind;

/// Copies of one card type at most (the data file's limit).
const MAX_COPIES: usize = 16;
/// Free slots of a stack at most, plus one.
const DIM: usize = MAX_CARDS / 3 + 1;
/// The splits of every dealt type over the stacks at most: three for a single card, at most
/// C(18, 2) for a type with several copies.
const MAX_SPLITS: usize = 3 * MAX_CARDS + MAX_MULTI_TYPES * (MAX_COPIES + 2) * (MAX_COPIES + 1) / 2;

/// ln((n)_k) = ln(n!/(n-k)!) (-inf when k > n) and ln(n!), for n, k up to [`MAX_COPIES`],
/// each summed once in increasing order of its factors.
struct LnTables {
    falling: [[f64; MAX_COPIES + 1]; MAX_COPIES + 1],
    factorial: [f64; MAX_COPIES + 1],
}

static LN: LazyLock<LnTables> = LazyLock::new(|| {
    let ln_sum = |from: u32, to: u32| (from..=to).map(|x| (x as f64).ln()).sum::<f64>();
    let mut falling = [[f64::NEG_INFINITY; MAX_COPIES + 1]; MAX_COPIES + 1];
    for (n, row) in falling.iter_mut().enumerate() {
        for (k, cell) in row.iter_mut().enumerate().take(n + 1) {
            *cell = ln_sum((n - k + 1) as u32, n as u32);
        }
    }
    LnTables { falling, factorial: std::array::from_fn(|n| ln_sum(1, n as u32)) }
});

impl Resample for NorthWind {
    fn resample(&self, s: &State, player: usize, rng: &mut Rng) -> State {
        let mut out = s.clone();
        if s.phase == Phase::Deal {
            // Nobody has seen a dealt card: shuffle the dealt ones among the stacks, keeping
            // each stack's size.
            let mut dealt = [0u8; MAX_CARDS];
            let dealt = &mut dealt[..s.deal_next as usize];
            dealt.copy_from_slice(&self.data.deal_cards[..s.deal_next as usize]);
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
        let ln = &*LN;
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
        // The dealt types, in order, and the possible splits of each over the stacks with their
        // weights: the number of arrangements of its copies (a multinomial) times the likelihood
        // of the player's observations. `splits[first[k]..first[k + 1]]` are those of type
        // `order[k]`.
        let mut order = [0usize; MAX_CARDS];
        let mut types_dealt = 0;
        let mut splits = [([0usize; 3], 0.0f64); MAX_SPLITS];
        let mut first = [0usize; MAX_CARDS + 1];
        for (t, ty) in types.iter().enumerate() {
            if matches!(ty.kind, Kind::Destination { .. }) {
                continue;
            }
            // Log-weight of type t having n copies in stack st, normalized per stack.
            let mut lw = [[f64::NEG_INFINITY; MAX_COPIES + 1]; 3];
            for (st, lw) in lw.iter_mut().enumerate() {
                let cur = if voyage && st == vstack {
                    ty.cards.iter().filter(|&&c| visible >> c & 1 == 1).count()
                } else {
                    0
                };
                for n in 0..=ty.count as usize {
                    let mut w = ln.falling[n][cur];
                    match ty.multi {
                        Some(m) => {
                            let runs = &s.runs[player][st][m as usize];
                            for (j, &r) in runs.iter().enumerate().take(RUN_LEN).skip(1) {
                                if r > 0 {
                                    w += r as f64 * ln.falling[n][j];
                                }
                            }
                        }
                        None => {
                            if s.seen[player][st] >> t & 1 == 1 && n == 0 {
                                w = f64::NEG_INFINITY;
                            }
                        }
                    }
                    lw[n] = w;
                }
                let best = lw[..=ty.count as usize].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                if best.is_finite() {
                    for w in &mut lw[..=ty.count as usize] {
                        *w -= best;
                    }
                }
            }
            let k = types_dealt;
            order[k] = t;
            types_dealt += 1;
            let c = ty.count as usize;
            let mut next = first[k];
            for a0 in 0..=c.min(slots) {
                for a1 in 0..=(c - a0).min(slots) {
                    let a2 = c - a0 - a1;
                    if a2 > slots {
                        continue;
                    }
                    let ln_multinomial = ln.factorial[c] - ln.factorial[a0] - ln.factorial[a1] - ln.factorial[a2];
                    let w = (ln_multinomial + lw[0][a0] + lw[1][a1] + lw[2][a2]).exp();
                    if w > 0.0 {
                        splits[next] = ([a0, a1, a2], w);
                        next += 1;
                    }
                }
            }
            first[k + 1] = next;
        }
        let order = &order[..types_dealt];
        // f[k][r0][r1] = total weight of placing types k.. into the free slots (r0, r1, r2),
        // where the free slots add up to the copies still to place (`need[k]`): r2 follows.
        let mut need = [0usize; MAX_CARDS + 1];
        for k in (0..order.len()).rev() {
            need[k] = need[k + 1] + types[order[k]].count as usize;
        }
        let dim = slots + 1;
        let mut f = [[[0.0f64; DIM]; DIM]; MAX_CARDS + 1];
        f[order.len()][0][0] = 1.0;
        for k in (0..order.len()).rev() {
            for r0 in 0..dim {
                for r1 in 0..dim {
                    let Some(r2) = need[k].checked_sub(r0 + r1).filter(|&r2| r2 < dim) else { continue };
                    let mut total = 0.0;
                    for &(a, w) in &splits[first[k]..first[k + 1]] {
                        if a[0] <= r0 && a[1] <= r1 && a[2] <= r2 {
                            total += w * f[k + 1][r0 - a[0]][r1 - a[1]];
                        }
                    }
                    f[k][r0][r1] = total;
                }
            }
        }
        if f[0][slots][slots] <= 0.0 {
            // No split agrees with the knowledge (only possible for a hand-edited state).
            return out;
        }
        // Sample forward.
        let mut r = [slots, slots, slots];
        let mut new_stacks = [0u32; 3];
        for st in 0..3 {
            new_stacks[st] = 1 << self.data.destination_card[st];
        }
        let mut options = [([0usize; 3], 0.0f64); (MAX_COPIES + 2) * (MAX_COPIES + 1) / 2];
        for (k, &t) in order.iter().enumerate() {
            let mut n_options = 0;
            for &(a, w) in &splits[first[k]..first[k + 1]] {
                if a[0] <= r[0] && a[1] <= r[1] && a[2] <= r[2] {
                    let rest = f[k + 1][r[0] - a[0]][r[1] - a[1]];
                    if rest > 0.0 {
                        options[n_options] = (a, w * rest);
                        n_options += 1;
                    }
                }
            }
            let options = &options[..n_options];
            let total: f64 = options.iter().map(|o| o.1).sum();
            let mut u = unit_f64(rng) * total;
            let mut chosen = options.last().map(|o| o.0).unwrap_or([0, 0, 0]);
            for (a, w) in options {
                if u < *w {
                    chosen = *a;
                    break;
                }
                u -= w;
            }
            // Copies seen this voyage keep their ids in the voyage's stack; the other copies
            // are interchangeable and get their places in random order.
            let (mut ids, mut n_ids, mut seen_now) = ([0u8; MAX_COPIES], 0, 0);
            for seen in [true, false] {
                for &c in &types[t].cards {
                    if (visible >> c & 1 == 1) == seen {
                        ids[n_ids] = c;
                        n_ids += 1;
                    }
                }
                if seen {
                    seen_now = n_ids;
                }
            }
            for i in (seen_now + 1..n_ids).rev() {
                let j = seen_now + below(rng, (i - seen_now + 1) as u32) as usize;
                ids.swap(i, j);
            }
            let mut stack_order = [0usize, 1, 2];
            if voyage {
                stack_order = [vstack, (vstack + 1) % 3, (vstack + 2) % 3];
            }
            let mut it = ids[..n_ids].iter();
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
