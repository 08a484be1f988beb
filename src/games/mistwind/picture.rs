//! Mistwind's picture: the map with its ports, regions, connections, whales and outposts; the
//! resource and worker boards, the character and port rows, the achievements, the network
//! tiles and demand rows of each region, the cargo supply and the decks; each seat's board
//! (resources, chips, characters, demand tiles, network cards: another seat's held cards and
//! discarded chips face down) and the automa players with their zones.
//!
//! The data file gives the map as ports, their regions and the connections between them, not
//! where the board prints them, so the map's layout is reconstructed from that: each region
//! gets a quarter of the map, and the ports are placed by a fixed number of steps of a
//! force-directed layout (connected ports pull together, all ports push apart, each is held
//! near its region's centre). It is deterministic: the same data draws the same map.

use super::rules::bits;
use super::data::{Data, DIFFICULTIES, LETTERS, LOCATION_NAMES, REGIONS, RESOURCES};
use super::state::{Draw, Phase, State, MAX_WHALES, NONE, ROW};
use super::Mistwind;
use crate::engine::svg::{palette, wrap, Svg, Viewer};
use crate::engine::Picture;

const WIDTH: f64 = 1140.0;
/// The map: its box and each region's centre (as fractions of it), clockwise from top left.
const MAP_X: f64 = 10.0;
const MAP_Y: f64 = 50.0;
const MAP_W: f64 = 560.0;
const MAP_H: f64 = 470.0;
const REGION_CENTRES: [(f64, f64); REGIONS] = [(0.27, 0.27), (0.73, 0.27), (0.73, 0.73), (0.27, 0.73)];
const REGION_TINTS: [&str; REGIONS] = ["#dcedc8", "#ffe0b2", "#e1bee7", "#b2dfdb"];
/// The diagonal: 1 over the square root of 2.
const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// Eight directions, a unit vector each, for the layout's starting places.
const DIRECTIONS: [(f64, f64); 8] = [(1.0, 0.0), (D, D), (0.0, 1.0), (-D, D), (-1.0, 0.0), (-D, -D), (0.0, -1.0), (D, -D)];
/// The layout's steps.
const LAYOUT_STEPS: usize = 300;
/// The boards and rows, right of the map.
const RIGHT_X: f64 = 590.0;
const CARD_W: f64 = 102.0;
const CARD_H: f64 = 52.0;
/// The player boards, under the map.
const BOARDS_TOP: f64 = 530.0;
const BOARD_H: f64 = 112.0;
/// The colours of the cargo types and of the resources (wood, steel, krill, coins).
const CARGO_COLOURS: [&str; 7] = ["#e74c3c", "#3498db", "#f1c40f", "#9b59b6", "#1abc9c", "#e67e22", "#ff8a80"];
const RESOURCE_COLOURS: [&str; 4] = ["#8d6e63", "#90a4ae", "#ff8a80", "#fbc02d"];

/// Where each port lies on the map, reconstructed from its region and connections (see the
/// module's documentation), in map coordinates.
pub fn map_layout(data: &Data) -> Vec<(f64, f64)> {
    let n = data.ports.len();
    let mut by_region = [0usize; REGIONS];
    let mut pos: Vec<(f64, f64)> = Vec::with_capacity(n);
    for port in &data.ports {
        let r = port.region as usize % REGIONS;
        let (cx, cy) = REGION_CENTRES[r];
        let k = by_region[r];
        by_region[r] += 1;
        // Around the region's centre, in one of eight directions (written out, so that the
        // layout needs no trigonometry and draws alike on every platform).
        let (dx, dy) = DIRECTIONS[(k + r) % DIRECTIONS.len()];
        let radius = if port.capital { 0.02 } else { 0.1 + 0.05 * (k / DIRECTIONS.len()) as f64 };
        pos.push((cx * MAP_W + radius * MAP_W * dx, cy * MAP_H + radius * MAP_H * dy));
    }
    let ideal = 70.0;
    for step in 0..LAYOUT_STEPS {
        let heat = 12.0 * (1.0 - step as f64 / LAYOUT_STEPS as f64) + 0.5;
        let mut force = vec![(0.0f64, 0.0f64); n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (dx, dy) = (pos[i].0 - pos[j].0, pos[i].1 - pos[j].1);
                let d = (dx * dx + dy * dy).sqrt().max(1.0);
                let push = ideal * ideal / d;
                force[i].0 += dx / d * push;
                force[i].1 += dy / d * push;
                if data.adjacent[i] >> j & 1 == 1 {
                    let pull = d * d / ideal;
                    force[i].0 -= dx / d * pull;
                    force[i].1 -= dy / d * pull;
                }
            }
            let (cx, cy) = REGION_CENTRES[data.ports[i].region as usize % REGIONS];
            force[i].0 += (cx * MAP_W - pos[i].0) * 0.6;
            force[i].1 += (cy * MAP_H - pos[i].1) * 0.6;
        }
        for i in 0..n {
            let (fx, fy) = force[i];
            let f = (fx * fx + fy * fy).sqrt().max(1e-9);
            let moved = f.min(heat);
            pos[i].0 = (pos[i].0 + fx / f * moved).clamp(30.0, MAP_W - 30.0);
            pos[i].1 = (pos[i].1 + fy / f * moved).clamp(30.0, MAP_H - 30.0);
        }
    }
    pos
}

