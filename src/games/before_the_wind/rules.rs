//! Before the Wind's rules: who acts, what is legal, and what each action and chance outcome
//! does. Sections refer to the rulebook; `docs/dev/before-the-wind-records.md` maps each rule
//! to its code and test, and `docs/games/before-the-wind.md` records the rulings.

use crate::engine::offers::{AnyOffer, Offers};
use crate::engine::rng::{below, Rng};
use crate::engine::{Action, Actor, GameSpec};
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{Kind, APPLES, CHEESE, LARGE, MAX_HARBOUR, SMALL, SPICES};
use super::state::{Counts, Phase, Player, Source, Standing, State, MAX_PLAYERS, NONE};
use super::BeforeTheWind;

/// Counts options up to two (whether a node has one option, or a choice).
#[derive(Default)]
pub(crate) struct Count(pub u8, pub Action);

impl Offers for Count {
    #[inline]
    fn offer(&mut self, a: Action) -> bool {
        self.0 += 1;
        self.1 = a;
        self.0 >= 2
    }
}

impl BeforeTheWind {
    // ----- setup (3.0) -----------------------------------------------------------------

    fn n(&self) -> usize {
        self.players
    }

    pub(crate) fn next(&self, p: u8) -> u8 {
        ((p as usize + 1) % self.players) as u8
    }

    // ----- chance ----------------------------------------------------------------------

    fn dealing_size(&self, s: &State) -> usize {
        if s.deal[LARGE] > 0 {
            LARGE
        } else {
            SMALL
        }
    }

    /// Cards of deck `d` in the deck and its discard pile.
    fn deck_cards(&self, d: u8, pile: &Counts<{ super::data::MAX_DESIGNS }>) -> u32 {
        self.data.deck_designs[d as usize].iter().map(|&i| pile[i as usize] as u32).sum()
    }

    /// 4.3: "If an Action card deck runs out, form a new one by shuffling the matching discard
    /// pile" (ruling 3: at once when it runs out, and when a card must be drawn from an empty deck).
    fn reshuffle_if_empty(&self, s: &mut State, d: u8) {
        if self.deck_cards(d, &s.deck) == 0 {
            for &i in &self.data.deck_designs[d as usize] {
                s.deck[i as usize] += s.discard[i as usize];
                s.discard[i as usize] = 0;
            }
        }
    }

    /// Ruling 4: an empty ship deck is formed again from its discard pile.
    fn reshuffle_ships_if_empty(&self, s: &mut State, size: usize) {
        if !self.ships_left(s, size) {
            for &i in &self.data.size_ships[size] {
                s.ship_deck[i as usize] += s.ship_discard[i as usize];
                s.ship_discard[i as usize] = 0;
            }
        }
    }

    /// Whether the ship deck of `size` holds a card.
    fn ships_left(&self, s: &State, size: usize) -> bool {
        self.data.size_ships[size].iter().any(|&i| s.ship_deck[i as usize] > 0)
    }

    /// Lays out the ships still to come (3.0, 4.4.2); a size whose deck and discard pile are
    /// both empty lays out no more. Then the game goes on.
    fn continue_dealing(&self, s: &mut State) {
        for size in [LARGE, SMALL] {
            if s.deal[size] > 0 {
                self.reshuffle_ships_if_empty(s, size);
                if !self.ships_left(s, size) {
                    s.deal[size] = 0;
                } else {
                    s.phase = Phase::Ships;
                    return;
                }
            }
        }
        if s.turn == 0 {
            // 3.0: "Beginning with the active player and continuing clockwise, each player takes
            // two Goods cards of his choice openly."
            s.cursor = s.active;
            self.next_starting_goods(s);
        } else {
            self.start_turn(s);
        }
    }

    fn next_starting_goods(&self, s: &mut State) {
        let want = self.data.rules.starting_goods;
        for _ in 0..self.n() {
            if s.seats[s.cursor as usize].held() < want && s.stacks.iter().any(|&x| x > 0) {
                s.phase = Phase::StartGoods;
                return;
            }
            s.cursor = self.next(s.cursor);
            if s.cursor == s.active {
                break;
            }
        }
        self.start_turn(s);
    }

    // ----- the turn (4.0) ----------------------------------------------------------------

    fn start_turn(&self, s: &mut State) {
        if s.turn >= self.max_turns {
            s.truncated = true;
            s.phase = Phase::GameOver;
            return;
        }
        s.turn += 1;
        s.drawn = [0; 3];
        s.display = [NONE; MAX_PLAYERS];
        for p in s.seats.iter_mut().take(self.players) {
            p.standing = Standing::Nothing;
            p.card = NONE;
            p.bid = 0;
            p.safe_used = false;
        }
        s.owner = NONE;
        s.challenger = NONE;
        s.phase = Phase::ChooseDeck;
    }

    /// 4.1: deck `d` may be drawn from: at most two cards from each deck, at least two decks.
    fn may_draw(&self, s: &State, d: usize) -> bool {
        let r = &self.data.rules;
        if s.drawn[d] >= r.max_from_deck {
            return false;
        }
        let total: u8 = s.drawn.iter().sum();
        let remaining = self.n() as u8 - total - 1;
        let mut after = s.drawn;
        after[d] += 1;
        let used = after.iter().filter(|&&x| x > 0).count() as u8;
        let unused = 3 - used;
        used + remaining.min(unused) >= r.min_decks
            && self.data.deck_designs[d].iter().any(|&i| s.deck[i as usize] > 0 || s.discard[i as usize] > 0)
    }

    // ----- the auction (4.2) -------------------------------------------------------------

