//! Norsewind's picture: the draw and reserve decks (face down, with their counts), the market's
//! five slots with the citizen supplies between them (the Viking ship over its slot in solo),
//! the castle display and the kingdom tiles; each player's four kingdoms with the castle, the
//! buildings with the figures and discs on them, and the tile; in solo the Viking display
//! with each kingdom's side, cards, helmets and points. Nothing in Norsewind is hidden, so every
//! viewer sees the same picture but for the caption. The layout is the constants below.

use super::data::{is_green, Card, CASTLE, COLOURS, KINGDOMS, TILES, TYPES};
use super::state::{Phase, State, NONE, SLOTS};
use super::Norsewind;
use crate::engine::svg::{palette, wrap, Svg, Viewer};
use crate::engine::Picture;

const WIDTH: f64 = 1000.0;
const CARD_W: f64 = 92.0;
const CARD_H: f64 = 64.0;
const MARKET_TOP: f64 = 64.0;
const DISPLAY_TOP: f64 = 160.0;
const PLAYERS_TOP: f64 = 250.0;
const KINGDOM_H: f64 = CARD_H + 8.0;
const PLAYER_H: f64 = 26.0 + KINGDOMS as f64 * KINGDOM_H + 8.0;
const VIKING_H: f64 = 30.0 + KINGDOMS as f64 * 22.0;
/// The colours of the citizen figures (purple, red, yellow, blue, white) and of the types.
const CITIZEN_COLOURS: [&str; 5] = ["#7d3c98", "#c0392b", "#f1c40f", "#2e86c1", "#fdfefe"];
const TYPE_COLOURS: [&str; 6] = ["#a9cf54", "#95a5a6", "#e59866", "#5dade2", "#f5f5dc", "#b08d57"];

impl Norsewind {
    /// A building or castle card at `(x, y)`: its type in colour, its id and numbers, its
    /// citizen spaces (with the figures on them when `figures` is given) and its discs.
    fn draw_card(&self, svg: &mut Svg, x: f64, y: f64, c: u8, figures: Option<&[u8]>, discs: (bool, bool)) {
        let card: &Card = self.card(c);
        let class = if card.kind == CASTLE { "castle" } else { "building" };
        svg.group(class, x, y, |svg| {
            svg.rect(0.0, 0.0, CARD_W, CARD_H).rounded(3.0).fill(palette::CARD).stroke(palette::INK).stroke_width(0.7);
            svg.rect(0.0, 0.0, CARD_W, 13.0).rounded(3.0).fill(TYPE_COLOURS[card.kind as usize % TYPE_COLOURS.len()]);
            let kind = if card.kind == CASTLE { "castle" } else { TYPES[card.kind as usize % TYPES.len()] };
            svg.text(3.0, 10.0, &card.id).size(7.5).bold().title(kind);
            let mut facts = vec![format!("{} helmet{}", card.helmets, if card.helmets == 1 { "" } else { "s" })];
            if card.cost > 0 {
                facts.push(format!("cost {}", card.cost));
            }
            if card.coins > 0 {
                facts.push(format!("{} coins", card.coins));
            }
            svg.text(3.0, 23.0, &facts.join(", ")).size(7.0);
            let mut extra = Vec::new();
            if card.shields > 0 || card.shield_space > 0 {
                extra.push(format!("shield {}{}", card.shields, if card.shield_space > 0 { format!("+{}", card.shield_space) } else { String::new() }));
            }
            if card.prestige > 0 || card.prestige_space > 0 {
                extra.push(format!("prestige {}{}", card.prestige, if card.prestige_space > 0 { format!("+{}", card.prestige_space) } else { String::new() }));
            }
            if card.citizens > 0 {
                extra.push(format!("{} cit.", card.citizens));
            }
            svg.text(3.0, 33.0, &extra.join(", ")).size(7.0);
            for (i, &colour) in card.spaces.iter().enumerate() {
                let cx = 10.0 + i as f64 * 16.0;
                svg.circle(cx, 48.0, 6.0).fill("none").stroke(CITIZEN_COLOURS[colour as usize % 5]).stroke_width(2.0).class("citizen-space");
                if let Some(&f) = figures.and_then(|f| f.get(i)) {
                    if f != NONE {
                        svg.circle(cx, 48.0, 4.0).fill(CITIZEN_COLOURS[f as usize % 5]).stroke(palette::INK).stroke_width(0.5).class("citizen").title(COLOURS[f as usize % 5]);
                    }
                }
            }
            let (shield, prestige) = discs;
            if shield {
                svg.circle(CARD_W - 22.0, 50.0, 5.0).fill("#34495e").class("disc").title("shield disc");
            }
            if prestige {
                svg.circle(CARD_W - 9.0, 50.0, 5.0).fill(palette::GOLD).stroke(palette::INK).stroke_width(0.5).class("disc").title("prestige disc");
            }
        });
    }

