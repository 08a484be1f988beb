//! What players see: move names, the table as text, the observation tensor and the score
//! report.

use crate::engine::rng::{below, Rng};
use crate::engine::{Action, Actor, ScoreReport};
use crate::engine::prelude::*;

use super::actions::*;
use super::data::{count_of, goods_phrase, guilders, Data, Kind, DECKS, GOOD, MAX_HARBOUR, MAX_SPECIALS};
use super::state::{Phase, Source, Standing, State, MAX_PLAYERS, NONE};
use super::BeforeTheWind;

/// Features of one action card in the tensor: present, deck (3), kind (9), goods (4), goods
/// count, cost, profit.
const CARD: usize = 20;
/// Features of one seat: money, victory points, ships, hand (4), warehouse (4), kept specials,
/// placed Preservation cards, standing (4), the card in front, bid, Safe played.
const SEAT: usize = 3 + 4 + 4 + MAX_SPECIALS + MAX_SPECIALS + 4 + CARD + 2;
/// Features of a harbour slot: present, large, small, goods (4), victory points.
const SHIP: usize = 8;
const PHASES: usize = 16;
/// The fixed part of the tensor (before the per-design deck counts).
pub(crate) const FIXED: usize = 4 + 4 + 4 + PHASES + MAX_PLAYERS * SEAT + MAX_PLAYERS * CARD + MAX_HARBOUR * SHIP
    + 4 + 3 + 3 + CARD + 3 + 4 + 4 + 1 + 1 + 1;

/// The tensor's length: the fixed part, then the cards of each action design in its deck and
/// its discard pile, then the ships of each ship design in their deck and discard pile.
pub(crate) fn tensor_len(data: &Data) -> usize {
    FIXED + 2 * data.designs.len() + 2 * data.ships.len()
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Ships => 0,
        Phase::StartGoods => 1,
        Phase::ChooseDeck => 2,
        Phase::Draw => 3,
        Phase::Choose => 4,
        Phase::Bid => 5,
        Phase::Resolve => 6,
        Phase::Play => 7,
        Phase::Store => 8,
        Phase::Load => 9,
        Phase::TakeGoods => 10,
        Phase::Exchange => 11,
        Phase::Sell => 12,
        Phase::Spoil => 13,
        Phase::Preserve => 14,
        Phase::GameOver => 15,
    }
}

/// Draws of the other purses tried before the last, which gives the player to move the most
/// (`resample_purses`).
const TRIES: u32 = 64;

impl BeforeTheWind {
    /// Whether `viewer` (None: a spectator who sees everything) sees `owner`'s guilders: the
    /// one rule the table, the tensor and the log consult. Ruling 2: a player's money is
    /// secret ("Keep the amount of money you own secret during the game"): a seat sees its own
    /// purse, every purse once the game is over (the tie-breaker counts them), and with two
    /// players and the limited bank the other's (the box's guilders less the open bank and
    /// its own).
    pub(crate) fn sees_purse(&self, s: &State, viewer: Option<usize>, owner: usize) -> bool {
        viewer.is_none_or(|v| v == owner) || s.phase == Phase::GameOver || (self.limited_bank && self.players == 2)
    }

    /// One draw of the other seats' purses into `out` (see `resample_purses`); `most` gives
    /// the player to move the most a draw can.
    fn draw_purses(&self, s: &State, player: usize, rng: &mut Rng, out: &mut State, most: bool) {
        let cursor = s.cursor as usize;
        let mut others = [0usize; MAX_PLAYERS];
        let mut k = 0;
        for q in (0..self.players).filter(|&q| q != player) {
            others[k] = q;
            k += 1;
        }
        let others = &others[..k];
        let Some(bank) = self.bank(s) else {
            let span = 2 * s.seats[player].money.max(self.data.rules.starting_guilders);
            for &q in others {
                let drawn = if most && q == cursor { span } else { below(rng, span + 1) };
                out.seats[q].money = s.seats[q].bid + drawn;
            }
            return;
        };
        let bids: u32 = others.iter().map(|&q| s.seats[q].bid).sum();
        let rest = (self.data.rules.bank_guilders - bank).saturating_sub(s.seats[player].money + bids);
        // A uniform composition of `rest` into `k` parts: k - 1 distinct cuts among
        // rest + k - 1 places (stars and bars).
        let places = rest + k as u32 - 1;
        let mut cuts = [0u32; MAX_PLAYERS];
        let mut m = 0;
        while m + 1 < k {
            let c = below(rng, places);
            if !cuts[..m].contains(&c) {
                cuts[m] = c;
                m += 1;
            }
        }
        cuts[..m].sort_unstable();
        let mut prev = 0u32;
        for (i, &q) in others.iter().enumerate() {
            let end = if i < m { cuts[i] } else { places };
            let share = if most { if q == cursor { rest } else { 0 } } else { end - prev };
            out.seats[q].money = s.seats[q].bid + share;
            prev = end + 1;
        }
    }

