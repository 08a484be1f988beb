//! What the players see: action names, the table as text, the observation tensor and the
//! score report.

use std::fmt::Write;

use crate::engine::prelude::*;
use crate::engine::{Action, OpponentRow, ScoreRecord, ScoreReport};

use super::rules::bits;
use super::actions::*;
use super::data::*;
use super::state::*;
use super::Mistwind;

/// The scoring categories, in rulebook order.
pub const CATEGORIES: [&str; 7] = [
    "starting player marker",
    "demand tiles",
    "cargo majority",
    "achievements",
    "network tiles",
    "network cards",
    "characters",
];

pub const PHASES: [&str; 7] = ["setup", "place-whales", "discard", "turns", "end-round-claims", "discard-network-card", "game-over"];
pub const STEPS: [&str; 21] = [
    "chip", "port-choice", "worker-build", "move", "cargo", "bottom-choice", "claim", "name", "receive", "from-left", "split", "share", "keep", "give", "long-move",
    "pay-field", "trade", "offer", "answer", "pay-to-use", "use-field",
];

pub fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Setup => 0,
        Phase::PlaceWhales => 1,
        Phase::Discard => 2,
        Phase::Turns => 3,
        Phase::EndRoundClaims => 4,
        Phase::DiscardNetworkCard => 5,
        Phase::GameOver => 6,
    }
}

pub fn step_index(s: Step) -> usize {
    match s {
        Step::Chip => 0,
        Step::PortChoice(_) => 1,
        Step::WorkerBuild(_) => 2,
        Step::Move => 3,
        Step::Cargo => 4,
        Step::BottomChoice(_) => 5,
        Step::Claim => 6,
        Step::Name(_) => 7,
        Step::Receive(..) => 8,
        Step::FromLeft => 9,
        Step::Split(_) => 10,
        Step::Share(..) => 11,
        Step::Keep => 12,
        Step::Give(_) => 13,
        Step::LongMove => 14,
        Step::PayField(_) => 15,
        Step::Trade => 16,
        Step::Offer(_) => 17,
        Step::Answer(..) => 18,
        Step::PayToUse => 19,
        Step::UseField => 20,
    }
}

