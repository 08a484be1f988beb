//! Mistwind's rules: who acts, the legal moves, chance, and what a move does.

use crate::engine::prelude::*;
use crate::engine::rng::{below, Rng};
use crate::engine::{Action, Actor, GameSpec};

use super::actions::*;
use super::data::*;
use super::state::*;
use super::Mistwind;

pub(crate) const ALL_CHIPS: u8 = 0b1_1111;

pub(super) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

/// The high bit of each byte of `x` that is `NONE`.
fn none_bytes(x: u64) -> u64 {
    let v = !x;
    let low = 0x7f7f_7f7f_7f7f_7f7fu64;
    !(((v & low) + low) | v) & !low
}

/// The `k`-th (from 0) of the set bits of `m`, lowest first.
fn nth_bit(mut m: u64, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// One of the set bits of `m`, each as likely: the one `chance_weights` lists at the drawn
/// position.
fn draw_bit(m: u64, rng: &mut Rng) -> Action {
    nth_bit(m, below(rng, m.count_ones())) as Action
}

/// One outcome drawn with the weights `counts` (the outcome is the index).
fn draw_weighted(counts: &[u8], rng: &mut Rng) -> Action {
    let total: u32 = counts.iter().map(|&n| n as u32).sum();
    let mut pick = below(rng, total);
    for (c, &n) in counts.iter().enumerate() {
        if pick < n as u32 {
            return c as Action;
        }
        pick -= n as u32;
    }
    panic!("a chance node has outcomes")
}

fn can_pay(res: &[u16; 4], cost: &[u8; 4]) -> bool {
    (0..4).all(|r| res[r] >= cost[r] as u16)
}

fn pay(res: &mut [u16; 4], cost: &[u8; 4]) {
    for r in 0..4 {
        res[r] -= cost[r] as u16;
    }
}

/// `pl` after paying one resource of type `r`.
fn paid(pl: &Player, r: usize) -> Player {
    let mut after = *pl;
    after.res[r] -= 1;
    after
}

fn gain(res: &mut [u16; 4], g: &[u8; 4]) {
    for r in 0..4 {
        res[r] = res[r].saturating_add(g[r] as u16);
    }
}

/// How the solo player stands against a goal: each condition's count and whether it is met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoalStanding {
    pub card: bool,
    pub achievements: (u32, bool),
    pub tiles: (u32, bool),
    pub points: (u32, bool),
}

impl GoalStanding {
    pub fn met(&self) -> bool {
        self.card && self.achievements.1 && self.tiles.1 && self.points.1
    }
}

impl Mistwind {
    /// Chips each player discards in Phase A (two with 5 players).
    pub fn discards(&self) -> u8 {
        if self.players >= 5 {
            self.data.rules.discards_5
        } else {
            self.data.rules.discards
        }
    }



    // ----- chance -----

    /// The next thing to draw, in setup order (B–G, I), then the demand tiles refilled at once
    /// and the rows refilled at the end of a round.
    pub(crate) fn next_draw(&self, s: &State) -> Draw {
        let setup = s.phase == Phase::Setup;
        if setup {
            if let Some(l) = s.achievements.iter().position(|&a| a == NONE) {
                return Draw::Achievement(l as u8);
            }
            if let Some(r) = s.network_tiles.iter().position(|&t| t == NONE) {
                return Draw::NetworkTile(r as u8);
            }
        }
        // The rows' spaces without a tile, as the high bits of the bytes that hold `NONE`.
        let capitals = s.capital_display.as_flattened();
        let capital_spaces = if self.data.capital_row == 2 { 0x8080_8080_8080_8080 } else { 0x0080_0080_0080_0080 };
        let mut empty = none_bytes(u64::from_le_bytes(capitals.try_into().expect("two spaces a region"))) & capital_spaces;
        while empty != 0 {
            let i = empty.trailing_zeros() as usize / 8;
            let r = i / 2;
            if s.capital_stack[r].iter().any(|&c| c > 0) {
                return Draw::Capital(r as u8, (i % 2) as u8);
            }
            empty &= !(0xffff << (16 * r));
        }
        let territory_spaces = 0x8080_8080_8080_8080u64 >> (8 * (MAX_TERRITORY_ROW - self.data.territory_row as usize));
        for r in 0..REGIONS {
            let empty = none_bytes(u64::from_le_bytes(s.territory_display[r])) & territory_spaces;
            if empty != 0 && s.territory_stack[r].iter().any(|&c| c > 0) {
                return Draw::Territory(r as u8, (empty.trailing_zeros() / 8) as u8);
            }
        }
        if setup {
            for p in 0..self.players {
                let cards = s.players[p].cards;
                for d in 0..3u8 {
                    if !bits(cards as u64).any(|c| self.data.network_cards[c].difficulty == d) {
                        return Draw::NetworkCard(p as u8, d);
                    }
                }
            }
        }
        if setup || s.refilling {
            if let Some(i) = s.port_row.iter().position(|&c| c == NONE) {
                if s.port_deck != 0 {
                    return Draw::PortCard(i as u8);
                }
            }
            if let Some(i) = s.character_row.iter().position(|&c| c == NONE) {
                if s.character_deck != 0 {
                    return Draw::Character(i as u8);
                }
            }
        }
        if s.phase == Phase::Turns && s.income == 0 {
            match s.step {
                Step::Chip if self.is_automa(s.turn as usize) => return Draw::Automa(s.turn),
                // An automa player to the left names a type at random (ruling 25).
                Step::Name(_) if self.is_automa(self.left_of(s.turn as usize)) => {
                    return Draw::Name(self.left_of(s.turn as usize) as u8);
                }
                // Worker board side B: the characters drawn one at a time, as many as the deck
                // still has (ruling 31).
                Step::Keep if s.drawn[1] == NONE && s.character_deck != 0 => {
                    return Draw::Drawn(if s.drawn[0] == NONE { 0 } else { 1 });
                }
                _ => {}
            }
        }
        Draw::None
    }



    fn apply_draw(&self, s: &mut State, a: Action) {
        let a8 = a as u8;
        match s.draw {
            Draw::None => {}
            Draw::Achievement(l) => s.achievements[l as usize] = a8,
            Draw::NetworkTile(r) => s.network_tiles[r as usize] = a8,
            Draw::Capital(r, k) => {
                s.capital_stack[r as usize][a as usize] -= 1;
                s.capital_display[r as usize][k as usize] = a8;
            }
            Draw::Territory(r, i) => {
                s.territory_stack[r as usize][a as usize] -= 1;
                s.territory_display[r as usize][i as usize] = a8;
            }
            Draw::NetworkCard(p, _) => {
                s.network_deck &= !(1 << a);
                s.players[p as usize].cards |= 1 << a;
            }
            Draw::PortCard(i) => {
                s.port_deck &= !(1 << a);
                s.port_row[i as usize] = a8;
            }
            Draw::Character(i) => {
                s.character_deck &= !(1u64 << a);
                s.character_row[i as usize] = a8;
            }
            Draw::Automa(p) => {
                // The chip is the automa player's whole turn; the turn ends in `settle`, after
                // the refill of a demand tile it took (solo).
                self.automa_place(s, p as usize, a as usize);
                s.step = Step::Claim;
            }
            Draw::Name(_) => {
                if let Step::Name(n) = s.step {
                    s.step = Step::Receive(n, a8);
                }
            }
            Draw::Drawn(k) => {
                s.character_deck &= !(1u64 << a);
                s.drawn[k as usize] = a8;
            }
        }
    }

    // ----- measures -----