    pub(crate) fn card_name(&self, d: u8) -> &str {
        self.data.designs.get(d as usize).map_or("no card", |x| x.name.as_str())
    }

    pub(super) fn ship_name(&self, d: u8) -> &str {
        self.data.ships.get(d as usize).map_or("no ship", |x| x.name.as_str())
    }

    pub(super) fn special_name(&self, k: usize) -> &str {
        self.data.specials.get(k).map_or("no card", |&d| self.card_name(d))
    }

    fn good(g: usize) -> &'static str {
        GOOD.get(g).copied().unwrap_or("good")
    }

    /// What a player is doing now, in words.
    pub(super) fn doing(&self, s: &State) -> String {
        let c = s.cursor as usize;
        match s.phase {
            Phase::Ships => "new ships arrive in the harbour".into(),
            Phase::StartGoods => format!("P{c} takes his starting goods"),
            Phase::ChooseDeck => format!("P{} chooses the deck of the next Action card", s.active),
            Phase::Draw => format!("an Action card is drawn from the {} deck", DECKS[s.draw_deck as usize % 3]),
            Phase::Choose => format!("P{c} chooses an Action card"),
            Phase::Bid | Phase::Resolve => {
                let o = s.owner as usize;
                let bids: Vec<String> = (0..self.players)
                    .filter(|&q| s.seats[q].bid > 0)
                    .map(|q| format!("P{q} {}", s.seats[q].bid))
                    .collect();
                let bids = if bids.is_empty() { "none".into() } else { bids.join(", ") };
                if s.phase == Phase::Bid {
                    format!("auction for P{o}'s {} (bids: {bids}); P{c} bids", self.card_name(s.seats[o].card))
                } else {
                    format!("auction for P{o}'s {} (bids: {bids}); P{o} chooses a bid", self.card_name(s.seats[o].card))
                }
            }
            Phase::Play => format!("P{c} plays his cards"),
            Phase::Store => format!("P{c} stores goods ({} more at most)", s.left),
            Phase::Load => format!("P{c} loads ships"),
            Phase::TakeGoods => format!("P{c} takes goods of his choice ({} more)", s.left),
            Phase::Exchange => format!("P{c} exchanges goods ({} more at most)", s.left),
            Phase::Sell => format!("P{c} sells goods"),
            Phase::Spoil => format!("the fleet leaves: P{c} chooses which cheeses and spices spoil"),
            Phase::Preserve => format!(
                "the fleet leaves: P{c} preserves goods ({} more; spoiling in the warehouse: {}; preserved from the \
                 hand: {})",
                s.preserve_left,
                goods_phrase(&s.spoiling),
                goods_phrase(&s.preserved_hand)
            ),
            Phase::GameOver if s.truncated => "the game was cut off at the turn bound".into(),
            Phase::GameOver => "the game is over".into(),
        }
    }

    fn kept_phrase(&self, counts: &[u8; MAX_SPECIALS]) -> String {
        let parts: Vec<String> = (0..self.data.specials.len())
            .filter(|&k| counts[k] > 0)
            .map(|k| if counts[k] == 1 { self.special_name(k).to_string() } else { format!("{}x {}", counts[k], self.special_name(k)) })
            .collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The table as text. `viewer` is the seat whose view it is (None: the table as a
    /// spectator sees it); `money` shows the guilders `sees_purse` lets the viewer see
    /// (ruling 2; the table, `money` false, shows none).
    pub(crate) fn table(&self, s: &State, viewer: Option<usize>, money: bool) -> String {
        let mut out = String::new();
        let target = self.data.to_win[&self.players];
        out.push_str(&format!(
            "Before the Wind, {} players, turn {}; P{} has the active player marker; {} VP win\n",
            self.players, s.turn, s.active, target
        ));
        if let Some(v) = viewer {
            out.push_str(&format!("You are P{v}.\n"));
        }
        out.push_str(&format!("Now: {}\n", self.doing(s)));
        let ships: Vec<String> = (0..MAX_HARBOUR)
            .filter(|&i| s.harbour[i] != NONE)
            .map(|i| self.ship_name(s.harbour[i]).to_string())
            .collect();
        out.push_str(&format!("Harbour: {}\n", if ships.is_empty() { "empty".into() } else { ships.join("; ") }));
        let stacks: Vec<String> = (0..4).map(|g| count_of(s.stacks[g] as u32, g)).collect();
        out.push_str(&format!("Goods stacks: {}\n", stacks.join(", ")));
        let laid: Vec<&str> = s.display.iter().filter(|&&d| d != NONE).map(|&d| self.card_name(d)).collect();
        if !laid.is_empty() {
            out.push_str(&format!("Action cards laid out: {}\n", laid.join("; ")));
        }
        let mut decks = Vec::new();
        for d in 0..3u8 {
            let (mut deck, mut discard) = (0u32, 0u32);
            for (i, x) in self.data.designs.iter().enumerate() {
                if x.deck == d {
                    deck += s.deck[i] as u32;
                    discard += s.discard[i] as u32;
                }
            }
            decks.push(format!("{} {deck} (discard {discard})", DECKS[d as usize]));
        }
        out.push_str(&format!("Action decks: {}\n", decks.join(", ")));
        let mut ship_decks = Vec::new();
        for size in 0..2u8 {
            let (mut deck, mut discard) = (0u32, 0u32);
            for (i, x) in self.data.ships.iter().enumerate() {
                if x.size == size {
                    deck += s.ship_deck[i] as u32;
                    discard += s.ship_discard[i] as u32;
                }
            }
            ship_decks.push(format!("{} {deck} (discard {discard})", if size == 0 { "large" } else { "small" }));
        }
        out.push_str(&format!("Ship decks: {}\n", ship_decks.join(", ")));
        if let Some(b) = self.bank(s) {
            out.push_str(&format!("Bank: {}\n", guilders(b)));
        }
        for p in 0..self.players {
            let pl = &s.seats[p];
            let purse = if money && self.sees_purse(s, viewer, p) { guilders(pl.money) } else { "guilders secret".into() };
            out.push_str(&format!(
                "P{p}: {} VP ({} ship{}), {purse}; hand: {}; warehouse ({}/{}): {}; kept: {}",
                pl.vp,
                pl.ships,
                if pl.ships == 1 { "" } else { "s" },
                goods_phrase(&pl.hand),
                pl.stored(),
                self.data.rules.warehouse_capacity,
                goods_phrase(&pl.warehouse),
                self.kept_phrase(&pl.kept)
            ));
            if pl.placed.iter().any(|&x| x > 0) {
                out.push_str(&format!("; by the warehouse: {}", self.kept_phrase(&pl.placed)));
            }
            if pl.card != NONE && !matches!(s.phase, Phase::Spoil | Phase::Preserve | Phase::Ships | Phase::GameOver) {
                let how = match pl.standing {
                    Standing::FaceUp => "face up",
                    _ => "face down",
                };
                out.push_str(&format!("; card: {} ({how})", self.card_name(pl.card)));
            } else if pl.standing == Standing::Guilders {
                out.push_str("; took guilders for his card this turn");
            }
            if pl.safe_used {
                out.push_str("; played the Safe this turn");
            }
            out.push('\n');
        }
        if s.phase == Phase::GameOver && !s.truncated {
            let w: Vec<String> = (0..self.players).filter(|&p| s.winners & (1 << p) != 0).map(|p| format!("P{p}")).collect();
            out.push_str(&format!("Winner: {}\n", w.join(", ")));
        }
        out
    }

    /// The largest of each card feature over the data's designs.
    fn card_highs(&self) -> [f32; CARD] {
        let mut card = [0.0f32; CARD];
        let mut one = [0.0f32; CARD];
        for d in 0..self.data.designs.len() {
            self.card_features(d as u8, &mut one);
            card.iter_mut().zip(one).for_each(|(m, v)| *m = m.max(v));
        }
        card
    }

    fn card_features(&self, d: u8, out: &mut [f32]) {
        out[..CARD].iter_mut().for_each(|x| *x = 0.0);
        let Some(x) = self.data.designs.get(d as usize) else { return };
        out[0] = 1.0;
        out[1 + x.deck as usize] = 1.0;
        let (kind, goods, n, cost, profit) = match x.kind {
            Kind::Receive { goods } => (0, goods, 0, 0, 0),
            Kind::Store { n, cost } => (1, [0; 4], n, cost, 0),
            Kind::LoadOrProfit { profit } => (2, [0; 4], 0, 0, profit),
            Kind::ReceiveChoice { n } => (3, [0; 4], n, 0, 0),
            Kind::Preservation { n } => (4, [0; 4], n, 0, 0),
            Kind::ReceiveAndStore { n, cost } => (5, [0; 4], n, cost, 0),
            Kind::Exchange => (6, [0; 4], 0, 0, 0),
            Kind::Sell => (7, [0; 4], 0, 0, 0),
            Kind::Safe => (8, [0; 4], 0, 0, 0),
        };
        out[4 + kind] = 1.0;
        for g in 0..4 {
            out[13 + g] = goods[g] as f32;
        }
        out[17] = n as f32;
        out[18] = cost as f32 / 10.0;
        out[19] = profit as f32 / 10.0;
    }
}

impl View for BeforeTheWind {
    fn text(&self, state: &State, viewer: Viewer) -> String {
        match viewer {
            Viewer::Seat(p) => self.table(state, Some(p), true),
            Viewer::Table => self.table(state, None, false),
            Viewer::All => self.table(state, None, true),
        }
    }

    /// An action's name: a stem (explained in the glossary, `text/notation.md`), then after
    /// `:` what it applies to.
    fn action_to_string(&self, s: &State, a: Action) -> String {
        match self.actor(s) {
            Actor::Chance => {
                return match s.phase {
                    Phase::Draw => format!("drawn:{}", self.card_name(a as u8)),
                    _ => format!("arrives:{}", self.ship_name(a as u8)),
                };
            }
            Actor::Terminal => return format!("action {a}"),
            Actor::Player(_) => {}
        }
        let p = s.cursor as usize;
        let slot_card = |slot: usize| s.display.get(slot).map_or(NONE, |&d| d);
        match a {
            _ if a < DRAW => {
                let g = Self::good((a - TAKE_GOOD) as usize);
                if s.phase == Phase::TakeGoods && s.to_warehouse {
                    format!("take-into-warehouse:{g}")
                } else {
                    format!("take:{g}")
                }
            }
            _ if a < TAKE_CARD => format!("draw:{}", DECKS[(a - DRAW) as usize]),
            _ if a < SAFE_TAKE => format!("take:{}", self.card_name(slot_card((a - TAKE_CARD) as usize))),
            _ if a < CHALLENGE => format!("safe-take:{}", self.card_name(slot_card((a - SAFE_TAKE) as usize))),
            _ if a < PASS => {
                let q = (a - CHALLENGE) as usize;
                let card = s.seats.get(q).map_or(NONE, |x| x.card);
                format!("bid-for:P{q}'s {}", self.card_name(card))
            }
            PASS => "pass".into(),
            SAFE_BID => "safe-bid".into(),
            _ if a < KEEP_PAYING => {
                let q = (a - SELL_TO) as usize;
                format!("sell-to:P{q} for {}", guilders(s.seats.get(q).map_or(0, |x| x.bid)))
            }
            _ if a < USE_CARD => {
                let q = (a - KEEP_PAYING) as usize;
                format!("keep-paying:P{q} {}", guilders(s.seats.get(q).map_or(0, |x| x.bid)))
            }
            USE_CARD => format!("play:{}", self.card_name(s.seats[p].card)),
            SET_ASIDE => {
                let d = s.seats[p].card;
                match self.data.designs.get(d as usize).map(|x| (x.special, x.kind)) {
                    Some((Some(_), _)) => format!("keep:{}", self.card_name(d)),
                    // Ruling 9: a Receive card is set aside only when its goods stacks are
                    // empty; it gives nothing and is discarded.
                    Some((None, Kind::Receive { .. })) => format!("discard-giving-nothing:{}", self.card_name(d)),
                    _ => format!("leave-unused:{}", self.card_name(d)),
                }
            }
            _ if a < FINISH => format!("play-kept:{}", self.special_name((a - PLAY_KEPT) as usize)),
            FINISH => "no-kept-card".into(),
            _ if a < DONE => {
                let g = Self::good((a - STORE) as usize);
                if s.phase == Phase::Play {
                    match self.data.designs.get(s.seats[p].card as usize).map(|x| x.kind) {
                        Some(Kind::Store { cost, .. }) => format!("pay-and-store:{g} for {}", guilders(cost)),
                        _ => format!("store:{g}"),
                    }
                } else {
                    format!("store:{g}")
                }
            }
            DONE => match s.phase {
                Phase::Store => "stop-storing".into(),
                Phase::Load => "stop-loading".into(),
                Phase::Exchange => "stop-exchanging".into(),
                Phase::Sell => "stop-selling".into(),
                Phase::Preserve => "let-spoil".into(),
                _ => "done".into(),
            },
            PROFIT => match self.data.designs.get(s.seats[p].card as usize).map(|x| x.kind) {
                Some(Kind::LoadOrProfit { profit }) => format!("profit:{}", guilders(profit)),
                _ => "profit".into(),
            },
            _ if a < SELL_HAND => {
                let slot = (a - LOAD) as usize;
                format!("load:{}", self.ship_name(s.harbour.get(slot).map_or(NONE, |&x| x)))
            }
            _ if a < SELL_WAREHOUSE => format!("sell-from-hand:{}", Self::good((a - SELL_HAND) as usize)),
            _ if a < EXCHANGE => format!("sell-from-warehouse:{}", Self::good((a - SELL_WAREHOUSE) as usize)),
            _ if a < SPOIL_CHEESE => {
                let (g, w, h) = exchange_parts(a);
                let from = if w == 0 { "the hand".to_string() } else { format!("P{}'s warehouse", (p + w) % self.players) };
                format!("exchange:{} for {} from {from}", Self::good(g), Self::good(h))
            }
            _ if a < PRESERVE_WAREHOUSE => {
                let x = a - SPOIL_CHEESE;
                let pl = &s.seats[p];
                let k = (pl.warehouse[1] as u32 + pl.warehouse[2] as u32) / 2;
                format!("spoil:{}, {}", count_of(x, 1), count_of(k.saturating_sub(x), 2))
            }
            _ if a < PRESERVE_HAND => format!("preserve-in-warehouse:{}", Self::good((a - PRESERVE_WAREHOUSE) as usize)),
            _ if a < BID => format!("preserve-in-hand:{}", Self::good((a - PRESERVE_HAND) as usize)),
            BID_MORE => format!("bid-more-than:{} guilders", s.seats[p].bid + MAX_BID),
            _ => format!("bid:{}", s.seats[p].bid + a - BID + 1),
        }
    }

    /// The fields of `docs/games/before-the-wind.md`, "Observation tensor". The flags and
    /// one-hot fields are 0 or 1; a card's and a ship's features at most the largest of the
    /// data's cards and ships; the cards of a design in its deck or discard pile at most its
    /// copies; the bank at most its guilders; any other count at most what its state field
    /// holds (money and points, which no rule limits with an unlimited bank).
    fn observation(&self, s: &State, player: usize, t: &mut Tensor<'_>) {
        let (byte, word) = (u8::MAX as f32, u32::MAX as f32);
        t.field("observer", 4, 0.0, 1.0).one_hot(4, player);
        let decider = match self.actor(s) {
            Actor::Player(p) => p,
            _ => 4,
        };
        t.field("decider", 4, 0.0, 1.0).one_hot(4, decider);
        t.field("active player", 4, 0.0, 1.0).one_hot(4, s.active as usize);
        t.field("phase", PHASES, 0.0, 1.0).one_hot(PHASES, phase_index(s.phase));
        let mut f = t.field_with("seats", MAX_PLAYERS * SEAT, |b| {
            let card = self.card_highs();
            for _ in 0..MAX_PLAYERS {
                b.highs(&[word / 10.0, word / 10.0, byte]);
                b.put(4 + 4 + 2 * MAX_SPECIALS, 0.0, byte);
                b.put(4, 0.0, 1.0);
                b.highs(&card);
                b.highs(&[word / 10.0, 1.0]);
            }
        });
        for p in 0..MAX_PLAYERS {
            if p >= self.players {
                f.skip(SEAT);
                continue;
            }
            let pl = &s.seats[p];
            f.put(if self.sees_purse(s, Some(player), p) { pl.money as f32 / 10.0 } else { 0.0 });
            f.put(pl.vp as f32 / 10.0);
            f.put(pl.ships as f32);
            for g in 0..4 {
                f.put(pl.hand[g] as f32);
            }
            for g in 0..4 {
                f.put(pl.warehouse[g] as f32);
            }
            for k in 0..MAX_SPECIALS {
                f.put(pl.kept[k] as f32);
            }
            for k in 0..MAX_SPECIALS {
                f.put(pl.placed[k] as f32);
            }
            f.one_hot(4, pl.standing as usize);
            let shown = !matches!(s.phase, Phase::Spoil | Phase::Preserve | Phase::Ships | Phase::GameOver);
            if shown {
                self.card_features(pl.card, f.next(CARD));
            } else {
                f.skip(CARD);
            }
            f.put(pl.bid as f32 / 10.0);
            f.put(pl.safe_used as u8 as f32);
        }
        let mut f = t.field_with("laid out", MAX_PLAYERS * CARD, |b| {
            let card = self.card_highs();
            for _ in 0..MAX_PLAYERS {
                b.highs(&card);
            }
        });
        for slot in 0..MAX_PLAYERS {
            self.card_features(s.display[slot], f.next(CARD));
        }
        let mut f = t.field_with("harbour", MAX_HARBOUR * SHIP, |b| {
            let mut ship = [0.0f32; SHIP];
            ship[..3].fill(1.0);
            for sh in &self.data.ships {
                for g in 0..4 {
                    ship[3 + g] = ship[3 + g].max(sh.goods[g] as f32);
                }
                ship[7] = ship[7].max(sh.vp as f32 / 10.0);
            }
            for _ in 0..MAX_HARBOUR {
                b.highs(&ship);
            }
        });
        for slot in 0..MAX_HARBOUR {
            let Some(sh) = self.data.ships.get(s.harbour[slot] as usize) else {
                f.skip(SHIP);
                continue;
            };
            f.put(1.0);
            f.one_hot(2, sh.size as usize);
            for g in 0..4 {
                f.put(sh.goods[g] as f32);
            }
            f.put(sh.vp as f32 / 10.0);
        }
        let mut f = t.field("stacks", 4, 0.0, byte);
        for g in 0..4 {
            f.put(s.stacks[g] as f32);
        }
        let mut f = t.field("drawn", 3, 0.0, byte);
        for d in 0..3 {
            f.put(s.drawn[d] as f32);
        }
        t.field("drawing from", 3, 0.0, 1.0).one_hot(3, if s.phase == Phase::Draw { s.draw_deck as usize } else { 3 });
        let mut f = t.field_with("playing", CARD, |b| b.highs(&self.card_highs()));
        self.card_features(s.playing, f.next(CARD));
        t.field_with("step", 3, |b| b.highs(&[byte, 1.0, 1.0]))
            .put(s.left as f32)
            .put(s.to_warehouse as u8 as f32)
            .put((s.source == Source::Kept && s.playing != NONE) as u8 as f32);
        let mut f = t.field("spoiling", 4, 0.0, byte);
        for g in 0..4 {
            f.put(s.spoiling[g] as f32);
        }
        let mut f = t.field("preserved", 4, 0.0, byte);
        for g in 0..4 {
            f.put(s.preserved_hand[g] as f32);
        }
        t.field("preservation left", 1, 0.0, byte).put(s.preserve_left as f32);
        t.field("turn", 1, 0.0, word / 100.0).put(s.turn as f32 / 100.0);
        t.field("bank", 1, 0.0, self.data.rules.bank_guilders as f32 / 10.0)
            .put(self.bank(s).map_or(0.0, |b| b as f32 / 10.0));
        let designs = self.data.designs.len();
        for (name, pile) in [("deck", &s.deck), ("discard", &s.discard)] {
            let mut f = t.field_with(name, designs, |b| {
                for d in &self.data.designs {
                    b.put(1, 0.0, d.count as f32);
                }
            });
            for d in 0..designs {
                f.put(pile[d] as f32);
            }
        }
        let ships = self.data.ships.len();
        for (name, pile) in [("ship deck", &s.ship_deck), ("ship discard", &s.ship_discard)] {
            let mut f = t.field_with(name, ships, |b| {
                for sh in &self.data.ships {
                    b.put(1, 0.0, sh.count as f32);
                }
            });
            for d in 0..ships {
                f.put(pile[d] as f32);
            }
        }
    }

    /// 5.0: victory points of the loaded ships; tie-breakers: goods in the warehouse, then guilders.
    fn score_report(&self, s: &State) -> ScoreReport {
        let n = self.players;
        let terminal = s.phase == Phase::GameOver;
        let winners = if terminal && !s.truncated {
            (0..n).filter(|&p| s.winners & (1 << p) != 0).collect()
        } else {
            Vec::new()
        };
        let mut notes = Vec::new();
        if terminal && !s.truncated {
            notes.push(format!(
                "the game ended at the end of turn {} with a player at {} victory points or more",
                s.turn, self.data.to_win[&n]
            ));
        }
        ScoreReport {
            categories: vec!["ships loaded (victory points)".into()],
            points: (0..n).map(|p| vec![s.seats[p].vp as f64]).collect(),
            totals: (0..n).map(|p| s.seats[p].vp as f64).collect(),
            opponents: Vec::new(),
            tie_breakers: vec!["goods in the warehouse".into(), "guilders".into()],
            tie_breaker_values: (0..n).map(|p| vec![s.seats[p].stored() as f64, s.seats[p].money as f64]).collect(),
            winners,
            opponent_winners: Vec::new(),
            tier: None,
            terminal,
            truncated: s.truncated,
            notes,
        }
    }
}

impl Resample for BeforeTheWind {
    /// A state `player` cannot tell from `s` (ruling 2): the purses of the other seats are
    /// drawn afresh from what the seat knows, never from what they hold. Every bid still
    /// standing is kept (a bidder holds at least his bid). With `bank="limited"` the guilders
    /// the other seats hold together lie open (the box's, less the bank and the seat's own):
    /// each split of them beyond their bids is equally likely. With the unlimited bank nothing
    /// on the table bounds a purse: each is drawn uniformly from its bid up to its bid plus
    /// twice what a player starts with or the seat holds, whichever is more (about as much as
    /// the seat itself). Everything else a seat sees (ruling 1: the decks keep no order).
    fn resample(&self, s: &State, player: usize, rng: &mut Rng) -> State {
        let mut out = s.clone();
        if s.phase == Phase::GameOver {
            return out;
        }
        // The player to move holds what the choice the game waits for needs (a first bid of
        // at least 1 guilder for the auction he opened): a draw that leaves him none is drawn
        // again; the last try gives him the most a draw can.
        let check = matches!(self.actor(s), Actor::Player(p) if p != player);
        for attempt in 0..TRIES {
            self.draw_purses(s, player, rng, &mut out, attempt + 1 == TRIES);
            if !check || self.waits(&out) {
                break;
            }
        }
        out
    }
}