/// "2 wood, 1 steel" (or "nothing").
pub fn res_words(r: &[u8; 4]) -> String {
    let parts: Vec<String> = (0..4).filter(|&i| r[i] > 0).map(|i| format!("{} {}", r[i], RESOURCES[i])).collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

// Sizes of the observation tensor's parts (the doc's "Observation tensor" section).
const HEADER: usize = 5 + 7 + 7 + STEPS.len() + ROW + 5 + 5 + 5;
const PER_PLAYER: usize =
    4 + 5 + 5 + 2 + MAX_PORTS + MAX_WHALES * MAX_PORTS + MAX_WHALES * CARGO_TYPES + 2 * MAX_CHARACTERS + 2 * REGIONS + 4 + 2 * REGIONS + MAX_NETWORK_CARDS + 3 + MAX_NETWORK_CARDS + 3;
pub const MAX_ACHIEVEMENTS: usize = 32;
pub const MAX_TILES: usize = 16;
const BOARD: usize = 2 * ROW * MAX_PLAYERS
    + ROW * MAX_CHARACTERS
    + ROW * MAX_PLAYERS
    + ROW * MAX_PORT_CARDS
    + ROW
    + ROW * MAX_PLAYERS
    + 4 * MAX_ACHIEVEMENTS
    + 4 * MAX_PLAYERS
    + REGIONS * MAX_TILES
    + REGIONS * MAX_PLAYERS
    + REGIONS * 2 * CARGO_TYPES
    + REGIONS * MAX_TERRITORY_ROW * CARGO_TYPES
    + CARGO_TYPES
    + 2 * REGIONS * CARGO_TYPES
    + 3
    + 1
    + 2 * MAX_WHALES
    + SIDE_B
    + WORKER_B
    + MAX_PLAYERS * MAX_PORTS
    + MAX_PLAYERS * ROW;
/// Resource board side B: whose turn it is, the income fields still due, the resource types
/// of the pending choice, and the resources left to receive.
const SIDE_B: usize = MAX_PLAYERS + ROW + 4 + 1;
/// Worker board side B: the characters drawn, the long move's whale, fields, cargo and ports
/// visited, the resources still to pay, the positions asked to trade and the trades made,
/// and the pending trade's partner, resource offered and resource asked.
const WORKER_B: usize = MAX_CHARACTERS + MAX_WHALES + 1 + 1 + MAX_PORTS + 1 + MAX_PLAYERS + 1 + MAX_PLAYERS + 4 + 4;

pub fn tensor_len() -> usize {
    HEADER + MAX_PLAYERS * PER_PLAYER + BOARD
}

impl Mistwind {
    pub fn port_name(&self, q: u8) -> &str {
        self.data.port_names.get(q as usize).map_or("(no port)", |n| n.as_str())
    }

    pub fn region_name(&self, r: usize) -> &str {
        &self.data.regions[r]
    }

    /// What a port is: its region, and its cargo ("green, coal"; "green, krill"), or "green
    /// capital".
    pub fn port_kind(&self, q: u8) -> String {
        let Some(port) = self.data.ports.get(q as usize) else { return String::new() };
        let region = self.region_name(port.region as usize);
        match port.cargo {
            _ if port.capital => format!("{region} capital"),
            KRILL_CARGO => format!("{region}, krill"),
            c => format!("{region}, {}", self.data.cargo.get(c as usize).map_or("?", |n| n.as_str())),
        }
    }

    /// A port named with its region and cargo: "Fernwick (green, coal)", "Mossgate (green
    /// capital)".
    pub fn port_label(&self, q: u8) -> String {
        if (q as usize) < self.data.ports.len() {
            format!("{} ({})", self.port_name(q), self.port_kind(q))
        } else {
            self.port_name(q).to_string()
        }
    }

    /// The map as `observer` may see it (`None`: everything): the ports by region, each with
    /// its cargo, the ports it connects to, and the outposts and whales in it; the network
    /// tiles; the port cards in the row; the network cards (a seat sees only its own).
    pub fn map(&self, s: &State, observer: Option<usize>) -> String {
        let d = &self.data;
        let mut o = String::new();
        let _ = writeln!(o, "Map: the ports by region, each with its cargo (or krill, or capital), the ports it connects to, and the outposts and whales in it.");
        for r in 0..REGIONS {
            let t = s.network_tiles[r];
            let tile = if t == NONE { String::new() } else { format!("; network tile: {}", self.tile_words(t as usize)) };
            let _ = writeln!(o, "{} region (capital {}){tile}:", d.regions[r], self.port_name(d.capital[r]));
            for q in (0..d.ports.len()).filter(|&q| d.ports[q].region as usize == r) {
                let links: Vec<String> = bits(d.adjacent[q] as u64)
                    .map(|x| if d.ports[x].region as usize == r { self.port_name(x as u8).to_string() } else { format!("{} ({})", self.port_name(x as u8), d.regions[d.ports[x].region as usize]) })
                    .collect();
                let outposts: Vec<String> = (0..self.positions).filter(|&p| s.players[p].outposts & (1 << q) != 0).map(|p| self.who(p)).collect();
                let whales: Vec<String> = (0..self.positions)
                    .flat_map(|p| (0..MAX_WHALES).map(move |w| (p, w)))
                    .filter(|&(p, w)| s.players[p].whales[w] as usize == q)
                    .map(|(p, w)| {
                        let c = s.players[p].cargo[w];
                        let cargo = if c == NONE { String::new() } else { format!(" carrying {}", d.cargo[c as usize]) };
                        format!("{}'s whale {}{cargo}", self.who(p), w + 1)
                    })
                    .collect();
                let mut line = format!("  {} ({}): to {}", self.port_name(q as u8), self.port_kind(q as u8).split(", ").nth(1).unwrap_or("capital"), links.join(", "));
                if !outposts.is_empty() {
                    line.push_str(&format!("; outposts {}", outposts.join(", ")));
                }
                if !whales.is_empty() {
                    line.push_str(&format!("; {}", whales.join(", ")));
                }
                let _ = writeln!(o, "{line}");
            }
        }
        let cards: Vec<String> = (0..ROW)
            .filter(|&i| s.port_row[i] != NONE && (s.port_row[i] as usize) < d.port_cards.len())
            .map(|i| format!("{}: {}", i + 1, self.port_card_label(s.port_row[i] as usize)))
            .collect();
        if !cards.is_empty() {
            let _ = writeln!(o, "Port cards in the row: {}", cards.join("; "));
        }
        for p in 0..self.players {
            let pl = &s.players[p];
            let held: Vec<String> = if observer.is_none_or(|v| v == p) || s.phase == Phase::GameOver {
                bits(pl.cards as u64).map(|c| format!("{} (destinations joined: {} of 2)", self.card_words(c), self.card_links(pl, c))).collect()
            } else {
                bits(pl.cards as u64).map(|c| format!("{} (face down)", DIFFICULTIES[d.network_cards[c].difficulty as usize])).collect()
            };
            let claimed: Vec<String> = bits(pl.claimed as u64).map(|c| self.card_words(c)).collect();
            let _ = writeln!(o, "P{p}'s network cards: [{}] claimed [{}]", held.join("; "), claimed.join("; "));
        }
        o
    }

    /// A port card as the table shows it: "Fernwick (green, coal; bonus: 2 wood)".
    pub fn port_card_label(&self, c: usize) -> String {
        let k = &self.data.port_cards[c];
        let bonus = if k.outpost { "a free outpost".to_string() } else { res_words(&k.gain) };
        format!("{} ({}; bonus: {bonus})", self.port_name(k.port), self.port_kind(k.port))
    }

    pub fn card_words(&self, c: usize) -> String {
        let k = &self.data.network_cards[c];
        format!(
            "{} {} to {} and {}",
            DIFFICULTIES[k.difficulty as usize],
            self.port_name(k.port),
            self.port_name(k.destinations[0]),
            self.port_name(k.destinations[1])
        )
    }

    pub fn achievement_words(&self, a: usize) -> String {
        let t = &self.data.achievements[a];
        let what = REQUIREMENTS.iter().find(|(_, c)| *c == t.requirement).map(|(n, _)| *n).unwrap_or("");
        format!("{} {} {}, {} VP", LETTERS[t.letter as usize], t.count, what, t.vp)
    }

    pub fn tile_words(&self, t: usize) -> String {
        let k = &self.data.network_tiles[t];
        let side = k.sides[Data::tile_side(self.players)];
        format!("{} capital to {}, {}/{} VP", self.region_name(k.region as usize), self.port_name(k.destination), side[0], side[1])
    }

    pub fn port_card_words(&self, c: usize) -> String {
        let k = &self.data.port_cards[c];
        let bonus = if k.outpost { "a free outpost".to_string() } else { res_words(&k.gain) };
        format!("{} (bonus: {bonus})", self.port_name(k.port))
    }

    pub fn character_words(&self, c: usize) -> String {
        let k = &self.data.characters[c];
        let kind = CHAR_KINDS.iter().find(|(_, x)| *x == k.kind).map(|(n, _)| *n).unwrap_or("");
        let what = match k.kind {
            CharKind::Immediate | CharKind::OneTime if k.gain != [0; 4] => format!("gain {}", res_words(&k.gain)),
            CharKind::EndGame if k.per != Count::None => {
                let per = PER.iter().find(|(_, c)| *c == k.per).map(|(n, _)| *n).unwrap_or("");
                format!("{} VP per {per}", k.per_vp)
            }
            CharKind::EndGame => "points".into(),
            _ => ABILITIES.iter().find(|(_, a)| *a == k.ability).map(|(n, _)| *n).unwrap_or("").to_string(),
        };
        format!("{} (cost {}, {kind}: {what}, {} VP)", k.name, res_words(&k.cost), k.vp)
    }

    /// The name of a chance outcome.
    pub(crate) fn chance_name(&self, s: &State, a: Action) -> String {
        let d = &self.data;
        let i = a as usize;
        let known = match s.draw {
            Draw::Achievement(_) => i < d.achievements.len(),
            Draw::NetworkTile(_) => i < d.network_tiles.len(),
            Draw::Capital(..) | Draw::Territory(..) => i < CARGO_TYPES,
            Draw::NetworkCard(..) => i < d.network_cards.len(),
            Draw::PortCard(_) => i < d.port_cards.len(),
            Draw::Character(_) | Draw::Drawn(_) => i < d.characters.len(),
            Draw::Automa(p) => i < ROW && s.players[p as usize].hand & (1 << i) != 0,
            Draw::Name(_) => i < 4,
            Draw::None => false,
        };
        if !known {
            return format!("chance-{a}");
        }
        match s.draw {
            Draw::Achievement(_) => format!("reveal-achievement:#{} {}", a + 1, self.achievement_words(a as usize)),
            Draw::NetworkTile(_) => format!("reveal-network-tile:#{} {}", a + 1, self.tile_words(a as usize)),
            Draw::Capital(r, _) => format!("reveal-capital-demand:{} {}", d.regions[r as usize], d.cargo[a as usize]),
            Draw::Territory(r, _) => format!("reveal-demand:{} {}", d.regions[r as usize], d.cargo[a as usize]),
            Draw::NetworkCard(p, _) => format!("deal-network-card:P{p} #{} {}", a + 1, self.card_words(a as usize)),
            Draw::PortCard(_) => format!("reveal-port-card:#{} {}", a + 1, self.port_card_words(a as usize)),
            Draw::Character(_) => format!("reveal-character:{}", d.characters[a as usize].name),
            Draw::Drawn(_) => format!("draw-character:{}", d.characters[a as usize].name),
            Draw::Automa(p) => format!("automa-chip:{} draws chip {}", self.who(p as usize), a + 1),
            Draw::Name(p) => format!("automa-name:{} names {}", self.who(p as usize), RESOURCES[i]),
            Draw::None => format!("chance-{a}"),
        }
    }


    /// The names of worker board side B's actions.
    fn worker_b_action_name(&self, a: Action) -> String {
        let d = &self.data;
        match a {
            _ if a < GIVE => format!("keep:{}", d.characters.get((a - KEEP) as usize).map_or("?", |c| c.name.as_str())),
            _ if a < PAY => format!("give-character:{}", self.who((a - GIVE) as usize)),
            _ if a < PARTNER => {
                let (r, q) = (((a - PAY) / MAX_PLAYERS as Action) as usize, ((a - PAY) % MAX_PLAYERS as Action) as usize);
                format!("pay:1 {} to {}", RESOURCES[r], self.who(q))
            }
            _ if a < OFFER => format!("trade-with:{}", self.who((a - PARTNER) as usize)),
            _ if a < ACCEPT => format!("offer:1 {} for 1 {}", RESOURCES[((a - OFFER) / 4) as usize], RESOURCES[((a - OFFER) % 4) as usize]),
            ACCEPT => "accept-trade".into(),
            DECLINE => "decline-trade".into(),
            END_TRADES => "end-trades".into(),
            _ => {
                let (b, i) = (((a - USE_FIELD) / ROW as Action) as usize, ((a - USE_FIELD) % ROW as Action) as usize);
                format!("use-field:{} {}", if b == 0 { "resources" } else { "worker" }, i + 1)
            }
        }
    }

    fn card_words_or(&self, c: usize) -> String {
        if c < self.data.network_cards.len() {
            self.card_words(c)
        } else {
            format!("#{}", c + 1)
        }
    }

    /// The score of each category for table position `p` (a seat or an automa player), as
    /// the game would end now.
    pub fn tally(&self, s: &State, p: usize) -> [u32; 7] {
        let r = &self.data.rules;
        let pl = &s.players[p];
        let mut t = [0u32; 7];
        if s.start_player as usize == p {
            t[0] = r.start_marker_points;
        }
        t[1] = self.measure(pl, Count::TerritoryTiles) * r.territory_points + self.measure(pl, Count::CapitalTiles) * r.capital_points;
        for reg in 0..REGIONS {
            let v = |q: usize| s.players[q].territory_tiles[reg] as u32 * r.territory_points + s.players[q].capital_tiles[reg] as u32 * r.capital_points;
            // The scorers: every position; solo, the player and the three automa players
            // pooled, "as if they had been collected by a single player", whose points go in
            // AUT1's row (ruling 22).
            let mut scorers = [0u32; MAX_PLAYERS];
            let (count, me) = if self.players == 1 {
                scorers[0] = v(0);
                scorers[1] = (1..self.positions).map(v).sum();
                (2, match p {
                    0 => Some(0),
                    1 => Some(1),
                    _ => None,
                })
            } else {
                for (q, x) in scorers.iter_mut().enumerate().take(self.positions) {
                    *x = v(q);
                }
                (self.positions, Some(p))
            };
            let Some(me) = me else { continue };
            let mine = scorers[me];
            if mine == 0 {
                continue;
            }
            let best = scorers[..count].iter().copied().max().unwrap_or(0);
            if mine == best {
                let tied = scorers[..count].iter().filter(|&&x| x == best).count() as u32;
                t[2] += r.majority_points / tied;
            }
        }
        for l in bits(pl.achievements as u64) {
            t[3] += self.data.achievements[s.achievements[l] as usize].vp as u32;
        }
        let side = Data::tile_side(self.players);
        for reg in 0..REGIONS {
            if pl.markers[reg] != 0 {
                t[4] += self.data.network_tiles[s.network_tiles[reg] as usize].sides[side][pl.markers[reg] as usize - 1] as u32;
            }
        }
        for c in bits(pl.claimed as u64) {
            t[5] += self.data.network_cards[c].full as u32;
        }
        for c in bits(pl.cards as u64) {
            let k = &self.data.network_cards[c];
            t[5] += match self.card_links(pl, c) {
                2 => k.full as u32,
                1 => k.partial as u32,
                _ => 0,
            };
        }
        for c in bits(pl.characters) {
            let k = &self.data.characters[c];
            t[6] += k.vp as u32 + k.per_vp as u32 * self.measure(pl, k.per);
        }
        t
    }



    // ----- text -----

    pub(super) fn whose(&self, s: &State) -> String {
        match s.draw {
            Draw::None => {}
            Draw::Automa(q) => return format!("{} draws a chip", self.who(q as usize)),
            Draw::Name(q) => return format!("{} names a type of resource for {}", self.who(q as usize), self.who(s.turn as usize)),
            _ => return "chance".into(),
        }
        let p = self.who(s.current as usize);
        match s.phase {
            Phase::Setup => "setup".into(),
            Phase::PlaceWhales => format!("{p} places a whale"),
            Phase::Discard => format!("{p} discards a chip in secret"),
            Phase::Turns if s.income != 0 => {
                let f = next_income(s.income).0;
                let ch = self.resource_board[f].choices;
                format!("{p} receives the income of resource field {} ({} or {}) for {}'s chip", f + 1, RESOURCES[ch[0] as usize], RESOURCES[ch[1] as usize], self.who(s.turn as usize))
            }
            Phase::Turns if s.current != s.turn => match s.step {
                Step::Name(n) => format!("{p} names a type of resource; {} then receives {n} resources not of it", self.who(s.turn as usize)),
                Step::Share(_, x, y) => format!("{p} takes 1 {} or 1 {} ({}'s turn)", RESOURCES[x as usize], RESOURCES[y as usize], self.who(s.turn as usize)),
                Step::Answer(_, g, x) => format!("{p} accepts or declines {}'s trade: 1 {} for 1 {}", self.who(s.turn as usize), RESOURCES[g as usize], RESOURCES[x as usize]),
                _ => format!("{p} decides in {}'s turn", self.who(s.turn as usize)),
            },
            Phase::Turns => format!("{p}'s turn, step {}{}", STEPS[step_index(s.step)], match s.step {
                Step::PortChoice(i) => format!(" on port field {}", i + 1),
                Step::WorkerBuild(i) => format!(" from worker field {}", i + 1),
                Step::BottomChoice(i) => format!(" for demand row space {}", i + 1),
                Step::Receive(n, named) => format!(": {n} more resources, not {}", RESOURCES[named as usize]),
                Step::FromLeft => format!(" from {}", self.who(self.left_of(s.turn as usize))),
                Step::Give(c) => format!(": {} to another player", self.data.characters.get(c as usize).map_or("?", |k| k.name.as_str())),
                Step::PayField(n) => format!(": {n} resource to pay for the field moved"),
                Step::Offer(q) => format!(" to {}", self.who(q as usize)),
                Step::Split(i) => {
                    let a = self.resource_board[i as usize].amounts;
                    format!(" on resource field {}: {} of one type and {} of another", i + 1, a[0], a[1])
                }
                _ => String::new(),
            }),
            Phase::EndRoundClaims => format!("{p} may claim after the port bonuses"),
            Phase::DiscardNetworkCard => format!("{p} discards a network card"),
            Phase::GameOver => "game over".into(),
        }
    }

    /// The table; `viewer` `Some(p)` adds p's secrets, `None` with `all` shows everything.
    pub(crate) fn table(&self, s: &State, viewer: Option<usize>, all: bool) -> String {
        let d = &self.data;
        let mut o = String::new();
        let _ = writeln!(o, "Mistwind, round {}/{} - {}", (s.round + 1).min(self.rounds), self.rounds, self.whose(s));
        let owner = |x: u8| if x == NONE { "-".to_string() } else { self.who(x as usize) };
        if s.phase == Phase::Turns {
            let whales = |m: u8| bits(m as u64).map(|w| (w + 1).to_string()).collect::<Vec<_>>().join(" ");
            let _ = writeln!(o, "This turn: whales moved [{}], whales loaded or unloaded [{}], whale moves {}",
                whales(s.moved), whales(s.cargo_done), if s.free_moves { "free" } else { "cost krill" });
        }
        if s.phase == Phase::Turns && (s.drawn != [NONE; 2] || s.long != LongMove::NONE || s.asked != 0) {
            let drawn: Vec<&str> = s.drawn.iter().filter(|&&c| c != NONE && (c as usize) < d.characters.len()).map(|&c| d.characters[c as usize].name.as_str()).collect();
            let long = if s.long.whale == NONE {
                "none".to_string()
            } else {
                let ports: Vec<&str> = bits(s.long.visited as u64).map(|q| self.port_name(q as u8)).collect();
                format!("whale {}, {} fields, {}, ports visited [{}]", s.long.whale + 1, s.long.fields, if s.long.cargo { "loaded or unloaded" } else { "no cargo yet" }, ports.join(", "))
            };
            let asked: Vec<String> = bits(s.asked as u64).map(|q| self.who(q)).collect();
            let _ = writeln!(o, "Worker board side B: characters drawn [{}]; long move: {long}; asked to trade [{}], trades made {}", drawn.join(", "), asked.join(" "), s.trades);
        }
        if s.phase == Phase::EndRoundClaims {
            let built: Vec<String> = (0..self.players)
                .filter(|&p| s.bonus_outposts[p] != 0)
                .map(|p| format!("{} in {}", self.who(p), bits(s.bonus_outposts[p] as u64).map(|q| self.port_name(q as u8)).collect::<Vec<_>>().join(", ")))
                .collect();
            let _ = writeln!(o, "Outposts built by this round's port bonuses (only the claims they made possible may be made now): [{}]", built.join("; "));
        }
        let _ = writeln!(o, "Resource board: {}", (0..ROW).map(|i| {
            // Ruling 33: who else receives the field's income this round (worker board side B's
            // field 5).
            let rights: Vec<String> = (0..self.positions).filter(|&q| s.players[q].income_rights & (1 << i) != 0).map(|q| self.who(q)).collect();
            let rights = if rights.is_empty() { String::new() } else { format!(" (income also to {})", rights.join(", ")) };
            format!("{}:{}{rights}", i + 1, owner(s.resource_fields[i]))
        }).collect::<Vec<_>>().join(" "));
        let _ = writeln!(o, "Worker board: {}", (0..ROW).map(|i| format!("{}:{}", i + 1, owner(s.worker_fields[i]))).collect::<Vec<_>>().join(" "));
        let _ = writeln!(o, "Characters:");
        for i in 0..ROW {
            let c = s.character_row[i];
            let card = if c == NONE { "(empty)".to_string() } else { self.character_words(c as usize) };
            let _ = writeln!(o, "  {}: {card} chip {}", i + 1, owner(s.character_chips[i]));
        }
        let _ = writeln!(o, "Ports:");
        for i in 0..ROW {
            let c = s.port_row[i];
            let card = if c == NONE { "(empty)".to_string() } else { self.port_card_label(c as usize) };
            let _ = writeln!(o, "  {}: {card} chips {} top {}", i + 1, s.stack_height[i], owner(s.stack_top[i]));
        }
        let _ = writeln!(o, "Achievements: {}", (0..4).map(|l| {
            let a = s.achievements[l];
            if a == NONE { "-".to_string() } else { format!("[{}{}]", self.achievement_words(a as usize), if s.achievement_taken[l] == NONE { String::new() } else { format!(" taken by P{}", s.achievement_taken[l]) }) }
        }).collect::<Vec<_>>().join(" "));
        for r in 0..REGIONS {
            let t = s.network_tiles[r];
            let tile = if t == NONE { "-".to_string() } else { self.tile_words(t as usize) };
            let lower: Vec<String> = (0..self.players).filter(|&p| s.players[p].markers[r] == 2).map(|p| format!("P{p}")).collect();
            let cap: Vec<&str> = s.capital_display[r].iter().take(d.capital_row as usize).map(|&c| if c == NONE { "-" } else { d.cargo[c as usize].as_str() }).collect();
            let row: Vec<&str> = s.territory_display[r].iter().take(d.territory_row as usize).map(|&c| if c == NONE { "-" } else { d.cargo[c as usize].as_str() }).collect();
            let _ = writeln!(o, "{}: tile [{tile}] upper {} lower [{}]; capital demand [{}]; demand row (bottom first) [{}]; stacks {} + {}",
                d.regions[r], owner(s.upper[r]), lower.join(" "), cap.join(" "), row.join(" "),
                s.territory_stack[r].iter().map(|&n| n as u32).sum::<u32>(), s.capital_stack[r].iter().map(|&n| n as u32).sum::<u32>());
        }
        let _ = writeln!(o, "Cargo supply: {}", (0..CARGO_TYPES).map(|c| format!("{} {}", s.cargo_supply[c], d.cargo[c])).collect::<Vec<_>>().join(", "));
        let _ = writeln!(o, "Decks: {} characters, {} port cards", s.character_deck.count_ones(), s.port_deck.count_ones());
        if self.automa > 0 {
            // The seat numbers do not tell where the automa players sit.
            let order: Vec<String> = (0..self.positions).map(|k| self.who(self.clockwise(s.start_player as usize, k))).collect();
            let _ = writeln!(o, "Table order (clockwise from the starting player): {}", order.join(", "));
        }
        for p in self.players..self.positions {
            let pl = &s.players[p];
            let sp = if s.start_player as usize == p { " (starting player)" } else { "" };
            let chips: Vec<String> = bits(pl.hand as u64).map(|i| (i + 1).to_string()).collect();
            // Ruling 14: the chip never drawn is the one face down on the compass.
            let face_down = pl.hand.count_ones().min(self.discards() as u32);
            let tiles = if self.players == 1 {
                format!(", demand tiles {}", (0..REGIONS).map(|r| format!("{} {}", d.regions[r], pl.territory_tiles[r])).collect::<Vec<_>>().join(", "))
            } else {
                String::new()
            };
            let _ = writeln!(o, "  {}{sp}: automa, chips in its deck [{}] ({} to play, {face_down} face down on the compass){tiles}",
                self.who(p), chips.join(" "), pl.hand.count_ones() - face_down);
        }
        for p in 0..self.players {
            let pl = &s.players[p];
            let mark = if s.draw == Draw::None && s.current as usize == p && s.phase != Phase::GameOver { ">" } else { " " };
            let sp = if s.start_player as usize == p { " (starting player)" } else { "" };
            let _ = writeln!(o, "{mark} P{p}{sp}: wood {} steel {} krill {} coins {}", pl.res[0], pl.res[1], pl.res[2], pl.res[3]);
            let chips: Vec<String> = bits(pl.hand as u64).map(|i| (i + 1).to_string()).collect();
            let mine = all || viewer == Some(p);
            let disc = if mine && pl.discarded != 0 {
                format!(" discarded [{}]", bits(pl.discarded as u64).map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" "))
            } else {
                String::new()
            };
            let _ = writeln!(o, "    chips not played [{}], {} in hand{disc}", chips.join(" "), (pl.hand & !pl.discarded).count_ones());
            let outs: Vec<String> = bits(pl.outposts as u64).map(|q| self.port_label(q as u8)).collect();
            let _ = writeln!(o, "    outposts ({}): {}", outs.len(), outs.join(", "));
            let whales: Vec<String> = (0..MAX_WHALES).filter(|&w| pl.whales[w] != NONE).map(|w| {
                let c = pl.cargo[w];
                format!("{}@{}{}", w + 1, self.port_label(pl.whales[w]), if c == NONE { String::new() } else { format!(" carrying {}", d.cargo[c as usize]) })
            }).collect();
            let _ = writeln!(o, "    whales: {}", whales.join("; "));
            let chars: Vec<String> = bits(pl.characters).map(|c| format!("{}{}", d.characters[c].name, if pl.used & (1 << c) != 0 { " (used)" } else { "" })).collect();
            let _ = writeln!(o, "    characters: {}", chars.join(", "));
            let _ = writeln!(o, "    demand tiles: {}", (0..REGIONS).map(|r| format!("{} {}+{}", d.regions[r], pl.territory_tiles[r], pl.capital_tiles[r])).collect::<Vec<_>>().join(", "));
            let achs: Vec<&str> = bits(pl.achievements as u64).map(|l| LETTERS[l]).collect();
            let _ = writeln!(o, "    achievements [{}], control markers {}", achs.join(" "), (0..REGIONS).filter(|&r| pl.markers[r] != 0).map(|r| format!("{} {}", d.regions[r], if pl.markers[r] == 1 { "upper" } else { "lower" })).collect::<Vec<_>>().join(", "));
            let claimed: Vec<String> = bits(pl.claimed as u64).map(|c| self.card_words(c)).collect();
            // The cards still held are turned up for the final scoring.
            let held: Vec<String> = if mine || s.phase == Phase::GameOver {
                bits(pl.cards as u64).map(|c| self.card_words(c)).collect()
            } else {
                bits(pl.cards as u64).map(|c| format!("{} (face down)", DIFFICULTIES[d.network_cards[c].difficulty as usize])).collect()
            };
            let _ = writeln!(o, "    network cards: [{}] claimed [{}] discarded {}", held.join("; "), claimed.join("; "), pl.card_discards.count_ones());
        }
        o
    }

}

