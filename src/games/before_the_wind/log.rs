//! Before the Wind's log: a sentence for every move, chance outcomes included, as a seat (or a
//! spectator who sees everything) may see it. Action cards are drawn face up into the
//! display and ships are laid out face up, bids are made aloud, goods are taken openly and
//! the table shows every hand and warehouse: a seat sees every move as it is. Only the
//! purses follow a visibility rule (`sees_purse`, the one the table and the tensor consult):
//! a sentence tells a seat a player's guilders only where its observation shows them.

use crate::engine::Action;
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{count_of, goods_count, goods_phrase, guilders, Kind, DECKS, GOOD, MAX_HARBOUR};
use super::state::{Phase, State, MAX_PLAYERS, NONE};
use super::BeforeTheWind;

/// Goods in each seat's hand and warehouse.
type Goods = [([u8; 4], [u8; 4]); MAX_PLAYERS];

fn goods_of(s: &State) -> Goods {
    let mut g = [([0; 4], [0; 4]); MAX_PLAYERS];
    for (p, x) in g.iter_mut().enumerate() {
        *x = (s.seats[p].hand, s.seats[p].warehouse);
    }
    g
}

fn in_play(p: Phase) -> bool {
    matches!(p, Phase::Play | Phase::Store | Phase::Load | Phase::TakeGoods | Phase::Exchange | Phase::Sell)
}

fn departing(p: Phase) -> bool {
    matches!(p, Phase::Spoil | Phase::Preserve)
}

impl BeforeTheWind {
    /// " (P1 now has 25 guilders)" for the seats `ps` whose purse `observer` sees after the move.
    fn purse(&self, after: &State, ps: &[usize], observer: Option<usize>) -> String {
        let shown: Vec<String> = ps
            .iter()
            .filter(|&&p| self.sees_purse(after, observer, p))
            .map(|&p| format!("P{p} now has {}", guilders(after.seats[p].money)))
            .collect();
        if shown.is_empty() {
            String::new()
        } else {
            format!(" ({})", shown.join(", "))
        }
    }

    /// The goods of every seat once the move itself is made, before anything that follows
    /// it at once (the end of the turn, the fleet leaving).
    pub(crate) fn goods_after_move(&self, s: &State, a: Action) -> Goods {
        let mut g = goods_of(s);
        let p = s.cursor as usize;
        let n = self.players;
        let store = |g: &mut Goods, k: usize| {
            g[p].0[k] -= 1;
            g[p].1[k] += 1;
        };
        let load = |g: &mut Goods, slot: usize| {
            let ship = &self.data.ships[s.harbour[slot] as usize];
            for k in 0..4 {
                g[p].1[k] -= ship.goods[k];
            }
        };
        let receive = |g: &mut Goods, design: u8| {
            if let Kind::Receive { goods } = self.data.kind(design) {
                for k in 0..4 {
                    g[p].0[k] += goods[k].min(s.stacks[k]);
                }
            }
        };
        match s.phase {
            Phase::StartGoods => g[p].0[(a - TAKE_GOOD) as usize] += 1,
            Phase::TakeGoods => {
                let k = (a - TAKE_GOOD) as usize;
                if s.to_warehouse {
                    g[p].1[k] += 1;
                } else {
                    g[p].0[k] += 1;
                }
            }
            Phase::Play | Phase::Store if (STORE..DONE).contains(&a) => store(&mut g, (a - STORE) as usize),
            Phase::Play | Phase::Load if (LOAD..SELL_HAND).contains(&a) => load(&mut g, (a - LOAD) as usize),
            Phase::Play if a == USE_CARD => receive(&mut g, s.seats[p].card),
            Phase::Play if (PLAY_KEPT..FINISH).contains(&a) => receive(&mut g, self.data.specials[(a - PLAY_KEPT) as usize]),
            Phase::Sell if a != DONE => {
                let k = ((a - SELL_HAND) % 4) as usize;
                if a < SELL_WAREHOUSE {
                    g[p].0[k] -= 1;
                } else {
                    g[p].1[k] -= 1;
                }
            }
            Phase::Exchange if a != DONE => {
                let (k, w, h) = exchange_parts(a);
                g[p].1[k] -= 1;
                g[p].1[h] += 1;
                if w == 0 {
                    g[p].0[h] -= 1;
                    g[p].0[k] += 1;
                } else {
                    let q = (p + w) % n;
                    g[q].1[h] -= 1;
                    g[q].1[k] += 1;
                }
            }
            _ => {}
        }
        g
    }

