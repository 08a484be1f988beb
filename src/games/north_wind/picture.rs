//! North Wind's picture: the sea with the three ports, each with its stack of sea cards (face
//! down, with what the viewer has seen of it), its contract and its column of victory point
//! tokens; the voyage under way with its revealed cards and the lookout's card (face down for
//! the others); each player's ship with its hold, sail, cannons, crew, gold, trade letters and
//! prison; the supply. The layout is the constants below.

use super::data::{Kind, CREW_SLOTS, GOODS, PORTS};
use super::state::{Phase, State, NONE, PUBLIC};
use super::NorthWind;
use crate::engine::svg::{hull, palette, wrap, Svg, Viewer};
use crate::engine::Picture;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 660.0;
/// The sea and its three ports, side by side.
const SEA_TOP: f64 = 34.0;
const SEA_HEIGHT: f64 = 300.0;
const PORT_WIDTH: f64 = 310.0;
/// The voyage row.
const VOYAGE_TOP: f64 = 344.0;
const CARD_W: f64 = 84.0;
const CARD_H: f64 = 50.0;
/// The ships, one column a player.
const SHIPS_TOP: f64 = 424.0;
const SHIP_WIDTH: f64 = 236.0;
const SUPPLY_TOP: f64 = 632.0;
/// The colour of each good: grain, fish, salt, wood, wine.
const GOOD_COLOURS: [&str; 5] = ["#e9c46a", "#5fa8d3", "#f4f4f4", "#8d5a2b", "#7b2d5b"];
/// Initials of the crew slots, as printed on the ship board.
const CREW_INITIALS: [&str; 5] = ["Bo", "Bk", "Gu", "Tr", "Lo"];

impl NorthWind {
    fn draw_port(&self, svg: &mut Svg, s: &State, viewer: Viewer, port: usize) {
        let x = 10.0 + port as f64 * PORT_WIDTH;
        svg.group("port", x, SEA_TOP, |svg| {
            svg.rect(0.0, 0.0, PORT_WIDTH - 20.0, 36.0).rounded(8.0).fill(palette::LAND).stroke(palette::WOOD);
            svg.text((PORT_WIDTH - 20.0) / 2.0, 24.0, PORTS[port]).middle().bold().size(15.0);
            // The stack of sea cards, face down, and what the viewer knows of it (how many
            // cards each stack holds is a secret of the deal: only everything shown counts them).
            let label = if viewer.sees_hidden() { s.stack_cards[port].count_ones().to_string() } else { String::new() };
            svg.group("sea-stack", 6.0, 46.0, |svg| {
                for k in (0..3).rev() {
                    svg.rect(k as f64 * 2.0, -(k as f64) * 2.0, 54.0, 76.0).rounded(3.0).fill(palette::CARD_BACK).stroke(palette::INK).stroke_width(0.6);
                }
                svg.face_down(0.0, 0.0, 54.0, 76.0, &label);
                svg.text(27.0, 90.0, "sea cards").middle().size(9.0).fill(palette::MUTED);
            });
            if viewer.sees_hidden() {
                // Everything shown: the stack's cards, in id order (their order is drawn as they come).
                let mut i = 0;
                for c in 0..32u8 {
                    if s.stack_cards[port] >> c & 1 == 0 {
                        continue;
                    }
                    let (cx, cy) = (70.0 + (i % 3) as f64 * 72.0, 46.0 + (i / 3) as f64 * 15.0);
                    svg.rect(cx, cy, 70.0, 13.0).rounded(2.0).fill(palette::CARD).stroke(palette::MUTED).stroke_width(0.5).class("stack-card");
                    svg.text(cx + 35.0, cy + 10.0, self.card_name(c)).middle().size(7.5);
                    i += 1;
                }
            } else {
                let view = match viewer {
                    Viewer::Seat(p) => p,
                    _ => PUBLIC,
                };
                let seen: Vec<&str> = self
                    .data
                    .types
                    .iter()
                    .enumerate()
                    .filter(|(t, ty)| s.seen[view][port] >> t & 1 == 1 && !matches!(ty.kind, Kind::Destination { .. }))
                    .map(|(_, ty)| ty.name.as_str())
                    .collect();
                let who = if view == PUBLIC { "seen by all" } else { "seen by you" };
                svg.text(70.0, 56.0, &format!("{who}:")).size(9.0).fill(palette::MUTED);
                let text = if seen.is_empty() { "nothing yet".to_string() } else { seen.join(", ") };
                for (l, line) in wrap(&text, 42).iter().take(6).enumerate() {
                    svg.text(70.0, 68.0 + l as f64 * 11.0, line).size(9.0);
                }
            }
            // The contract to fulfil next, and the ones fulfilled (in their owner's colour).
            let contracts = &self.data.contracts[port];
            let done = s.done[port] as usize;
            let (cy, cw) = (156.0, 150.0);
            if done < contracts.len() {
                let lines: Vec<String> = std::iter::once(format!("contract {}/{}", done + 1, contracts.len()))
                    .chain(self.contract_text(port, done).split(" + ").map(str::to_string))
                    .collect();
                svg.card((6.0, cy), (cw, 16.0 + 11.0 * lines.len() as f64), "contract", palette::CARD, &lines);
                let c = &contracts[done];
                let mut gx = 10.0;
                for g in 0..5 {
                    for _ in 0..c.goods[g] {
                        svg.rect(gx, cy - 12.0, 8.0, 8.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.5).class("contract-good");
                        gx += 10.0;
                    }
                }
            } else {
                svg.text(6.0, cy + 14.0, "all contracts fulfilled").size(10.0).fill(palette::MUTED);
            }
            for i in 0..done {
                let owner = s.fulfilled[port][i];
                let fill = if owner == NONE { palette::MUTED } else { palette::seat(owner as usize) };
                svg.rect(6.0 + i as f64 * 12.0, cy + 76.0, 10.0, 14.0).rounded(1.5).fill(fill).stroke(palette::INK).stroke_width(0.5).class("contract fulfilled");
            }
            // The column of victory point tokens, and the majority space.
            let (tx, ty) = (168.0, cy);
            svg.text(tx, ty + 8.0, "tokens").size(9.0).fill(palette::MUTED);
            for p in 0..self.players {
                let n = s.column[port][p] as usize;
                svg.counters((tx, ty + 20.0 + p as f64 * 16.0), n, 5.0, palette::seat(p), "token", 16);
            }
            let maj = s.majority[port];
            let my = ty + 26.0 + self.players as f64 * 16.0;
            svg.text(tx, my, "majority").size(9.0).fill(palette::MUTED);
            let fill = if maj == NONE { "none" } else { palette::seat(maj as usize) };
            svg.circle(tx + 56.0, my - 4.0, 8.0).fill(fill).stroke(palette::GOLD).stroke_width(2.0).class("majority");
        });
    }