    /// Ports connected to `from` by an unbroken chain of ports in `presence` (empty when
    /// `from` itself is not in it).
    pub fn connected(&self, presence: u32, from: u8) -> u32 {
        if presence & (1 << from) == 0 {
            return 0;
        }
        let mut reach = 1u32 << from;
        let mut todo = reach;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.data.adjacent[i] & presence & !reach;
            reach |= new;
            todo |= new;
        }
        reach
    }

    /// How many destinations of network card `c` the player's network joins to its port.
    pub fn card_links(&self, pl: &Player, c: usize) -> u32 {
        let card = &self.data.network_cards[c];
        let reach = self.connected(pl.presence(), card.port);
        card.destinations.iter().filter(|&&d| reach & (1 << d) != 0).count() as u32
    }

    /// Whether the player's network joins region `r`'s capital to its network tile's destination.
    pub fn tile_linked(&self, s: &State, p: usize, r: usize) -> bool {
        let t = s.network_tiles[r];
        t != NONE && self.connected(s.players[p].presence(), self.data.capital[r]) & (1 << self.data.network_tiles[t as usize].destination) != 0
    }

    pub fn has_ability(&self, pl: &Player, ability: Ability) -> u32 {
        bits(pl.characters)
            .filter(|&c| self.data.characters[c].kind == CharKind::Permanent && self.data.characters[c].ability == ability)
            .count() as u32
    }

    #[inline]
    pub fn measure(&self, pl: &Player, what: Count) -> u32 {
        match what {
            Count::None => 0,
            Count::Outposts => pl.outposts.count_ones(),
            Count::OutpostRegions => {
                bits(pl.outposts as u64).fold(0u32, |m, q| m | 1 << self.data.ports[q].region).count_ones()
            }
            Count::Whales => pl.whales.iter().filter(|&&w| w != NONE).count() as u32,
            Count::CapitalTiles => pl.capital_tiles.iter().map(|&n| n as u32).sum(),
            Count::TerritoryTiles => pl.territory_tiles.iter().map(|&n| n as u32).sum(),
            Count::DemandTiles => pl.capital_tiles.iter().chain(&pl.territory_tiles).map(|&n| n as u32).sum(),
            Count::DemandRegions => (0..REGIONS).filter(|&r| pl.territory_tiles[r] + pl.capital_tiles[r] > 0).count() as u32,
            Count::Achievements => pl.achievements.count_ones(),
            Count::NetworkTiles => pl.markers.iter().filter(|&&m| m != 0).count() as u32,
            Count::Characters => pl.characters.count_ones(),
            Count::EachResource => *pl.res.iter().min().unwrap() as u32,
        }
    }

    pub fn outpost_cost(&self, pl: &Player) -> [u8; 4] {
        let mut c = self.data.rules.outpost_cost;
        if self.has_ability(pl, Ability::CheapOutposts) > 0 {
            c[STEEL] = 0;
        }
        c
    }

    fn can_build_outpost(&self, pl: &Player) -> bool {
        can_pay(&pl.res, &self.outpost_cost(pl)) && pl.outposts.count_ones() < self.data.rules.outposts as u32
    }

    fn free_whale(&self, pl: &Player) -> Option<usize> {
        (0..self.data.rules.whales as usize).find(|&w| pl.whales[w] == NONE)
    }

    fn can_build_whale(&self, pl: &Player) -> bool {
        can_pay(&pl.res, &self.data.rules.whale_cost) && self.free_whale(pl).is_some()
    }

    fn markers_left(&self, pl: &Player) -> bool {
        (pl.markers.iter().filter(|&&m| m != 0).count() as u8) < self.data.rules.markers
    }

    /// Where whale `w` of player `p` starts, the ports it leaves for free (all of them when
    /// moves are free), and the krill to leave any other port: leaving a port costs krill
    /// unless the player has an outpost or another whale there.
    fn departures(&self, s: &State, p: usize, w: usize) -> (u8, u32, u8) {
        let pl = &s.players[p];
        let toll = self.data.rules.krill_to_leave;
        if toll == 0 || s.free_moves || self.has_ability(pl, Ability::FreeMoves) > 0 {
            return (pl.whales[w], self.all_ports(), 0);
        }
        let mut home = pl.outposts;
        for (v, &q) in pl.whales.iter().enumerate() {
            if v != w && q != NONE {
                home |= 1 << q;
            }
        }
        (pl.whales[w], home, toll)
    }

    fn all_ports(&self) -> u32 {
        (((1u64 << self.data.ports.len()) - 1) & u32::MAX as u64) as u32
    }

    /// The ports a whale at `start` reaches, spreading one paid departure at a time: each
    /// step first follows every free departure (from ports in `home`), then, unless
    /// `enough(reached, paid)`, leaves every port reached so far that is not in `home`. Returns
    /// the ports reached and the paid departures the last of them needed; a port first reached
    /// after `paid` paid departures costs `paid` times the toll (a breadth-first search over
    /// bit sets: every departure costs the toll or nothing).
    fn sail(&self, start: u8, home: u32, mut enough: impl FnMut(u32, u32) -> bool) -> (u32, u32) {
        let adjacent = &self.data.adjacent;
        let mut reached = 1u32 << start;
        let mut free = reached & home;
        let mut paying = reached & !home;
        let mut paid = 0;
        loop {
            while free != 0 {
                let q = free.trailing_zeros() as usize;
                free &= free - 1;
                let new = adjacent[q] & !reached;
                reached |= new;
                free |= new & home;
                paying |= new & !home;
            }
            if paying == 0 || enough(reached, paid) {
                return (reached, paid);
            }
            paid += 1;
            let mut new = 0;
            for q in bits(paying as u64) {
                new |= adjacent[q];
            }
            new &= !reached;
            reached |= new;
            free = new & home;
            paying = new & !home;
        }
    }

    /// The ports whale `w` of player `p` can reach with at most `krill` krill (its own port
    /// included; every port when `krill` is at least `u8::MAX`, the cost of a port it cannot
    /// reach).
    pub fn reachable(&self, s: &State, p: usize, w: usize, krill: u16) -> u32 {
        let (start, home, toll) = self.departures(s, p, w);
        if start == NONE {
            return 0;
        }
        if krill >= u8::MAX as u16 {
            return self.all_ports();
        }
        let most = if toll == 0 { 0 } else { (krill / toll as u16) as u32 };
        self.sail(start, home, |_, paid| paid >= most).0
    }

    /// The cheapest krill to bring whale `w` of player `p` to port `q` (`u8::MAX` where it
    /// cannot go, or not for less).
    pub fn move_cost(&self, s: &State, p: usize, w: usize, q: u8) -> u8 {
        let (start, home, toll) = self.departures(s, p, w);
        if start == NONE {
            return u8::MAX;
        }
        let (reached, paid) = self.sail(start, home, |reached, paid| {
            reached & (1 << q) != 0 || (paid + 1) * toll as u32 >= u8::MAX as u32
        });
        if reached & (1 << q) != 0 {
            (paid * toll as u32) as u8
        } else {
            u8::MAX
        }
    }

    fn card_claimable(&self, pl: &Player, c: usize) -> bool {
        pl.cards & (1 << c) != 0 && self.card_links(pl, c) == 2
    }

    fn tile_claimable(&self, s: &State, p: usize, r: usize, lower: bool) -> bool {
        let pl = &s.players[p];
        pl.markers[r] == 0 && self.markers_left(pl) && (lower || s.upper[r] == NONE) && self.tile_linked(s, p, r)
    }

    fn achievement_claimable(&self, s: &State, p: usize, l: usize) -> bool {
        let a = s.achievements[l];
        a != NONE && s.achievement_taken[l] == NONE && {
            let t = &self.data.achievements[a as usize];
            self.measure(&s.players[p], t.requirement) >= t.count as u32
        }
    }

    /// Whether `p` is asked for the claims (ruling 36). Which network cards `p` holds is his
    /// secret: the other seats see how many he holds of each difficulty. So he is asked where
    /// a network card he might hold, as the table sees it, could be claimed (one of a
    /// difficulty he holds, claimed by nobody, whose port his network joins to both
    /// destinations), or where he can claim a network tile. In Phase C only what the outposts
    /// of this round's port bonuses make possible counts (ruling 7).
    fn asked_to_claim(&self, s: &State, p: usize) -> bool {
        let pl = &s.players[p];
        let phase_c = s.phase == Phase::EndRoundClaims;
        let tiles = if phase_c { self.bonus_claim_mask(s, p) } else { self.claim_mask(s, p) } >> 16;
        if tiles != 0 {
            return true;
        }
        if pl.cards == 0 {
            return false;
        }
        let d = &self.data;
        let held = bits(pl.cards as u64).fold(0u8, |m, c| m | 1 << d.network_cards[c].difficulty);
        let claimed = s.players.iter().take(self.positions).fold(0u16, |m, q| m | q.claimed);
        let joined = |presence: u32, c: usize| {
            let card = &d.network_cards[c];
            let reach = self.connected(presence, card.port);
            card.destinations.iter().all(|&x| reach & (1 << x) != 0)
        };
        let presence = pl.presence();
        // Without the bonus outposts (a whale in the same port still counts), as
        // `bonus_claim_mask` takes them away.
        let mut without = *pl;
        without.outposts &= !(if phase_c { s.bonus_outposts[p] } else { 0 });
        let before = without.presence();
        (0..d.network_cards.len()).any(|c| {
            held & (1 << d.network_cards[c].difficulty) != 0
                && claimed & (1 << c) == 0
                && joined(presence, c)
                && !(phase_c && joined(before, c))
        })
    }

    /// What `p` can claim now, as bits: network card `c` (bit `c`), the upper or lower field
    /// of region `r`'s network tile (bit `16 + 2 * r + lower`).
    pub(crate) fn claim_mask(&self, s: &State, p: usize) -> u32 {
        let pl = &s.players[p];
        let mut m = 0u32;
        for c in bits(pl.cards as u64) {
            if self.card_claimable(pl, c) {
                m |= 1 << c;
            }
        }
        for r in 0..REGIONS {
            for lower in [false, true] {
                if self.tile_claimable(s, p, r, lower) {
                    m |= 1 << (16 + 2 * r + lower as usize);
                }
            }
        }
        m
    }

    /// Phase C 2: what `p` can claim now and could not without the outposts this round's port
    /// bonuses built him: the victory conditions "made possible by a port bonus" (ruling 7).
    /// (The bonuses' resources make no network; achievements are taken at once, ruling 34.)
    pub(crate) fn bonus_claim_mask(&self, s: &State, p: usize) -> u32 {
        if s.bonus_outposts[p] == 0 {
            return 0;
        }
        let mut without = s.clone();
        without.players[p].outposts &= !s.bonus_outposts[p];
        self.claim_mask(s, p) & !self.claim_mask(&without, p)
    }

    /// Scoring 4: "If you fulfill the requirements on one of these tiles during the game, take
    /// the tile immediately": every player (not an automa player, ruling 16) takes each tile
    /// whose requirement he fulfils as soon as he does, the player deciding first, then
    /// clockwise (ruling 34).
    fn take_achievements(&self, s: &mut State) {
        let open = (0..4).filter(|&l| s.achievements[l] != NONE && s.achievement_taken[l] == NONE).fold(0u8, |m, l| m | 1 << l);
        if open == 0 {
            return;
        }
        for &p in &self.seats[s.current as usize][..self.players] {
            let p = p as usize;
            for l in bits(open as u64) {
                if self.achievement_claimable(s, p, l) {
                    s.achievement_taken[l] = p as u8;
                    s.players[p].achievements |= 1 << l;
                }
            }
        }
    }

    /// The player to the left of position `p`: the next one clockwise.
    pub fn left_of(&self, p: usize) -> usize {
        self.clockwise(p, 1)
    }

    /// The incomes due when `placer` places a chip on the resource board ([`State::income`]):
    /// on each income field, to the owner of the chip lying there and to whoever holds its
    /// income right through worker board side B's field 5 (ruling 33), each if other than
    /// `placer` (an automa player has no player board and receives nothing, ruling 16).
    pub(crate) fn income_due(&self, s: &State, placer: usize) -> u32 {
        let mut m = 0u32;
        for f in 0..ROW {
            if self.resource_board[f].ability != ResourceAbility::Income {
                continue;
            }
            let h = s.resource_fields[f];
            for q in 0..self.positions {
                let holds = h as usize == q || s.players[q].income_rights & (1 << f) != 0;
                if holds && q != placer && !self.is_automa(q) {
                    m |= income_bit(f, q);
                }
            }
        }
        m
    }

    /// Who decides now in Phase B: the holder of the lowest income field still due, the
    /// player to the left naming a type, the seat taking its share, else the turn's player.
    pub(crate) fn decider(&self, s: &State) -> u8 {
        if s.income != 0 {
            return next_income(s.income).1 as u8;
        }
        match s.step {
            Step::Name(_) => self.left_of(s.turn as usize) as u8,
            Step::Share(k, _, _) => self.seat_order(s.turn as usize, k as usize + 1) as u8,
            Step::Answer(q, _, _) => q,
            _ => s.turn,
        }
    }

    /// Whether the player to the left of `p` holds a resource to take (an automa player
    /// holds none, ruling 27).
    pub(crate) fn left_holds(&self, s: &State, p: usize) -> bool {
        let left = self.left_of(p);
        !self.is_automa(left) && s.players[left].res.iter().any(|&r| r > 0)
    }

    /// Whether position `p`, holding what `pl` holds, can carry out worker field `i`.
    pub(crate) fn worker_usable(&self, s: &State, p: usize, pl: &Player, i: usize) -> bool {
        match self.worker_board[i].ability {
            WorkerAbility::BuildOutpost => {
                let all = (1u64 << self.data.ports.len()) - 1;
                self.can_build_outpost(pl) && (pl.outposts as u64) != all
            }
            WorkerAbility::BuildWhale => self.can_build_whale(pl) && pl.outposts != 0,
            WorkerAbility::DrawAndGive => s.character_deck != 0,
            WorkerAbility::BuyOutpost => self.buy_ports(s, p, pl, i) != 0,
            WorkerAbility::LongMove => pl.whales.iter().any(|&w| w != NONE),
            WorkerAbility::UseOccupied => (0..4).any(|r| pl.res[r] > 0 && self.occupied_usable(s, p, &paid(pl, r)) != 0),
            WorkerAbility::Gain | WorkerAbility::FreeMoves | WorkerAbility::StartPlayer | WorkerAbility::StartPlayerAndTrade => true,
        }
    }

    /// The amounts of the worker field with this ability (side B has one of each).
    pub(crate) fn worker_amounts(&self, ability: WorkerAbility) -> [u8; 2] {
        self.worker_board.iter().find(|f| f.ability == ability).map_or([0; 2], |f| f.amounts)
    }

    /// Worker board side B, "buy an outpost with coins": the other positions with an outpost
    /// in port `q`, and the coins `p` pays: "Pay 3 coins if there are no outposts of other
    /// players at the port. If the port is occupied, pay 1 coin to every player with an
    /// outpost there."
    pub(crate) fn buy_cost(&self, s: &State, p: usize, i: usize, q: usize) -> (u8, u16) {
        let mut occupants = 0u8;
        for o in 0..self.positions {
            if o != p && s.players[o].outposts & (1 << q) != 0 {
                occupants |= 1 << o;
            }
        }
        let a = self.worker_board[i].amounts;
        let coins = if occupants == 0 { a[0] as u16 } else { occupants.count_ones() as u16 * a[1] as u16 };
        (occupants, coins)
    }

    /// The ports where `p`, holding what `pl` holds, can buy an outpost on worker field `i`.
    fn buy_ports(&self, s: &State, p: usize, pl: &Player, i: usize) -> u32 {
        if pl.outposts.count_ones() >= self.data.rules.outposts as u32 {
            return 0;
        }
        let mut m = 0u32;
        for q in 0..self.data.ports.len() {
            if pl.outposts & (1 << q) == 0 && pl.res[COINS] >= self.buy_cost(s, p, i, q).1 {
                m |= 1 << q;
            }
        }
        m
    }

    /// Worker board side B, "use an occupied field": the fields `p`, holding what `pl` holds,
    /// can use (bit `5 * board + i`, board 0 the resource board, 1 the worker board): those
    /// "on which another player's action chip already lies", but for the field of this ability
    /// itself, and, with the `field5_income_fields` option off, the income fields (ruling 33).
    pub(crate) fn occupied_usable(&self, s: &State, p: usize, pl: &Player) -> u16 {
        let mut m = 0u16;
        for i in 0..ROW {
            let h = s.resource_fields[i];
            let usable = match self.resource_board[i].ability {
                ResourceAbility::Income => self.field5_income_fields,
                _ => true,
            };
            if h != NONE && h as usize != p && usable {
                m |= 1 << i;
            }
            let h = s.worker_fields[i];
            if h != NONE && h as usize != p && self.worker_board[i].ability != WorkerAbility::UseOccupied && self.worker_usable(s, p, pl, i) {
                m |= 1 << (ROW + i);
            }
        }
        m
    }

    /// Worker board side B's trades: the seats `p` may still ask (not asked yet this turn,
    /// while fewer trades than the field allows are made) with whom some trade is possible
    /// (ruling 32).
    pub(crate) fn trade_partners(&self, s: &State, p: usize) -> u8 {
        let most = self.worker_amounts(WorkerAbility::StartPlayerAndTrade)[0];
        if s.trades >= most {
            return 0;
        }
        let mut m = 0u8;
        for q in 0..self.players {
            if q != p && s.asked & (1 << q) == 0 && self.offers(s, p, q) != 0 {
                m |= 1 << q;
            }
        }
        m
    }

    /// The trades `p` can offer `q` (bit `4 * give + want`): a resource `p` holds for another
    /// type that `q` holds.
    pub(crate) fn offers(&self, s: &State, p: usize, q: usize) -> u16 {
        let mut m = 0u16;
        for g in 0..4 {
            for w in 0..4 {
                if g != w && s.players[p].res[g] > 0 && s.players[q].res[w] > 0 {
                    m |= 1 << (4 * g + w);
                }
            }
        }
        m
    }

    /// Character `c` joins position `q`'s cards; one that "must be used immediately" is used
    /// at once (a character kept or given on worker board side B, ruling 31).
    fn receive_character(&self, s: &mut State, q: usize, c: usize) {
        let ch = &self.data.characters[c];
        let pl = &mut s.players[q];
        pl.characters |= 1 << c;
        if ch.kind == CharKind::Immediate {
            gain(&mut pl.res, &ch.gain);
            pl.used |= 1 << c;
        }
    }

    /// Carries out resource field `i` for `p` (a chip placed there, or worker board side B's
    /// use of an occupied field).
    fn resource_action(&self, s: &mut State, p: usize, i: usize) {
        let f = self.resource_board[i];
        gain(&mut s.players[p].res, &f.gain);
        s.step = match f.ability {
            ResourceAbility::Gain | ResourceAbility::Income => Step::Move,
            ResourceAbility::NamedByLeft => Step::Name(f.amounts[0]),
            ResourceAbility::GainAndFromLeft if self.left_holds(s, p) => Step::FromLeft,
            ResourceAbility::GainAndFromLeft => Step::Move,
            ResourceAbility::ThreeAndTwo => Step::Split(i as u8),
        };
    }

    /// Carries out worker field `i` for `p` (a chip placed there, or side B's use of an
    /// occupied field).
    fn worker_action(&self, s: &mut State, p: usize, i: usize) {
        let f = self.worker_board[i];
        gain(&mut s.players[p].res, &f.gain);
        s.step = Step::Move;
        match f.ability {
            WorkerAbility::BuildOutpost | WorkerAbility::BuildWhale | WorkerAbility::BuyOutpost => s.step = Step::WorkerBuild(i as u8),
            WorkerAbility::FreeMoves => s.free_moves = true,
            WorkerAbility::StartPlayer => s.start_player = p as u8,
            WorkerAbility::Gain => {}
            WorkerAbility::DrawAndGive => {
                s.drawn = [NONE; 2];
                s.step = Step::Keep;
            }
            WorkerAbility::LongMove => {
                s.long = LongMove::NONE;
                s.step = Step::LongMove;
            }
            WorkerAbility::StartPlayerAndTrade => {
                s.start_player = p as u8;
                s.asked = 0;
                s.trades = 0;
                if self.trade_partners(s, p) != 0 {
                    s.step = Step::Trade;
                }
            }
            WorkerAbility::UseOccupied => s.step = Step::PayToUse,
        }
    }

    fn one_time_cards(&self, pl: &Player) -> u64 {
        let mut m = 0u64;
        for c in bits(pl.characters & !pl.used) {
            if self.data.characters[c].kind == CharKind::OneTime {
                m |= 1 << c;
            }
        }
        m
    }

    // ----- legal moves -----


    /// The one-time characters whose ability still does something in this turn: a gain at
    /// any decision of the player's turn, free whale moves while the whales may still move
    /// and their moves are not free already.
    fn usable_one_time(&self, s: &State, pl: &Player) -> u64 {
        let cards = self.one_time_cards(pl);
        if cards == 0 {
            return 0;
        }
        let unmoved = (0..MAX_WHALES).any(|w| pl.whales[w] != NONE && s.moved & (1 << w) == 0);
        let moving = (matches!(
            s.step,
            Step::Chip
                | Step::PortChoice(_)
                | Step::WorkerBuild(_)
                | Step::Receive(..)
                | Step::FromLeft
                | Step::Split(_)
                | Step::Keep
                | Step::Give(_)
                | Step::LongMove
                | Step::PayField(_)
                | Step::Trade
                | Step::Offer(_)
                | Step::PayToUse
                | Step::UseField
        )
            || (s.step == Step::Move && unmoved))
            && !s.free_moves
            && self.has_ability(pl, Ability::FreeMoves) == 0;
        let mut m = 0u64;
        for c in bits(cards) {
            if moving || self.data.characters[c].ability != Ability::FreeMoves {
                m |= 1 << c;
            }
        }
        m
    }

    fn uses(&self, s: &State, pl: &Player, out: &mut Vec<Action>) {
        for c in bits(self.usable_one_time(s, pl)) {
            out.push(USE + c as Action);
        }
    }

    fn can_load(&self, s: &State, p: usize, w: usize) -> bool {
        let pl = &s.players[p];
        let q = pl.whales[w];
        if q == NONE {
            return false;
        }
        let c = self.data.ports[q as usize].cargo;
        c == KRILL_CARGO || (c != NO_CARGO && s.cargo_supply[c as usize] > 0 && pl.cargo[w] != c)
    }

    /// The loads and deliveries of the whales in `whales` (bit per whale), sorted.
    fn cargo_moves(&self, s: &State, p: usize, whales: u8, out: &mut Vec<Action>) {
        let d = &self.data;
        let pl = &s.players[p];
        for w in 0..MAX_WHALES {
            if whales & (1 << w) != 0 && self.can_load(s, p, w) {
                out.push(LOAD + w as Action);
            }
        }
        for w in 0..MAX_WHALES {
            let (q, c) = (pl.whales[w], pl.cargo[w]);
            if q == NONE || c == NONE || whales & (1 << w) == 0 || d.ports[q as usize].capital {
                continue;
            }
            let r = d.ports[q as usize].region as usize;
            for i in 0..d.territory_row as usize {
                if s.territory_display[r][i] == c {
                    out.push(DELIVER_TERRITORY + (w * MAX_TERRITORY_ROW + i) as Action);
                }
            }
        }
        for w in 0..MAX_WHALES {
            let (q, c) = (pl.whales[w], pl.cargo[w]);
            if q == NONE || c == NONE || whales & (1 << w) == 0 || !d.ports[q as usize].capital {
                continue;
            }
            let r = d.ports[q as usize].region as usize;
            // Two tiles of the same cargo are the same choice: the first is offered.
            if let Some(k) = s.capital_display[r].iter().position(|&t| t == c) {
                out.push(DELIVER_CAPITAL + (2 * w + k) as Action);
            }
        }
    }

    /// Victory conditions open to `p` (in Phase C only those made possible by the port
    /// bonuses, ruling 7), then ending the turn (or the claims).
    fn claims(&self, s: &State, p: usize, out: &mut Vec<Action>) {
        let m = if s.phase == Phase::EndRoundClaims { self.bonus_claim_mask(s, p) } else { self.claim_mask(s, p) };
        for b in bits(m as u64) {
            out.push(if b < 16 { REVEAL_CARD + b as Action } else { CONTROL + (b - 16) as Action });
        }
        out.push(END_TURN);
    }

    // ----- moves -----


    fn turn_move(&self, s: &mut State, p: usize, a: Action) {
        let d = &self.data;
        match a {
            _ if (PLAY..BUILD_OUTPOST).contains(&a) => {
                let l = ((a - PLAY) / 5) as u8;
                let i = ((a - PLAY) % 5) as usize;
                s.players[p].hand &= !(1 << i);
                s.step = Step::Move;
                match l {
                    RESOURCE_BOARD => {
                        s.resource_fields[i] = p as u8;
                        s.players[p].used_resource_board = true;
                        self.resource_action(s, p, i);
                        s.income = self.income_due(s, p);
                    }
                    CHARACTER_ROW => {
                        let c = s.character_row[i] as usize;
                        s.character_row[i] = NONE;
                        s.character_chips[i] = p as u8;
                        let ch = &d.characters[c];
                        let pl = &mut s.players[p];
                        pay(&mut pl.res, &ch.cost);
                        pl.characters |= 1 << c;
                        if ch.kind == CharKind::Immediate {
                            gain(&mut pl.res, &ch.gain);
                            pl.used |= 1 << c;
                        }
                    }
                    WORKER_BOARD => {
                        s.worker_fields[i] = p as u8;
                        s.players[p].used_worker_board = true;
                        self.worker_action(s, p, i);
                    }
                    _ => {
                        s.stack_height[i] += 1;
                        s.stack_top[i] = p as u8;
                        s.step = Step::PortChoice(i as u8);
                    }
                }
            }
            BUILD_OUTPOST | BUILD_WHALE => {
                let Step::PortChoice(i) = s.step else { return };
                let port = d.port_cards[s.port_row[i as usize] as usize].port;
                self.build(s, p, port, a == BUILD_OUTPOST);
                s.step = Step::Move;
            }
            _ if (TAKE..BUILD_AT).contains(&a) => {
                let Step::PortChoice(i) = s.step else { return };
                let pl = &mut s.players[p];
                let n = s.stack_height[i as usize] as u16 + self.has_ability(pl, Ability::ExtraTake) as u16;
                pl.res[(a - TAKE) as usize] = pl.res[(a - TAKE) as usize].saturating_add(n);
                s.step = Step::Move;
            }
            _ if (BUILD_AT..MOVE).contains(&a) => {
                let Step::WorkerBuild(i) = s.step else { return };
                let q = (a - BUILD_AT) as usize;
                match self.worker_board[i as usize].ability {
                    WorkerAbility::BuyOutpost => {
                        let (occupants, coins) = self.buy_cost(s, p, i as usize, q);
                        let each = self.worker_board[i as usize].amounts[1] as u16;
                        s.players[p].res[COINS] -= coins;
                        for o in bits(occupants as u64) {
                            s.players[o].res[COINS] = s.players[o].res[COINS].saturating_add(each);
                        }
                        s.players[p].outposts |= 1 << q;
                    }
                    ability => self.build(s, p, q as u8, ability == WorkerAbility::BuildOutpost),
                }
                s.step = Step::Move;
            }
            _ if (MOVE..END_MOVES).contains(&a) && s.step == Step::LongMove => {
                let w = ((a - MOVE) as usize) / MAX_PORTS;
                let q = ((a - MOVE) as usize % MAX_PORTS) as u8;
                let pl = &mut s.players[p];
                if s.long.whale == NONE {
                    s.long.whale = w as u8;
                    s.long.visited = 1 << pl.whales[w];
                }
                pl.whales[w] = q;
                s.long.visited |= 1 << q;
                s.long.fields = s.long.fields.saturating_add(1);
                let [free, per] = self.worker_amounts(WorkerAbility::LongMove);
                if s.long.fields > free && per > 0 {
                    s.step = Step::PayField(per);
                }
            }
            END_MOVES if s.step == Step::LongMove => {
                s.long = LongMove::NONE;
                s.step = Step::Move;
            }
            _ if (LOAD..END_CARGO).contains(&a) && s.step == Step::LongMove => {
                // "During the movement you may load or unload once": the turn's step 3 is
                // still to come for every whale (ruling 30).
                let done = s.cargo_done;
                s.step = Step::Cargo;
                self.turn_move(s, p, a);
                s.cargo_done = done;
                s.long.cargo = true;
                if s.step == Step::Cargo {
                    s.step = Step::LongMove;
                }
            }
            _ if (MOVE..END_MOVES).contains(&a) => {
                let w = ((a - MOVE) as usize) / MAX_PORTS;
                let q = ((a - MOVE) as usize % MAX_PORTS) as u8;
                let cost = self.move_cost(s, p, w, q);
                let pl = &mut s.players[p];
                pl.res[KRILL] -= cost as u16;
                pl.whales[w] = q;
                s.moved |= 1 << w;
            }
            END_MOVES => s.step = Step::Cargo,
            _ if (LOAD..DELIVER_TERRITORY).contains(&a) => {
                let w = (a - LOAD) as usize;
                let pl = &mut s.players[p];
                let c = d.ports[pl.whales[w] as usize].cargo;
                if c == KRILL_CARGO {
                    pl.res[KRILL] = pl.res[KRILL].saturating_add(1);
                } else {
                    if pl.cargo[w] != NONE {
                        s.cargo_supply[pl.cargo[w] as usize] += 1;
                    }
                    s.cargo_supply[c as usize] -= 1;
                    pl.cargo[w] = c;
                }
                s.cargo_done |= 1 << w;
            }
            _ if (DELIVER_TERRITORY..DELIVER_CAPITAL).contains(&a) => {
                let w = (a - DELIVER_TERRITORY) as usize / MAX_TERRITORY_ROW;
                let i = (a - DELIVER_TERRITORY) as usize % MAX_TERRITORY_ROW;
                let r = self.deliver(s, p, w);
                self.take_territory(s, p, r, i);
                if i < 2 {
                    s.step = Step::BottomChoice(i as u8);
                }
            }
            _ if (DELIVER_CAPITAL..END_CARGO).contains(&a) => {
                let w = (a - DELIVER_CAPITAL) as usize / 2;
                let k = (a - DELIVER_CAPITAL) as usize % 2;
                let r = self.deliver(s, p, w);
                s.capital_display[r][k] = NONE;
                s.players[p].capital_tiles[r] += 1;
            }
            END_CARGO => {
                s.step = Step::Claim;
            }
            _ if (CHOOSE..USE).contains(&a) => {
                let r = &mut s.players[p].res[(a - CHOOSE) as usize];
                *r = r.saturating_add(1);
                s.step = if s.long.whale != NONE { Step::LongMove } else { Step::Cargo };
            }
            _ if (USE..REVEAL_CARD).contains(&a) => {
                let c = (a - USE) as usize;
                let ch = &d.characters[c];
                let pl = &mut s.players[p];
                pl.used |= 1 << c;
                gain(&mut pl.res, &ch.gain);
                if ch.ability == Ability::FreeMoves {
                    s.free_moves = true;
                }
            }
            END_TURN => self.end_turn(s),
            _ if (NAME..GAIN).contains(&a) => {
                if let Step::Name(n) = s.step {
                    s.step = Step::Receive(n, (a - NAME) as u8);
                }
            }
            _ if (GAIN..FROM_LEFT).contains(&a) => {
                let r = &mut s.players[p].res[(a - GAIN) as usize];
                *r = r.saturating_add(1);
                if s.income != 0 {
                    s.income &= s.income - 1;
                    return;
                }
                s.step = match s.step {
                    Step::Receive(n, named) if n > 1 => Step::Receive(n - 1, named),
                    Step::Share(k, x, y) if (k as usize) + 2 < self.players => Step::Share(k + 1, x, y),
                    _ => Step::Move,
                };
            }
            _ if (FROM_LEFT..SPLIT).contains(&a) => {
                let r = (a - FROM_LEFT) as usize;
                let left = self.left_of(p);
                s.players[left].res[r] -= 1;
                s.players[p].res[r] = s.players[p].res[r].saturating_add(1);
                s.step = Step::Move;
            }
            _ if (SPLIT..KEEP).contains(&a) => {
                let Step::Split(i) = s.step else { return };
                let (x, y) = (((a - SPLIT) / 4) as usize, ((a - SPLIT) % 4) as usize);
                let amounts = self.resource_board[i as usize].amounts;
                let pl = &mut s.players[p];
                pl.res[x] = pl.res[x].saturating_add(amounts[0] as u16);
                pl.res[y] = pl.res[y].saturating_add(amounts[1] as u16);
                // "All other players may then take 1 resource from the two chosen resource
                // types", clockwise from the turn's player (ruling 28).
                s.step = if self.players > 1 { Step::Share(0, x as u8, y as u8) } else { Step::Move };
            }
            _ if (KEEP..GIVE).contains(&a) => {
                let c = (a - KEEP) as u8;
                let other = if s.drawn[0] == c { s.drawn[1] } else { s.drawn[0] };
                self.receive_character(s, p, c as usize);
                s.drawn = [other, NONE];
                // Solo, no other seat takes the card: it is discarded (ruling 31).
                s.step = if other != NONE && self.players > 1 { Step::Give(other) } else { Step::Move };
                if s.step == Step::Move {
                    s.drawn = [NONE; 2];
                }
            }
            _ if (GIVE..PAY).contains(&a) => {
                let Step::Give(c) = s.step else { return };
                self.receive_character(s, (a - GIVE) as usize, c as usize);
                s.drawn = [NONE; 2];
                s.step = Step::Move;
            }
            _ if (PAY..PARTNER).contains(&a) => {
                let (r, q) = (((a - PAY) / MAX_PLAYERS as Action) as usize, ((a - PAY) % MAX_PLAYERS as Action) as usize);
                s.players[p].res[r] -= 1;
                // An automa player has no player board: what it is paid returns to the supply
                // (ruling 30).
                if !self.is_automa(q) {
                    s.players[q].res[r] = s.players[q].res[r].saturating_add(1);
                }
                s.step = match s.step {
                    Step::PayField(n) if n > 1 => Step::PayField(n - 1),
                    Step::PayField(_) => Step::LongMove,
                    _ => Step::UseField,
                };
            }
            _ if (PARTNER..OFFER).contains(&a) => s.step = Step::Offer((a - PARTNER) as u8),
            _ if (OFFER..ACCEPT).contains(&a) => {
                let Step::Offer(q) = s.step else { return };
                s.step = Step::Answer(q, ((a - OFFER) / 4) as u8, ((a - OFFER) % 4) as u8);
            }
            ACCEPT | DECLINE => {
                let Step::Answer(q, g, w) = s.step else { return };
                let (t, q, g, w) = (s.turn as usize, q as usize, g as usize, w as usize);
                if a == ACCEPT {
                    s.players[t].res[g] -= 1;
                    s.players[q].res[g] = s.players[q].res[g].saturating_add(1);
                    s.players[q].res[w] -= 1;
                    s.players[t].res[w] = s.players[t].res[w].saturating_add(1);
                    s.trades += 1;
                }
                s.asked |= 1 << q;
                s.step = if self.trade_partners(s, t) != 0 { Step::Trade } else { Step::Move };
            }
            END_TRADES => s.step = Step::Move,
            _ if (USE_FIELD..NUM_ACTIONS as Action).contains(&a) => {
                let (b, i) = (((a - USE_FIELD) / ROW as Action) as usize, ((a - USE_FIELD) % ROW as Action) as usize);
                if b == 0 {
                    // Ruling 33: using an income field gives its right, for the rest of the
                    // round, to its user ("you").
                    if self.resource_board[i].ability == ResourceAbility::Income {
                        s.players[p].income_rights |= 1 << i;
                    }
                    self.resource_action(s, p, i);
                } else {
                    self.worker_action(s, p, i);
                }
            }
            _ => self.claim(s, p, a),
        }
    }

    /// Position `p` takes the territory demand tile at space `i` of region `r`'s row: "When a
    /// space among the territory demand tiles becomes empty, immediately slide the tile above
    /// it down one space". The top space is refilled by the next chance draw.
    pub(crate) fn take_territory(&self, s: &mut State, p: usize, r: usize, i: usize) {
        let row = &mut s.territory_display[r];
        let n = self.data.territory_row as usize;
        for k in i..n - 1 {
            row[k] = row[k + 1];
        }
        row[n - 1] = NONE;
        s.players[p].territory_tiles[r] += 1;
    }

    /// The winning seats, pushed onto `out`: none before the end; solo, the seat if it meets
    /// the chosen goal (a missed goal is a loss with no winning seat: ruling 24); otherwise
    /// the most points, ties broken by wood and steel left, a tie that remains shared.
    pub(super) fn winners_into(&self, s: &State, out: &mut Vec<usize>) {
        if s.phase != Phase::GameOver {
            return;
        }
        if self.players == 1 {
            if self.goal_standing(s, self.difficulty).met() {
                out.push(0);
            }
            return;
        }
        let mut keys = [(0u32, 0u32); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(self.players) {
            *k = (self.tally(s, p).iter().sum(), s.players[p].res[WOOD] as u32 + s.players[p].res[STEEL] as u32);
        }
        let best = keys[..self.players].iter().max().copied().unwrap();
        out.extend((0..self.players).filter(|&p| keys[p] == best));
    }

    /// The solo player's standing against goal `g` ("How to Win the Game"): whether a network
    /// card is fulfilled (revealed, or held with both destinations joined: ruling 23), the
    /// achievement tiles, the network tiles (control markers) and the points.
    pub fn goal_standing(&self, s: &State, g: usize) -> GoalStanding {
        let pl = &s.players[0];
        let goal = &self.data.goals[g];
        let card = pl.claimed != 0 || bits(pl.cards as u64).any(|c| self.card_links(pl, c) == 2);
        let achievements = pl.achievements.count_ones();
        let tiles = pl.markers.iter().filter(|&&m| m != 0).count() as u32;
        let points: u32 = self.tally(s, 0).iter().sum();
        GoalStanding {
            card: card || !goal.network_card,
            achievements: (achievements, achievements >= goal.achievements),
            tiles: (tiles, tiles >= goal.network_tiles),
            points: (points, points >= goal.points),
        }
    }

    /// Unloads whale `w`'s cargo to the supply; returns the region of its port.
    fn deliver(&self, s: &mut State, p: usize, w: usize) -> usize {
        let pl = &mut s.players[p];
        let c = pl.cargo[w];
        s.cargo_supply[c as usize] += 1;
        pl.cargo[w] = NONE;
        pl.res[COINS] = pl.res[COINS].saturating_add(self.has_ability(pl, Ability::CoinPerDelivery) as u16);
        s.cargo_done |= 1 << w;
        self.data.ports[pl.whales[w] as usize].region as usize
    }

    fn build(&self, s: &mut State, p: usize, port: u8, outpost: bool) {
        let pl = &mut s.players[p];
        if outpost {
            let cost = self.outpost_cost(pl);
            pay(&mut pl.res, &cost);
            pl.outposts |= 1 << port;
        } else {
            pay(&mut pl.res, &self.data.rules.whale_cost);
            let w = self.free_whale(pl).expect("a whale in the supply");
            pl.whales[w] = port;
        }
    }

    fn claim(&self, s: &mut State, p: usize, a: Action) {
        match a {
            _ if (REVEAL_CARD..CONTROL).contains(&a) => {
                let c = a - REVEAL_CARD;
                let pl = &mut s.players[p];
                pl.cards &= !(1 << c);
                pl.claimed |= 1 << c;
            }
            _ if (CONTROL..ACHIEVE).contains(&a) => {
                let r = ((a - CONTROL) / 2) as usize;
                let lower = (a - CONTROL) % 2 == 1;
                s.players[p].markers[r] = 1 + lower as u8;
                if !lower {
                    s.upper[r] = p as u8;
                }
            }
            _ => {}
        }
    }

    fn begin_turn(&self, s: &mut State, p: u8) {
        s.current = p;
        s.turn = p;
        s.step = Step::Chip;
        s.moved = 0;
        s.cargo_done = 0;
        s.free_moves = false;
        s.drawn = [NONE; 2];
        s.long = LongMove::NONE;
        s.asked = 0;
        s.trades = 0;
    }

    fn end_turn(&self, s: &mut State) {
        for k in 1..=self.positions {
            let q = self.clockwise(s.turn as usize, k);
            if self.playable(s, q) != 0 {
                self.begin_turn(s, q as u8);
                return;
            }
        }
        self.end_round(s);
    }

    /// Phase C step 1: the top chip of each port card's stack earns the card's bonus, fields
    /// 1 to 5. `told(field, top, built)` hears of each stack with a chip: the position on
    /// top, and whether a free outpost was built (an automa player takes nothing).
    pub(crate) fn port_bonuses(&self, s: &mut State, mut told: impl FnMut(usize, usize, bool)) {
        for i in 0..ROW {
            let top = s.stack_top[i];
            if top == NONE || s.port_row[i] == NONE {
                continue;
            }
            // An automa player on top takes no bonus (ruling 16).
            if self.is_automa(top as usize) {
                told(i, top as usize, false);
                continue;
            }
            let card = self.data.port_cards[s.port_row[i] as usize];
            let pl = &mut s.players[top as usize];
            gain(&mut pl.res, &card.gain);
            // A free outpost is built where the player has none and has one left.
            let built = card.outpost && pl.outposts & (1 << card.port) == 0 && pl.outposts.count_ones() < self.data.rules.outposts as u32;
            if built {
                pl.outposts |= 1 << card.port;
                s.bonus_outposts[top as usize] |= 1 << card.port;
            }
            told(i, top as usize, built);
        }
    }

    /// Phase C: the port bonuses (1 to 5), then the claims they allow.
    fn end_round(&self, s: &mut State) {
        s.moved = 0;
        s.cargo_done = 0;
        s.free_moves = false;
        self.port_bonuses(s, |_, _, _| {});
        s.phase = Phase::EndRoundClaims;
        s.step = Step::Claim;
        s.cursor = 0;
        self.next_end_round_claim(s);
    }

    fn next_end_round_claim(&self, s: &mut State) {
        let n = self.players;
        while (s.cursor as usize) < n {
            let p = self.seat_order(s.start_player as usize, s.cursor as usize);
            if s.bonus_outposts[p] != 0 && self.asked_to_claim(s, p) {
                s.current = p as u8;
                return;
            }
            s.cursor += 1;
        }
        self.clear_round(s);
    }

    /// Phase C steps 3–5: chips back, rows discarded, the round marker moved.
    fn clear_round(&self, s: &mut State) {
        for pl in s.players.iter_mut().take(self.positions) {
            pl.hand = ALL_CHIPS;
            pl.discarded = 0;
            pl.used_resource_board = false;
            pl.used_worker_board = false;
            pl.income_rights = 0;
        }
        s.resource_fields = [NONE; ROW];
        s.worker_fields = [NONE; ROW];
        s.character_row = [NONE; ROW];
        s.character_chips = [NONE; ROW];
        s.port_row = [NONE; ROW];
        s.stack_height = [0; ROW];
        s.stack_top = [NONE; ROW];
        s.bonus_outposts = [0; MAX_PLAYERS];
        s.round += 1;
        s.step = Step::Chip;
        if s.round == self.data.rules.discard_after_round {
            s.phase = Phase::DiscardNetworkCard;
            s.cursor = 0;
            self.next_network_discard(s);
        } else {
            self.next_round(s);
        }
    }

    fn next_network_discard(&self, s: &mut State) {
        let n = self.players;
        while (s.cursor as usize) < n {
            let p = self.seat_order(s.start_player as usize, s.cursor as usize);
            if s.players[p].cards != 0 {
                s.current = p as u8;
                return;
            }
            s.cursor += 1;
        }
        self.next_round(s);
    }

    fn next_round(&self, s: &mut State) {
        if s.round >= self.rounds {
            s.phase = Phase::GameOver;
            s.current = 0;
        } else {
            s.refilling = true;
            s.phase = Phase::Discard;
            s.cursor = 0;
            s.current = self.seat_order(s.start_player as usize, 0) as u8;
        }
    }

    fn begin_round(&self, s: &mut State) {
        s.phase = Phase::Discard;
        s.cursor = 0;
        s.current = self.seat_order(s.start_player as usize, 0) as u8;
    }

    /// Finds the next chance draw, and moves past what needs no decision: the end of the
    /// setup draws and of the row refill, and a turn's step 4 when nothing can be claimed.
    pub(crate) fn settle(&self, s: &mut State) {
        if s.phase == Phase::Turns {
            s.current = self.decider(s);
        }
        self.take_achievements(s);
        s.draw = self.next_draw(s);
        if s.draw != Draw::None {
            return;
        }
        if s.phase == Phase::Setup {
            s.phase = Phase::PlaceWhales;
            s.cursor = 0;
            s.current = self.seat_order(s.start_player as usize, 0) as u8;
        }
        if s.refilling {
            s.refilling = false;
            self.begin_round(s);
        }
        let t = s.turn as usize;
        if s.phase == Phase::Turns && s.step == Step::Claim && s.income == 0 && (self.is_automa(t) || (!self.asked_to_claim(s, t)
            && self.usable_one_time(s, &s.players[t]) == 0))
        {
            self.end_turn(s);
            self.settle(s);
        }
    }
}