    /// What playing `design` does, after "P1 plays X".
    fn card_effect(&self, s: &State, design: u8, p: usize, observer: Option<usize>, after: &State) -> String {
        let r = &self.data.rules;
        match self.data.kind(design) {
            Kind::Receive { goods } => {
                let mut got = [0u8; 4];
                for g in 0..4 {
                    got[g] = goods[g].min(s.stacks[g]);
                }
                format!(" and receives {} into his hand", goods_phrase(&got))
            }
            Kind::ReceiveChoice { n } => format!(": he takes {} of his choice into his hand", goods_count(n as u32)),
            Kind::ReceiveAndStore { n, cost } => format!(
                ", pays {}{} and takes {} of his choice straight into his warehouse",
                guilders(cost),
                self.purse(after, &[p], observer),
                goods_count(n as u32)
            ),
            Kind::Preservation { n } => {
                format!(", placing it by his warehouse: it preserves {} when the fleet leaves", goods_count(n as u32))
            }
            Kind::Exchange => ": he exchanges up to 2 goods of his warehouse".into(),
            Kind::Sell => format!(": he sells goods at {} each", guilders(r.sell_price)),
            _ => String::new(),
        }
    }

    fn load_phrase(&self, s: &State, slot: usize, p: usize, after: &State) -> String {
        let ship = &self.data.ships[s.harbour[slot] as usize];
        format!(
            "loads the {}: it takes {} from his warehouse, and he scores {} VP (now {} VP)",
            ship.name,
            goods_phrase(&ship.goods),
            ship.vp,
            after.seats[p].vp
        )
    }