impl View for Mistwind {
    fn action_to_string(&self, s: &State, a: Action) -> String {
        if s.draw != Draw::None {
            return self.chance_name(s, a);
        }
        let d = &self.data;
        match a {
            _ if a < PLACE_WHALE => format!("discard:chip {}", a + 1),
            _ if a < PLAY => format!("place-whale:{}", self.port_label((a - PLACE_WHALE) as u8)),
            _ if a < BUILD_OUTPOST => {
                let l = ((a - PLAY) / 5) as usize;
                let i = ((a - PLAY) % 5) as usize;
                let what = match l as u8 {
                    CHARACTER_ROW if s.character_row[i] != NONE && (s.character_row[i] as usize) < d.characters.len() => format!("character {}", d.characters[s.character_row[i] as usize].name),
                    PORT_ROW if s.port_row[i] != NONE && (s.port_row[i] as usize) < d.port_cards.len() => format!("port {}", self.port_label(d.port_cards[s.port_row[i] as usize].port)),
                    _ => LOCATIONS[l].to_string(),
                };
                format!("play-{}:{what}", i + 1)
            }
            BUILD_OUTPOST => "build-outpost".into(),
            BUILD_WHALE => "build-whale".into(),
            _ if a < BUILD_AT => format!("take:{}", RESOURCES[(a - TAKE) as usize]),
            _ if a < MOVE => format!("build:{}", self.port_label((a - BUILD_AT) as u8)),
            _ if a < END_MOVES => {
                let w = (a - MOVE) as usize / MAX_PORTS;
                format!("move-whale-{}:{}", w + 1, self.port_label(((a - MOVE) as usize % MAX_PORTS) as u8))
            }
            END_MOVES if s.step == Step::LongMove => "end-long-move".into(),
            END_MOVES => "end-moves".into(),
            _ if a < DELIVER_TERRITORY => format!("load-{}", a - LOAD + 1),
            _ if a < DELIVER_CAPITAL => {
                let w = (a - DELIVER_TERRITORY) as usize / MAX_TERRITORY_ROW;
                let i = (a - DELIVER_TERRITORY) as usize % MAX_TERRITORY_ROW;
                format!("deliver-{}:demand row space {}", w + 1, i + 1)
            }
            _ if a < END_CARGO => {
                let w = (a - DELIVER_CAPITAL) as usize / 2;
                format!("deliver-{}:capital tile {}", w + 1, (a - DELIVER_CAPITAL) % 2 + 1)
            }
            END_CARGO => "end-cargo".into(),
            _ if a < USE => format!("choose:{}", RESOURCES[(a - CHOOSE) as usize]),
            _ if a < REVEAL_CARD => {
                let c = (a - USE) as usize;
                format!("use:{}", d.characters.get(c).map_or("?", |c| c.name.as_str()))
            }
            _ if a < CONTROL => format!("reveal-card:{}", self.card_words_or((a - REVEAL_CARD) as usize)),
            _ if a < ACHIEVE => {
                let r = ((a - CONTROL) / 2) as usize;
                let f = if (a - CONTROL) % 2 == 0 { "upper" } else { "lower" };
                format!("control-{f}:{}", d.regions[r])
            }
            _ if a < END_TURN => format!("achievement:{}", LETTERS[(a - ACHIEVE) as usize]),
            _ if a as usize >= NUM_ACTIONS => format!("action-{a}"),
            END_TURN => if s.phase == Phase::EndRoundClaims { "pass".into() } else { "end-turn".into() },
            _ if a < NAME => format!("discard-card:{}", self.card_words_or((a - DISCARD_CARD) as usize)),
            _ if a < GAIN => format!("name:{}", RESOURCES[(a - NAME) as usize]),
            _ if a < FROM_LEFT => format!("receive:{}", RESOURCES[(a - GAIN) as usize]),
            _ if a < SPLIT => format!("take-from-left:{}", RESOURCES[(a - FROM_LEFT) as usize]),
            _ if a >= KEEP => self.worker_b_action_name(a),
            _ => {
                let (x, y) = (((a - SPLIT) / 4) as usize, ((a - SPLIT) % 4) as usize);
                let n = match s.step {
                    Step::Split(i) if (i as usize) < ROW => self.resource_board[i as usize].amounts,
                    _ => [3, 2],
                };
                format!("receive:{} {} and {} {}", n[0], RESOURCES[x], n[1], RESOURCES[y])
            }
        }
    }