    fn safe_index(&self) -> Option<usize> {
        self.data.specials.iter().position(|&d| self.data.kind(d) == Kind::Safe)
    }

    fn has_safe(&self, s: &State, p: usize) -> bool {
        self.safe_index().is_some_and(|k| s.seats[p].kept[k] > 0)
    }

    /// The lowest display slot holding each design (identical cards are one choice).
    fn first_slot(&self, s: &State, slot: usize) -> bool {
        let d = s.display[slot];
        d != NONE && !s.display[..slot].contains(&d)
    }

    /// The next player to choose: the first, clockwise from `from` (inclusive), who has
    /// nothing in front of him (ruling 5); none left ends the auction phase.
    pub(crate) fn next_chooser(&self, s: &mut State, from: u8) {
        let mut p = from;
        for _ in 0..self.n() {
            if s.seats[p as usize].standing == Standing::Nothing {
                s.cursor = p;
                s.phase = Phase::Choose;
                return;
            }
            p = self.next(p);
        }
        self.end_auction(s);
    }

    /// The next bidder after `s.cursor` in turn order: a player with nothing in front of him;
    /// back at the challenger, the owner chooses a bid (ruling 6).
    fn next_bidder(&self, s: &mut State) {
        let mut p = self.next(s.cursor);
        while p != s.challenger {
            if p != s.owner && s.seats[p as usize].standing == Standing::Nothing {
                s.cursor = p;
                s.phase = Phase::Bid;
                return;
            }
            p = self.next(p);
        }
        s.phase = Phase::Resolve;
    }

    fn discard_card(&self, s: &mut State, design: u8) {
        s.discard[design as usize] += 1;
    }

    fn use_safe(&self, s: &mut State, p: usize) {
        let k = self.safe_index().expect("a Safe is held");
        s.seats[p].kept[k] -= 1;
        s.seats[p].safe_used = true;
        self.discard_card(s, self.data.specials[k]);
    }

    fn clear_bids(&self, s: &mut State) {
        for p in s.seats.iter_mut() {
            p.bid = 0;
        }
    }

    /// 4.2: "Discard the Action cards nobody took face up onto the matching discard piles."
    fn end_auction(&self, s: &mut State) {
        for slot in 0..MAX_PLAYERS {
            if s.display[slot] != NONE {
                let d = s.display[slot];
                self.discard_card(s, d);
                s.display[slot] = NONE;
            }
        }
        s.owner = NONE;
        s.challenger = NONE;
        self.begin_play(s, s.active);
    }

    // ----- playing the cards (4.3) -------------------------------------------------------

    pub(crate) fn begin_play(&self, s: &mut State, p: u8) {
        s.cursor = p;
        s.phase = Phase::Play;
        s.card_done = s.seats[p as usize].card == NONE;
        s.kept_played = false;
        s.kept_now = false;
        s.playing = NONE;
        self.settle_play(s);
    }

    /// Moves past decisions that are not choices: a card that can only be set aside, for a
    /// reason the table shows, is set aside; a player with nothing more to play is done.
    fn settle_play(&self, s: &mut State) {
        loop {
            let p = s.cursor as usize;
            if !s.card_done {
                if self.sets_aside_unasked(s) {
                    self.set_aside(s, p);
                    continue;
                }
                return;
            }
            let mut any = AnyOffer::default();
            self.kept_options(s, &mut any);
            if any.0 {
                return;
            }
            // This player is done.
            s.kept_now = false;
            let next = self.next(s.cursor);
            if next == s.active {
                self.end_turn(s);
            } else {
                self.begin_play(s, next);
            }
            return;
        }
    }

    /// Whether `cursor`'s obtained card is set aside without asking him: nothing but setting
    /// it aside is offered, and not for want of guilders. A purse is secret (ruling 2), so
    /// whether a player is asked never depends on it: a player who cannot pay for a card he
    /// could otherwise use is asked, and may only leave it unused (or keep it).
    fn sets_aside_unasked(&self, s: &State) -> bool {
        let mut c = Count::default();
        self.play_options(s, &mut c);
        if !(c.0 == 1 && c.1 == SET_ASIDE) || self.card_usable(s) {
            return false;
        }
        let mut any = AnyOffer::default();
        self.kept_cards(s, true, &mut any);
        !any.0
    }

    /// Whether `cursor`'s obtained card could be used with guilders enough: what the table
    /// shows decides it.
    fn card_usable(&self, s: &State) -> bool {
        let p = s.cursor as usize;
        let pl = &s.seats[p];
        match self.data.kind(pl.card) {
            Kind::Receive { goods } => (0..4).any(|g| goods[g] > 0 && s.stacks[g] > 0),
            Kind::Store { .. } => self.room(pl) > 0 && pl.held() > 0,
            Kind::LoadOrProfit { .. } => true,
            special => self.special_playable(s, p, special),
        }
    }

    /// Whether the game waits for `cursor`'s choice here (in the playing phase: `settle_play`
    /// would not move on): a purse drawn afresh (ruling 2) must leave him a choice, as the
    /// true one does.
    pub(crate) fn waits(&self, s: &State) -> bool {
        if s.phase != Phase::Play {
            let mut any = AnyOffer::default();
            self.options(s, &mut any);
            return any.0;
        }
        if !s.card_done {
            return !self.sets_aside_unasked(s);
        }
        let mut any = AnyOffer::default();
        self.kept_options(s, &mut any);
        any.0
    }