impl Mistwind {
    fn position_colour(&self, p: usize) -> &'static str {
        if p < self.players { palette::seat(p) } else { ["#5d4037", "#455a64", "#37474f"][(p - self.players) % 3] }
    }

    fn owner_fill(&self, owner: u8) -> &'static str {
        if owner == NONE { "none" } else { self.position_colour(owner as usize) }
    }

    fn draw_map(&self, svg: &mut Svg, s: &State) {
        let d = &self.data;
        let pos = self.map_layout.get_or_init(|| map_layout(d));
        svg.group("map", MAP_X, MAP_Y, |svg| {
            svg.rect(0.0, 0.0, MAP_W, MAP_H).rounded(8.0).fill(palette::SEA).stroke(palette::DEEP_SEA).class("sea");
            // Each region's name at the middle of its ports (the ports wear its tint).
            for r in 0..REGIONS {
                let mine: Vec<(f64, f64)> = d.ports.iter().zip(pos.iter()).filter(|(port, _)| port.region as usize == r).map(|(_, &p)| p).collect();
                if mine.is_empty() {
                    continue;
                }
                let (x, y) = mine.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
                let (x, y) = (x / mine.len() as f64, y / mine.len() as f64);
                svg.text(x, y + 4.0, &d.regions[r]).middle().bold().size(13.0).fill("#5b7f99").opacity(0.8).class("region");
            }
            for i in 0..pos.len() {
                for j in (i + 1)..pos.len() {
                    if d.adjacent[i] >> j & 1 == 1 {
                        svg.line(pos[i].0, pos[i].1, pos[j].0, pos[j].1).stroke(palette::DEEP_SEA).stroke_width(2.0).class("connection");
                    }
                }
            }
            for (q, port) in d.ports.iter().enumerate() {
                let (x, y) = pos[q];
                svg.group("port", x, y, |svg| {
                    if port.capital {
                        svg.rect(-11.0, -11.0, 22.0, 22.0).rounded(3.0).fill(REGION_TINTS[port.region as usize % REGIONS]).stroke(palette::INK).stroke_width(1.5).class("capital");
                    } else {
                        svg.circle(0.0, 0.0, 9.0).fill(REGION_TINTS[port.region as usize % REGIONS]).stroke(palette::INK).stroke_width(1.0);
                    }
                    if (port.cargo as usize) < CARGO_COLOURS.len() {
                        let name = if (port.cargo as usize) < d.cargo.len() { d.cargo[port.cargo as usize].as_str() } else { "krill" };
                        svg.circle(0.0, 0.0, 4.0).fill(CARGO_COLOURS[port.cargo as usize]).title(name);
                    }
                    svg.text(0.0, 22.0, &d.port_names[q]).middle().size(8.0);
                    // Outposts around the port, one square per position that has one.
                    let mut k = 0;
                    for p in 0..self.positions {
                        if s.players[p].outposts >> q & 1 == 1 {
                            svg.rect(-14.0 + k as f64 * 8.0, -20.0, 7.0, 7.0).fill(self.position_colour(p)).stroke(palette::INK).stroke_width(0.4).class("outpost");
                            k += 1;
                        }
                    }
                });
            }
            // Whales in their ports, with their cargo.
            let mut in_port = vec![0usize; pos.len()];
            for p in 0..self.positions {
                let pl = &s.players[p];
                for w in 0..MAX_WHALES {
                    let q = pl.whales[w];
                    if q == NONE || q as usize >= pos.len() {
                        continue;
                    }
                    let k = in_port[q as usize];
                    in_port[q as usize] += 1;
                    let (x, y) = (pos[q as usize].0 + 12.0 + (k % 3) as f64 * 6.0, pos[q as usize].1 + 4.0 + (k / 3) as f64 * 8.0);
                    svg.group("whale", x, y, |svg| {
                        svg.path(&crate::engine::svg::PathData::new().move_to(0.0, 0.0).quad_to(7.0, -6.0, 14.0, 0.0).quad_to(7.0, 5.0, 0.0, 0.0).close())
                            .fill(self.position_colour(p)).stroke(palette::INK).stroke_width(0.5);
                        svg.polygon(&[(14.0, 0.0), (18.0, -3.0), (18.0, 3.0)]).fill(self.position_colour(p));
                        let c = pl.cargo[w];
                        if c != NONE {
                            svg.circle(7.0, -1.0, 2.5).fill(CARGO_COLOURS[c as usize % CARGO_COLOURS.len()]).stroke(palette::INK).stroke_width(0.3).class("cargo");
                        }
                    });
                }
            }
        });
    }

    fn draw_rows(&self, svg: &mut Svg, s: &State) {
        let d = &self.data;
        svg.group("boards", RIGHT_X, MAP_Y, |svg| {
            // The resource and worker boards: a field per chip.
            for (b, (name, fields)) in [("resource board", &s.resource_fields), ("worker board", &s.worker_fields)].into_iter().enumerate() {
                let y = b as f64 * 26.0;
                svg.text(0.0, y + 14.0, name).size(9.0);
                for i in 0..ROW {
                    svg.rect(90.0 + i as f64 * 30.0, y, 26.0, 20.0).rounded(3.0).fill(palette::CARD).stroke(palette::INK).stroke_width(0.6).class("field");
                    svg.text(94.0 + i as f64 * 30.0, y + 9.0, &(i + 1).to_string()).size(7.0).fill(palette::MUTED);
                    if fields[i] != NONE {
                        svg.circle(106.0 + i as f64 * 30.0, y + 11.0, 6.0).fill(self.owner_fill(fields[i])).stroke(palette::INK).stroke_width(0.5).class("chip");
                    }
                }
            }
            // The character row and the port row, a card per field with the chips on it.
            for i in 0..ROW {
                let x = i as f64 * (CARD_W + 4.0);
                let c = s.character_row[i];
                if c == NONE || c as usize >= d.characters.len() {
                    svg.rect(x, 58.0, CARD_W, CARD_H).rounded(3.0).fill("none").stroke(palette::MUTED).dashed();
                } else {
                    let ch = &d.characters[c as usize];
                    let mut lines = vec![ch.name.clone()];
                    lines.extend(wrap(&format!("{} VP", ch.vp), 18));
                    svg.card((x, 58.0), (CARD_W, CARD_H), "character", "#f3e5f5", &lines);
                }
                if s.character_chips[i] != NONE {
                    svg.circle(x + CARD_W - 8.0, 58.0 + CARD_H - 8.0, 6.0).fill(self.owner_fill(s.character_chips[i])).stroke(palette::INK).stroke_width(0.5).class("chip");
                }
                let c = s.port_row[i];
                if c == NONE || c as usize >= d.port_cards.len() {
                    svg.rect(x, 116.0, CARD_W, CARD_H).rounded(3.0).fill("none").stroke(palette::MUTED).dashed();
                } else {
                    svg.card((x, 116.0), (CARD_W, CARD_H), "port-card", "#e3f2fd", &wrap(&self.port_card_words(c as usize), 20));
                }
                for k in 0..s.stack_height[i] {
                    let top = k + 1 == s.stack_height[i];
                    let fill = if top { self.owner_fill(s.stack_top[i]) } else { palette::MUTED };
                    svg.rect(x + 4.0 + k as f64 * 9.0, 116.0 + CARD_H - 10.0, 8.0, 8.0).fill(fill).stroke(palette::INK).stroke_width(0.4).class("chip");
                }
            }
            svg.text(0.0, 182.0, &format!("decks: {} characters, {} port cards, {} network cards", s.character_deck.count_ones(), s.port_deck.count_ones(), s.network_deck.count_ones())).size(9.0);
            // The achievements.
            for l in 0..4 {
                let a = s.achievements[l];
                let x = l as f64 * (CARD_W + 4.0);
                if a == NONE || a as usize >= d.achievements.len() {
                    svg.face_down(x, 190.0, CARD_W, 30.0, LETTERS[l]);
                    continue;
                }
                let taken = s.achievement_taken[l];
                let fill = if taken == NONE { "#fff8e1" } else { palette::seat_light(taken as usize) };
                svg.card((x, 190.0), (CARD_W, 30.0), "achievement", fill, &wrap(&self.achievement_words(a as usize), 22));
            }
            // Each region: its network tile, capital demand and territory demand row.
            for r in 0..REGIONS {
                let y = 228.0 + r as f64 * 44.0;
                svg.group("region-display", 0.0, y, |svg| {
                    svg.rect(0.0, 0.0, 530.0, 40.0).rounded(4.0).fill(REGION_TINTS[r]).stroke(palette::MUTED).stroke_width(0.5);
                    svg.text(4.0, 12.0, &d.regions[r]).bold().size(9.0);
                    let t = s.network_tiles[r];
                    let tile = if t == NONE { "no network tile".to_string() } else { self.tile_words(t as usize) };
                    svg.text(4.0, 24.0, &tile).size(7.5);
                    let upper = if s.upper[r] == NONE { "-".to_string() } else { self.who(s.upper[r] as usize) };
                    let lower: Vec<String> = (0..self.players).filter(|&p| s.players[p].markers[r] == 2).map(|p| format!("P{p}")).collect();
                    svg.text(4.0, 35.0, &format!("upper {upper}, lower [{}]", lower.join(" "))).size(7.5);
                    svg.text(200.0, 12.0, "capital").size(7.5).fill(palette::MUTED);
                    for (i, &c) in s.capital_display[r].iter().take(d.capital_row as usize).enumerate() {
                        let fill = if c == NONE { "none" } else { CARGO_COLOURS[c as usize % CARGO_COLOURS.len()] };
                        svg.rect(200.0 + i as f64 * 16.0, 16.0, 13.0, 13.0).fill(fill).stroke(palette::INK).stroke_width(0.8).class("demand capital-demand");
                    }
                    svg.text(250.0, 12.0, "demand row (bottom first)").size(7.5).fill(palette::MUTED);
                    for (i, &c) in s.territory_display[r].iter().take(d.territory_row as usize).enumerate() {
                        let fill = if c == NONE { "none" } else { CARGO_COLOURS[c as usize % CARGO_COLOURS.len()] };
                        svg.rect(250.0 + i as f64 * 16.0, 16.0, 13.0, 13.0).fill(fill).stroke(palette::INK).stroke_width(0.4).class("demand territory-demand");
                    }
                    let stacks: u32 = s.territory_stack[r].iter().chain(&s.capital_stack[r]).map(|&n| n as u32).sum();
                    svg.text(525.0, 35.0, &format!("{stacks} tiles in stacks")).end().size(7.5);
                });
            }
            let supply: Vec<String> = (0..d.cargo.len().min(s.cargo_supply.len())).map(|c| format!("{} {}", s.cargo_supply[c], d.cargo[c])).collect();
            svg.text(0.0, 412.0, &format!("cargo supply: {}", supply.join(", "))).size(9.0);
            for c in 0..d.cargo.len().min(s.cargo_supply.len()) {
                svg.rect(c as f64 * 20.0, 418.0, 12.0, 12.0).fill(CARGO_COLOURS[c % CARGO_COLOURS.len()]).stroke(palette::INK).stroke_width(0.4).class("cargo-supply").title(&d.cargo[c]);
            }
        });
    }

    fn draw_board(&self, svg: &mut Svg, s: &State, viewer: Viewer, p: usize, y: f64) {
        let d = &self.data;
        let pl = &s.players[p];
        let automa = p >= self.players;
        let current = s.draw == Draw::None && s.current as usize == p && s.phase != Phase::GameOver;
        svg.group(if automa { "automa" } else { "player-board" }, 10.0, y, |svg| {
            let light = if automa { "#eceff1" } else { palette::seat_light(p) };
            svg.rect(0.0, 0.0, WIDTH - 20.0, BOARD_H - 6.0).rounded(6.0).fill(light).stroke(self.position_colour(p)).stroke_width(if current { 3.0 } else { 1.0 });
            let start = if s.start_player as usize == p { " (starting player)" } else { "" };
            svg.text(8.0, 16.0, &format!("{}{start}", self.who(p))).bold().fill(self.position_colour(p));
            // Resources.
            for r in 0..4 {
                let x = 8.0 + r as f64 * 62.0;
                svg.rect(x, 24.0, 12.0, 12.0).rounded(2.0).fill(RESOURCE_COLOURS[r]).stroke(palette::INK).stroke_width(0.4).class("resource");
                svg.text(x + 15.0, 34.0, &format!("{} {}", pl.res[r], RESOURCES[r])).size(8.5);
            }
            // Action chips: those not played; the discarded ones face down unless the viewer may see them.
            let sees = viewer.sees_private(p);
            svg.text(8.0, 56.0, if automa { "chips in its deck" } else { "chips" }).size(8.5).fill(palette::MUTED);
            if automa {
                let face_down = pl.hand.count_ones().min(self.discards() as u32) as usize;
                // An automa player's deck is open; ruling 14: the chip never drawn is the one face down.
                for (k, i) in bits(pl.hand as u64).enumerate() {
                    let x = 70.0 + k as f64 * 20.0;
                    svg.circle(x + 8.0, 52.0, 8.0).fill(palette::CARD).stroke(palette::INK).class("chip");
                    svg.text(x + 8.0, 55.0, &(i + 1).to_string()).middle().size(8.0);
                }
                svg.text(70.0 + pl.hand.count_ones() as f64 * 20.0 + 4.0, 56.0, &format!("{face_down} face down on the compass")).size(8.0);
            } else {
                // The chips not played are open; which of them were discarded in secret only
                // their owner knows (the others see how many, face down beside them).
                let mut x = 70.0;
                for i in bits(pl.hand as u64) {
                    let discarded = sees && pl.discarded >> i & 1 == 1;
                    let fill = if discarded { "#cfd8dc" } else { palette::CARD };
                    svg.circle(x + 8.0, 52.0, 8.0).fill(fill).stroke(palette::INK).class(if discarded { "chip discarded" } else { "chip" });
                    svg.text(x + 8.0, 55.0, &(i + 1).to_string()).middle().size(8.0);
                    x += 20.0;
                }
                let n = pl.discarded.count_ones();
                if n > 0 && !sees {
                    svg.face_down(x, 44.0, 56.0, 16.0, &format!("{n} discarded"));
                }
            }
            // Demand tiles, achievements and control markers.
            let tiles: Vec<String> = (0..REGIONS).map(|r| format!("{} {}+{}", d.regions[r], pl.territory_tiles[r], pl.capital_tiles[r])).collect();
            svg.text(8.0, 76.0, &format!("demand tiles: {}", tiles.join(", "))).size(8.0);
            let achs: Vec<&str> = bits(pl.achievements as u64).map(|l| LETTERS[l % 4]).collect();
            let markers: Vec<String> = (0..REGIONS).filter(|&r| pl.markers[r] != 0).map(|r| format!("{} {}", d.regions[r], if pl.markers[r] == 1 { "upper" } else { "lower" })).collect();
            svg.text(8.0, 90.0, &format!("achievements [{}], control markers [{}], {} outposts", achs.join(" "), markers.join(", "), pl.outposts.count_ones())).size(8.0);
            if automa {
                let zones: Vec<String> = d.zones.iter().enumerate().map(|(z, &l)| format!("zone {}: {}", z + 1, LOCATION_NAMES.get(l as usize).copied().unwrap_or("?"))).collect();
                svg.text(8.0, 104.0, &format!("automa zones: {}", zones.join(", "))).size(8.0).fill(palette::MUTED);
                return;
            }
            // Characters, and the network cards: held (face down for the others until the end), claimed, discarded.
            let mut x = 480.0;
            for c in bits(pl.characters) {
                if c >= d.characters.len() {
                    continue;
                }
                let used = pl.used >> c & 1 == 1;
                svg.card((x, 6.0), (84.0, 30.0), if used { "character used" } else { "character" }, if used { "#d7ccc8" } else { "#f3e5f5" }, &wrap(&d.characters[c].name, 16));
                x += 88.0;
            }
            let open = viewer.sees_private(p) || s.phase == Phase::GameOver;
            let mut x = 480.0;
            for c in bits(pl.cards as u64) {
                if c >= d.network_cards.len() {
                    continue;
                }
                if open {
                    svg.card((x, 42.0), (120.0, 30.0), "network-card", "#e8f5e9", &wrap(&self.card_words(c), 26));
                } else {
                    svg.face_down(x, 42.0, 120.0, 30.0, DIFFICULTIES[d.network_cards[c].difficulty as usize % 3]);
                }
                x += 124.0;
            }
            for c in bits(pl.claimed as u64) {
                if c >= d.network_cards.len() {
                    continue;
                }
                let mut lines = vec!["claimed".to_string()];
                lines.extend(wrap(&self.card_words(c), 26));
                svg.card((x, 42.0), (120.0, 30.0), "network-card claimed", "#c8e6c9", &lines);
                x += 124.0;
            }
            let discards = pl.card_discards.count_ones();
            if discards > 0 {
                svg.face_down(x, 42.0, 60.0, 30.0, &format!("{discards} disc."));
            }
        });
    }
}