    /// The move as `observer` sees it: another seat's Phase A discard, the network cards
    /// dealt to another seat and another seat's network card discard are face down.
    fn action_string_for(&self, s: &State, a: Action, observer: usize) -> String {
        let d = &self.data;
        match (s.draw, s.phase) {
            (Draw::NetworkCard(p, diff), _) if p as usize != observer => {
                format!("deal-network-card:P{p} {}", DIFFICULTIES[diff as usize])
            }
            (Draw::None, Phase::Discard) if s.current as usize != observer => "discard:a chip face down".into(),
            (Draw::None, Phase::DiscardNetworkCard) if s.current as usize != observer => {
                let c = (a - DISCARD_CARD) as usize;
                format!("discard-card:{} face down", DIFFICULTIES[d.network_cards.get(c).map_or(0, |k| k.difficulty) as usize])
            }
            _ => self.action_to_string(s, a),
        }
    }

    fn text(&self, state: &State, viewer: Viewer) -> String {
        match viewer {
            Viewer::Seat(p) => self.table(state, Some(p), false),
            Viewer::Table => self.table(state, None, false),
            Viewer::All => self.table(state, None, true),
        }
    }

    /// The fields of `docs/games/mistwind.md`, "Observation tensor". Everything is 0 or 1 but
    /// the counts: resources (no limit in the rules: what a count holds), demand tiles and
    /// network cards (the components), chips on a port card (one per position), the cargo
    /// supply and the demand stacks (the components), the decks, and the counters of a
    /// pending step (what their fields hold).
    fn observation(&self, s: &State, viewer: usize, t: &mut Tensor<'_>) {
        let d = &self.data;
        let byte = u8::MAX as f32;
        t.field("observer", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, viewer);
        let actor = match (s.draw, s.phase) {
            (Draw::None, Phase::GameOver) => 6,
            (Draw::None, _) => s.current as usize,
            _ => 5,
        };
        t.field("who acts", 7, 0.0, 1.0).one_hot(7, actor);
        t.field("phase", 7, 0.0, 1.0).one_hot(7, phase_index(s.phase));
        t.field("step", STEPS.len(), 0.0, 1.0).one_hot(STEPS.len(), step_index(s.step));
        let step_field = match s.step {
            Step::PortChoice(i) | Step::WorkerBuild(i) | Step::BottomChoice(i) | Step::Split(i) => i as usize,
            _ => ROW,
        };
        t.field("step field", ROW, 0.0, 1.0).one_hot(ROW, step_field);
        t.field("round", 5, 0.0, 1.0).one_hot(5, s.round as usize);
        t.field("starting player", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, s.start_player as usize);
        t.field("round lead", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, s.round_lead as usize);
        let by_difficulty = |k: u8| d.network_cards.iter().filter(|c| c.difficulty == k).count() as f32;
        let mut f = t.field_with("players", MAX_PLAYERS * PER_PLAYER, |b| {
            for p in 0..MAX_PLAYERS {
                if p >= self.positions {
                    b.put(PER_PLAYER, 0.0, 1.0);
                    continue;
                }
                b.put(4, 0.0, u16::MAX as f32);
                b.put(layout::TERRITORY_TILES - 4, 0.0, 1.0);
                for r in 0..REGIONS {
                    b.put(1, 0.0, d.territory_tiles[r].iter().map(|&n| n as f32).sum());
                }
                for r in 0..REGIONS {
                    b.put(1, 0.0, d.capital_tiles[r].iter().map(|&n| n as f32).sum());
                }
                b.put(4 + 2 * REGIONS + MAX_NETWORK_CARDS, 0.0, 1.0);
                b.highs(&[by_difficulty(0), by_difficulty(1), by_difficulty(2)]);
                b.put(MAX_NETWORK_CARDS, 0.0, 1.0);
                b.highs(&[by_difficulty(0), by_difficulty(1), by_difficulty(2)]);
            }
        });
        for p in 0..MAX_PLAYERS {
            if p >= self.positions {
                f.skip(PER_PLAYER);
                continue;
            }
            let pl = &s.players[p];
            for r in 0..4 {
                f.put(pl.res[r] as f32);
            }
            f.mask(5, pl.hand as u64);
            f.mask(5, if p == viewer { pl.discarded as u64 } else { 0 });
            f.put(pl.used_resource_board as u8 as f32);
            f.put(pl.used_worker_board as u8 as f32);
            f.mask(MAX_PORTS, pl.outposts as u64);
            for wh in 0..MAX_WHALES {
                f.one_hot(MAX_PORTS, pl.whales[wh] as usize);
            }
            for wh in 0..MAX_WHALES {
                f.one_hot(CARGO_TYPES, pl.cargo[wh] as usize);
            }
            f.mask(MAX_CHARACTERS, pl.characters);
            f.mask(MAX_CHARACTERS, pl.used);
            for r in 0..REGIONS {
                f.put(pl.territory_tiles[r] as f32);
            }
            for r in 0..REGIONS {
                f.put(pl.capital_tiles[r] as f32);
            }
            f.mask(4, pl.achievements as u64);
            for r in 0..REGIONS {
                f.one_hot(2, (pl.markers[r] as usize).wrapping_sub(1));
            }
            f.mask(MAX_NETWORK_CARDS, if p == viewer || s.phase == Phase::GameOver { pl.cards as u64 } else { 0 });
            for diff in 0..3u8 {
                f.put(bits(pl.cards as u64).filter(|&c| d.network_cards[c].difficulty == diff).count() as f32);
            }
            f.mask(MAX_NETWORK_CARDS, pl.claimed as u64);
            for diff in 0..3u8 {
                f.put(bits(pl.card_discards as u64).filter(|&c| d.network_cards[c].difficulty == diff).count() as f32);
            }
        }
        for (name, fields) in [("resource fields", &s.resource_fields), ("worker fields", &s.worker_fields)] {
            let mut f = t.field(name, ROW * MAX_PLAYERS, 0.0, 1.0);
            for i in 0..ROW {
                f.one_hot(MAX_PLAYERS, fields[i] as usize);
            }
        }
        let mut f = t.field("character row", ROW * MAX_CHARACTERS, 0.0, 1.0);
        for i in 0..ROW {
            f.one_hot(MAX_CHARACTERS, s.character_row[i] as usize);
        }
        let mut f = t.field("character chips", ROW * MAX_PLAYERS, 0.0, 1.0);
        for i in 0..ROW {
            f.one_hot(MAX_PLAYERS, s.character_chips[i] as usize);
        }
        let mut f = t.field("port row", ROW * MAX_PORT_CARDS, 0.0, 1.0);
        for i in 0..ROW {
            f.one_hot(MAX_PORT_CARDS, s.port_row[i] as usize);
        }
        let mut f = t.field("stack heights", ROW, 0.0, self.positions as f32);
        for i in 0..ROW {
            f.put(s.stack_height[i] as f32);
        }
        let mut f = t.field("stack tops", ROW * MAX_PLAYERS, 0.0, 1.0);
        for i in 0..ROW {
            f.one_hot(MAX_PLAYERS, s.stack_top[i] as usize);
        }
        let mut f = t.field("achievement tiles", 4 * MAX_ACHIEVEMENTS, 0.0, 1.0);
        for l in 0..4 {
            f.one_hot(MAX_ACHIEVEMENTS, s.achievements[l] as usize);
        }
        let mut f = t.field("achievements taken", 4 * MAX_PLAYERS, 0.0, 1.0);
        for l in 0..4 {
            f.one_hot(MAX_PLAYERS, s.achievement_taken[l] as usize);
        }
        let mut f = t.field("network tiles", REGIONS * MAX_TILES, 0.0, 1.0);
        for r in 0..REGIONS {
            f.one_hot(MAX_TILES, s.network_tiles[r] as usize);
        }
        let mut f = t.field("upper fields", REGIONS * MAX_PLAYERS, 0.0, 1.0);
        for r in 0..REGIONS {
            f.one_hot(MAX_PLAYERS, s.upper[r] as usize);
        }
        let mut f = t.field("capital display", REGIONS * 2 * CARGO_TYPES, 0.0, 1.0);
        for r in 0..REGIONS {
            for k in 0..2 {
                f.one_hot(CARGO_TYPES, s.capital_display[r][k] as usize);
            }
        }
        let mut f = t.field("territory rows", REGIONS * MAX_TERRITORY_ROW * CARGO_TYPES, 0.0, 1.0);
        for r in 0..REGIONS {
            for i in 0..MAX_TERRITORY_ROW {
                f.one_hot(CARGO_TYPES, s.territory_display[r][i] as usize);
            }
        }
        let mut f = t.field("cargo supply", CARGO_TYPES, 0.0, d.cargo_markers as f32);
        for c in 0..CARGO_TYPES {
            f.put(s.cargo_supply[c] as f32);
        }
        for (name, stack, tiles) in [
            ("territory stacks", &s.territory_stack, &d.territory_tiles),
            ("capital stacks", &s.capital_stack, &d.capital_tiles),
        ] {
            let mut f = t.field_with(name, REGIONS * CARGO_TYPES, |b| {
                for r in 0..REGIONS {
                    for c in 0..CARGO_TYPES {
                        b.put(1, 0.0, tiles[r][c] as f32);
                    }
                }
            });
            for r in 0..REGIONS {
                for c in 0..CARGO_TYPES {
                    f.put(stack[r][c] as f32);
                }
            }
        }
        t.field_with("decks", 3, |b| {
            b.highs(&[d.characters.len() as f32, d.port_cards.len() as f32, d.network_cards.len() as f32])
        })
        .put(s.character_deck.count_ones() as f32)
        .put(s.port_deck.count_ones() as f32)
        .put(s.network_deck.count_ones() as f32);
        t.field("free moves", 1, 0.0, 1.0).put(s.free_moves as u8 as f32);
        t.field("whales moved", MAX_WHALES, 0.0, 1.0).mask(MAX_WHALES, s.moved as u64);
        t.field("whales loaded or unloaded", MAX_WHALES, 0.0, 1.0).mask(MAX_WHALES, s.cargo_done as u64);
        t.field("turn", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, s.turn as usize);
        t.field("incomes due", ROW, 0.0, 1.0).mask(ROW, income_fields(s.income) as u64);
        let (types, left) = match s.step {
            Step::Receive(n, named) => (0b1111 & !(1u64 << named), n),
            Step::Share(_, x, y) => ((1u64 << x) | (1 << y), 0),
            _ => (0, 0),
        };
        t.field("pending types", 4, 0.0, 1.0).mask(4, types);
        t.field("to receive", 1, 0.0, byte).put(left as f32);
        let drawn = s.drawn.iter().filter(|&&c| c != NONE).fold(0u64, |m, &c| m | 1 << c);
        t.field("characters drawn", MAX_CHARACTERS, 0.0, 1.0).mask(MAX_CHARACTERS, drawn);
        t.field("long-move whale", MAX_WHALES, 0.0, 1.0).one_hot(MAX_WHALES, s.long.whale as usize);
        t.field("long-move fields", 1, 0.0, byte).put(s.long.fields as f32);
        t.field("long-move cargo", 1, 0.0, 1.0).put(s.long.cargo as u8 as f32);
        t.field("long-move ports", MAX_PORTS, 0.0, 1.0).mask(MAX_PORTS, s.long.visited as u64);
        let to_pay = if let Step::PayField(n) = s.step { n as f32 } else if s.step == Step::PayToUse { 1.0 } else { 0.0 };
        t.field("to pay", 1, 0.0, byte).put(to_pay);
        t.field("asked to trade", MAX_PLAYERS, 0.0, 1.0).mask(MAX_PLAYERS, s.asked as u64);
        t.field("trades made", 1, 0.0, byte).put(s.trades as f32);
        let (partner, give, want) = match s.step {
            Step::Offer(q) => (q as usize, 4, 4),
            Step::Answer(q, g, x) => (q as usize, g as usize, x as usize),
            _ => (MAX_PLAYERS, 4, 4),
        };
        t.field("trade partner", MAX_PLAYERS, 0.0, 1.0).one_hot(MAX_PLAYERS, partner);
        t.field("resource offered", 4, 0.0, 1.0).one_hot(4, give);
        t.field("resource asked", 4, 0.0, 1.0).one_hot(4, want);
        let mut f = t.field("bonus outposts", MAX_PLAYERS * MAX_PORTS, 0.0, 1.0);
        for p in 0..MAX_PLAYERS {
            f.mask(MAX_PORTS, s.bonus_outposts[p] as u64);
        }
        let mut f = t.field("income rights", MAX_PLAYERS * ROW, 0.0, 1.0);
        for p in 0..MAX_PLAYERS {
            f.mask(ROW, s.players[p].income_rights as u64);
        }
    }