impl Rules for Mistwind {
    type State = State;

    const STATE_FORMAT: u32 = 6;

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn initial_state(&self) -> State {
        let r = &self.data.rules;
        let mut players = [Player::new(); MAX_PLAYERS];
        // The first position of the table holds the starting player marker (an automa player
        // in the 2-player game).
        let start = self.order[0] as usize;
        for k in 0..self.positions {
            let p = self.clockwise(start, k);
            let pl = &mut players[p];
            pl.hand = ALL_CHIPS;
            if p < self.players {
                // Setup K: steel 1, wood 1, coins 2; krill 1 for the starting player, 2 for
                // the second position, and so on, automa positions counted (ruling 17).
                pl.res = [r.start[WOOD] as u16, r.start[STEEL] as u16, r.start[KRILL] as u16 + k as u16, r.start[COINS] as u16];
            }
        }
        let d = &self.data;
        let mut s = State {
            phase: Phase::Setup,
            step: Step::Chip,
            draw: Draw::None,
            round: 0,
            start_player: start as u8,
            round_lead: start as u8,
            current: start as u8,
            turn: start as u8,
            income: 0,
            cursor: 0,
            players,
            resource_fields: [NONE; ROW],
            worker_fields: [NONE; ROW],
            character_row: [NONE; ROW],
            character_chips: [NONE; ROW],
            port_row: [NONE; ROW],
            stack_height: [0; ROW],
            stack_top: [NONE; ROW],
            character_deck: if d.characters.len() == 64 { u64::MAX } else { (1u64 << d.characters.len()) - 1 },
            port_deck: if d.port_cards.len() == 32 { u32::MAX } else { (1u32 << d.port_cards.len()) - 1 },
            network_deck: if d.network_cards.len() == 16 { u16::MAX } else { (1u16 << d.network_cards.len()) - 1 },
            achievements: [NONE; 4],
            achievement_taken: [NONE; 4],
            network_tiles: [NONE; REGIONS],
            upper: [NONE; REGIONS],
            capital_display: [[NONE; 2]; REGIONS],
            capital_stack: d.capital_tiles,
            territory_display: [[NONE; MAX_TERRITORY_ROW]; REGIONS],
            territory_stack: d.territory_tiles,
            cargo_supply: [d.cargo_markers; CARGO_TYPES],
            moved: 0,
            cargo_done: 0,
            free_moves: false,
            drawn: [NONE; 2],
            long: LongMove::NONE,
            asked: 0,
            trades: 0,
            refilling: false,
            bonus_outposts: [0; MAX_PLAYERS],
        };
        self.settle(&mut s);
        s
    }

