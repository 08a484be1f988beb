//! Before the Wind's picture: the harbour with its ships and the goods each asks for; the
//! three action decks and the two ship decks (face down, with their counts and discard piles);
//! the action cards laid out this turn; the goods stacks and the bank; and each player's place:
//! victory points and ships loaded, the purse (face down for a viewer who may not see it, ruling
//! 2), the goods cards in hand, the warehouse, the kept and placed special cards, the action
//! card in front of the player and the bid. The layout is the constants below.

use super::data::{DECKS, GOODS};
use super::state::{Phase, Standing, State, NONE};
use super::BeforeTheWind;
use crate::engine::svg::{palette, wrap, Svg, Viewer};
use crate::engine::{Picture, Rules};

const WIDTH: f64 = 980.0;
const HARBOUR_TOP: f64 = 56.0;
const HARBOUR_H: f64 = 130.0;
const SHIP_W: f64 = 112.0;
const DECKS_TOP: f64 = 196.0;
const CARD_W: f64 = 116.0;
const CARD_H: f64 = 58.0;
const PLAYERS_TOP: f64 = 300.0;
const PLAYER_H: f64 = 122.0;
/// The colour of each good: apples, cheese, spices, silk.
const GOOD_COLOURS: [&str; 4] = ["#c0392b", "#f1c40f", "#d35400", "#8e44ad"];

impl BeforeTheWind {
    fn goods_row(svg: &mut Svg, x: f64, y: f64, goods: &[u8; 4], class: &str) -> f64 {
        let mut gx = x;
        for g in 0..4 {
            for _ in 0..goods[g] {
                svg.rect(gx, y, 10.0, 10.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.5).class(class).title(GOODS[g]);
                gx += 12.0;
            }
        }
        gx
    }

    fn draw_harbour(&self, svg: &mut Svg, s: &State) {
        svg.rect(0.0, HARBOUR_TOP - 10.0, WIDTH, HARBOUR_H).fill(palette::SEA).class("harbour");
        svg.text(10.0, HARBOUR_TOP + 4.0, "harbour").bold().size(10.0);
        let mut i = 0;
        for &d in s.harbour.iter().filter(|&&d| d != NONE) {
            let Some(ship) = self.data.ships.get(d as usize) else { continue };
            let x = 70.0 + i as f64 * (SHIP_W + 8.0);
            svg.group("ship", x, HARBOUR_TOP - 4.0, |svg| {
                let large = ship.size == 0;
                let hw = if large { SHIP_W } else { SHIP_W * 0.8 };
                svg.path(&crate::engine::svg::hull(0.0, 70.0, hw, 20.0)).fill(palette::WOOD).stroke(palette::INK);
                svg.line(hw / 2.0, 16.0, hw / 2.0, 70.0).stroke(palette::INK).stroke_width(1.5);
                svg.polygon(&[(hw / 2.0 + 2.0, 18.0), (hw / 2.0 + 30.0, 66.0), (hw / 2.0 + 2.0, 66.0)]).fill(palette::SAIL).stroke(palette::INK).stroke_width(0.6);
                svg.text(4.0, 12.0, &format!("{} VP, {}", ship.vp, if large { "large" } else { "small" })).size(9.0).bold();
                Self::goods_row(svg, 4.0, 100.0, &ship.goods, "ship-good");
            });
            i += 1;
        }
    }