    fn draw_voyage(&self, svg: &mut Svg, s: &State, viewer: Viewer) {
        svg.text(10.0, VOYAGE_TOP + 12.0, &self.phase_text(s)).bold().size(12.0);
        if !s.phase.in_voyage() {
            return;
        }
        let v = &s.voyage;
        let active = s.active as usize;
        svg.group("voyage", 10.0, VOYAGE_TOP + 20.0, |svg| {
            svg.text(0.0, 12.0, &format!("P{active} sails into the {} stack", PORTS[v.stack as usize])).size(10.0).fill(palette::seat(active));
            svg.text(0.0, 26.0, &format!("actions {}/{}, range {}", v.actions, self.data.rules.actions_per_voyage, s.ships[active].sail)).size(10.0);
            if matches!(s.phase, Phase::Pirate | Phase::Combat) {
                svg.text(0.0, 40.0, &format!("pirates {} - hits {}, rolls left {}", v.pirates, v.hits, v.rolls_left)).size(10.0).fill(palette::PIRATE).bold();
            }
            let mut x = 190.0;
            for i in 0..v.revealed as usize {
                let card = v.order[i];
                let used = v.used >> i & 1 == 1;
                let current = card == v.current;
                let fill = if current { "#fff3c4" } else { palette::CARD };
                let lines = wrap(&self.describe_card(card), 16);
                svg.card((x, 0.0), (CARD_W, CARD_H), if used { "sea-card used" } else { "sea-card" }, fill, &lines);
                if used {
                    svg.text(x + CARD_W - 4.0, CARD_H - 4.0, "used").end().size(8.0).fill(palette::MUTED);
                }
                x += CARD_W + 6.0;
            }
            for (card, what) in [(v.peeked, "lookout"), (v.slid, "slid under")] {
                if card == NONE {
                    continue;
                }
                if viewer.sees_private(active) {
                    let mut lines = vec![what.to_string()];
                    lines.extend(wrap(&self.describe_card(card), 16));
                    svg.card((x, 0.0), (CARD_W, CARD_H), "lookout-card", "#e8f4e8", &lines);
                } else {
                    svg.face_down(x, 0.0, CARD_W, CARD_H, what);
                }
                x += CARD_W + 6.0;
            }
        });
    }

