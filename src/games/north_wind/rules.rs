//! The rules of North Wind: legal moves, state transitions and chance.
//! Section names in comments are the rulebook's.

use crate::engine::offers::{AnyOffer, Offers};
use crate::engine::rng::{below, Rng};
use crate::engine::{Action, Actor, GameSpec};
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{CombatOutcome, EventOutcome, Kind, BOATSWAIN, BOOKKEEPER, GUNNER, LOOKOUT, TREASURER};
use super::state::{Phase, Ship, State, Voyage, NONE, PUBLIC, VIEWS};
use super::NorthWind;

impl NorthWind {

    // ----- tokens and bonuses ---------------------------------------------------------

    /// Victory point tokens `p` has placed on the scoring board.
    pub fn placed(&self, s: &State, p: usize) -> u8 {
        // Saturating: a state loaded from outside is validated with this before its counts are
        // known to be sane.
        let mut n: u8 = 0;
        for port in 0..3 {
            n = n.saturating_add(s.column[port][p]);
            if s.majority[port] as usize == p {
                n = n.saturating_add(1);
            }
        }
        n.saturating_add(s.ships[p].supply_bonus as u8).saturating_add(s.ships[p].crew_bonus as u8)
    }

    fn available(&self, s: &State, p: usize) -> bool {
        self.placed(s, p) < self.tokens
    }

    /// Bonus spaces: the majority of each column (a tie removes it), supplying all three
    /// ports, full crew strength.
    pub(crate) fn refresh_bonuses(&self, s: &mut State) {
        let n = self.players;
        for port in 0..3 {
            let col = s.column[port];
            let max = col[..n].iter().copied().max().unwrap_or(0);
            let holders = col[..n].iter().filter(|&&c| c == max).count();
            let unique = if max > 0 && holders == 1 {
                col[..n].iter().position(|&c| c == max).unwrap() as u8
            } else {
                NONE
            };
            if s.majority[port] != unique {
                s.majority[port] = NONE;
                if unique != NONE && self.available(s, unique as usize) {
                    s.majority[port] = unique;
                }
            }
        }
        for p in 0..n {
            if !s.ships[p].supply_bonus && (0..3).all(|port| s.column[port][p] > 0) && self.available(s, p) {
                s.ships[p].supply_bonus = true;
            }
            if !s.ships[p].crew_bonus
                && s.ships[p].crew_count() >= self.data.rules.crew_per_player
                && self.data.rules.crew_per_player > 0
                && self.available(s, p)
            {
                s.ships[p].crew_bonus = true;
            }
        }
    }

    /// End of the game: whoever is on turn and has placed all tokens wins.
    fn check_win(&self, s: &mut State) -> bool {
        if self.placed(s, s.active as usize) >= self.tokens {
            s.winner = s.active;
            s.phase = Phase::GameOver;
            return true;
        }
        false
    }

    // ----- turn structure -------------------------------------------------------------

    /// Start of a turn: the win check, then gold income for the poor.
    pub(crate) fn start_turn(&self, s: &mut State) {
        if s.turn >= self.max_turns {
            s.truncated = true;
            s.phase = Phase::GameOver;
            return;
        }
        if self.check_win(s) {
            return;
        }
        let r = &self.data.rules;
        let a = s.active as usize;
        if s.ships[a].gold == 0 {
            let income = if s.ships[a].has(TREASURER) { r.treasurer_income } else { r.poor_income };
            self.pay(s, a, income);
        }
        s.phase = Phase::ChooseStack;
    }

    /// Gold from the bank to player `p`: `amount` ("take ... gold from the supply"); with
    /// `gold="limited"`, what the bank holds if that is less (ruling 13).
    fn pay(&self, s: &mut State, p: usize, amount: u32) {
        let paid = if self.limited_gold { amount.min(s.supply_gold) } else { amount };
        // Saturating only so that a hostile saved state cannot overflow; no game gets near it.
        s.ships[p].gold = s.ships[p].gold.saturating_add(paid);
        if self.limited_gold {
            s.supply_gold -= paid;
        }
    }

    /// Gold from player `p` to the bank.
    fn charge(&self, s: &mut State, p: usize, amount: u32) {
        s.ships[p].gold -= amount;
        if self.limited_gold {
            s.supply_gold += amount;
        }
    }