    fn set_aside(&self, s: &mut State, p: usize) {
        let d = s.seats[p].card;
        s.card_done = true;
        match self.data.designs[d as usize].special {
            // 4.3.2: "special action cards may be played immediately or may be kept".
            Some(k) => {
                s.seats[p].kept[k as usize] += 1;
                s.kept_now = true;
            }
            None => self.discard_card(s, d),
        }
    }

    pub(crate) fn room(&self, pl: &Player) -> u8 {
        self.data.rules.warehouse_capacity.saturating_sub(pl.stored())
    }

    fn loadable(&self, s: &State, p: usize, slot: usize) -> bool {
        let sh = s.harbour[slot];
        if sh == NONE || s.harbour[..slot].contains(&sh) {
            return false;
        }
        let need = &self.data.ships[sh as usize].goods;
        (0..4).all(|g| s.seats[p].warehouse[g] >= need[g])
    }

    fn any_loadable(&self, s: &State, p: usize) -> bool {
        (0..MAX_HARBOUR).any(|slot| self.loadable(s, p, slot))
    }

    /// Whether special card `kind` can do anything for `p` now, given guilders enough: what
    /// the table shows decides it ([`Self::affordable`] adds the purse).
    fn special_playable(&self, s: &State, p: usize, kind: Kind) -> bool {
        let pl = &s.seats[p];
        let stock = s.stacks.iter().any(|&x| x > 0);
        match kind {
            Kind::ReceiveChoice { .. } => stock,
            Kind::Preservation { .. } => true,
            Kind::ReceiveAndStore { .. } => self.room(pl) > 0 && stock,
            Kind::Exchange => {
                let mut any = AnyOffer::default();
                self.exchange_options(s, p, &mut any);
                any.0
            }
            Kind::Sell => pl.held() + pl.stored() > 0,
            // 4.3.2 F: "you may only play this card during the Action card auction phase".
            Kind::Safe => false,
            _ => false,
        }
    }

    /// Whether `p` holds the guilders special card `kind` costs (4.3.2 C: "You must pay the
    /// amount shown (in guilders) to the bank").
    fn affordable(&self, s: &State, p: usize, kind: Kind) -> bool {
        match kind {
            Kind::ReceiveAndStore { cost, .. } => s.seats[p].money >= cost,
            _ => true,
        }
    }

    /// The options for the obtained card (while it is unused), with SET_ASIDE where the card
    /// may be left unused or kept (ruling 9), then the kept special cards.
    fn play_options(&self, s: &State, out: &mut impl Offers) {
        let p = s.cursor as usize;
        let pl = &s.seats[p];
        if !s.card_done {
            let kind = self.data.kind(pl.card);
            // Ruling 9: a Store card may be left unused (4.3.1 B: "If you cannot (or do not
            // wish to) use"), a special card kept (4.3.2); a Receive card is played whenever
            // it gives goods (4.3.1 A: "Place into your hand"), and a Load Goods onto Ship/Profit
            // card always (4.3.1 C: "you must choose: load goods onto a ship, or take the profit").
            let may_leave = match kind {
                Kind::Receive { goods } => {
                    if (0..4).any(|g| goods[g] > 0 && s.stacks[g] > 0) {
                        if out.offer(USE_CARD) {
                            return;
                        }
                        false
                    } else {
                        true
                    }
                }
                Kind::Store { cost, .. } => {
                    if pl.money >= cost && self.room(pl) > 0 {
                        for g in 0..4 {
                            if pl.hand[g] > 0 && out.offer(STORE + g as Action) {
                                return;
                            }
                        }
                    }
                    true
                }
                Kind::LoadOrProfit { .. } => {
                    if out.offer(PROFIT) {
                        return;
                    }
                    for slot in 0..MAX_HARBOUR {
                        if self.loadable(s, p, slot) && out.offer(LOAD + slot as Action) {
                            return;
                        }
                    }
                    false
                }
                special => {
                    if self.special_playable(s, p, special) && self.affordable(s, p, special) && out.offer(USE_CARD) {
                        return;
                    }
                    true
                }
            };
            if may_leave && out.offer(SET_ASIDE) {
                return;
            }
        }
        self.kept_options(s, out);
    }

    /// The kept special cards `cursor` may play now, and FINISH (declining them) once his
    /// obtained card is dealt with and a kept card could be played (ruling 2: with guilders
    /// enough).
    fn kept_options(&self, s: &State, out: &mut impl Offers) {
        self.kept_cards(s, false, out)
    }

    /// [`Self::kept_options`]; with `any_purse`, as if `cursor` held the guilders every card
    /// costs (what the table shows alone decides).
    fn kept_cards(&self, s: &State, any_purse: bool, out: &mut impl Offers) {
        let p = s.cursor as usize;
        let pl = &s.seats[p];
        // 4.3.2: one kept special per turn; F: none after playing the Safe this turn.
        if s.kept_played || pl.safe_used {
            return;
        }
        // 4.3.3: with a Load Goods onto Ship/Profit card still to play, Receive and Store and
        // Exchange must wait for it.
        let load_pending = !s.card_done && matches!(self.data.kind(pl.card), Kind::LoadOrProfit { .. });
        let mut any = false;
        // 4.3.2: a card kept "to be played on later turns" waits for the next turn.
        let kept_now = if s.kept_now { self.data.designs[pl.card as usize].special } else { None };
        for (k, &d) in self.data.specials.iter().enumerate() {
            if pl.kept[k] <= (kept_now == Some(k as u8)) as u8 {
                continue;
            }
            let kind = self.data.kind(d);
            if load_pending && matches!(kind, Kind::ReceiveAndStore { .. } | Kind::Exchange) {
                continue;
            }
            // Ruling 2: a kept card its owner could play but for his guilders still asks him
            // (he may then only decline it), so that being asked tells nothing of his purse.
            if self.special_playable(s, p, kind) {
                any = true;
                if (any_purse || self.affordable(s, p, kind)) && out.offer(PLAY_KEPT + k as Action) {
                    return;
                }
            }
        }
        if any && s.card_done {
            out.offer(FINISH);
        }
    }