    fn actor(&self, s: &State) -> Actor {
        if s.draw != Draw::None {
            Actor::Chance
        } else if s.phase == Phase::GameOver {
            Actor::Terminal
        } else {
            Actor::Player(s.current as usize)
        }
    }

    fn player_actions(&self, s: &State, out: &mut Vec<Action>) {
        let p = s.current as usize;
        let pl = &s.players[p];
        let d = &self.data;
        match s.phase {
            Phase::Setup | Phase::GameOver => {}
            Phase::PlaceWhales => {
                for (q, port) in d.ports.iter().enumerate() {
                    if !port.capital {
                        out.push(PLACE_WHALE + q as Action);
                    }
                }
            }
            Phase::Discard => {
                for i in bits((pl.hand & !pl.discarded) as u64) {
                    out.push(DISCARD_CHIP + i as Action);
                }
            }
            Phase::DiscardNetworkCard => bits(pl.cards as u64).for_each(|c| out.push(DISCARD_CARD + c as Action)),
            Phase::EndRoundClaims => self.claims(s, p, out),
            Phase::Turns if s.income != 0 => {
                let mut ch = self.resource_board[next_income(s.income).0].choices;
                ch.sort();
                out.push(GAIN + ch[0] as Action);
                out.push(GAIN + ch[1] as Action);
            }
            Phase::Turns => match s.step {
                Step::Name(_) => out.extend((0..4).map(|r| NAME + r)),
                // One-time characters (ids below these) first: the list is sorted.
                Step::Receive(_, named) => {
                    self.uses(s, pl, out);
                    out.extend((0..4).filter(|&r| r != named as Action).map(|r| GAIN + r));
                }
                Step::FromLeft => {
                    self.uses(s, pl, out);
                    let left = &s.players[self.left_of(p)];
                    out.extend((0..4).filter(|&r| left.res[r] > 0).map(|r| FROM_LEFT + r as Action));
                }
                Step::Split(_) => {
                    self.uses(s, pl, out);
                    for x in 0..4 {
                        for y in 0..4 {
                            if x != y {
                                out.push(SPLIT + 4 * x + y);
                            }
                        }
                    }
                }
                Step::Share(_, x, y) => {
                    out.push(GAIN + x.min(y) as Action);
                    out.push(GAIN + x.max(y) as Action);
                }
                Step::Chip => {
                    let hand = pl.hand & !pl.discarded;
                    for (l, base) in [RESOURCE_BOARD, CHARACTER_ROW, WORKER_BOARD, PORT_ROW].iter().enumerate() {
                        for i in bits(hand as u64) {
                            let ok = match *base {
                                RESOURCE_BOARD => !pl.used_resource_board && s.resource_fields[i] == NONE,
                                CHARACTER_ROW => {
                                    let c = s.character_row[i];
                                    c != NONE && s.character_chips[i] == NONE && can_pay(&pl.res, &d.characters[c as usize].cost)
                                }
                                WORKER_BOARD => !pl.used_worker_board && s.worker_fields[i] == NONE && self.worker_usable(s, p, pl, i),
                                _ => s.port_row[i] != NONE,
                            };
                            if ok {
                                out.push(PLAY + (5 * l + i) as Action);
                            }
                        }
                    }
                    self.uses(s, pl, out);
                }
                Step::PortChoice(i) => {
                    let port = d.port_cards[s.port_row[i as usize] as usize].port;
                    if self.can_build_outpost(pl) && pl.outposts & (1 << port) == 0 {
                        out.push(BUILD_OUTPOST);
                    }
                    if self.can_build_whale(pl) {
                        out.push(BUILD_WHALE);
                    }
                    out.extend((0..4).map(|r| TAKE + r));
                    self.uses(s, pl, out);
                }
                Step::WorkerBuild(i) => {
                    match self.worker_board[i as usize].ability {
                        WorkerAbility::BuyOutpost => {
                            for q in bits(self.buy_ports(s, p, pl, i as usize) as u64) {
                                out.push(BUILD_AT + q as Action);
                            }
                        }
                        ability => {
                            let outpost = ability == WorkerAbility::BuildOutpost;
                            for q in 0..d.ports.len() {
                                let has = pl.outposts & (1 << q) != 0;
                                if has != outpost {
                                    out.push(BUILD_AT + q as Action);
                                }
                            }
                        }
                    }
                    self.uses(s, pl, out);
                }
                Step::LongMove => {
                    let lm = s.long;
                    let [free, per] = self.worker_amounts(WorkerAbility::LongMove);
                    let held: u32 = pl.res.iter().map(|&r| r as u32).sum();
                    if lm.fields < free || held >= per as u32 {
                        for w in 0..MAX_WHALES {
                            let at = pl.whales[w];
                            if at == NONE || (lm.whale != NONE && lm.whale as usize != w) {
                                continue;
                            }
                            // A whale may come back to a port it passed: every field past the
                            // free ones is paid for, which bounds the move. Where a data file
                            // makes them free, a port is entered once (ruling 30).
                            let visited = match (per, lm.whale) {
                                (0, NONE) => 1 << at,
                                (0, _) => lm.visited,
                                _ => 0,
                            };
                            for q in bits((d.adjacent[at as usize] & !visited) as u64) {
                                out.push(MOVE + (w * MAX_PORTS + q) as Action);
                            }
                        }
                    }
                    out.push(END_MOVES);
                    if lm.whale != NONE && lm.fields > 0 && !lm.cargo {
                        self.cargo_moves(s, p, 1 << lm.whale, out);
                    }
                    self.uses(s, pl, out);
                }
                Step::PayField(_) | Step::PayToUse => {
                    self.uses(s, pl, out);
                    for r in 0..4 {
                        if pl.res[r] == 0 || (s.step == Step::PayToUse && self.occupied_usable(s, p, &paid(pl, r)) == 0) {
                            continue;
                        }
                        for q in 0..self.positions {
                            if q != p {
                                out.push(PAY + (MAX_PLAYERS * r + q) as Action);
                            }
                        }
                    }
                }
                Step::Keep => {
                    self.uses(s, pl, out);
                    let mut drawn = s.drawn;
                    drawn.sort();
                    out.extend(drawn.iter().filter(|&&c| c != NONE).map(|&c| KEEP + c as Action));
                }
                Step::Give(_) => {
                    self.uses(s, pl, out);
                    out.extend((0..self.players).filter(|&q| q != p).map(|q| GIVE + q as Action));
                }
                Step::Trade => {
                    self.uses(s, pl, out);
                    out.extend(bits(self.trade_partners(s, p) as u64).map(|q| PARTNER + q as Action));
                    out.push(END_TRADES);
                }
                Step::Offer(q) => {
                    self.uses(s, pl, out);
                    out.extend(bits(self.offers(s, p, q as usize) as u64).map(|k| OFFER + k as Action));
                }
                Step::Answer(..) => {
                    out.push(ACCEPT);
                    out.push(DECLINE);
                }
                Step::UseField => {
                    self.uses(s, pl, out);
                    out.extend(bits(self.occupied_usable(s, p, pl) as u64).map(|k| USE_FIELD + k as Action));
                }
                Step::Move => {
                    for w in 0..MAX_WHALES {
                        if pl.whales[w] == NONE || s.moved & (1 << w) != 0 {
                            continue;
                        }
                        let to = self.reachable(s, p, w, pl.res[KRILL]) & !(1 << pl.whales[w]);
                        for q in bits(to as u64) {
                            out.push(MOVE + (w * MAX_PORTS + q) as Action);
                        }
                    }
                    out.push(END_MOVES);
                    self.uses(s, pl, out);
                }
                Step::Cargo => {
                    let mut whales = 0u8;
                    for w in 0..MAX_WHALES {
                        if s.cargo_done & (1 << w) == 0 {
                            whales |= 1 << w;
                        }
                    }
                    self.cargo_moves(s, p, whales, out);
                    out.push(END_CARGO);
                    self.uses(s, pl, out);
                }
                Step::BottomChoice(i) => {
                    let mut ch = d.bottom_choices[i as usize];
                    ch.sort();
                    out.push(CHOOSE + ch[0] as Action);
                    if ch[1] != ch[0] {
                        out.push(CHOOSE + ch[1] as Action);
                    }
                }
                Step::Claim => {
                    self.uses(s, pl, out);
                    self.claims(s, p, out);
                }
            },
        }
    }