    /// The move itself.
    fn what_happened(&self, s: &State, a: Action, after: &State, observer: Option<usize>) -> String {
        let c = s.cursor as usize;
        let card = |q: usize| self.card_name(s.seats[q].card).to_string();
        let good = |k: Action| GOOD[k as usize % 4];
        match s.phase {
            Phase::Ships => format!("A {} arrives in the harbour.", self.data.ships[a as usize].name),
            Phase::StartGoods => format!("P{c} takes 1 {} as a starting good.", good(a - TAKE_GOOD)),
            Phase::ChooseDeck => {
                format!("P{} draws the next Action card from the {} deck.", s.active, DECKS[(a - DRAW) as usize])
            }
            Phase::Draw => format!(
                "{} is drawn from the {} deck and laid out.",
                self.card_name(a as u8),
                DECKS[s.draw_deck as usize % 3]
            ),
            Phase::Choose if a < SAFE_TAKE => {
                format!("P{c} takes {} face up.", self.card_name(s.display[(a - TAKE_CARD) as usize]))
            }
            Phase::Choose if a < CHALLENGE => format!(
                "P{c} plays the Safe and takes {} face down.",
                self.card_name(s.display[(a - SAFE_TAKE) as usize])
            ),
            Phase::Choose => {
                let q = (a - CHALLENGE) as usize;
                format!("P{c} opens an auction for P{q}'s {}.", card(q))
            }
            Phase::Bid => {
                let o = s.owner as usize;
                match a {
                    PASS => format!("P{c} passes in the auction for P{o}'s {}.", card(o)),
                    SAFE_BID => format!(
                        "P{c} plays the Safe and takes P{o}'s {} face down; P{o} receives {} from the bank{}.",
                        card(o),
                        guilders(self.from_bank(s, self.data.rules.safe_compensation)),
                        self.purse(after, &[o], observer)
                    ),
                    BID_MORE => format!(
                        "P{c} announces a bid of more than {} for P{o}'s {}.",
                        guilders(s.seats[c].bid + MAX_BID),
                        card(o)
                    ),
                    _ => format!("P{c} bids {} for P{o}'s {}.", guilders(s.seats[c].bid + a - BID + 1), card(o)),
                }
            }
            Phase::Resolve => {
                let o = s.owner as usize;
                let (q, sell) =
                    if a < KEEP_PAYING { ((a - SELL_TO) as usize, true) } else { ((a - KEEP_PAYING) as usize, false) };
                let b = guilders(s.seats[q].bid);
                let purses = self.purse(after, &[o, q], observer);
                if sell {
                    format!("P{o} sells {} to P{q} for P{q}'s bid of {b}{purses}; P{q} has it face down.", card(o))
                } else {
                    format!("P{o} keeps {} and pays P{q} {b}, P{q}'s bid{purses}; P{o} has it face down.", card(o))
                }
            }
            Phase::Play => {
                let d = s.seats[c].card;
                match a {
                    USE_CARD => format!("P{c} plays {}{}.", card(c), self.card_effect(s, d, c, observer, after)),
                    SET_ASIDE if self.data.designs[d as usize].special.is_some() => {
                        format!("P{c} keeps {} for a later turn.", card(c))
                    }
                    SET_ASIDE if matches!(self.data.kind(d), Kind::Receive { .. }) => {
                        format!("P{c} discards {}, which gives nothing: its goods stacks are empty.", card(c))
                    }
                    SET_ASIDE => format!("P{c} leaves {} unused.", card(c)),
                    FINISH => format!("P{c} plays no kept special card."),
                    PROFIT => {
                        let profit = match self.data.kind(d) {
                            Kind::LoadOrProfit { profit } => profit,
                            _ => 0,
                        };
                        format!(
                            "P{c} plays {} for its profit of {}{}.",
                            card(c),
                            guilders(self.from_bank(s, profit)),
                            self.purse(after, &[c], observer)
                        )
                    }
                    _ if (STORE..DONE).contains(&a) => {
                        let cost = match self.data.kind(d) {
                            Kind::Store { cost, .. } => cost,
                            _ => 0,
                        };
                        format!(
                            "P{c} plays {}, pays {}{} and stores 1 {} in his warehouse.",
                            card(c),
                            guilders(cost),
                            self.purse(after, &[c], observer),
                            good(a - STORE)
                        )
                    }
                    _ if (LOAD..SELL_HAND).contains(&a) => {
                        format!("P{c} plays {} and {}.", card(c), self.load_phrase(s, (a - LOAD) as usize, c, after))
                    }
                    _ => {
                        let k = (a - PLAY_KEPT) as usize;
                        let d = self.data.specials[k];
                        format!(
                            "P{c} plays his kept {}{}.",
                            self.card_name(d),
                            self.card_effect(s, d, c, observer, after)
                        )
                    }
                }
            }
            Phase::Store if a == DONE => format!("P{c} stores no more goods."),
            Phase::Store => format!("P{c} stores 1 {} in his warehouse.", good(a - STORE)),
            Phase::Load if a == DONE => format!("P{c} loads no more ships."),
            Phase::Load => format!("P{c} {}.", self.load_phrase(s, (a - LOAD) as usize, c, after)),
            Phase::TakeGoods => format!(
                "P{c} takes 1 {} into his {}.",
                good(a - TAKE_GOOD),
                if s.to_warehouse { "warehouse" } else { "hand" }
            ),
            Phase::Exchange if a == DONE => format!("P{c} exchanges no more goods."),
            Phase::Exchange => {
                let (g, w, h) = exchange_parts(a);
                let from = if w == 0 { "his hand".to_string() } else { format!("P{}'s warehouse", (c + w) % self.players) };
                format!("P{c} exchanges 1 {} of his warehouse for 1 {} from {from}.", GOOD[g], GOOD[h])
            }
            Phase::Sell if a == DONE => format!("P{c} sells no more goods."),
            Phase::Sell => format!(
                "P{c} sells 1 {} from his {} for {}{}.",
                good(a - SELL_HAND),
                if a < SELL_WAREHOUSE { "hand" } else { "warehouse" },
                guilders(self.from_bank(s, self.data.rules.sell_price)),
                self.purse(after, &[c], observer)
            ),
            Phase::Spoil => {
                let x = (a - SPOIL_CHEESE) as u8;
                let pl = &s.seats[c];
                let k = (pl.warehouse[1] + pl.warehouse[2]) / 2;
                format!("P{c} chooses the half that spoils: {} and {}.", count_of(x as u32, 1), count_of((k - x) as u32, 2))
            }
            Phase::Preserve if a == DONE => format!("P{c} lets the other goods spoil."),
            Phase::Preserve => format!(
                "P{c} preserves 1 {} in his {}.",
                good(a - PRESERVE_WAREHOUSE),
                if a < PRESERVE_HAND { "warehouse" } else { "hand" }
            ),
            Phase::GameOver => format!("Action {a}."),
        }
    }