    fn views(&self) -> &'static [(&'static str, &'static str)] {
        &[("map", "the ports by region with their cargo and connections, the outposts and whales in them, and your network cards")]
    }

    fn view(&self, state: &State, name: &str, observer: Option<usize>) -> Option<String> {
        (name == "map").then(|| self.map(state, observer))
    }

    fn score_report(&self, s: &State) -> ScoreReport {
        let mut points = Vec::new();
        let mut totals = Vec::new();
        let mut ties = Vec::new();
        // Solo, the goal decides (ruling 24): no tie to break.
        let tie_breakers: Vec<String> = if self.players == 1 { Vec::new() } else { vec!["wood and steel left".into()] };
        for p in 0..self.players {
            let t = self.tally(s, p);
            points.push(t.iter().map(|&v| v as f64).collect::<Vec<f64>>());
            totals.push(t.iter().sum::<u32>() as f64);
            ties.push(tie_breakers.iter().map(|_| (s.players[p].res[WOOD] + s.players[p].res[STEEL]) as f64).collect());
        }
        let opponents = (self.players..self.positions)
            .map(|q| {
                let t = self.tally(s, q);
                OpponentRow { name: self.who(q), points: t.iter().map(|&v| v as f64).collect(), total: t.iter().sum::<u32>() as f64 }
            })
            .collect();
        let mut notes = vec!["network cards not revealed score at the end by the links then made (full or partial)".to_string()];
        let mut tier = None;
        if self.players == 1 {
            notes.push("the automa players score what they hold (the starting player marker, the demand tiles given them, their pooled cargo majority in AUT1's row) and do not win".to_string());
            let g = &self.data.goals[self.difficulty];
            let st = self.goal_standing(s, self.difficulty);
            let yes = |b: bool| if b { "met" } else { "not met" };
            let mut parts = Vec::new();
            if g.network_card {
                parts.push(format!("network card fulfilled: {}", yes(st.card)));
            }
            parts.push(format!("achievement tiles {} of {}: {}", st.achievements.0, g.achievements, yes(st.achievements.1)));
            parts.push(format!("network tiles {} of {}: {}", st.tiles.0, g.network_tiles, yes(st.tiles.1)));
            parts.push(format!("points {} of {}: {}", st.points.0, g.points, yes(st.points.1)));
            notes.push(format!("goal {} ({}): {}", g.name, DIFFICULTY_LEVELS[self.difficulty], parts.join("; ")));
            if s.phase == Phase::GameOver {
                tier = (0..self.data.goals.len()).rev().find(|&k| self.goal_standing(s, k).met()).map(|k| self.data.goals[k].name.clone());
            }
        } else if self.automa > 0 {
            notes.push("the automa players score only what they hold (the starting player marker) and do not win".to_string());
        }
        if s.phase != Phase::GameOver {
            notes.push(format!("round {} of {}: the score as if the game ended now", s.round + 1, self.rounds));
        }
        ScoreReport {
            categories: CATEGORIES.iter().map(|c| c.to_string()).collect(),
            points,
            totals,
            opponents,
            tie_breakers,
            tie_breaker_values: ties,
            winners: self.winners(s),
            terminal: s.phase == Phase::GameOver,
            truncated: false,
            notes,
            tier,
            ..ScoreReport::default()
        }
    }

    /// The report's numbers from the tallies, without its names and notes.
    fn score_record(&self, s: &State, out: &mut ScoreRecord) {
        out.clear();
        for p in 0..self.players {
            let t = self.tally(s, p);
            out.points.extend(t.iter().map(|&v| v as f64));
            out.totals.push(t.iter().sum::<u32>() as f64);
        }
        for q in self.players..self.positions {
            out.opponent_totals.push(self.tally(s, q).iter().sum::<u32>() as f64);
        }
        self.winners_into(s, &mut out.winners);
        if self.players == 1 && s.phase == Phase::GameOver {
            out.tier = (0..self.data.goals.len()).rev().find(|&k| self.goal_standing(s, k).met());
        }
    }

    fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.tally(state, p).iter().sum::<u32>() as f64;
        }
    }
}