    fn draw_market(&self, svg: &mut Svg, s: &State) {
        svg.face_down(10.0, MARKET_TOP, 50.0, CARD_H, &s.deck.count_ones().to_string());
        svg.text(35.0, MARKET_TOP + CARD_H + 11.0, "draw deck").middle().size(8.0);
        svg.face_down(10.0, DISPLAY_TOP, 50.0, CARD_H, &s.reserve.count_ones().to_string());
        svg.text(35.0, DISPLAY_TOP + CARD_H + 11.0, "reserve").middle().size(8.0);
        svg.text(80.0, MARKET_TOP - 6.0, "market").size(9.0).fill(palette::MUTED);
        for slot in 0..SLOTS {
            let x = 80.0 + slot as f64 * (CARD_W + 52.0);
            let c = s.market[slot];
            if c == NONE {
                svg.rect(x, MARKET_TOP, CARD_W, CARD_H).rounded(3.0).fill("none").stroke(palette::MUTED).dashed().class("market-slot");
            } else {
                self.draw_card(svg, x, MARKET_TOP, c, None, (false, false));
            }
            if self.solo() && s.ship as usize == slot {
                svg.group("viking-ship", x + CARD_W / 2.0 - 20.0, MARKET_TOP - 20.0, |svg| {
                    svg.path(&crate::engine::svg::hull(0.0, 6.0, 40.0, 8.0)).fill("#5d4037").stroke(palette::INK);
                    svg.text(20.0, 4.0, "Vikings").middle().size(7.0).bold();
                });
            }
            // The citizen supply after this slot (the fifth holds the upgrade discs).
            let (sx, sy) = (x + CARD_W + 26.0, MARKET_TOP + CARD_H / 2.0);
            if slot < 4 {
                let colour = s.supply_colour[slot] as usize % 5;
                svg.circle(sx, sy, 14.0).fill(CITIZEN_COLOURS[colour]).stroke(palette::INK).class("citizen-supply").title(&format!("{} citizens", COLOURS[colour]));
                svg.text(sx, sy + 4.0, &s.supply[slot].to_string()).middle().bold().size(11.0).fill(if colour == 2 || colour == 4 { palette::INK } else { "#ffffff" });
            } else {
                svg.circle(sx, sy, 14.0).fill("#34495e").stroke(palette::INK).class("disc-supply").title("upgrade discs");
                svg.text(sx, sy + 4.0, &s.discs.to_string()).middle().bold().size(11.0).fill("#ffffff");
            }
        }
        // The castle display, the neutral figures and the kingdom tiles.
        svg.text(80.0, DISPLAY_TOP - 6.0, "castle display").size(9.0).fill(palette::MUTED);
        for (i, &c) in s.display[..s.display_len as usize].iter().enumerate() {
            let x = 80.0 + i as f64 * (CARD_W + 6.0);
            self.draw_card(svg, x, DISPLAY_TOP, c, None, (false, false));
            for p in (0..s.players as usize).filter(|&p| s.locked[p] >> c & 1 == 1) {
                svg.text(x + 2.0, DISPLAY_TOP + CARD_H + 10.0, &format!("not for P{p}")).size(7.0).fill(palette::seat(p));
            }
        }
        let tx = WIDTH - 250.0;
        svg.text(tx, DISPLAY_TOP - 6.0, &format!("kingdom tiles; {} neutral figures on the castle tile", s.neutral)).size(9.0).fill(palette::MUTED);
        for k in 0..KINGDOMS {
            let t = s.tiles[k];
            let y = DISPLAY_TOP + k as f64 * 18.0;
            if t == NONE {
                svg.face_down(tx, y, 110.0, 15.0, "");
            } else {
                svg.rect(tx, y, 110.0, 15.0).rounded(2.0).fill(if is_green(t) { "#c8e6c9" } else { "#f5b7b1" }).stroke(palette::INK).stroke_width(0.5).class("kingdom-tile");
                svg.text(tx + 4.0, y + 11.0, TILES[t as usize]).size(8.0);
            }
            svg.text(tx + 116.0, y + 11.0, &self.data.kingdom_names[k]).size(8.0);
        }
    }