    /// Whether the bank can pay `amount` in full: always, unless `gold="limited"` (ruling 13).
    #[inline]
    fn bank_pays(&self, s: &State, amount: u32) -> bool {
        !self.limited_gold || s.supply_gold >= amount
    }

    fn remaining(&self, s: &State) -> u32 {
        s.stack_cards[s.voyage.stack as usize] & !s.voyage.drawn
    }

    /// After a card is dealt with: sail on while range, actions and cards last.
    fn continue_voyage(&self, s: &mut State) {
        let v = &s.voyage;
        if v.actions >= self.data.rules.actions_per_voyage
            || v.revealed >= s.ships[s.active as usize].sail
            || self.remaining(s) == 0
        {
            self.end_voyage(s);
        } else {
            s.voyage.current = NONE;
            s.phase = Phase::Reveal;
        }
    }

    /// End of the voyage: a trade letter for a voyage of at most 1 action, the stack is
    /// shuffled (the cards go back, their order forgotten), and the next player's turn starts.
    fn end_voyage(&self, s: &mut State) {
        let r = &self.data.rules;
        let a = s.active as usize;
        if s.voyage.actions <= 1 && s.ships[a].letters < r.max_letters && s.supply_letters > 0 {
            s.ships[a].letters += 1;
            s.supply_letters -= 1;
        }
        self.record_knowledge(s);
        s.voyage = Voyage::default();
        s.active = (s.active + 1) % s.players;
        s.turn += 1;
        self.start_turn(s);
    }