    /// 4.3.2 D: exchanges of a good of `p`'s warehouse for a good of another kind from his
    /// hand or another player's warehouse.
    fn exchange_options(&self, s: &State, p: usize, out: &mut impl Offers) {
        let pl = &s.seats[p];
        for g in 0..4 {
            if pl.warehouse[g] == 0 {
                continue;
            }
            for w in 0..self.n() {
                for h in 0..4 {
                    if h == g {
                        continue;
                    }
                    let has = if w == 0 { pl.hand[h] > 0 } else { s.seats[(p + w) % self.n()].warehouse[h] > 0 };
                    if has && out.offer(exchange(g, w, h)) {
                        return;
                    }
                }
            }
        }
    }

    /// Starts playing card `design` for `cursor` (already paid for where it costs).
    fn start_card(&self, s: &mut State, design: u8, source: Source) {
        let p = s.cursor as usize;
        s.playing = design;
        s.source = source;
        let kind = self.data.kind(design);
        if let Kind::Preservation { .. } = kind {
            // 4.3.2 B: "Play this card by placing it next to your warehouse."
            let k = self.data.designs[design as usize].special.unwrap() as usize;
            s.seats[p].placed[k] += 1;
        } else {
            self.discard_card(s, design);
        }
        match kind {
            Kind::Receive { goods } => {
                // 4.3.1 A; ruling 9: a stack that has run out gives what it has.
                for g in 0..4 {
                    let k = goods[g].min(s.stacks[g]);
                    s.stacks[g] -= k;
                    s.seats[p].hand[g] += k;
                }
                self.back_to_play(s);
            }
            Kind::ReceiveChoice { n } => {
                s.left = n;
                s.to_warehouse = false;
                s.phase = Phase::TakeGoods;
            }
            Kind::ReceiveAndStore { n, cost } => {
                s.seats[p].money -= cost;
                s.left = n;
                s.to_warehouse = true;
                s.phase = Phase::TakeGoods;
            }
            Kind::Exchange => {
                s.left = 2;
                s.phase = Phase::Exchange;
            }
            Kind::Sell => s.phase = Phase::Sell,
            _ => self.back_to_play(s),
        }
        self.settle_step(s);
    }

    /// Ends a step that has nothing left to choose.
    fn settle_step(&self, s: &mut State) {
        let p = s.cursor as usize;
        let done = match s.phase {
            Phase::TakeGoods => {
                s.left == 0 || !s.stacks.iter().any(|&x| x > 0) || (s.to_warehouse && self.room(&s.seats[p]) == 0)
            }
            Phase::Store => s.left == 0 || self.room(&s.seats[p]) == 0 || s.seats[p].held() == 0,
            Phase::Load => !self.any_loadable(s, p),
            Phase::Exchange => {
                let mut any = AnyOffer::default();
                self.exchange_options(s, p, &mut any);
                s.left == 0 || !any.0
            }
            Phase::Sell => s.seats[p].held() + s.seats[p].stored() == 0,
            _ => false,
        };
        if done {
            self.back_to_play(s);
        }
    }

    fn back_to_play(&self, s: &mut State) {
        s.phase = Phase::Play;
        s.playing = NONE;
        s.left = 0;
        s.paid = false;
        self.settle_play(s);
    }

    /// 4.3: after all cards are played the turn ends: 5.0 the game may end; the marker
    /// passes; 4.4.1 the fleet may leave.
    fn end_turn(&self, s: &mut State) {
        let target = self.data.to_win[&self.players];
        if s.seats.iter().take(self.n()).any(|p| p.vp >= target) {
            s.winners = self.decide_winners(s);
            s.phase = Phase::GameOver;
            return;
        }
        s.active = self.next(s.active);
        let ships = s.harbour.iter().filter(|&&x| x != NONE).count();
        if ships <= self.data.rules.fleet_leaves_at as usize {
            // 4.4.1: "Discard the remaining Ship cards onto the matching discard piles."
            for slot in 0..MAX_HARBOUR {
                if s.harbour[slot] != NONE {
                    s.ship_discard[s.harbour[slot] as usize] += 1;
                    s.harbour[slot] = NONE;
                }
            }
            s.spoil_done = 0;
            self.begin_spoil(s, s.active);
        } else {
            self.start_turn(s);
        }
    }

    /// 5.0: most victory points; ties: more goods in the warehouse, then more guilders;
    /// players still tied share the win (ruling 12). A bit per winning seat.
    pub(crate) fn decide_winners(&self, s: &State) -> u8 {
        let key = |p: usize| {
            let pl = &s.seats[p];
            (pl.vp, pl.stored() as u32, pl.money)
        };
        let best = (0..self.n()).map(key).max().unwrap();
        (0..self.n()).filter(|&p| key(p) == best).fold(0u8, |m, p| m | 1 << p)
    }

    // ----- the bank ----------------------------------------------------------------------

    /// The guilders in the bank with `bank="limited"` (the box's, less what the players
    /// hold); None when the bank is unlimited (ruling 17).
    pub(crate) fn bank(&self, s: &State) -> Option<u32> {
        self.limited_bank.then(|| {
            let held: u32 = s.seats.iter().take(self.n()).map(|p| p.money).sum();
            self.data.rules.bank_guilders.saturating_sub(held)
        })
    }

