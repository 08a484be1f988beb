//! Nauticus's rules: the round structure, the bonuses, the actions one use at a time, the
//! placement of tiles, rewards for completed ships, the extra action and the end of rounds.

use crate::engine::{Action, Actor, GameSpec};
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{tile_category, Category, CROWN_MAST, CROWN_SAIL, DELIVER, GOOD, KINDS, MAX_SHIPS, SCORE_CROWNS, TRANSPORT, WITHDRAW};
use super::data::{R_CROWN_MAST, R_CROWN_SAIL, R_GOODS, R_POINTS, R_TALER, R_WORKERS};
use super::state::{Player, Ship, State, Step, Turn, MAIN_ACTING, MAIN_DONE, MAIN_OPEN, MAX_PLAYERS, NONE};
use super::Nauticus;

/// The regular (buyable) kinds of a category: the four items of its action tile.
pub fn items(c: Category) -> std::ops::Range<u8> {
    c.first()..c.first() + 4
}

impl Nauticus {

    /// Blue workers on the turntable for the action on `space`.
    pub fn blue_workers(&self, s: &State, space: u8) -> u8 {
        self.data.turntable[((space + 8 - s.pointing) % 8) as usize]
    }

    /// The action tiles not yet laid out this round (the chance outcomes while dealing).
    pub(crate) fn undealt(s: &State) -> impl Iterator<Item = u8> + '_ {
        (0..8u8).filter(|t| !s.spaces[..s.dealt as usize].contains(t))
    }

    // ----- small facts ----------------------------------------------------------------

    /// Whether a tile of `kind` fits into player `p`'s warehouse now.
    pub fn fits(&self, s: &State, p: usize, kind: u8) -> bool {
        let r = &self.data.rules;
        s.warehouse_used(p, r.mast_spaces) + self.data.spaces(kind) <= r.warehouse_spaces
    }

    /// Whether a tile of `kind` can go into player `p`'s shipyard now: a hull part can
    /// always begin a new ship; other tiles need a ship that accepts them.
    pub fn shipyard_takes(&self, s: &State, p: usize, kind: u8) -> bool {
        if kind < 4 {
            return (s.num_ships as usize) < MAX_SHIPS;
        }
        s.ships_of(p).any(|(_, sh)| sh.accepts(kind))
    }

    /// Workers available for one more use: blue ones in the chosen action, then the stock.
    fn workers_available(&self, s: &State) -> u32 {
        let t = &s.turn;
        let blue = if t.extra { 0 } else { t.blue as u32 };
        blue + s.players[t.actor as usize].workers
    }

    fn spend_workers(&self, s: &mut State, n: u32) {
        let p = s.turn.actor as usize;
        let mut n = n;
        if !s.turn.extra {
            let b = (s.turn.blue as u32).min(n);
            s.turn.blue -= b as u8;
            n -= b;
        }
        s.players[p].workers -= n;
    }

    /// The price of one more tile of `kind` in the action being carried out.
    pub fn price(&self, s: &State, kind: u8) -> u32 {
        let r = &self.data.rules;
        let item = (kind - Category::of(kind).first()) as usize;
        if s.turn.bought[item] > 0 {
            r.duplicate_price
        } else if s.turn.extra {
            r.extra_price
        } else {
            self.data.prices[s.space as usize][item]
        }
    }

    /// Points one use of "score the crowns" brings now (0 when the cap is reached).
    pub fn crown_gain(&self, s: &State) -> u32 {
        let p = s.turn.actor as usize;
        let pl = &s.players[p];
        let scored = if s.turn.extra { pl.extra_crown_points } else { pl.crown_points };
        s.crowns(p).min(self.data.rules.crown_cap.saturating_sub(scored))
    }

    /// The action being carried out, or that would be carried out by a first use.
    fn tile_in_hand(&self, s: &State) -> u8 {
        if s.turn.session != NONE {
            s.turn.session
        } else {
            s.spaces[s.space as usize]
        }
    }

    // ----- legal actions --------------------------------------------------------------

    /// Free tiles of a category the player may choose (bonus, gift): the regular kinds in
    /// stock that fit into the warehouse.
    fn tile_picks(&self, s: &State, p: usize, c: Category, out: &mut Vec<Action>) {
        for k in items(c) {
            if s.stock[k as usize] > 0 && self.fits(s, p, k) {
                out.push(PICK + k as Action);
            }
        }
    }

    fn any_tile_pick(&self, s: &State, p: usize, c: Category) -> bool {
        items(c).any(|k| s.stock[k as usize] > 0 && self.fits(s, p, k))
    }

    /// One more use of the action in hand: its legal forms.
    fn uses(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.turn.actor as usize;
        let workers = self.workers_available(s);
        if workers == 0 {
            return;
        }
        let tile = self.tile_in_hand(s);
        let pl = &s.players[p];
        if let Some(c) = tile_category(tile) {
            for k in items(c) {
                if s.stock[k as usize] == 0 {
                    continue;
                }
                let price = self.price(s, k);
                if price > pl.taler {
                    continue;
                }
                // A free tile must go to the warehouse; a paid one may also go to the shipyard.
                let placeable = self.fits(s, p, k) || (price > 0 && self.shipyard_takes(s, p, k));
                if placeable {
                    out.push(BUY + k as Action);
                }
            }
            return;
        }
        match tile {
            TRANSPORT => {
                for k in 0..KINDS as u8 {
                    if pl.warehouse[k as usize] > 0 && self.shipyard_takes(s, p, k) {
                        out.push(TAKE + k as Action);
                    }
                }
            }
            WITHDRAW => out.push(WITHDRAW_ONE),
            SCORE_CROWNS => {
                if self.crown_gain(s) > 0 {
                    out.push(SCORE_ONE);
                }
            }
            DELIVER => {
                for (ord, (_, sh)) in s.ships_of(p).enumerate() {
                    if sh.loaded() && sh.parts() as u32 <= workers {
                        out.push(DELIVER_SHIP + ord as Action);
                    }
                }
            }
            _ => unreachable!("every tile is handled"),
        }
    }

    fn reward_allowed(&self, s: &State, r: u8) -> bool {
        let t = &s.turn;
        let p = t.actor as usize;
        if t.rewards_taken[r as usize] >= self.data.rules.reward_repeats {
            return false;
        }
        match r {
            R_CROWN_MAST => s.stock[CROWN_MAST as usize] > 0 && self.fits(s, p, CROWN_MAST),
            R_CROWN_SAIL => s.stock[CROWN_SAIL as usize] > 0 && self.fits(s, p, CROWN_SAIL),
            R_GOODS => {
                let n = self.data.rewards.goods;
                let kinds = items(Category::Good).filter(|&k| s.stock[k as usize] > 0).count() as u32;
                let r = &self.data.rules;
                kinds >= n && s.warehouse_used(p, r.mast_spaces) + n <= r.warehouse_spaces
            }
            _ => true,
        }
    }

    // ----- transitions ----------------------------------------------------------------

    /// A free tile from the supply goes to the warehouse (the Golden Rule).
    fn receive_free(&self, s: &mut State, p: usize, k: u8) {
        s.stock[k as usize] -= 1;
        s.players[p].warehouse[k as usize] += 1;
    }

    fn deal(&self, s: &mut State, tile: u8) {
        s.spaces[s.dealt as usize] = tile;
        s.dealt += 1;
        if s.dealt == 7 {
            let last = (0..8u8).find(|t| !s.spaces[..7].contains(t)).expect("one tile left");
            s.spaces[7] = last;
            s.dealt = 8;
        }
        if s.dealt == 8 {
            s.step = Step::Choose;
        }
    }

    fn choose(&self, s: &mut State, tile: u8) {
        let space = s.spaces.iter().position(|&t| t == tile).expect("the tile lies on a space") as u8;
        s.space = space;
        let b = self.data.bonuses[space as usize];
        let p = s.start as usize;
        let pl = &mut s.players[p];
        pl.workers += b.workers;
        pl.taler += b.taler;
        pl.points += b.points as i32;
        s.turn.done = 0;
        match b.choice {
            Some(c) if self.any_tile_pick(s, p, c) => s.step = Step::BonusTile,
            _ => self.begin_turn(s, s.start),
        }
    }

    fn begin_turn(&self, s: &mut State, p: u8) {
        let done = s.turn.done;
        s.turn = Turn { actor: p, done, blue: self.blue_workers(s, s.space), ..Turn::default() };
        s.step = Step::Turn;
    }

    fn turn_action(&self, s: &mut State, a: Action) {
        let p = s.turn.actor as usize;
        match a {
            PASS => {
                let pl = &mut s.players[p];
                if pl.passes < 3 {
                    pl.passes += 1;
                }
                s.turn.main = MAIN_DONE;
                self.after_action(s);
            }
            FINISH => {
                s.turn.session = NONE;
                s.turn.used = false;
                s.turn.bought = [0; 4];
                if s.turn.extra {
                    s.turn.extra = false;
                    if s.turn.main == MAIN_DONE {
                        self.end_turn(s);
                    }
                } else {
                    s.turn.main = MAIN_DONE;
                    self.after_action(s);
                }
            }
            END_TURN => self.end_turn(s),
            a if a >= EXTRA => self.start_extra(s, (a - EXTRA) as u8),
            _ => {
                if s.turn.session == NONE {
                    // The first use begins carrying out the chosen action.
                    let t = &mut s.turn;
                    t.session = s.spaces[s.space as usize];
                    t.extra = false;
                    t.main = MAIN_ACTING;
                    t.used = false;
                    t.bought = [0; 4];
                    t.gift_due = false;
                }
                self.use_action(s, a);
            }
        }
    }

    /// "First, the player receives 2 workers from the general supply. They then choose one of
    /// the 8 known actions and carry it out."
    fn start_extra(&self, s: &mut State, tile: u8) {
        let p = s.turn.actor as usize;
        let pl = &mut s.players[p];
        pl.extra = false;
        pl.workers += self.data.rules.extra_workers;
        let t = &mut s.turn;
        t.session = tile;
        t.extra = true;
        t.used = false;
        t.bought = [0; 4];
        t.gift_due = false;
    }

    /// After the chosen action was carried out or passed: the extra action may still follow.
    fn after_action(&self, s: &mut State) {
        if !s.players[s.turn.actor as usize].extra {
            self.end_turn(s);
        }
    }

    fn use_action(&self, s: &mut State, a: Action) {
        let p = s.turn.actor as usize;
        let r = &self.data.rules;
        s.turn.used = true;
        match a {
            a if (BUY..TAKE).contains(&a) => {
                let k = (a - BUY) as u8;
                let price = self.price(s, k);
                self.spend_workers(s, 1);
                s.players[p].taler -= price;
                s.stock[k as usize] -= 1;
                let item = (k - Category::of(k).first()) as usize;
                let t = &mut s.turn;
                t.bought[item] += 1;
                if t.bought[item] == 1 && t.bought.iter().all(|&n| n > 0) {
                    t.gift_due = true;
                }
                if price == 0 {
                    // "A tile bought for 0 Taler (and one worker) is 'free'."
                    s.players[p].warehouse[k as usize] += 1;
                    self.after_tile(s);
                } else {
                    s.turn.pending = k;
                    s.turn.paid = true;
                    s.step = Step::Place;
                }
            }
            a if (TAKE..TO_WAREHOUSE).contains(&a) => {
                let k = (a - TAKE) as u8;
                self.spend_workers(s, 1);
                s.players[p].warehouse[k as usize] -= 1;
                s.turn.pending = k;
                s.turn.paid = false;
                s.step = Step::Place;
            }
            WITHDRAW_ONE => {
                self.spend_workers(s, 1);
                s.players[p].taler += r.taler_per_worker;
            }
            SCORE_ONE => {
                let gain = self.crown_gain(s);
                self.spend_workers(s, 1);
                let pl = &mut s.players[p];
                pl.points += gain as i32;
                if s.turn.extra {
                    pl.extra_crown_points += gain;
                } else {
                    pl.crown_points += gain;
                }
            }
            a if (DELIVER_SHIP..REWARD).contains(&a) => {
                let i = s.ship_index(p, (a - DELIVER_SHIP) as usize).expect("a ship of the player");
                let n = s.ships[i].parts() as u32;
                self.spend_workers(s, n);
                let goods = s.ships[i].goods;
                for (g, &n) in goods.iter().enumerate() {
                    s.players[p].delivered[g] += n;
                }
                s.ships[i].goods = [0; 4];
            }
            _ => unreachable!("not a use: {a}"),
        }
    }

    fn place(&self, s: &mut State, a: Action) {
        let p = s.turn.actor as usize;
        let k = s.turn.pending;
        s.turn.pending = NONE;
        s.turn.paid = false;
        match a {
            TO_WAREHOUSE => s.players[p].warehouse[k as usize] += 1,
            NEW_SHIP => {
                s.ships[s.num_ships as usize] = Ship::begun_with(p as u8, k);
                s.num_ships += 1;
            }
            _ => {
                let i = s.ship_index(p, (a - TO_SHIP) as usize).expect("a ship of the player");
                let was = s.ships[i].complete();
                s.ships[i].add(k);
                if !was && s.ships[i].complete() {
                    // "Every time a player completes a ship, they interrupt their turn and
                    // immediately receive one or more rewards."
                    let t = &mut s.turn;
                    t.reward_ship = i as u8;
                    t.rewards_left = s.ships[i].all_masts();
                    t.rewards_taken = [0; 6];
                    s.step = Step::Reward;
                    return;
                }
            }
        }
        self.after_tile(s);
    }

    /// After a tile is placed (and its rewards taken): the gift, if owed, then the turn goes on.
    fn after_tile(&self, s: &mut State) {
        s.step = Step::Turn;
        if s.turn.gift_due {
            s.turn.gift_due = false;
            let c = tile_category(s.turn.session).expect("a paid action");
            if self.any_tile_pick(s, s.turn.actor as usize, c) {
                s.step = Step::Gift;
            }
        }
    }

    fn take_reward(&self, s: &mut State, r: u8) {
        let p = s.turn.actor as usize;
        let w = self.data.rewards;
        s.turn.rewards_taken[r as usize] += 1;
        s.turn.rewards_left -= 1;
        match r {
            R_CROWN_MAST => self.receive_free(s, p, CROWN_MAST),
            R_CROWN_SAIL => self.receive_free(s, p, CROWN_SAIL),
            R_POINTS => s.players[p].points += w.points as i32,
            R_TALER => s.players[p].taler += w.taler,
            R_WORKERS => s.players[p].workers += w.workers,
            _ => {
                s.turn.reward_goods_left = w.goods as u8;
                s.turn.reward_goods_taken = 0;
                s.step = Step::RewardGood;
                return;
            }
        }
        if s.turn.rewards_left == 0 {
            self.after_reward(s);
        }
    }

    fn after_reward(&self, s: &mut State) {
        if s.turn.rewards_left == 0 {
            s.turn.reward_ship = NONE;
            s.turn.rewards_taken = [0; 6];
            self.after_tile(s);
        } else {
            s.step = Step::Reward;
        }
    }

    fn end_turn(&self, s: &mut State) {
        s.turn.done += 1;
        if (s.turn.done as usize) < self.players {
            let next = (s.turn.actor + 1) % self.players as u8;
            self.begin_turn(s, next);
        } else {
            self.end_phase(s);
        }
    }

    /// "As soon as all players have carried out or passed on the action chosen by the start
    /// player, an action phase ends."
    fn end_phase(&self, s: &mut State) {
        s.face_down |= 1 << s.space;
        if s.phases == 0 {
            s.anchor = s.space;
        }
        s.phases += 1;
        s.start = (s.start + 1) % self.players as u8;
        s.space = NONE;
        s.turn = Turn::default();
        if s.phases == self.data.rules.phases_per_round {
            self.end_round(s);
        } else {
            s.step = Step::Choose;
        }
    }

    fn end_round(&self, s: &mut State) {
        for pl in s.players.iter_mut().take(self.players) {
            let penalty: u32 = self.data.pass_penalties[pl.passes as usize..].iter().sum();
            pl.points -= penalty as i32;
            pl.passes = 0;
            pl.crown_points = 0;
            pl.extra_crown_points = 0;
        }
        s.round += 1;
        s.phases = 0;
        let anchor = s.anchor;
        s.anchor = NONE;
        s.spaces = [NONE; 8];
        s.dealt = 0;
        s.face_down = 0;
        if s.round == self.rounds {
            s.step = Step::GameOver;
            return;
        }
        // "The turntable is turned so that the anchor on the wheel points to the action tile
        // on which the anchor tile is lying", then the tiles are shuffled and laid out anew.
        s.pointing = anchor;
        s.step = Step::Deal;
    }
}