    fn draw_decks(&self, svg: &mut Svg, s: &State) {
        svg.group("decks", 10.0, DECKS_TOP, |svg| {
            for d in 0..3u8 {
                let (n, in_deck) = (self.data.designs.len(), |i: usize| self.data.designs[i].deck == d);
                let (deck, discard) = (s.deck.total_of(n, in_deck), s.discard.total_of(n, in_deck));
                let x = d as f64 * 74.0;
                svg.face_down(x, 0.0, 60.0, 72.0, &deck.to_string());
                for (l, line) in wrap(DECKS[d as usize], 12).iter().enumerate() {
                    svg.text(x + 30.0, 84.0 + l as f64 * 9.0, line).middle().size(7.5);
                }
                svg.text(x + 30.0, 84.0 + 3.0 * 9.0, &format!("discard {discard}")).middle().size(7.5).fill(palette::MUTED);
            }
            for size in 0..2u8 {
                let (n, of_size) = (self.data.ships.len(), |i: usize| self.data.ships[i].size == size);
                let (deck, discard) = (s.ship_deck.total_of(n, of_size), s.ship_discard.total_of(n, of_size));
                let x = 230.0 + size as f64 * 64.0;
                svg.face_down(x, 0.0, 54.0, 72.0, &deck.to_string());
                svg.text(x + 27.0, 84.0, &format!("{} ships", if size == 0 { "large" } else { "small" })).middle().size(7.5);
                svg.text(x + 27.0, 93.0, &format!("discard {discard}")).middle().size(7.5).fill(palette::MUTED);
            }
            // The action cards laid out this turn.
            svg.text(370.0, 8.0, "laid out").size(9.0).fill(palette::MUTED);
            for (k, &d) in s.display.iter().filter(|&&d| d != NONE).enumerate() {
                let lines = wrap(self.card_name(d), 20);
                svg.card((370.0 + k as f64 * (CARD_W + 6.0), 12.0), (CARD_W, CARD_H), "action-card", palette::CARD, &lines);
            }
            // The goods stacks and the bank.
            for g in 0..4 {
                let y = 2.0 + g as f64 * 16.0;
                svg.rect(WIDTH - 150.0, y, 12.0, 12.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.5).class("goods-stack");
                svg.text(WIDTH - 134.0, y + 10.0, &format!("{} {}", s.stacks[g], GOODS[g])).size(9.0);
            }
            if let Some(b) = self.bank(s) {
                svg.text(WIDTH - 150.0, 80.0, &format!("bank {b} guilders")).size(9.0);
            }
        });
    }

    fn draw_player(&self, svg: &mut Svg, s: &State, viewer: Viewer, p: usize) {
        let pl = &s.seats[p];
        let y = PLAYERS_TOP + p as f64 * PLAYER_H;
        let deciding = self.actor(s) == crate::engine::Actor::Player(p);
        let sees = match viewer {
            Viewer::All => self.sees_purse(s, None, p),
            Viewer::Seat(v) => self.sees_purse(s, Some(v), p),
            Viewer::Table => self.sees_purse(s, Some(usize::MAX), p),
        };
        svg.group("player", 10.0, y, |svg| {
            svg.rect(0.0, 0.0, WIDTH - 20.0, PLAYER_H - 8.0).rounded(6.0).fill(palette::seat_light(p)).stroke(palette::seat(p)).stroke_width(if deciding { 3.0 } else { 1.0 });
            let marker = if s.active as usize == p { ", active player" } else { "" };
            let won = s.phase == Phase::GameOver && s.winners >> p & 1 == 1;
            svg.text(8.0, 16.0, &format!("P{p}{marker}{}", if won { " - wins" } else { "" })).bold().fill(palette::seat(p));
            svg.text(8.0, 32.0, &format!("{} VP, {} ship{} loaded", pl.vp, pl.ships, if pl.ships == 1 { "" } else { "s" })).size(10.0);
            // The purse: open, or face down.
            if sees {
                svg.circle(22.0, 56.0, 13.0).fill(palette::GOLD).stroke(palette::INK).class("purse");
                svg.text(22.0, 60.0, &pl.money.to_string()).middle().size(10.0).bold();
            } else {
                svg.face_down(9.0, 43.0, 26.0, 26.0, "?");
            }
            svg.text(40.0, 60.0, "guilders").size(9.0);
            // The hand of goods cards and the warehouse.
            svg.text(160.0, 16.0, "hand").size(9.0).fill(palette::MUTED);
            let mut hx = 190.0;
            for g in 0..4 {
                for _ in 0..pl.hand[g] {
                    svg.rect(hx, 5.0, 14.0, 20.0).rounded(2.0).fill(GOOD_COLOURS[g]).stroke(palette::INK).stroke_width(0.5).class("goods-card").title(GOODS[g]);
                    hx += 16.0;
                }
            }
            let cap = self.data.rules.warehouse_capacity as usize;
            svg.text(160.0, 46.0, &format!("warehouse {}/{cap}", pl.stored())).size(9.0).fill(palette::MUTED);
            let end = Self::goods_row(svg, 250.0, 37.0, &pl.warehouse, "warehouse-good");
            for k in pl.stored() as usize..cap {
                svg.rect(end + (k - pl.stored() as usize) as f64 * 12.0, 37.0, 10.0, 10.0).fill("none").stroke(palette::MUTED).stroke_width(0.5).dashed().class("warehouse-slot");
            }
            // Special cards kept in hand and placed by the warehouse.
            let mut kx = 160.0;
            for (counts, what) in [(&pl.kept, "kept"), (&pl.placed, "placed")] {
                for k in 0..self.data.specials.len() {
                    for _ in 0..counts[k] {
                        let lines: Vec<String> = std::iter::once(what.to_string()).chain(wrap(self.special_name(k), 16)).collect();
                        svg.card((kx, 58.0), (92.0, 48.0), "special-card", "#eef5e0", &lines);
                        kx += 96.0;
                    }
                }
            }
            // The action card in front of the player and the bid.
            let cx = WIDTH - 20.0 - CARD_W - 130.0;
            if pl.card != NONE && !matches!(s.phase, Phase::Spoil | Phase::Preserve | Phase::Ships | Phase::GameOver) {
                let how = if pl.standing == Standing::FaceUp { "face up" } else { "paid, face down" };
                let lines: Vec<String> = std::iter::once(how.to_string()).chain(wrap(self.card_name(pl.card), 20)).collect();
                let fill = if pl.standing == Standing::FaceUp { palette::CARD } else { "#dde3ec" };
                svg.card((cx, 8.0), (CARD_W, CARD_H + 10.0), "action-card", fill, &lines);
            } else if pl.standing == Standing::Guilders {
                svg.text(cx, 30.0, "took guilders for his card").size(9.0);
            }
            if pl.bid > 0 {
                svg.circle(WIDTH - 80.0, 30.0, 14.0).fill(palette::GOLD).stroke(palette::seat(p)).stroke_width(2.0).class("bid");
                svg.text(WIDTH - 80.0, 34.0, &pl.bid.to_string()).middle().bold().size(10.0);
                svg.text(WIDTH - 80.0, 58.0, "bid").middle().size(9.0);
            }
            if pl.safe_used {
                svg.text(WIDTH - 110.0, 80.0, "played the Safe").size(9.0);
            }
        });
    }
}