    /// The seats whose obtained card (not a special card) the move set aside without asking,
    /// with the card: the cards discarded beyond those the move itself discarded (the auction's
    /// leftovers, the mover's own card), given in play order to the seats the move reached
    /// that held them.
    fn set_aside_unasked(&self, s: &State, a: Action, after: &State) -> Vec<(usize, u8)> {
        let designs = self.data.designs.len();
        let mut left: Vec<i32> = (0..designs)
            .map(|d| if self.data.designs[d].special.is_none() { after.discard[d] as i32 - s.discard[d] as i32 } else { 0 })
            .collect();
        if left.iter().all(|&k| k <= 0) {
            return Vec::new();
        }
        let c = s.cursor as usize;
        if matches!(s.phase, Phase::Choose | Phase::Bid | Phase::Resolve) {
            let taken = match (s.phase, a) {
                (Phase::Choose, _) if a < CHALLENGE => Some(((a - TAKE_CARD) % 4) as usize),
                _ => None,
            };
            for i in 0..MAX_PLAYERS {
                if s.display[i] != NONE && Some(i) != taken {
                    left[s.display[i] as usize] -= 1;
                }
            }
        }
        let decided = s.phase == Phase::Play
            && !s.card_done
            && (matches!(a, USE_CARD | SET_ASIDE | PROFIT) || (STORE..STORE + 4).contains(&a) || (LOAD..LOAD + MAX_HARBOUR as Action).contains(&a));
        if decided {
            left[s.seats[c].card as usize] -= 1;
        }
        let mut out = Vec::new();
        let mut q = if s.phase == Phase::Play { s.cursor } else { s.active };
        for _ in 0..self.players {
            let d = s.seats[q as usize].card;
            let reached = !(q as usize == c && s.phase == Phase::Play && (decided || s.card_done));
            if reached && d != NONE && left[d as usize] > 0 {
                left[d as usize] -= 1;
                out.push((q as usize, d));
            }
            q = self.next(q);
            if q == s.active {
                break;
            }
        }
        out
    }