impl Picture for Mistwind {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let height = BOARDS_TOP + self.positions as f64 * BOARD_H + 6.0;
        let mut svg = Svg::new(WIDTH, height, palette::BOARD);
        let mode = if self.players == 1 { format!("solo, {} goal", DIFFICULTIES[self.difficulty % 3]) } else { format!("{} players", self.players) };
        svg.text(10.0, 20.0, &format!("Mistwind ({mode}), round {}/{} ({})", (s.round + 1).min(self.rounds), self.rounds, viewer.caption())).bold().size(14.0);
        svg.text(10.0, 38.0, &self.whose(s)).size(10.0);
        self.draw_map(&mut svg, s);
        self.draw_rows(&mut svg, s);
        for (k, p) in (0..self.players).chain(self.players..self.positions).enumerate() {
            self.draw_board(&mut svg, s, viewer, p, BOARDS_TOP + k as f64 * BOARD_H);
        }
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::prelude::*;
    use crate::harness::positions::midgame_state;
    use crate::harness::xml::count_class;

    fn game(players: usize) -> Arc<Mistwind> {
        Arc::new(Mistwind::load(serde_json::json!({"players": players}).as_object().unwrap()).unwrap())
    }

    #[test]
    fn the_map_shows_every_port_and_connection_and_each_whale_and_outpost() {
        for players in [1, 2, 3, 5] {
            let g = game(players);
            let pairs: usize = g.data.adjacent.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2;
            for seed in 0..3 {
                let s = midgame_state(&g, seed, 60 + 60 * seed as usize);
                let svg = g.svg(&s, Viewer::All);
                assert_eq!(count_class(&svg, "port"), g.data.ports.len());
                assert_eq!(count_class(&svg, "capital"), REGIONS);
                assert_eq!(count_class(&svg, "connection"), pairs);
                let positions = &s.players[..g.positions];
                assert_eq!(count_class(&svg, "whale"), positions.iter().map(|pl| pl.whales.iter().filter(|&&w| w != NONE).count()).sum::<usize>());
                assert_eq!(count_class(&svg, "outpost"), positions.iter().map(|pl| pl.outposts.count_ones() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "player-board"), players);
                assert_eq!(count_class(&svg, "automa"), g.automa);
            }
        }
    }