impl Rules for Nauticus {
    type State = State;

    const STATE_FORMAT: u32 = 3;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self) -> State {
        let r = &self.data.rules;
        let comp = &self.data.compensation[&self.players];
        let mut players = [Player::default(); MAX_PLAYERS];
        for (p, pl) in players.iter_mut().enumerate().take(self.players) {
            pl.taler = r.starting_taler + comp[p].0;
            pl.workers = r.starting_workers + comp[p].1;
            pl.points = r.starting_points;
            pl.extra = true;
        }
        State {
            step: Step::Deal,
            round: 0,
            phases: 0,
            start: 0,
            spaces: [NONE; 8],
            dealt: 0,
            face_down: 0,
            anchor: NONE,
            // "At the start of the game, it is aligned so that the space with the anchor
            // points to the bonus space with the 3 workers" (the first space).
            pointing: 0,
            space: NONE,
            turn: Turn::default(),
            stock: self.data.stock,
            players,
            ships: [Ship::default(); MAX_SHIPS],
            num_ships: 0,
        }
    }

    fn actor(&self, s: &State) -> Actor {
        match s.step {
            Step::Deal => Actor::Chance,
            Step::GameOver => Actor::Terminal,
            Step::Choose | Step::BonusTile => Actor::Player(s.start as usize),
            _ => Actor::Player(s.turn.actor as usize),
        }
    }

    fn player_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let p = s.turn.actor as usize;
        match s.step {
            Step::Choose => {
                for sp in 0..8 {
                    if s.face_down & (1 << sp) == 0 {
                        out.push(CHOOSE + s.spaces[sp] as Action);
                    }
                }
                out.sort_unstable();
            }
            Step::BonusTile => {
                let c = self.data.bonuses[s.space as usize].choice.expect("a bonus tile");
                self.tile_picks(s, s.start as usize, c, out);
            }
            Step::Gift => {
                let c = tile_category(s.turn.session).expect("a paid action");
                self.tile_picks(s, p, c, out);
            }
            Step::RewardGood => {
                for k in items(Category::Good) {
                    if s.turn.reward_goods_taken & (1 << (k - GOOD)) == 0 && s.stock[k as usize] > 0 && self.fits(s, p, k) {
                        out.push(PICK + k as Action);
                    }
                }
            }
            Step::Reward => {
                for r in 0..6u8 {
                    if self.reward_allowed(s, r) {
                        out.push(REWARD + r as Action);
                    }
                }
            }
            Step::Place => {
                let k = s.turn.pending;
                if s.turn.paid && self.fits(s, p, k) {
                    out.push(TO_WAREHOUSE);
                }
                if k < 4 && (s.num_ships as usize) < MAX_SHIPS {
                    out.push(NEW_SHIP);
                }
                for (ord, (_, sh)) in s.ships_of(p).enumerate() {
                    if sh.accepts(k) {
                        out.push(TO_SHIP + ord as Action);
                    }
                }
            }
            Step::Turn => {
                let t = &s.turn;
                if t.session == NONE && t.main == MAIN_OPEN {
                    self.uses(s, out);
                    out.push(PASS);
                } else if t.session == NONE {
                    out.push(END_TURN);
                } else {
                    self.uses(s, out);
                    if t.used {
                        out.push(FINISH);
                    }
                }
                if t.session == NONE && s.players[p].extra {
                    // The extra action is offered for an action only when it can be carried
                    // out: with its 2 workers, at its prices, one use at least is possible.
                    let mut with_extra = s.clone();
                    self.start_extra(&mut with_extra, 0);
                    for tile in 0..8u8 {
                        with_extra.turn.session = tile;
                        let at = out.len();
                        self.uses(&with_extra, out);
                        let usable = out.len() > at;
                        out.truncate(at);
                        if usable {
                            out.push(EXTRA + tile as Action);
                        }
                    }
                }
            }
            Step::Deal | Step::GameOver => {}
        }
    }

    /// Each tile not yet dealt is equally likely to be the next.
    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        for t in Self::undealt(s) {
            f(t as Action, 1);
        }
    }

    /// The winners at the end: the most points, then the most Taler left over, then the most
    /// Taler in all; whoever is still tied shares.
    fn winners(&self, s: &State) -> Vec<usize> {
        if s.step != Step::GameOver {
            return Vec::new();
        }
        let key = |p: usize| {
            let t = self.tally(s, p);
            (t.total(), t.left_over, t.taler)
        };
        let best = (0..self.players).map(key).max().expect("players");
        (0..self.players).filter(|&p| key(p) == best).collect()
    }

    fn apply(&self, s: &mut State, a: Action) {
        match s.step {
            Step::Deal => self.deal(s, a as u8),
            Step::Choose => self.choose(s, (a - CHOOSE) as u8),
            Step::BonusTile => {
                let k = (a - PICK) as u8;
                self.receive_free(s, s.start as usize, k);
                self.begin_turn(s, s.start);
            }
            Step::Gift => {
                let k = (a - PICK) as u8;
                self.receive_free(s, s.turn.actor as usize, k);
                s.step = Step::Turn;
            }
            Step::Reward => self.take_reward(s, (a - REWARD) as u8),
            Step::RewardGood => {
                let k = (a - PICK) as u8;
                self.receive_free(s, s.turn.actor as usize, k);
                s.turn.reward_goods_taken |= 1 << (k - GOOD);
                s.turn.reward_goods_left -= 1;
                if s.turn.reward_goods_left == 0 {
                    s.turn.reward_goods_taken = 0;
                    self.after_reward(s);
                }
            }
            Step::Place => self.place(s, a),
            Step::Turn => self.turn_action(s, a),
            Step::GameOver => {}
        }
    }
}