impl Picture for BeforeTheWind {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let height = PLAYERS_TOP + self.players as f64 * PLAYER_H + 8.0;
        let mut svg = Svg::new(WIDTH, height, palette::BOARD);
        let target = self.data.to_win[&self.players];
        svg.text(10.0, 20.0, &format!("Before the Wind - {} players, turn {}, {target} VP win ({})", self.players, s.turn, viewer.caption())).bold().size(14.0);
        svg.text(10.0, 38.0, &format!("Now: {}", self.doing(s))).size(11.0);
        self.draw_harbour(&mut svg, s);
        self.draw_decks(&mut svg, s);
        for p in 0..self.players {
            self.draw_player(&mut svg, s, viewer, p);
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

    /// Ruling 2: "Keep the amount of money you own secret during the game."
    #[test]
    fn each_seat_sees_its_own_purse_and_the_others_face_down() {
        for players in 2..=4 {
            let g = Arc::new(BeforeTheWind::load(serde_json::json!({"players": players}).as_object().unwrap()).unwrap());
            for seed in 0..3 {
                let s = midgame_state(&g, seed, 50 + 50 * seed as usize);
                assert_ne!(s.phase, Phase::GameOver);
                assert_eq!(count_class(&g.svg(&s, Viewer::All), "purse"), players);
                assert_eq!(count_class(&g.svg(&s, Viewer::Table), "purse"), 0);
                for p in 0..players {
                    let svg = g.svg(&s, Viewer::Seat(p));
                    assert_eq!(count_class(&svg, "purse"), 1);
                    assert_eq!(count_class(&svg, "face-down") , 5 + players - 1, "the decks and the other purses");
                }
            }
        }
    }

    #[test]
    fn the_picture_shows_the_harbours_ships_and_each_players_goods() {
        let g = Arc::new(BeforeTheWind::load(serde_json::json!({"players": 3}).as_object().unwrap()).unwrap());
        for seed in 0..4 {
            let s = midgame_state(&g, seed, 40 + 70 * seed as usize);
            let svg = g.svg(&s, Viewer::All);
            assert_eq!(count_class(&svg, "ship"), s.harbour.iter().filter(|&&h| h != NONE).count());
            assert_eq!(count_class(&svg, "player"), 3);
            assert_eq!(count_class(&svg, "goods-card"), (0..3).map(|p| s.seats[p].held() as usize).sum::<usize>());
            assert_eq!(count_class(&svg, "warehouse-good"), (0..3).map(|p| s.seats[p].stored() as usize).sum::<usize>());
            let laid = s.display.iter().filter(|&&d| d != NONE).count();
            let shown = !matches!(s.phase, Phase::Spoil | Phase::Preserve | Phase::Ships | Phase::GameOver);
            let in_front = (0..3).filter(|&p| shown && s.seats[p].card != NONE).count();
            assert_eq!(count_class(&svg, "action-card"), laid + in_front);
        }
    }
}