    fn draw_ship(&self, svg: &mut Svg, s: &State, p: usize) {
        let sh = &s.ships[p];
        let r = &self.data.rules;
        let x = 10.0 + p as f64 * SHIP_WIDTH;
        let turn = p == s.active as usize && s.phase != Phase::GameOver;
        svg.group("ship", x, SHIPS_TOP, |svg| {
            svg.rect(0.0, 0.0, SHIP_WIDTH - 8.0, 200.0).rounded(6.0).fill(palette::seat_light(p)).stroke(palette::seat(p)).stroke_width(if turn { 3.0 } else { 1.0 });
            let won = s.phase == Phase::GameOver && !s.truncated && s.winner as usize == p;
            svg.text(8.0, 16.0, &format!("P{p}{}{}", if turn { " (to play)" } else { "" }, if won { " wins" } else { "" })).bold().fill(palette::seat(p));
            // Hull, mast and a sail as tall as the sail level.
            svg.path(&hull(10.0, 84.0, 120.0, 18.0)).fill(palette::WOOD).stroke(palette::INK);
            svg.line(70.0, 26.0, 70.0, 84.0).stroke(palette::INK).stroke_width(2.0);
            let sail_h = 54.0 * sh.sail as f64 / r.max_sail.max(1) as f64;
            svg.rect(48.0, 82.0 - sail_h, 44.0, sail_h).fill(palette::SAIL).stroke(palette::INK).class("sail");
            svg.text(70.0, 80.0, &format!("sail {}", sh.sail)).middle().size(9.0);
            // Cannons along the hull.
            for c in 0..r.cannons_per_player {
                let fill = if c < sh.cannons { palette::PIRATE } else { "none" };
                svg.circle(24.0 + c as f64 * 14.0, 93.0, 4.0).fill(fill).stroke(palette::INK).stroke_width(0.6).class(if c < sh.cannons { "cannon" } else { "cannon-slot" });
            }
            // The hold: its slots, filled with the goods carried.
            svg.text(8.0, 118.0, "hold").size(9.0).fill(palette::MUTED);
            let mut slot = 0;
            for g in 0..5 {
                for _ in 0..sh.goods[g] {
                    svg.rect(36.0 + slot as f64 * 15.0, 108.0, 13.0, 13.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.6).class("good").title(GOODS[g]);
                    slot += 1;
                }
            }
            for k in slot..r.hold_slots as usize {
                svg.rect(36.0 + k as f64 * 15.0, 108.0, 13.0, 13.0).fill("none").stroke(palette::MUTED).stroke_width(0.6).dashed().class("hold-slot");
            }
            // The crew slots.
            svg.text(8.0, 140.0, "crew").size(9.0).fill(palette::MUTED);
            for c in 0..5u8 {
                let has = sh.has(c);
                let cx = 36.0 + c as f64 * 20.0;
                svg.rect(cx, 129.0, 18.0, 15.0).rounded(2.0).fill(if has { palette::seat(p) } else { "none" }).stroke(palette::INK).stroke_width(0.6).class(if has { "crew" } else { "crew-slot" }).title(CREW_SLOTS[c as usize]);
                svg.text(cx + 9.0, 140.0, CREW_INITIALS[c as usize]).middle().size(8.0).fill(if has { "#ffffff" } else { palette::MUTED });
            }
            // Gold, letters, the prison, tokens placed, bonus spaces.
            svg.circle(150.0, 36.0, 11.0).fill(palette::GOLD).stroke(palette::INK).class("gold");
            svg.text(150.0, 40.0, &sh.gold.to_string()).middle().size(10.0).bold();
            svg.text(166.0, 40.0, "gold").size(9.0);
            svg.rect(140.0, 54.0, 20.0, 13.0).fill(palette::CARD).stroke(palette::INK).class("letters");
            svg.text(166.0, 65.0, &format!("{} letter{}", sh.letters, if sh.letters == 1 { "" } else { "s" })).size(9.0);
            svg.text(140.0, 88.0, &format!("prison {}/{}", sh.captains, r.prison_slots)).size(9.0);
            for k in 0..sh.captains {
                svg.circle(146.0 + k as f64 * 10.0, 96.0, 4.0).fill(palette::PIRATE).class("captain");
            }
            svg.text(8.0, 166.0, &format!("tokens placed {}/{}", self.placed(s, p), self.tokens)).size(10.0);
            let mut bonus = Vec::new();
            if sh.supply_bonus {
                bonus.push("supply bonus");
            }
            if sh.crew_bonus {
                bonus.push("full crew bonus");
            }
            if !bonus.is_empty() {
                svg.text(8.0, 182.0, &bonus.join(", ")).size(9.0).fill(palette::seat(p));
            }
        });
    }