    /// Calls `f(outcome, weight)` for each outcome of the pending draw, in increasing order.
    fn chance_weights(&self, s: &State, mut f: impl FnMut(Action, u32)) {
        let d = &self.data;
        match s.draw {
            Draw::None => {}
            Draw::Achievement(l) => {
                for (i, a) in d.achievements.iter().enumerate() {
                    if a.letter == l {
                        f(i as Action, 1);
                    }
                }
            }
            Draw::NetworkTile(r) => {
                for (i, t) in d.network_tiles.iter().enumerate() {
                    if t.region == r {
                        f(i as Action, 1);
                    }
                }
            }
            Draw::Capital(r, _) => {
                for (c, &n) in s.capital_stack[r as usize].iter().enumerate() {
                    if n > 0 {
                        f(c as Action, n as u32);
                    }
                }
            }
            Draw::Territory(r, _) => {
                for (c, &n) in s.territory_stack[r as usize].iter().enumerate() {
                    if n > 0 {
                        f(c as Action, n as u32);
                    }
                }
            }
            Draw::NetworkCard(_, diff) => {
                for c in bits(s.network_deck as u64) {
                    if d.network_cards[c].difficulty == diff {
                        f(c as Action, 1);
                    }
                }
            }
            Draw::PortCard(_) => bits(s.port_deck as u64).for_each(|c| f(c as Action, 1)),
            Draw::Character(_) | Draw::Drawn(_) => bits(s.character_deck).for_each(|c| f(c as Action, 1)),
            Draw::Automa(p) => bits(s.players[p as usize].hand as u64).for_each(|c| f(c as Action, 1)),
            Draw::Name(_) => (0..4).for_each(|r| f(r, 1)),
        }
    }