    /// What followed the move at once: cards kept or discarded, the end of the turn, the
    /// fleet leaving and the goods that spoil, decks shuffled anew, the next turn.
    fn what_followed(&self, s: &State, a: Action, after: &State) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.players;
        let c = s.cursor as usize;
        // The end of the auction: the cards nobody took are discarded.
        if matches!(s.phase, Phase::Choose | Phase::Bid | Phase::Resolve)
            && !matches!(after.phase, Phase::Choose | Phase::Bid | Phase::Resolve)
        {
            let taken = match (s.phase, a) {
                (Phase::Choose, _) if a < CHALLENGE => Some(((a - TAKE_CARD) % 4) as usize),
                _ => None,
            };
            let left: Vec<&str> = (0..MAX_PLAYERS)
                .filter(|&i| s.display[i] != NONE && Some(i) != taken)
                .map(|i| self.card_name(s.display[i]))
                .collect();
            if !left.is_empty() {
                out.push(format!("Nobody took {}: discarded.", left.join(", ")));
            }
        }
        // Obtained cards set aside without a move, for a reason the table shows (ruling 9).
        for (q, d) in self.set_aside_unasked(s, a, after) {
            let name = self.card_name(d);
            out.push(match self.data.kind(d) {
                Kind::Receive { .. } => format!("P{q} discards {name}, which gives nothing: its goods stacks are empty."),
                _ if self.room(&s.seats[q]) == 0 => format!("P{q} leaves {name} unused: his warehouse is full."),
                _ => format!("P{q} leaves {name} unused: he holds no goods to store."),
            });
        }
        // Special cards kept because their owner could not play them.
        for q in 0..n {
            for (k, &d) in self.data.specials.iter().enumerate() {
                let mut more = after.seats[q].kept[k] as i32 - s.seats[q].kept[k] as i32;
                if s.phase == Phase::Play && a == SET_ASIDE && q == c && s.seats[c].card == d {
                    more -= 1;
                }
                if more > 0 {
                    out.push(format!("P{q} cannot play {} now and keeps it for a later turn.", self.card_name(d)));
                }
            }
        }
        // The end of the turn.
        let game_over = after.phase == Phase::GameOver && s.phase != Phase::GameOver;
        let turn_ended = game_over || (after.active != s.active && !departing(s.phase) && s.phase != Phase::Ships);
        if turn_ended && (in_play(s.phase) || matches!(s.phase, Phase::Choose | Phase::Bid | Phase::Resolve)) {
            out.push(format!("Turn {} ends.", s.turn));
        }
        let won = game_over && !after.truncated;
        // The fleet leaves: the ships left are discarded, then each player's goods spoil.
        let leaves = turn_ended && !won && {
            let loaded = matches!(s.phase, Phase::Play | Phase::Load) && (LOAD..SELL_HAND).contains(&a);
            let ships = s.harbour.iter().filter(|&&x| x != NONE).count() - loaded as usize;
            ships <= self.data.rules.fleet_leaves_at as usize
        };
        if turn_ended && !won {
            out.push(format!("P{} takes the active player marker.", after.active));
        }
        if leaves {
            let loaded = if (LOAD..SELL_HAND).contains(&a) { Some((a - LOAD) as usize) } else { None };
            let left: Vec<&str> = (0..MAX_HARBOUR)
                .filter(|&i| s.harbour[i] != NONE && Some(i) != loaded)
                .map(|i| self.data.ships[s.harbour[i] as usize].name.as_str())
                .collect();
            if left.is_empty() {
                out.push("The fleet leaves with no ship left in the harbour.".into());
            } else {
                out.push(format!("The fleet leaves: the {} {} discarded.", left.join(" and the "), if left.len() == 1 { "is" } else { "are" }));
            }
        }
        if leaves || departing(s.phase) {
            let done_after = if departing(after.phase) { after.spoil_done as usize } else { n };
            let (first, done_before) = if leaves { (after.active as usize, 0) } else { (c, s.spoil_done as usize) };
            let mid = self.goods_after_move(s, a);
            for i in 0..done_after.saturating_sub(done_before) {
                let q = (first + i) % n;
                let mut wh = [0u8; 4];
                let mut hand = [0u8; 4];
                for g in 0..4 {
                    wh[g] = mid[q].1[g].saturating_sub(after.seats[q].warehouse[g]);
                    hand[g] = mid[q].0[g].saturating_sub(after.seats[q].hand[g]);
                }
                let lost = match (wh.iter().any(|&x| x > 0), hand.iter().any(|&x| x > 0)) {
                    (false, false) => "nothing spoils".to_string(),
                    (true, false) => format!("{} spoil in the warehouse", goods_phrase(&wh)),
                    (false, true) => format!("{} in the hand spoil", goods_phrase(&hand)),
                    (true, true) => {
                        format!("{} spoil in the warehouse and {} in the hand", goods_phrase(&wh), goods_phrase(&hand))
                    }
                };
                out.push(format!("P{q}: {lost}."));
            }
        }
        // Decks formed anew from their discard piles.
        for d in 0..3u8 {
            let count = |x: &State| -> u32 {
                self.data.designs.iter().enumerate().filter(|(_, y)| y.deck == d).map(|(i, _)| x.deck[i] as u32).sum()
            };
            let drawn = (s.phase == Phase::Draw && s.draw_deck == d) as u32;
            if count(after) + drawn > count(s) {
                out.push(format!("The {} discard pile is shuffled into a new deck.", DECKS[d as usize]));
            }
        }
        for size in 0..2u8 {
            let count = |x: &State| -> u32 {
                self.data.ships.iter().enumerate().filter(|(_, y)| y.size == size).map(|(i, _)| x.ship_deck[i] as u32).sum()
            };
            let laid = (s.phase == Phase::Ships && self.data.ships[a as usize].size == size) as u32;
            if count(after) + laid > count(s) {
                let which = if size == 0 { "large" } else { "small" };
                out.push(format!("The discarded {which} ships are shuffled into a new deck."));
            }
        }
        if after.turn > s.turn && after.phase == Phase::ChooseDeck {
            out.push(format!("Turn {} begins: P{} lays out the Action cards.", after.turn, after.active));
        }
        if game_over && !after.truncated {
            out.push(format!("A player has {} VP or more.", self.data.to_win[&n]));
        }
        out
    }
}

impl Describe for BeforeTheWind {
    /// Nothing a seat may not see is chosen or drawn in secret: Action cards are laid out face
    /// up, ships too, and bids are made aloud; the log hides only what `sees_purse` hides.
    fn describe_move(&self, before: &State, a: Action, after: &State, observer: Option<usize>) -> String {
        let mut out = self.what_happened(before, a, after, observer);
        for s in self.what_followed(before, a, after) {
            out.push(' ');
            out.push_str(&s);
        }
        out
    }
}