    #[test]
    fn the_layout_keeps_every_port_on_the_map_and_apart() {
        let g = game(3);
        let pos = map_layout(&g.data);
        assert_eq!(pos, map_layout(&g.data), "the layout is deterministic");
        for (i, &(x, y)) in pos.iter().enumerate() {
            assert!((0.0..=MAP_W).contains(&x) && (0.0..=MAP_H).contains(&y));
            for &(x2, y2) in &pos[i + 1..] {
                assert!(((x - x2).powi(2) + (y - y2).powi(2)).sqrt() > 20.0, "two ports overlap");
            }
        }
    }

    /// "Each player secretly discards ..." and network cards are kept secret until claimed or
    /// the end: another seat's are face down.
    #[test]
    fn another_seats_network_cards_and_discarded_chips_are_face_down() {
        let g = game(3);
        for seed in 0..4 {
            let s = midgame_state(&g, seed, 40 + 40 * seed as usize);
            assert_ne!(s.phase, Phase::GameOver);
            let held = |p: usize| s.players[p].cards.count_ones() as usize;
            let claimed: usize = (0..3).map(|p| s.players[p].claimed.count_ones() as usize).sum();
            for p in 0..3 {
                let svg = g.svg(&s, Viewer::Seat(p));
                assert_eq!(count_class(&svg, "network-card"), held(p) + claimed, "P{p}");
                assert_eq!(count_class(&svg, "discarded"), s.players[p].discarded.count_ones() as usize);
            }
            assert_eq!(count_class(&g.svg(&s, Viewer::Table), "network-card"), claimed);
            assert_eq!(count_class(&g.svg(&s, Viewer::All), "network-card"), (0..3).map(held).sum::<usize>() + claimed);
        }
    }
}