    fn draw_player(&self, svg: &mut Svg, s: &State, p: usize, y: f64) {
        let pl = &s.player[p];
        let deciding = s.current as usize == p && matches!(s.phase, Phase::Turn | Phase::Take | Phase::Reuse | Phase::Neutral | Phase::StartPlacement);
        svg.group("player", 10.0, y, |svg| {
            // A player's colour is the one the rules give the seat (purple, red, yellow, blue).
            let colour = CITIZEN_COLOURS[p % 5];
            svg.rect(0.0, 0.0, WIDTH - 20.0, PLAYER_H - 8.0).rounded(6.0).fill("#fbf8f0").stroke(colour).stroke_width(if deciding { 4.0 } else { 2.0 });
            svg.circle(14.0, 11.0, 6.0).fill(colour).stroke(palette::INK).stroke_width(0.5).class("player-colour");
            let first = if p == s.starting as usize { ", starting player" } else { "" };
            svg.text(26.0, 16.0, &format!("P{p} ({}){first}: {} coins, {} turns", COLOURS[p % 5], pl.coins, pl.turns)).bold();
            for k in 0..KINGDOMS {
                let kg = &pl.kingdoms[k];
                let ky = 24.0 + k as f64 * KINGDOM_H;
                svg.group("kingdom", 0.0, ky, |svg| {
                    let tally = self.kingdom_tally(s, p, k);
                    svg.text(8.0, 14.0, &self.data.kingdom_names[k]).size(10.0).bold();
                    svg.text(8.0, 27.0, &format!("pays for {}s", TYPES[self.data.kingdom_income[k] as usize % TYPES.len()])).size(7.5).fill(palette::MUTED);
                    svg.text(8.0, 39.0, &format!("{} helmets, {} shields", tally.helmets, tally.shields)).size(7.5);
                    svg.text(8.0, 50.0, &format!("{} prestige, {} citizens", tally.prestige, tally.citizens)).size(7.5);
                    svg.text(8.0, 61.0, &format!("{} points", tally.points)).size(8.0).bold();
                    let mut x = 130.0;
                    if kg.castle != NONE {
                        self.draw_card(svg, x, 0.0, kg.castle, None, (kg.castle_shield, kg.castle_prestige));
                    } else {
                        svg.rect(x, 0.0, CARD_W, CARD_H).rounded(3.0).fill("none").stroke(palette::MUTED).dashed();
                        svg.text(x + CARD_W / 2.0, CARD_H / 2.0, "no castle").middle().size(8.0).fill(palette::MUTED);
                    }
                    x += CARD_W + 8.0;
                    for b in 0..kg.count as usize {
                        self.draw_card(svg, x, 0.0, kg.buildings[b], Some(&kg.figures[b]), (kg.shield_discs[b], kg.prestige_discs[b]));
                        x += CARD_W + 4.0;
                    }
                    let t = s.tiles[k];
                    if t != NONE {
                        let tx = WIDTH - 20.0 - 120.0;
                        svg.rect(tx, 4.0, 110.0, CARD_H - 8.0).rounded(3.0).fill(if is_green(t) { "#c8e6c9" } else { "#f5b7b1" }).stroke(palette::INK).stroke_width(0.5).class("kingdom-tile");
                        for (l, line) in wrap(TILES[t as usize], 18).iter().enumerate() {
                            svg.text(tx + 55.0, 18.0 + l as f64 * 10.0, line).middle().size(8.0);
                        }
                        if kg.tile_figure != NONE {
                            svg.circle(tx + 55.0, 44.0, 5.0).fill(CITIZEN_COLOURS[kg.tile_figure as usize % 5]).stroke(palette::INK).class("citizen");
                        } else if kg.tile_disc {
                            svg.circle(tx + 55.0, 44.0, 5.0).fill("#34495e").class("disc");
                        }
                    }
                });
            }
        });
    }