    /// Adds what each view saw on this voyage to its knowledge of the stack.
    /// Only the types seen this voyage are visited (at most 9 cards), not every type.
    fn record_knowledge(&self, s: &mut State) {
        let stack = s.voyage.stack as usize;
        let mut public = [0u8; 32];
        let mut mask = 0u32;
        for i in 0..s.voyage.revealed as usize {
            let t = self.data.card_type[s.voyage.order[i] as usize] as usize;
            public[t] += 1;
            mask |= 1 << t;
        }
        let private = if s.voyage.slid != NONE { Some(self.data.card_type[s.voyage.slid as usize] as usize) } else { None };
        let active = s.active as usize;
        for v in 0..VIEWS {
            if v != PUBLIC && v >= self.players {
                continue;
            }
            let mut m = mask;
            let mut extra = usize::MAX;
            if v == active {
                if let Some(t) = private {
                    m |= 1 << t;
                    extra = t;
                }
            }
            s.seen[v][stack] |= m;
            m &= self.data.multi_types;
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(mi) = self.data.types[t].multi {
                    let k = public[t] as usize + (t == extra) as usize;
                    let cell = &mut s.runs[v][stack][mi as usize][k];
                    *cell = cell.saturating_add(1);
                }
            }
        }
    }

    /// A revealed card: fog rolls the event die, action cards offer their action.
    fn handle_card(&self, s: &mut State, card: u8) {
        s.voyage.current = card;
        match self.data.kind(card) {
            Kind::Fog => s.phase = Phase::Event,
            _ => {
                if !self.card_offers_anything(s, s.active as usize, card) {
                    // Nothing can be done with the card: the decision is empty.
                    self.continue_voyage(s);
                } else {
                    s.voyage.decider = s.active;
                    s.voyage.trades = 0;
                    s.voyage.sold = false;
                    s.voyage.first_trade = NONE;
                    s.phase = Phase::Card;
                }
            }
        }
    }

    // ----- what a player may do with a card --------------------------------------------

    fn can_buy(&self, s: &State, p: usize, good: usize, units: u8, price: u32, need_room: bool) -> bool {
        let r = &self.data.rules;
        let ship = &s.ships[p];
        ship.gold >= price * units as u32
            && s.supply_goods[good] >= units
            && ship.goods[good] + units <= r.max_per_kind
            && (!need_room || ship.hold() + units <= r.hold_slots)
    }

    /// Whether player `p` could use `card` at all (an early-exit run of `card_options`).
    fn card_offers_anything(&self, s: &State, p: usize, card: u8) -> bool {
        let mut any = AnyOffer::default();
        self.card_options(s, p, card, &mut any);
        any.0
    }

    /// Options for using `card` (not counting PASS), for player `p` (the active player or a
    /// trade-letter user), in increasing id order; generation stops when `out` says so.
    pub(crate) fn card_options(&self, s: &State, p: usize, card: u8, out: &mut impl Offers) {
        let r = &self.data.rules;
        let ship = &s.ships[p];
        macro_rules! offer {
            ($a:expr) => {
                if out.offer($a) {
                    return;
                }
            };
        }
        match self.data.kind(card) {
            Kind::TradingPort { good, price } => {
                let g = good as usize;
                let price = price as u32;
                let thrown = s.voyage.jettisoned;
                let mut jettison = false;
                for units in 1..=r.port_max_units {
                    if self.can_buy(s, p, g, units, price, true) {
                        // After throwing goods overboard, only the purchase that needed all the
                        // room they made (ruling 7).
                        if thrown == 0 || ship.hold() + units == r.hold_slots {
                            offer!(BUY_1 + units as Action - 1);
                        }
                    } else if self.can_buy(s, p, g, units, price, false) {
                        jettison = true; // only the hold's room stops this purchase
                    }
                }
                if thrown == 0 {
                    for units in 1..=r.port_max_units {
                        // A sale needs the bank to pay its price (ruling 13).
                        if ship.goods[g] >= units && self.bank_pays(s, price * units as u32) {
                            offer!(SELL_1 + units as Action - 1);
                        }
                    }
                }
                if jettison {
                    self.push_jettisons(ship, out);
                }
            }
            Kind::Merchant { price } => self.merchant_options(s, p, price as u32, None, out),
            Kind::OutfittingPort { price } => {
                if ship.gold >= price as u32 {
                    if ship.sail < r.max_sail {
                        offer!(OUTFIT_SAIL);
                    }
                    if ship.cannons < r.cannons_per_player {
                        offer!(OUTFIT_CANNON);
                    }
                    if ship.crew_count() < r.crew_per_player {
                        for slot in 0..5u8 {
                            if !ship.has(slot) {
                                offer!(HIRE + slot as Action);
                            }
                        }
                    }
                }
            }
            Kind::Destination { port } => {
                if self.can_fulfil(s, p, port as usize) {
                    offer!(FULFIL);
                }
            }
            Kind::Shipwreck => offer!(SALVAGE),
            Kind::Fog => {}
        }
    }

    /// Offers a jettison of each good aboard; true when generation may stop.
    fn push_jettisons(&self, ship: &Ship, out: &mut impl Offers) -> bool {
        (0..5).any(|g| ship.goods[g] > 0 && out.offer(JETTISON + g as Action))
    }

    /// Merchant trades; `first` is the first trade of this use when a boatswain trades again.
    fn merchant_options(&self, s: &State, p: usize, price: u32, first: Option<Action>, out: &mut impl Offers) {
        let ship = &s.ships[p];
        let (first_buy, first_sell) = match first {
            Some(a) if (MERCHANT_BUY..MERCHANT_BUY + 5).contains(&a) => (Some(a - MERCHANT_BUY), None),
            Some(a) => (None, Some(a - MERCHANT_SELL)),
            None => (None, None),
        };
        // Purchases first (as a bit set), so that jettisons (lower ids) come out first.
        let thrown = s.voyage.jettisoned;
        let exact = thrown == 0 || ship.hold() + 1 == self.data.rules.hold_slots;
        let mut buys = 0u8;
        let mut jettison = false;
        for g in 0..5usize {
            // After a sale of g, the boatswain may buy only another good ("1 other good").
            if first_sell == Some(g as Action) {
                continue;
            }
            if self.can_buy(s, p, g, 1, price, true) {
                // After throwing goods overboard, only a purchase that needed the room (ruling 7).
                if exact {
                    buys |= 1 << g;
                }
            } else if self.can_buy(s, p, g, 1, price, false) {
                jettison = true;
            }
        }
        if jettison && self.push_jettisons(ship, out) {
            return;
        }
        for g in 0..5usize {
            if buys & (1 << g) != 0 && out.offer(MERCHANT_BUY + g as Action) {
                return;
            }
        }
        if thrown > 0 {
            return; // goods thrown overboard commit him to a purchase (ruling 7)
        }
        if !self.bank_pays(s, price) {
            return; // a sale needs the bank to pay its price (ruling 13)
        }
        for g in 0..5usize {
            // After a purchase of g, the boatswain may sell only another good.
            if first_buy != Some(g as Action) && ship.goods[g] > 0 && out.offer(MERCHANT_SELL + g as Action) {
                return;
            }
        }
    }

    pub(crate) fn can_fulfil(&self, s: &State, p: usize, port: usize) -> bool {
        let i = s.done[port] as usize;
        let Some(c) = self.data.contracts[port].get(i) else { return false };
        let ship = &s.ships[p];
        self.available(s, p)
            && ship.gold >= c.gold
            && ship.captains >= c.captains
            && (0..5).all(|g| ship.goods[g] >= c.goods[g])
    }

    // ----- legal actions ----------------------------------------------------------------

    pub(crate) fn boatswain_options(&self, s: &State, out: &mut impl Offers) {
        if let Kind::Merchant { price } = self.data.kind(s.voyage.current) {
            self.merchant_options(s, s.voyage.decider as usize, price as u32, Some(s.voyage.first_trade as Action), out);
        }
    }

    // ----- chance -----------------------------------------------------------------------

    // ----- transitions ------------------------------------------------------------------

    fn reveal(&self, s: &mut State, card: u8) {
        let v = &mut s.voyage;
        v.order[v.revealed as usize] = card;
        v.revealed += 1;
        self.handle_card(s, card);
    }

    /// Combat: one combat-die roll per cannon; with too few cannons to win, an immediate defeat.
    fn fight(&self, s: &mut State) {
        let ship = &s.ships[s.active as usize];
        let mult = if ship.has(GUNNER) { 2 } else { 1 };
        if (ship.cannons as u16) * mult < s.voyage.pirates as u16 {
            self.end_voyage(s);
        } else {
            s.voyage.rolls_left = ship.cannons;
            s.voyage.hits = 0;
            s.phase = Phase::Combat;
        }
    }

    /// Victory: a pirate captain into a free prison slot, or 1 gold when the prison is full.
    fn victory(&self, s: &mut State) {
        let r = &self.data.rules;
        let a = s.active as usize;
        if s.ships[a].captains < r.prison_slots && s.supply_captains > 0 {
            s.ships[a].captains += 1;
            s.supply_captains -= 1;
        } else {
            self.pay(s, a, r.full_prison_gold);
        }
        self.continue_voyage(s);
    }

    fn sale(&self, s: &mut State, p: usize) {
        if !s.voyage.sold {
            s.voyage.sold = true;
            if s.ships[p].has(BOOKKEEPER) {
                self.pay(s, p, self.data.rules.bookkeeper_bonus);
            }
        }
    }

    fn apply_card_action(&self, s: &mut State, a: Action) {
        let p = s.voyage.decider as usize;
        let card = s.voyage.current;
        let kind = self.data.kind(card);
        if (JETTISON..JETTISON + 5).contains(&a) {
            let g = (a - JETTISON) as usize;
            s.ships[p].goods[g] -= 1;
            s.supply_goods[g] += 1;
            s.voyage.jettisoned += 1;
            return; // the same decision continues, until the purchase
        }
        s.voyage.jettisoned = 0;
        if a == PASS {
            match s.phase {
                Phase::Card => self.continue_voyage(s),
                Phase::Letter => self.next_letter_offer(s),
                _ => self.use_finished(s),
            }
            return;
        }
        // A use of the card (a trade, an outfit, a contract, the wreck).
        if s.phase == Phase::Card {
            s.voyage.actions += 1;
            s.voyage.used |= 1 << (s.voyage.revealed - 1);
        } else if s.phase == Phase::Letter {
            s.ships[p].letters -= 1;
            s.supply_letters += 1;
        }
        let r = &self.data.rules;
        match a {
            BUY_1 | BUY_2 => {
                let Kind::TradingPort { good, price } = kind else { unreachable!() };
                let units = (a - BUY_1 + 1) as u8;
                self.charge(s, p, price as u32 * units as u32);
                s.ships[p].goods[good as usize] += units;
                s.supply_goods[good as usize] -= units;
            }
            SELL_1 | SELL_2 => {
                let Kind::TradingPort { good, price } = kind else { unreachable!() };
                let units = (a - SELL_1 + 1) as u8;
                self.pay(s, p, price as u32 * units as u32);
                s.ships[p].goods[good as usize] -= units;
                s.supply_goods[good as usize] += units;
                self.sale(s, p);
            }
            OUTFIT_SAIL | OUTFIT_CANNON | 19..=23 => {
                let Kind::OutfittingPort { price } = kind else { unreachable!() };
                self.charge(s, p, price as u32);
                let ship = &mut s.ships[p];
                match a {
                    OUTFIT_SAIL => ship.sail += 1,
                    OUTFIT_CANNON => ship.cannons += 1,
                    _ => ship.crew |= 1 << (a - HIRE),
                }
                self.refresh_bonuses(s);
            }
            24..=33 => {
                let Kind::Merchant { price } = kind else { unreachable!() };
                if a < MERCHANT_SELL {
                    let g = (a - MERCHANT_BUY) as usize;
                    self.charge(s, p, price as u32);
                    s.ships[p].goods[g] += 1;
                    s.supply_goods[g] -= 1;
                } else {
                    let g = (a - MERCHANT_SELL) as usize;
                    self.pay(s, p, price as u32);
                    s.ships[p].goods[g] -= 1;
                    s.supply_goods[g] += 1;
                    self.sale(s, p);
                }
                s.voyage.trades += 1;
                if s.voyage.first_trade == NONE {
                    s.voyage.first_trade = a as u8;
                }
                if s.ships[p].has(BOATSWAIN) && s.voyage.trades < r.boatswain_transactions {
                    let mut any = AnyOffer::default();
                    self.merchant_options(s, p, price as u32, Some(s.voyage.first_trade as Action), &mut any);
                    if any.0 {
                        s.phase = Phase::Boatswain;
                        return;
                    }
                }
            }
            FULFIL => {
                let Kind::Destination { port } = kind else { unreachable!() };
                let port = port as usize;
                let c = self.data.contracts[port][s.done[port] as usize];
                self.charge(s, p, c.gold);
                let ship = &mut s.ships[p];
                ship.captains -= c.captains;
                s.supply_captains += c.captains;
                for g in 0..5 {
                    ship.goods[g] -= c.goods[g];
                    s.supply_goods[g] += c.goods[g];
                }
                s.fulfilled[port][s.done[port] as usize] = p as u8;
                s.done[port] += 1;
                s.column[port][p] += 1;
                self.refresh_bonuses(s);
            }
            SALVAGE => self.pay(s, p, r.shipwreck_gold),
            _ => unreachable!("action {a} in a card phase"),
        }
        if s.phase == Phase::Boatswain {
            self.use_finished(s);
        } else {
            self.use_finished_from(s, s.phase);
        }
    }

    fn use_finished(&self, s: &mut State) {
        let by_active = s.voyage.decider == s.active;
        self.use_finished_from(s, if by_active { Phase::Card } else { Phase::Letter });
    }

    /// A use of a card is complete: the active player may now have won; a trade card is
    /// offered to the others in turn order; otherwise the voyage goes on.
    fn use_finished_from(&self, s: &mut State, phase: Phase) {
        if phase == Phase::Card {
            if self.check_win(s) {
                return;
            }
            if self.data.kind(s.voyage.current).is_trade_card() {
                s.voyage.decider = s.active;
                self.next_letter_offer(s);
            } else {
                self.continue_voyage(s);
            }
        } else {
            self.next_letter_offer(s);
        }
    }

    /// Trade letters: after the decider, the next player in turn order who holds a letter
    /// and can use the card is asked; after the last one, the voyage goes on.
    fn next_letter_offer(&self, s: &mut State) {
        let n = s.players;
        let mut q = (s.voyage.decider + 1) % n;
        while q != s.active {
            if s.ships[q as usize].letters > 0 && self.card_offers_anything(s, q as usize, s.voyage.current) {
                s.voyage.decider = q;
                s.voyage.trades = 0;
                s.voyage.sold = false;
                s.voyage.first_trade = NONE;
                s.phase = Phase::Letter;
                return;
            }
            q = (q + 1) % n;
        }
        s.voyage.decider = NONE;
        self.continue_voyage(s);
    }
}