    /// What the bank pays of `amount`: all of it, or with a limited bank what it holds.
    pub(crate) fn from_bank(&self, s: &State, amount: u32) -> u32 {
        self.bank(s).map_or(amount, |b| b.min(amount))
    }

    // ----- the fleet leaves (4.4.1) --------------------------------------------------------

    fn preservation_of(&self, pl: &Player) -> u8 {
        self.data.specials.iter().enumerate().map(|(k, &d)| match self.data.kind(d) {
            Kind::Preservation { n } => pl.placed[k] * n,
            _ => 0,
        }).sum()
    }

    /// The cheeses that may spoil (the rest of the spoiling share are spices): `lo..=hi`.
    fn cheese_range(&self, pl: &Player) -> (u8, u8) {
        let (c, sp) = (pl.warehouse[CHEESE], pl.warehouse[SPICES]);
        let k = (c + sp) / 2;
        (k.saturating_sub(sp), c.min(k))
    }

    fn begin_spoil(&self, s: &mut State, p: u8) {
        s.cursor = p;
        let pl = s.seats[p as usize];
        let (lo, hi) = self.cheese_range(&pl);
        if lo < hi {
            s.phase = Phase::Spoil;
        } else {
            self.spoil_cheese(s, lo);
        }
    }

    fn spoil_cheese(&self, s: &mut State, x: u8) {
        let pl = s.seats[s.cursor as usize];
        let k = (pl.warehouse[CHEESE] + pl.warehouse[SPICES]) / 2;
        s.spoiling = [pl.warehouse[APPLES], x, k - x, 0];
        s.preserved_hand = [0; 4];
        s.preserve_left = self.preservation_of(&pl);
        s.phase = Phase::Preserve;
        self.settle_preserve(s);
    }

    fn settle_preserve(&self, s: &mut State) {
        let mut c = Count::default();
        self.preserve_options(s, &mut c);
        if c.0 == 0 || (c.0 == 1 && c.1 == DONE) {
            self.apply_spoil(s);
        }
    }

    fn preserve_options(&self, s: &State, out: &mut impl Offers) {
        if s.preserve_left == 0 {
            return;
        }
        let pl = &s.seats[s.cursor as usize];
        let warehouse_spoiling: u8 = s.spoiling.iter().sum();
        for g in 0..4 {
            if s.spoiling[g] > 0 && out.offer(PRESERVE_WAREHOUSE + g as Action) {
                return;
            }
        }
        // Ruling 10: hand goods only when the card preserves more goods than the warehouse
        // holds, with what is left after every spoiling good of the warehouse.
        if warehouse_spoiling == 0 && self.preservation_of(pl) > pl.stored() {
            for g in 0..4 {
                if pl.hand[g] > s.preserved_hand[g] && out.offer(PRESERVE_HAND + g as Action) {
                    return;
                }
            }
        }
        out.offer(DONE);
    }

    /// The spoiled goods go back to the stacks; the hand is discarded but for preserved goods;
    /// placed Preservation cards are discarded (ruling 11). Then the next player.
    fn apply_spoil(&self, s: &mut State) {
        let p = s.cursor as usize;
        for g in 0..4 {
            s.seats[p].warehouse[g] -= s.spoiling[g];
            s.stacks[g] += s.spoiling[g];
            let lost = s.seats[p].hand[g] - s.preserved_hand[g];
            s.seats[p].hand[g] -= lost;
            s.stacks[g] += lost;
        }
        for k in 0..self.data.specials.len() {
            let n = s.seats[p].placed[k];
            if n > 0 {
                s.discard[self.data.specials[k] as usize] += n;
                s.seats[p].placed[k] = 0;
            }
        }
        s.spoiling = [0; 4];
        s.preserved_hand = [0; 4];
        s.preserve_left = 0;
        s.spoil_done += 1;
        if (s.spoil_done as usize) < self.n() {
            self.begin_spoil(s, self.next(s.cursor));
        } else {
            // 4.4.2: new ships arrive.
            s.deal = self.data.harbour[&self.players];
            self.continue_dealing(s);
        }
    }

    // ----- legal actions ----------------------------------------------------------------