    fn draw_vikings(&self, svg: &mut Svg, s: &State, y: f64) {
        svg.group("vikings", 10.0, y, |svg| {
            svg.rect(0.0, 0.0, WIDTH - 20.0, VIKING_H - 8.0).rounded(6.0).fill("#efe4d6").stroke("#5d4037");
            svg.text(8.0, 16.0, &format!("Vikings (level {}), ship over slot {}", s.level, s.ship + 1)).bold().size(11.0);
            for k in 0..KINGDOMS {
                let red = s.viking_red[k];
                let side = &self.data.vikings[k][red as usize];
                let ky = 24.0 + k as f64 * 22.0;
                svg.rect(8.0, ky, 14.0, 14.0).fill(if red { "#c0392b" } else { "#27ae60" }).class("viking-card");
                svg.text(28.0, ky + 11.0, &format!("{}: {} side, {} helmets, {} a card", self.data.kingdom_names[k], if red { "red" } else { "green" }, side.helmets, side.points)).size(9.0);
                let n = s.viking_rows[k].count_ones() as usize;
                for i in 0..n.min(30) {
                    svg.rect(360.0 + i as f64 * 9.0, ky + 1.0, 7.0, 12.0).rounded(1.0).fill(palette::CARD_BACK).class("viking-taken");
                }
                svg.text(WIDTH - 200.0, ky + 11.0, &format!("{n} cards, {} helmets, {} points", self.viking_helmets(s, k), self.viking_points(s, k))).size(9.0);
            }
        });
    }
}

impl Picture for Norsewind {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let players = s.players as usize;
        let height = PLAYERS_TOP + players as f64 * PLAYER_H + if self.solo() { VIKING_H } else { 0.0 } + 6.0;
        let mut svg = Svg::new(WIDTH, height, palette::BOARD);
        let mode = if self.solo() { format!("solo, level {}", s.level) } else { format!("{players} players") };
        svg.text(10.0, 20.0, &format!("Norsewind ({mode}), turn {} ({})", s.turn, viewer.caption())).bold().size(14.0);
        let end = if s.end_triggered { "; the end is triggered" } else { "" };
        svg.text(10.0, 36.0, &format!("{}{end}", self.situation(s))).size(10.0);
        self.draw_market(&mut svg, s);
        for p in 0..players {
            self.draw_player(&mut svg, s, p, PLAYERS_TOP + p as f64 * PLAYER_H);
        }
        if self.solo() {
            self.draw_vikings(&mut svg, s, PLAYERS_TOP + players as f64 * PLAYER_H);
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

    #[test]
    fn the_picture_shows_the_market_every_kingdom_with_its_buildings_and_figures_and_the_vikings_in_solo() {
        for options in [serde_json::json!({"players": 3}), serde_json::json!({"players": 1, "level": 4})] {
            let g = Arc::new(Norsewind::load(options.as_object().unwrap()).unwrap());
            for seed in 0..4 {
                let s = midgame_state(&g, seed, 30 + 30 * seed as usize);
                let svg = g.svg(&s, Viewer::All);
                let players = s.players as usize;
                assert_eq!(count_class(&svg, "player"), players);
                assert_eq!(count_class(&svg, "kingdom"), players * KINGDOMS);
                let kingdoms = || (0..players).flat_map(|p| s.player[p].kingdoms.iter());
                let market = s.market.iter().filter(|&&c| c != NONE && g.card(c).kind != CASTLE).count();
                let built: usize = kingdoms().map(|k| k.count as usize).sum();
                assert_eq!(count_class(&svg, "building"), market + built);
                let castles = kingdoms().filter(|k| k.castle != NONE).count()
                    + s.display_len as usize
                    + s.market.iter().filter(|&&c| c != NONE && g.card(c).kind == CASTLE).count();
                assert_eq!(count_class(&svg, "castle"), castles);
                let figures: usize = kingdoms()
                    .map(|k| k.figures.iter().flatten().filter(|&&f| f != NONE).count() + (k.tile_figure != NONE) as usize)
                    .sum();
                assert_eq!(count_class(&svg, "citizen"), figures);
                assert_eq!(count_class(&svg, "vikings"), g.solo() as usize);
                assert_eq!(count_class(&svg, "viking-ship"), g.solo() as usize);
            }
        }
    }
}