impl Rules for NorthWind {
    type State = State;

    /// Format 2 holds the bank's gold (`supply_gold`). Format 3: the `gold` option (the bank is
    /// unlimited by default; `supply_gold` is used only with `gold="limited"`), gold counted in
    /// 32 bits, and the goods thrown overboard for the purchase under way (`voyage.jettisoned`).
    const STATE_FORMAT: u32 = 3;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn winners(&self, state: &State) -> Vec<usize> {
        if state.winner == NONE {
            Vec::new()
        } else {
            vec![state.winner as usize]
        }
    }

    fn is_truncated(&self, state: &State) -> bool {
        state.truncated
    }

    fn initial_state(&self) -> State {
        let r = &self.data.rules;
        let ship = Ship {
            gold: r.starting_gold,
            goods: [0; 5],
            captains: 0,
            letters: r.starting_letters,
            cannons: r.starting_cannons,
            sail: r.starting_sail,
            crew: 0,
            supply_bonus: false,
            crew_bonus: false,
        };
        let n = self.players as u8;
        let mut s = State {
            phase: Phase::Deal,
            players: n,
            active: 0,
            turn: 0,
            deal_next: 0,
            stack_cards: [0; 3],
            ships: [Ship::default(); 4],
            supply_goods: [r.goods_per_kind; 5],
            supply_captains: r.captains_total,
            supply_letters: r.letters_total - n * r.starting_letters,
            supply_gold: if self.limited_gold { r.gold_total - n as u32 * r.starting_gold } else { 0 },
            done: [0; 3],
            fulfilled: [[NONE; 16]; 3],
            column: [[0; 4]; 3],
            majority: [NONE; 3],
            winner: NONE,
            truncated: false,
            voyage: Voyage::default(),
            seen: [[0; 3]; VIEWS],
            runs: [[[[0; super::data::RUN_LEN]; super::data::MAX_MULTI_TYPES]; 3]; VIEWS],
        };
        for p in 0..self.players {
            s.ships[p] = ship;
        }
        // Setup 2-5: each destination card lies in the stack under its picture, known to all.
        for port in 0..3 {
            let c = self.data.destination_card[port];
            s.stack_cards[port] = 1 << c;
            let t = self.data.card_type[c as usize];
            for v in 0..VIEWS {
                s.seen[v][port] |= 1 << t;
            }
        }
        s
    }