    pub(crate) fn options(&self, s: &State, out: &mut impl Offers) {
        let p = s.cursor as usize;
        let pl = &s.seats[p];
        match s.phase {
            Phase::StartGoods => {
                for g in 0..4 {
                    if s.stacks[g] > 0 && out.offer(TAKE_GOOD + g as Action) {
                        return;
                    }
                }
            }
            Phase::ChooseDeck => {
                for d in 0..3 {
                    if self.may_draw(s, d) && out.offer(DRAW + d as Action) {
                        return;
                    }
                }
            }
            Phase::Choose => {
                for slot in 0..MAX_PLAYERS {
                    if self.first_slot(s, slot) && out.offer(TAKE_CARD + slot as Action) {
                        return;
                    }
                }
                if self.has_safe(s, p) {
                    for slot in 0..MAX_PLAYERS {
                        if self.first_slot(s, slot) && out.offer(SAFE_TAKE + slot as Action) {
                            return;
                        }
                    }
                }
                if pl.money >= 1 || self.has_safe(s, p) {
                    for q in 0..self.n() {
                        if q != p && s.seats[q].standing == Standing::FaceUp && out.offer(CHALLENGE + q as Action) {
                            return;
                        }
                    }
                }
            }
            Phase::Bid => {
                // Ruling 7: a bid above MAX_BID is announced MAX_BID at a time (pl.bid holds
                // what was announced), then made; once announced, there is no passing.
                let announced = pl.bid;
                if announced == 0 {
                    if p != s.challenger as usize && out.offer(PASS) {
                        return;
                    }
                    if self.has_safe(s, p) && out.offer(SAFE_BID) {
                        return;
                    }
                }
                let room = pl.money - announced;
                if out.offer_range(BID..BID + room.min(MAX_BID)) {
                    return;
                }
                if room > MAX_BID {
                    out.offer(BID_MORE);
                }
            }
            Phase::Resolve => {
                let owner = &s.seats[s.owner as usize];
                for q in 0..self.n() {
                    if s.seats[q].bid > 0 && out.offer(SELL_TO + q as Action) {
                        return;
                    }
                }
                for q in 0..self.n() {
                    let b = s.seats[q].bid;
                    if b > 0 && owner.money >= b && out.offer(KEEP_PAYING + q as Action) {
                        return;
                    }
                }
            }
            Phase::Play => self.play_options(s, out),
            Phase::Store => {
                for g in 0..4 {
                    if pl.hand[g] > 0 && out.offer(STORE + g as Action) {
                        return;
                    }
                }
                out.offer(DONE);
            }
            Phase::Load => {
                for slot in 0..MAX_HARBOUR {
                    if self.loadable(s, p, slot) && out.offer(LOAD + slot as Action) {
                        return;
                    }
                }
                out.offer(DONE);
            }
            Phase::TakeGoods => {
                for g in 0..4 {
                    if s.stacks[g] > 0 && out.offer(TAKE_GOOD + g as Action) {
                        return;
                    }
                }
            }
            Phase::Exchange => {
                self.exchange_options(s, p, out);
                if s.left < 2 {
                    out.offer(DONE);
                }
            }
            Phase::Sell => {
                for g in 0..4 {
                    if pl.hand[g] > 0 && out.offer(SELL_HAND + g as Action) {
                        return;
                    }
                }
                for g in 0..4 {
                    if pl.warehouse[g] > 0 && out.offer(SELL_WAREHOUSE + g as Action) {
                        return;
                    }
                }
                out.offer(DONE);
            }
            Phase::Spoil => {
                let (lo, hi) = self.cheese_range(pl);
                for x in lo..=hi {
                    if out.offer(SPOIL_CHEESE + x as Action) {
                        return;
                    }
                }
            }
            Phase::Preserve => self.preserve_options(s, out),
            Phase::Ships | Phase::Draw | Phase::GameOver => {}
        }
    }

    // ----- applying actions ---------------------------------------------------------------

    fn apply_play(&self, s: &mut State, a: Action) {
        let p = s.cursor as usize;
        let card = s.seats[p].card;
        match a {
            USE_CARD => {
                s.card_done = true;
                self.start_card(s, card, Source::Obtained);
            }
            SET_ASIDE => {
                self.set_aside(s, p);
                self.settle_play(s);
            }
            FINISH => {
                s.kept_played = true;
                self.settle_play(s);
            }
            PROFIT => {
                s.card_done = true;
                self.discard_card(s, card);
                if let Kind::LoadOrProfit { profit } = self.data.kind(card) {
                    s.seats[p].money += self.from_bank(s, profit);
                }
                self.settle_play(s);
            }
            _ if (STORE..STORE + 4).contains(&a) => {
                // 4.3.1 B: the full cost is paid when the card is used (ruling 9: using it
                // means storing at least one good).
                s.card_done = true;
                self.discard_card(s, card);
                s.playing = card;
                s.source = Source::Obtained;
                if let Kind::Store { n, cost } = self.data.kind(card) {
                    s.seats[p].money -= cost;
                    s.left = n;
                }
                s.paid = true;
                s.phase = Phase::Store;
                self.store_good(s, (a - STORE) as usize);
                self.settle_step(s);
            }
            _ if (LOAD..LOAD + MAX_HARBOUR as Action).contains(&a) => {
                s.card_done = true;
                self.discard_card(s, card);
                s.playing = card;
                s.source = Source::Obtained;
                s.phase = Phase::Load;
                self.load_ship(s, (a - LOAD) as usize);
                self.settle_step(s);
            }
            _ => {
                let k = (a - PLAY_KEPT) as usize;
                s.kept_played = true;
                s.seats[p].kept[k] -= 1;
                self.start_card(s, self.data.specials[k], Source::Kept);
            }
        }
    }

    fn store_good(&self, s: &mut State, g: usize) {
        let p = s.cursor as usize;
        s.seats[p].hand[g] -= 1;
        s.seats[p].warehouse[g] += 1;
        s.left -= 1;
    }

    /// 4.3.1 C: "Discard the indicated goods from your warehouse ... Take the corresponding
    /// Ship card and place it face down in front of you."
    fn load_ship(&self, s: &mut State, slot: usize) {
        let p = s.cursor as usize;
        let ship = &self.data.ships[s.harbour[slot] as usize];
        for g in 0..4 {
            s.seats[p].warehouse[g] -= ship.goods[g];
            s.stacks[g] += ship.goods[g];
        }
        s.seats[p].vp += ship.vp;
        s.seats[p].ships += 1;
        s.harbour[slot] = NONE;
    }
}

impl Rules for BeforeTheWind {
    type State = State;