/// Offsets of the tensor's parts, for tests and the doc.
pub mod layout {
    use super::*;
    pub const OBSERVER: usize = 0;
    pub const ACTOR: usize = 5;
    pub const PHASE: usize = 12;
    pub const STEP: usize = 19;
    pub const STEP_FIELD: usize = STEP + STEPS.len();
    pub const ROUND: usize = STEP_FIELD + ROW;
    pub const START_PLAYER: usize = ROUND + 5;
    pub const ROUND_LEAD: usize = START_PLAYER + 5;
    pub const PLAYERS: usize = HEADER;
    pub const PLAYER_SIZE: usize = PER_PLAYER;
    /// Within a player's block.
    pub const RES: usize = 0;
    pub const HAND: usize = 4;
    pub const DISCARDED: usize = 9;
    pub const OUTPOSTS: usize = 16;
    pub const WHALES: usize = OUTPOSTS + MAX_PORTS;
    pub const CARGO: usize = WHALES + MAX_WHALES * MAX_PORTS;
    pub const CHARACTERS: usize = CARGO + MAX_WHALES * CARGO_TYPES;
    pub const TERRITORY_TILES: usize = CHARACTERS + 2 * MAX_CHARACTERS;
    pub const CAPITAL_TILES: usize = TERRITORY_TILES + REGIONS;
    pub const ACHIEVEMENTS: usize = CAPITAL_TILES + REGIONS;
    pub const MARKERS: usize = ACHIEVEMENTS + 4;
    pub const CARDS: usize = MARKERS + 2 * REGIONS;
    pub const CARDS_BY_DIFFICULTY: usize = CARDS + MAX_NETWORK_CARDS;
    pub const CLAIMED: usize = CARDS_BY_DIFFICULTY + 3;
    pub const CARD_DISCARDS: usize = CLAIMED + MAX_NETWORK_CARDS;
    pub const BOARD: usize = HEADER + MAX_PLAYERS * PER_PLAYER;
    pub const RESOURCE_FIELDS: usize = BOARD;
    pub const WORKER_FIELDS: usize = BOARD + ROW * MAX_PLAYERS;
    pub const CHARACTER_ROW: usize = WORKER_FIELDS + ROW * MAX_PLAYERS;
    pub const CHARACTER_CHIPS: usize = CHARACTER_ROW + ROW * MAX_CHARACTERS;
    pub const PORT_ROW: usize = CHARACTER_CHIPS + ROW * MAX_PLAYERS;
    pub const STACK_HEIGHT: usize = PORT_ROW + ROW * MAX_PORT_CARDS;
    pub const STACK_TOP: usize = STACK_HEIGHT + ROW;
    pub const ACHIEVEMENT_TILES: usize = STACK_TOP + ROW * MAX_PLAYERS;
    pub const ACHIEVEMENT_TAKEN: usize = ACHIEVEMENT_TILES + 4 * MAX_ACHIEVEMENTS;
    pub const NETWORK_TILES: usize = ACHIEVEMENT_TAKEN + 4 * MAX_PLAYERS;
    pub const UPPER: usize = NETWORK_TILES + REGIONS * MAX_TILES;
    pub const CAPITAL_DISPLAY: usize = UPPER + REGIONS * MAX_PLAYERS;
    pub const TERRITORY_DISPLAY: usize = CAPITAL_DISPLAY + REGIONS * 2 * CARGO_TYPES;
    pub const CARGO_SUPPLY: usize = TERRITORY_DISPLAY + REGIONS * MAX_TERRITORY_ROW * CARGO_TYPES;
    pub const TERRITORY_STACKS: usize = CARGO_SUPPLY + CARGO_TYPES;
    pub const CAPITAL_STACKS: usize = TERRITORY_STACKS + REGIONS * CARGO_TYPES;
    pub const DECKS: usize = CAPITAL_STACKS + REGIONS * CARGO_TYPES;
    pub const FREE_MOVES: usize = DECKS + 3;
    pub const MOVED: usize = FREE_MOVES + 1;
    pub const CARGO_DONE: usize = MOVED + MAX_WHALES;
    pub const TURN: usize = CARGO_DONE + MAX_WHALES;
    pub const INCOME: usize = TURN + MAX_PLAYERS;
    pub const PENDING_TYPES: usize = INCOME + ROW;
    pub const TO_RECEIVE: usize = PENDING_TYPES + 4;
    pub const DRAWN: usize = TO_RECEIVE + 1;
    pub const LONG_WHALE: usize = DRAWN + MAX_CHARACTERS;
    pub const LONG_FIELDS: usize = LONG_WHALE + MAX_WHALES;
    pub const LONG_CARGO: usize = LONG_FIELDS + 1;
    pub const LONG_VISITED: usize = LONG_CARGO + 1;
    pub const TO_PAY: usize = LONG_VISITED + MAX_PORTS;
    pub const ASKED: usize = TO_PAY + 1;
    pub const TRADES: usize = ASKED + MAX_PLAYERS;
    pub const PARTNER: usize = TRADES + 1;
    pub const OFFERED: usize = PARTNER + MAX_PLAYERS;
    pub const ASKED_FOR: usize = OFFERED + 4;
    pub const BONUS_OUTPOSTS: usize = ASKED_FOR + 4;
    pub const INCOME_RIGHTS: usize = BONUS_OUTPOSTS + MAX_PLAYERS * MAX_PORTS;
}