    fn actor(&self, s: &State) -> Actor {
        match s.phase {
            Phase::Deal | Phase::Peek | Phase::Reveal | Phase::Event | Phase::Combat => Actor::Chance,
            Phase::GameOver => Actor::Terminal,
            Phase::Letter | Phase::Boatswain => Actor::Player(s.voyage.decider as usize),
            _ => Actor::Player(s.active as usize),
        }
    }

    /// The legal player actions, in increasing id order (every generator below emits its ids
    /// in order, and PASS is below every card option), so no sort is needed.
    fn player_actions(&self, s: &State, out: &mut Vec<Action>) {
        match s.phase {
            Phase::ChooseStack => {
                for p in 0..3 {
                    out.push(SAIL + p);
                }
            }
            Phase::PeekDecision => {
                out.push(KEEP_TOP);
                out.push(SLIDE_UNDER);
            }
            Phase::Pirate => {
                if s.ships[s.active as usize].gold >= self.data.rules.pirate_toll {
                    out.push(PAY_PIRATES);
                }
                out.push(FIGHT);
            }
            Phase::Card | Phase::Letter => {
                // Goods thrown overboard commit the decider to the purchase (ruling 7).
                if s.voyage.jettisoned == 0 {
                    out.push(PASS);
                }
                self.card_options(s, s.voyage.decider as usize, s.voyage.current, out);
            }
            Phase::Boatswain => {
                if s.voyage.jettisoned == 0 {
                    out.push(PASS);
                }
                self.boatswain_options(s, out);
            }
            _ => {}
        }
        debug_assert!(out.windows(2).all(|w| w[0] < w[1]), "legal actions out of order: {out:?}");
    }

