//! Nauticus's picture: the turntable with the eight action spaces around it (each tile, its
//! bonus, blue workers and prices; turned-over tiles face down, the anchor tile and the chosen
//! space marked, the anchor sector's arrow), and each player's board: victory points, Taler,
//! workers, pass tiles, the extra-action tile, the warehouse and every ship with its hull
//! parts, masts, sails and goods. Everything in Nauticus is open, so every viewer sees the
//! same picture but for the caption. The layout is the constants below.

use super::data::{Category, BOW, CENTRE, COATS, GOOD, GOODS, KINDS, MAST, SAIL, SINGLE, STERN, TILES};
use super::state::{Ship, State, Step, NONE};
use super::Nauticus;
use crate::engine::svg::{palette, PathData, Svg, Viewer};
use crate::engine::Picture;

const WIDTH: f64 = 1000.0;
/// The turntable's centre and the radius of the action spaces' centres.
const TABLE_X: f64 = 235.0;
const TABLE_Y: f64 = 250.0;
const SPACE_RADIUS: f64 = 165.0;
/// The diagonal: 1 over the square root of 2.
const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// The direction of each action space from the turntable's centre, clockwise from the top
/// (written out, so that the picture needs no trigonometry and draws alike on every platform).
const SPACE_DIRECTIONS: [(f64, f64); 8] = [(0.0, -1.0), (D, -D), (1.0, 0.0), (D, D), (0.0, 1.0), (-D, D), (-1.0, 0.0), (-D, -D)];
const TILE_W: f64 = 100.0;
const TILE_H: f64 = 44.0;
/// The players' boards, one under the other, right of the turntable.
const BOARDS_X: f64 = 460.0;
const BOARD_W: f64 = 530.0;
const SHIP_W: f64 = 130.0;
const SHIP_H: f64 = 78.0;
const SHIPS_PER_ROW: usize = 4;
/// Colours of the four coats of arms (regular masts and sails) and of the goods.
const COAT_COLOURS: [&str; COATS] = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad"];
const GOOD_COLOURS: [&str; 4] = ["#6f4e37", "#e9c46a", "#f4f4f4", "#5fa8d3"];
const CROWN: &str = "#d4a017";

/// The fill of a tile kind in the warehouse and the supply.
fn kind_colour(k: u8) -> &'static str {
    match Category::of(k) {
        Category::Hull => palette::WOOD,
        Category::Mast | Category::Sail if k == MAST + COATS as u8 || k == SAIL + COATS as u8 => CROWN,
        Category::Mast => COAT_COLOURS[(k - MAST) as usize % COATS],
        Category::Sail => COAT_COLOURS[(k - SAIL) as usize % COATS],
        Category::Good => GOOD_COLOURS[(k - GOOD) as usize % 4],
    }
}

impl Nauticus {
    fn board_height(&self, s: &State, p: usize) -> f64 {
        let ships = s.ships_of(p).count();
        96.0 + ships.div_ceil(SHIPS_PER_ROW).max(1) as f64 * (SHIP_H + 6.0)
    }