    /// Format 2: `kept_now` (a special kept this turn waits for the next turn).
    const STATE_FORMAT: u32 = 2;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        if state.phase != Phase::GameOver || state.truncated {
            return Vec::new();
        }
        (0..self.players).filter(|&p| state.winners & (1 << p) != 0).collect()
    }

    fn is_truncated(&self, state: &State) -> bool {
        state.truncated
    }

    /// The table before the ships are laid out: money, decks, goods stacks (3.0).
    fn initial_state(&self) -> State {
        let r = &self.data.rules;
        let mut seats = [Player::default(); MAX_PLAYERS];
        for p in seats.iter_mut().take(self.players) {
            p.money = r.starting_guilders;
        }
        let mut deck = Counts::default();
        for (i, d) in self.data.designs.iter().enumerate() {
            deck[i] = d.count;
        }
        let mut ship_deck = Counts::default();
        for (i, d) in self.data.ships.iter().enumerate() {
            ship_deck[i] = d.count;
        }
        let mut s = State {
            phase: Phase::Ships,
            players: self.players as u8,
            active: 0,
            turn: 0,
            cursor: 0,
            seats,
            stacks: [r.goods_per_kind; 4],
            deck,
            discard: Counts::default(),
            ship_deck,
            ship_discard: Counts::default(),
            harbour: [NONE; MAX_HARBOUR],
            deal: self.data.harbour[&self.players],
            drawn: [0; 3],
            draw_deck: 0,
            display: [NONE; MAX_PLAYERS],
            owner: NONE,
            challenger: NONE,
            card_done: false,
            kept_played: false,
            kept_now: false,
            playing: NONE,
            source: Source::Obtained,
            left: 0,
            to_warehouse: false,
            paid: false,
            spoiling: [0; 4],
            preserved_hand: [0; 4],
            preserve_left: 0,
            spoil_done: 0,
            winners: 0,
            truncated: false,
        };
        self.continue_dealing(&mut s);
        s
    }

    fn actor(&self, s: &State) -> Actor {
        match s.phase {
            Phase::Ships | Phase::Draw => Actor::Chance,
            Phase::GameOver => Actor::Terminal,
            Phase::ChooseDeck => Actor::Player(s.active as usize),
            Phase::Resolve => Actor::Player(s.owner as usize),
            _ => Actor::Player(s.cursor as usize),
        }
    }

    /// The legal actions, sorted (the options are generated in id order except where
    /// noted, so a sort of the short list keeps this allocation-free).
    fn player_actions(&self, s: &State, out: &mut Vec<Action>) {
        self.options(s, out);
        if !out.is_sorted() {
            out.sort_unstable();
        }
    }

    /// The chance outcomes with their weights (cards of each design in the deck).
    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        match s.phase {
            Phase::Draw => {
                for &i in &self.data.deck_designs[s.draw_deck as usize] {
                    let n = s.deck[i as usize];
                    if n > 0 {
                        f(i as Action, n as u32);
                    }
                }
            }
            Phase::Ships => {
                for &i in &self.data.size_ships[self.dealing_size(s)] {
                    let n = s.ship_deck[i as usize];
                    if n > 0 {
                        f(i as Action, n as u32);
                    }
                }
            }
            _ => {}
        }
    }

    /// Draws a chance outcome: the same draw as the engine's general path (one `below` over
    /// the total weight, the outcomes in id order), in one pass over the deck's designs.
    fn sample_chance(&self, s: &State, rng: &mut Rng) -> Action {
        let (ids, pile): (&[u8], &[u8]) = match s.phase {
            Phase::Draw => (&self.data.deck_designs[s.draw_deck as usize], &s.deck.0),
            Phase::Ships => (&self.data.size_ships[self.dealing_size(s)], &s.ship_deck.0),
            _ => panic!("a chance node has outcomes"),
        };
        let total: u32 = ids.iter().map(|&i| pile[i as usize] as u32).sum();
        let mut pick = below(rng, total);
        for &i in ids {
            let n = pile[i as usize] as u32;
            if pick < n {
                return i as Action;
            }
            pick -= n;
        }
        panic!("a chance node has outcomes")
    }

    fn apply(&self, s: &mut State, a: Action) {
        match s.phase {
            Phase::Ships => {
                let slot = s.harbour.iter().position(|&x| x == NONE).expect("room in the harbour");
                s.harbour[slot] = a as u8;
                s.ship_deck[a as usize] -= 1;
                let size = self.dealing_size(s);
                s.deal[size] -= 1;
                self.continue_dealing(s);
            }
            Phase::StartGoods => {
                let g = (a - TAKE_GOOD) as usize;
                s.stacks[g] -= 1;
                s.seats[s.cursor as usize].hand[g] += 1;
                self.next_starting_goods(s);
            }
            Phase::ChooseDeck => {
                s.draw_deck = (a - DRAW) as u8;
                self.reshuffle_if_empty(s, s.draw_deck);
                s.phase = Phase::Draw;
            }
            Phase::Draw => {
                s.deck[a as usize] -= 1;
                let d = s.draw_deck;
                self.reshuffle_if_empty(s, d);
                let k: u8 = s.drawn.iter().sum();
                s.display[k as usize] = a as u8;
                s.drawn[d as usize] += 1;
                if k as usize + 1 == self.n() {
                    // 4.2: "Beginning with the active player ..."
                    self.next_chooser(s, s.active);
                } else {
                    s.phase = Phase::ChooseDeck;
                }
            }
            Phase::Choose => {
                let p = s.cursor as usize;
                match a {
                    _ if (TAKE_CARD..TAKE_CARD + 4).contains(&a) => {
                        let slot = (a - TAKE_CARD) as usize;
                        s.seats[p].card = s.display[slot];
                        s.display[slot] = NONE;
                        s.seats[p].standing = Standing::FaceUp;
                        self.next_chooser(s, s.cursor);
                    }
                    _ if (SAFE_TAKE..SAFE_TAKE + 4).contains(&a) => {
                        // 4.3.2 F: "place the chosen Action card face down in front of you."
                        let slot = (a - SAFE_TAKE) as usize;
                        self.use_safe(s, p);
                        s.seats[p].card = s.display[slot];
                        s.display[slot] = NONE;
                        s.seats[p].standing = Standing::FaceDown;
                        self.next_chooser(s, s.cursor);
                    }
                    _ => {
                        s.owner = (a - CHALLENGE) as u8;
                        s.challenger = s.cursor;
                        self.clear_bids(s);
                        s.phase = Phase::Bid;
                    }
                }
            }
            Phase::Bid => {
                let p = s.cursor as usize;
                if a == SAFE_BID {
                    // 4.3.2 F: "you automatically obtain that Action card, and its previous
                    // owner receives compensation of 5 guilders from the bank" (ruling 8).
                    self.use_safe(s, p);
                    let o = s.owner as usize;
                    s.seats[p].card = s.seats[o].card;
                    s.seats[p].standing = Standing::FaceDown;
                    s.seats[o].card = NONE;
                    s.seats[o].standing = Standing::Guilders;
                    s.seats[o].money += self.from_bank(s, self.data.rules.safe_compensation);
                    self.clear_bids(s);
                    let c = s.challenger;
                    s.owner = NONE;
                    s.challenger = NONE;
                    self.next_chooser(s, c);
                } else if a == BID_MORE {
                    s.seats[p].bid += MAX_BID;
                } else {
                    if a != PASS {
                        s.seats[p].bid += a - BID + 1;
                    }
                    self.next_bidder(s);
                }
            }
            Phase::Resolve => {
                let o = s.owner as usize;
                let (q, sell) = if a < KEEP_PAYING { ((a - SELL_TO) as usize, true) } else { ((a - KEEP_PAYING) as usize, false) };
                let b = s.seats[q].bid;
                if sell {
                    // "He may take the guilders from the player who made that bid and then hand
                    // him the Action card."
                    s.seats[q].money -= b;
                    s.seats[o].money += b;
                    s.seats[q].card = s.seats[o].card;
                    s.seats[o].card = NONE;
                    s.seats[q].standing = Standing::FaceDown;
                    s.seats[o].standing = Standing::Guilders;
                } else {
                    // "He may pay the guilders to the player who made the bid and keep the Action card."
                    s.seats[o].money -= b;
                    s.seats[q].money += b;
                    s.seats[o].standing = Standing::FaceDown;
                    s.seats[q].standing = Standing::Guilders;
                }
                self.clear_bids(s);
                let c = s.challenger;
                s.owner = NONE;
                s.challenger = NONE;
                self.next_chooser(s, c);
            }
            Phase::Play => self.apply_play(s, a),
            Phase::Store => {
                if a == DONE {
                    self.back_to_play(s);
                } else {
                    self.store_good(s, (a - STORE) as usize);
                    self.settle_step(s);
                }
            }
            Phase::Load => {
                if a == DONE {
                    self.back_to_play(s);
                } else {
                    self.load_ship(s, (a - LOAD) as usize);
                    self.settle_step(s);
                }
            }
            Phase::TakeGoods => {
                let g = (a - TAKE_GOOD) as usize;
                let p = s.cursor as usize;
                s.stacks[g] -= 1;
                if s.to_warehouse {
                    s.seats[p].warehouse[g] += 1;
                } else {
                    s.seats[p].hand[g] += 1;
                }
                s.left -= 1;
                self.settle_step(s);
            }
            Phase::Exchange => {
                if a == DONE {
                    self.back_to_play(s);
                } else {
                    let p = s.cursor as usize;
                    let (g, w, h) = exchange_parts(a);
                    s.seats[p].warehouse[g] -= 1;
                    s.seats[p].warehouse[h] += 1;
                    if w == 0 {
                        s.seats[p].hand[h] -= 1;
                        s.seats[p].hand[g] += 1;
                    } else {
                        let q = (p + w) % self.n();
                        s.seats[q].warehouse[h] -= 1;
                        s.seats[q].warehouse[g] += 1;
                    }
                    s.left -= 1;
                    self.settle_step(s);
                }
            }
            Phase::Sell => {
                if a == DONE {
                    self.back_to_play(s);
                } else {
                    let p = s.cursor as usize;
                    let g = ((a - SELL_HAND) % 4) as usize;
                    if a < SELL_WAREHOUSE {
                        s.seats[p].hand[g] -= 1;
                    } else {
                        s.seats[p].warehouse[g] -= 1;
                    }
                    s.stacks[g] += 1;
                    s.seats[p].money += self.from_bank(s, self.data.rules.sell_price);
                    self.settle_step(s);
                }
            }
            Phase::Spoil => self.spoil_cheese(s, (a - SPOIL_CHEESE) as u8),
            Phase::Preserve => {
                if a == DONE {
                    self.apply_spoil(s);
                } else {
                    s.preserve_left -= 1;
                    if a < PRESERVE_HAND {
                        s.spoiling[(a - PRESERVE_WAREHOUSE) as usize] -= 1;
                    } else {
                        s.preserved_hand[(a - PRESERVE_HAND) as usize] += 1;
                    }
                    self.settle_preserve(s);
                }
            }
            Phase::GameOver => {}
        }
    }
}