    /// Outcomes of a chance node as (outcome, weight); weights are integers (card counts,
    /// die faces), turned into probabilities by the caller.
    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        match s.phase {
            Phase::Deal => {
                let slots = self.data.slots_per_stack as u32 + 1;
                for st in 0..3 {
                    let free = slots - s.stack_cards[st].count_ones();
                    if free > 0 {
                        f(st as Action, free);
                    }
                }
            }
            Phase::Peek | Phase::Reveal => {
                let mut m = self.remaining(s);
                while m != 0 {
                    let c = m.trailing_zeros();
                    f(c, 1);
                    m &= m - 1;
                }
            }
            Phase::Event => {
                for (i, &(_, n)) in self.data.event_faces.iter().enumerate() {
                    f(i as Action, n);
                }
            }
            Phase::Combat => {
                for (i, &(_, n)) in self.data.combat_faces.iter().enumerate() {
                    f(i as Action, n);
                }
            }
            _ => {}
        }
    }

    /// Draws a chance outcome without allocating.
    fn sample_chance(&self, s: &State, rng: &mut Rng) -> Action {
        // The same draws as the engine's general path (one `below` over the total weight, the
        // outcomes in order), without its two passes.
        fn face<T>(faces: &[(T, u32)], total: u32, rng: &mut Rng) -> Action {
            let mut pick = below(rng, total);
            for (i, &(_, n)) in faces.iter().enumerate() {
                if pick < n {
                    return i as Action;
                }
                pick -= n;
            }
            (faces.len() - 1) as Action // not reached: the weights add up to `total`
        }
        match s.phase {
            Phase::Deal => {
                // Each stack with room, by its free slots (a full stack weighs 0).
                let slots = self.data.slots_per_stack as u32 + 1;
                let stacks: [((), u32); 3] = std::array::from_fn(|st| ((), slots - s.stack_cards[st].count_ones()));
                face(&stacks, stacks.iter().map(|&(_, n)| n).sum(), rng)
            }
            Phase::Peek | Phase::Reveal => {
                // Every remaining card is equally likely: the k-th one in id order.
                let mut m = self.remaining(s);
                let mut k = below(rng, m.count_ones());
                while k > 0 {
                    m &= m - 1;
                    k -= 1;
                }
                m.trailing_zeros()
            }
            Phase::Event => face(&self.data.event_faces, self.data.event_total, rng),
            Phase::Combat => face(&self.data.combat_faces, self.data.combat_total, rng),
            _ => unreachable!("sample_chance is called only at a chance node"),
        }
    }

    fn apply(&self, s: &mut State, a: Action) {
        match s.phase {
            Phase::Deal => {
                let card = self.data.deal_cards[s.deal_next as usize];
                s.stack_cards[a as usize] |= 1 << card;
                s.deal_next += 1;
                if s.deal_next as usize == self.data.deal_cards.len() {
                    self.start_turn(s);
                }
            }
            Phase::ChooseStack => {
                s.voyage = Voyage { stack: a as u8, ..Voyage::default() };
                s.phase = if s.ships[s.active as usize].has(LOOKOUT) { Phase::Peek } else { Phase::Reveal };
            }
            Phase::Peek => {
                s.voyage.peeked = a as u8;
                s.voyage.drawn |= 1 << a;
                s.phase = Phase::PeekDecision;
            }
            Phase::PeekDecision => {
                let card = s.voyage.peeked;
                s.voyage.peeked = NONE;
                if a == KEEP_TOP {
                    self.reveal(s, card);
                } else {
                    s.voyage.slid = card;
                    s.phase = Phase::Reveal;
                }
            }
            Phase::Reveal => {
                s.voyage.drawn |= 1 << a;
                self.reveal(s, a as u8);
            }
            Phase::Event => match self.data.event_faces[a as usize].0 {
                EventOutcome::Treasure => {
                    self.pay(s, s.active as usize, self.data.rules.treasure_gold);
                    self.continue_voyage(s);
                }
                EventOutcome::Pirates(k) => {
                    s.voyage.pirates = k;
                    if s.ships[s.active as usize].gold < self.data.rules.pirate_toll {
                        // Only fighting is possible: no decision to make.
                        self.fight(s);
                    } else {
                        s.phase = Phase::Pirate;
                    }
                }
            },
            Phase::Pirate => {
                if a == PAY_PIRATES {
                    self.charge(s, s.active as usize, self.data.rules.pirate_toll);
                    self.continue_voyage(s);
                } else {
                    self.fight(s);
                }
            }
            Phase::Combat => {
                let ship = &s.ships[s.active as usize];
                let mult: u16 = if ship.has(GUNNER) { 2 } else { 1 };
                s.voyage.rolls_left -= 1;
                s.voyage.hits += match self.data.combat_faces[a as usize].0 {
                    CombatOutcome::Hit => 1,
                    // The blue double ball: 2 hits with a gunner, none without.
                    CombatOutcome::Double => if mult == 2 { 2 } else { 0 },
                    CombatOutcome::Miss => 0,
                };
                let v = s.voyage;
                if v.hits >= v.pirates {
                    self.victory(s);
                } else if v.rolls_left == 0 || v.hits as u16 + v.rolls_left as u16 * mult < v.pirates as u16 {
                    // The remaining rolls cannot reach the pirates' strength: defeat.
                    self.end_voyage(s);
                }
            }
            Phase::Card | Phase::Letter | Phase::Boatswain => self.apply_card_action(s, a),
            Phase::GameOver => {}
        }
    }
}