    /// The outcome the engine's two passes over `chance_weights` would draw, in one.
    fn sample_chance(&self, s: &State, rng: &mut Rng) -> Action {
        let d = &self.data;
        let uniform = |n: usize, rng: &mut Rng, is: &dyn Fn(usize) -> bool| {
            let k = below(rng, (0..n).filter(|&i| is(i)).count() as u32) as usize;
            (0..n).filter(|&i| is(i)).nth(k).expect("a chance node has outcomes") as Action
        };
        match s.draw {
            Draw::None => panic!("a chance node has outcomes"),
            Draw::Achievement(l) => uniform(d.achievements.len(), rng, &|i| d.achievements[i].letter == l),
            Draw::NetworkTile(r) => uniform(d.network_tiles.len(), rng, &|i| d.network_tiles[i].region == r),
            Draw::Capital(r, _) => draw_weighted(&s.capital_stack[r as usize], rng),
            Draw::Territory(r, _) => draw_weighted(&s.territory_stack[r as usize], rng),
            Draw::NetworkCard(_, diff) => {
                let deck = bits(s.network_deck as u64).filter(|&c| d.network_cards[c].difficulty == diff).fold(0u64, |m, c| m | 1 << c);
                draw_bit(deck, rng)
            }
            Draw::PortCard(_) => draw_bit(s.port_deck as u64, rng),
            Draw::Character(_) | Draw::Drawn(_) => draw_bit(s.character_deck, rng),
            Draw::Automa(p) => draw_bit(s.players[p as usize].hand as u64, rng),
            Draw::Name(_) => below(rng, 4) as Action,
        }
    }