    fn draw_turntable(&self, svg: &mut Svg, s: &State) {
        svg.group("turntable", 0.0, 0.0, |svg| {
            svg.circle(TABLE_X, TABLE_Y, SPACE_RADIUS - 50.0).fill(palette::DEEP_SEA).stroke(palette::INK).stroke_width(1.5);
            svg.circle(TABLE_X, TABLE_Y, 20.0).fill(palette::BOARD).stroke(palette::INK);
            // The anchor sector points to its space.
            let (cos, sin) = SPACE_DIRECTIONS[s.pointing as usize % 8];
            let (tx, ty) = (TABLE_X + (SPACE_RADIUS - 50.0) * cos, TABLE_Y + (SPACE_RADIUS - 50.0) * sin);
            let (nx, ny) = (-sin * 10.0, cos * 10.0);
            svg.polygon(&[(tx, ty), (TABLE_X + nx, TABLE_Y + ny), (TABLE_X - nx, TABLE_Y - ny)]).fill(palette::GOLD).stroke(palette::INK).class("anchor-sector");
            svg.text(TABLE_X, TABLE_Y + 4.0, "anchor").middle().size(8.0);
        });
        for sp in 0..8 {
            let (cos, sin) = SPACE_DIRECTIONS[sp];
            let (cx, cy) = (TABLE_X + SPACE_RADIUS * cos, TABLE_Y + SPACE_RADIUS * sin);
            let (x, y) = (cx - TILE_W / 2.0, cy - TILE_H / 2.0);
            svg.group("action-space", x, y, |svg| {
                let chosen = s.space as usize == sp;
                svg.rect(-3.0, -3.0, TILE_W + 6.0, TILE_H + 24.0).rounded(5.0).fill(palette::BOARD).stroke(if chosen { palette::seat(s.turn.actor as usize) } else { palette::MUTED }).stroke_width(if chosen { 3.0 } else { 0.8 });
                let tile = s.spaces[sp];
                if tile == NONE {
                    svg.rect(0.0, 0.0, TILE_W, TILE_H).rounded(3.0).fill("none").stroke(palette::MUTED).dashed();
                } else if s.face_down >> sp & 1 == 1 {
                    svg.face_down(0.0, 0.0, TILE_W, TILE_H, TILES[tile as usize]);
                } else {
                    let fill = if tile < 4 { "#cfe3f7" } else { "#fff6d5" };
                    svg.card((0.0, 0.0), (TILE_W, TILE_H), "action-tile", fill, &[TILES[tile as usize].to_string()]);
                    if tile < 4 {
                        let prices = self.data.prices[sp].map(|p| p.to_string()).join(" / ");
                        svg.text(TILE_W / 2.0, 24.0, &format!("prices {prices}")).middle().size(8.0);
                    }
                }
                if s.anchor as usize == sp {
                    svg.circle(TILE_W - 6.0, 6.0, 7.0).fill(palette::GOLD).stroke(palette::INK).class("anchor-tile");
                    svg.text(TILE_W - 6.0, 9.0, "A").middle().size(8.0).bold();
                }
                let blue = self.blue_workers(s, sp as u8);
                svg.text(3.0, TILE_H - 6.0, &format!("space {}", sp + 1)).size(8.0).fill(palette::MUTED);
                for w in 0..blue {
                    svg.circle(TILE_W - 8.0 - w as f64 * 11.0, TILE_H - 9.0, 4.5).fill("#1f4e9a").class("blue-worker");
                }
                svg.text(TILE_W / 2.0, TILE_H + 14.0, &format!("bonus: {}", self.bonus_words(sp))).middle().size(8.0);
            });
        }
    }

    fn draw_ship(&self, svg: &mut Svg, sh: &Ship, x: f64, y: f64, ord: usize) {
        svg.group("ship", x, y, |svg| {
            let complete = sh.complete();
            svg.rect(0.0, 0.0, SHIP_W - 6.0, SHIP_H).rounded(4.0).fill(if complete { "#e6f2e6" } else { palette::SEA }).stroke(palette::MUTED).stroke_width(0.6);
            svg.text(4.0, 11.0, &format!("ship {}{}", ord + 1, if sh.loaded() { ", loaded" } else if complete { ", complete" } else { "" })).size(8.0);
            // Hull tiles left to right: bow, centres, stern (or one single hull).
            let mut parts: Vec<u8> = Vec::new();
            if sh.single {
                parts.push(SINGLE);
            } else {
                if sh.bow {
                    parts.push(BOW);
                }
                parts.extend(std::iter::repeat_n(CENTRE, sh.centres as usize));
                if sh.stern {
                    parts.push(STERN);
                }
            }
            let (hy, pw) = (50.0, 26.0);
            let x0 = 8.0;
            for (i, &part) in parts.iter().enumerate() {
                let px = x0 + i as f64 * pw;
                let d = match part {
                    BOW => PathData::new().move_to(px, hy).line_to(px + pw, hy).line_to(px + pw, hy + 14.0).line_to(px + 8.0, hy + 14.0).close(),
                    STERN => PathData::new().move_to(px, hy).line_to(px + pw, hy).line_to(px + pw - 8.0, hy + 14.0).line_to(px, hy + 14.0).close(),
                    SINGLE => PathData::new().move_to(px, hy).line_to(px + pw, hy).line_to(px + pw - 6.0, hy + 14.0).line_to(px + 6.0, hy + 14.0).close(),
                    _ => PathData::new().move_to(px, hy).line_to(px + pw, hy).line_to(px + pw, hy + 14.0).line_to(px, hy + 14.0).close(),
                };
                svg.path(&d).fill(palette::WOOD).stroke(palette::INK).stroke_width(0.7).class("hull-part");
            }
            // Masts on the hull tiles, regular ones first, then crown masts; sails likewise.
            let masts = sh.all_masts() as usize;
            for m in 0..masts {
                let mx = x0 + m as f64 * pw + pw / 2.0;
                let crown = m >= sh.masts as usize;
                let colour = if crown { CROWN } else if sh.coat != NONE { COAT_COLOURS[sh.coat as usize % COATS] } else { palette::INK };
                svg.line(mx, hy, mx, 16.0).stroke(colour).stroke_width(2.5).class("mast");
            }
            for k in 0..sh.all_sails() as usize {
                let mx = x0 + k as f64 * pw + pw / 2.0;
                let crown = k >= sh.sails as usize;
                let colour = if crown { CROWN } else if sh.coat != NONE { COAT_COLOURS[sh.coat as usize % COATS] } else { palette::SAIL };
                svg.polygon(&[(mx + 1.5, 18.0), (mx + 11.0, hy - 6.0), (mx + 1.5, hy - 6.0)]).fill(colour).opacity(0.85).stroke(palette::INK).stroke_width(0.5).class("sail");
            }
            // Goods under the hull.
            let mut gi = 0;
            for g in 0..4 {
                for _ in 0..sh.goods[g] {
                    svg.rect(x0 + gi as f64 * pw + pw / 2.0 - 5.0, hy + 16.0, 10.0, 9.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.5).class("good").title(GOODS[g]);
                    gi += 1;
                }
            }
        });
    }