    fn draw_supply(&self, svg: &mut Svg, s: &State) {
        svg.group("supply", 10.0, SUPPLY_TOP, |svg| {
            svg.text(0.0, 12.0, "supply").bold().size(10.0);
            for g in 0..5 {
                let x = 50.0 + g as f64 * 80.0;
                svg.rect(x, 2.0, 12.0, 12.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.6).class("supply-good");
                svg.text(x + 16.0, 12.0, &format!("{} {}", s.supply_goods[g], GOODS[g])).size(10.0);
            }
            let gold = if self.limited_gold { s.supply_gold.to_string() } else { "unlimited".to_string() };
            svg.text(460.0, 12.0, &format!("captains {}   trade letters {}   gold {gold}", s.supply_captains, s.supply_letters)).size(10.0);
        });
    }
}

impl Picture for NorthWind {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let mut svg = Svg::new(WIDTH, HEIGHT, palette::BOARD);
        svg.text(10.0, 22.0, &format!("North Wind - {} players, turn {} ({})", self.players, s.turn + 1, viewer.caption())).bold().size(14.0);
        svg.rect(0.0, SEA_TOP - 4.0, WIDTH, SEA_HEIGHT).fill(palette::SEA).class("sea");
        for port in 0..3 {
            self.draw_port(&mut svg, s, viewer, port);
        }
        self.draw_voyage(&mut svg, s, viewer);
        for p in 0..self.players {
            self.draw_ship(&mut svg, s, p);
        }
        self.draw_supply(&mut svg, s);
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

    fn game(players: usize) -> Arc<NorthWind> {
        Arc::new(NorthWind::load(serde_json::json!({"players": players}).as_object().unwrap()).unwrap())
    }

    #[test]
    fn the_picture_shows_each_ship_with_its_hold_cannons_and_crew_and_each_ports_contracts() {
        for players in 2..=4 {
            let g = game(players);
            for seed in 0..4 {
                let s = midgame_state(&g, seed, 60 + 40 * seed as usize);
                let svg = g.svg(&s, Viewer::All);
                let ships = &s.ships[..players];
                assert_eq!(count_class(&svg, "ship"), players);
                assert_eq!(count_class(&svg, "good"), ships.iter().map(|sh| sh.hold() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "cannon"), ships.iter().map(|sh| sh.cannons as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "crew"), ships.iter().map(|sh| sh.crew_count() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "captain"), ships.iter().map(|sh| sh.captains as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "port"), 3);
                // The contract to fulfil next at each port, and the ones fulfilled.
                let open = (0..3).filter(|&p| (s.done[p] as usize) < g.data.contracts[p].len()).count();
                let done: usize = s.done.iter().map(|&d| d as usize).sum();
                assert_eq!(count_class(&svg, "contract"), open + done);
                assert_eq!(count_class(&svg, "fulfilled"), done);
                assert_eq!(count_class(&svg, "token"), (0..3).map(|p| s.column[p].iter().map(|&n| n as usize).sum::<usize>()).sum::<usize>());
            }
        }
    }

    #[test]
    fn the_lookouts_card_is_face_down_for_everyone_but_the_lookout() {
        let g = game(3);
        let mut seen = 0;
        for seed in 0..40 {
            let mut st = crate::engine::GameState::new(Arc::clone(&g), seed, false);
            let mut i = 0usize;
            while !st.is_terminal() && seen < 20 {
                let legal = st.legal_actions();
                st.apply(legal[(i * 7 + seed as usize) % legal.len()]).unwrap();
                i += 1;
                let s = st.inner();
                if s.phase != Phase::PeekDecision {
                    continue;
                }
                let active = s.active as usize;
                let name = g.describe_card(s.voyage.peeked);
                for p in 0..3 {
                    let svg = g.svg(s, Viewer::Seat(p));
                    assert_eq!(count_class(&svg, "lookout-card"), (p == active) as usize, "P{p}, the lookout P{active}");
                }
                assert_eq!(count_class(&g.svg(s, Viewer::Table), "lookout-card"), 0);
                let everything = g.svg(s, Viewer::All);
                assert_eq!(count_class(&everything, "lookout-card"), 1);
                let first_word = name.split(' ').next().unwrap();
                assert!(everything.contains(&crate::engine::svg::escape(first_word)));
                seen += 1;
            }
        }
        assert!(seen > 0, "no position with a lookout's card");
    }
}