    fn apply(&self, s: &mut State, a: Action) {
        if s.draw != Draw::None {
            self.apply_draw(s, a);
            s.draw = Draw::None;
            self.settle(s);
            return;
        }
        let p = s.current as usize;
        match s.phase {
            Phase::Setup | Phase::GameOver => {}
            Phase::PlaceWhales => {
                s.players[p].whales[0] = (a - PLACE_WHALE) as u8;
                s.cursor += 1;
                if s.cursor as usize == self.players {
                    self.begin_round(s);
                } else {
                    s.current = self.seat_order(s.start_player as usize, s.cursor as usize) as u8;
                }
            }
            Phase::Discard => {
                s.players[p].discarded |= 1 << (a - DISCARD_CHIP);
                s.cursor += 1;
                let k = self.discards();
                if s.cursor as usize == self.players * k as usize {
                    s.phase = Phase::Turns;
                    s.round_lead = s.start_player;
                    self.begin_turn(s, s.start_player);
                } else {
                    s.current = self.seat_order(s.start_player as usize, (s.cursor / k) as usize) as u8;
                }
            }
            Phase::DiscardNetworkCard => {
                let pl = &mut s.players[p];
                let c = a - DISCARD_CARD;
                pl.cards &= !(1 << c);
                pl.card_discards |= 1 << c;
                s.cursor += 1;
                self.next_network_discard(s);
            }
            Phase::EndRoundClaims => {
                if a == END_TURN {
                    s.cursor += 1;
                    self.next_end_round_claim(s);
                } else {
                    self.claim(s, p, a);
                }
            }
            Phase::Turns => self.turn_move(s, p, a),
        }
        self.settle(s);
    }

    /// Phase A's discards are secret simultaneous choices, made one seat after another.
    fn decision_is_secret(&self, state: &State) -> bool {
        state.draw == Draw::None && state.phase == Phase::Discard
    }

    /// The winners: the most points, then the most wood and steel left; still tied, shared.
    fn winners(&self, s: &State) -> Vec<usize> {
        let mut out = Vec::new();
        self.winners_into(s, &mut out);
        out
    }

}