    fn draw_board(&self, svg: &mut Svg, s: &State, p: usize, y: f64) {
        let pl = &s.players[p];
        let h = self.board_height(s, p);
        let acting = matches!(s.step, Step::Turn | Step::Place | Step::Gift | Step::Reward | Step::RewardGood) && s.turn.actor as usize == p;
        svg.group("player-board", BOARDS_X, y, |svg| {
            svg.rect(0.0, 0.0, BOARD_W, h - 6.0).rounded(6.0).fill(palette::seat_light(p)).stroke(palette::seat(p)).stroke_width(if acting { 3.0 } else { 1.0 });
            let start = if s.start as usize == p { ", start player" } else { "" };
            svg.text(8.0, 16.0, &format!("P{p}{start}{}", if acting { " (acting)" } else { "" })).bold().fill(palette::seat(p));
            svg.text(8.0, 32.0, &format!("{} points   {} Taler   {} workers   {} crowns", pl.points, pl.taler, pl.workers, s.crowns(p))).size(10.0);
            for w in 0..pl.workers.min(12) {
                svg.circle(250.0 + w as f64 * 9.0, 12.0, 3.5).fill("#e3cfa4").stroke(palette::INK).stroke_width(0.4).class("worker");
            }
            // Pass tiles (turned ones show their crown) and the extra-action tile.
            for k in 0..3u8 {
                let turned = k < pl.passes;
                svg.rect(370.0 + k as f64 * 22.0, 4.0, 18.0, 18.0).rounded(2.0).fill(if turned { CROWN } else { palette::CARD }).stroke(palette::INK).stroke_width(0.6).class("pass-tile");
                svg.text(379.0 + k as f64 * 22.0, 17.0, if turned { "C" } else { ["-3", "-2", "-1"][k as usize] }).middle().size(8.0);
            }
            if pl.extra {
                svg.rect(445.0, 4.0, 44.0, 18.0).rounded(2.0).fill("#fff6d5").stroke(palette::INK).stroke_width(0.6).class("extra-action");
                svg.text(467.0, 16.0, "extra").middle().size(8.0);
            }
            // The warehouse: one square per tile held.
            let r = &self.data.rules;
            svg.text(8.0, 52.0, &format!("warehouse {}/{}", s.warehouse_used(p, r.mast_spaces), r.warehouse_spaces)).size(9.0).fill(palette::MUTED);
            let mut wx = 100.0;
            for k in 0..KINDS {
                for _ in 0..pl.warehouse[k] {
                    svg.rect(wx, 42.0, 12.0, 12.0).fill(kind_colour(k as u8)).stroke(palette::INK).stroke_width(0.5).class("warehouse-tile").title(&self.data.kind_name(k as u8));
                    wx += 14.0;
                }
            }
            let delivered: Vec<String> = (0..4).filter(|&g| pl.delivered[g] > 0).map(|g| format!("{} {}", pl.delivered[g], GOODS[g])).collect();
            if !delivered.is_empty() {
                svg.text(8.0, 70.0, &format!("delivered: {}", delivered.join(", "))).size(9.0);
            }
            for (ord, (_, sh)) in s.ships_of(p).enumerate() {
                let (row, col) = (ord / SHIPS_PER_ROW, ord % SHIPS_PER_ROW);
                self.draw_ship(svg, sh, 8.0 + col as f64 * SHIP_W, 80.0 + row as f64 * (SHIP_H + 6.0), ord);
            }
        });
    }
}

impl Picture for Nauticus {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let boards: f64 = (0..self.players).map(|p| self.board_height(s, p)).sum();
        let height = (40.0 + boards).max(520.0) + 40.0;
        let mut svg = Svg::new(WIDTH, height, palette::BOARD);
        let title = if s.step == Step::GameOver {
            format!("Nauticus - the game is over after {} rounds", self.rounds)
        } else {
            format!("Nauticus - round {} of {}, action phase {} of {}", s.round + 1, self.rounds, (s.phases + 1).min(self.data.rules.phases_per_round), self.data.rules.phases_per_round)
        };
        svg.text(10.0, 22.0, &format!("{title} ({})", viewer.caption())).bold().size(14.0);
        self.draw_turntable(&mut svg, s);
        for (i, line) in crate::engine::svg::wrap(&self.situation(s), 70).iter().enumerate() {
            svg.text(10.0, 476.0 + i as f64 * 14.0, line).size(10.0);
        }
        let mut y = 34.0;
        for p in 0..self.players {
            self.draw_board(&mut svg, s, p, y);
            y += self.board_height(s, p);
        }
        // The supply of each tile kind.
        svg.group("supply", 10.0, height - 34.0, |svg| {
            svg.text(0.0, 10.0, "supply").bold().size(10.0);
            for k in 0..KINDS {
                let x = 50.0 + k as f64 * 52.0;
                svg.rect(x, 0.0, 12.0, 12.0).fill(kind_colour(k as u8)).stroke(palette::INK).stroke_width(0.5).class("supply").title(&self.data.kind_name(k as u8));
                svg.text(x + 15.0, 10.0, &s.stock[k].to_string()).size(9.0);
            }
        });
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

    #[test]
    fn the_picture_shows_every_ship_with_its_parts_masts_sails_and_goods_and_the_eight_action_spaces() {
        for players in 2..=4 {
            let g = Arc::new(Nauticus::load(serde_json::json!({"players": players}).as_object().unwrap()).unwrap());
            for seed in 0..4 {
                let s = midgame_state(&g, seed, 80 + 60 * seed as usize);
                let svg = g.svg(&s, Viewer::Seat(0));
                let ships = &s.ships[..s.num_ships as usize];
                assert!(!ships.is_empty() || seed == 0);
                assert_eq!(count_class(&svg, "ship"), ships.len());
                assert_eq!(count_class(&svg, "hull-part"), ships.iter().map(|sh| sh.parts() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "mast"), ships.iter().map(|sh| sh.all_masts() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "sail"), ships.iter().map(|sh| sh.all_sails() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "good"), ships.iter().map(|sh| sh.cargo() as usize).sum::<usize>());
                assert_eq!(count_class(&svg, "action-space"), 8);
                assert_eq!(count_class(&svg, "player-board"), players);
                let held: usize = (0..players).map(|p| s.players[p].warehouse.iter().map(|&n| n as usize).sum::<usize>()).sum();
                assert_eq!(count_class(&svg, "warehouse-tile"), held);
                // Everything in Nauticus is open: every viewer's picture is the same but for its caption.
                let caption = |v: Viewer| g.svg(&s, v).replace(&v.caption(), "");
                assert_eq!(caption(Viewer::All), caption(Viewer::Table));
            }
        }
    }
}
