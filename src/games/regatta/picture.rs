//! Regatta's picture: the course as lanes of spaces, one a boat (the pace boat's last), each
//! boat at its space with this round's sails beside it (face down while secret from the
//! viewer) and last round's sails.

use super::{Phase, Regatta, State};
use crate::engine::svg::{hull, palette, Svg, Viewer};
use crate::engine::Picture;

/// The layout: a space's width, a lane's height, the margins.
const SPACE: f64 = 28.0;
const LANE: f64 = 44.0;
const LEFT: f64 = 120.0;
const TOP: f64 = 34.0;

impl Regatta {
    fn lane(&self, svg: &mut Svg, y: f64, name: &str, colour: &str, position: u32, class: &str) {
        let course = self.course as f64;
        svg.text(8.0, y + LANE / 2.0 + 4.0, name).bold().fill(colour);
        for i in 0..=self.course {
            let fill = if i == self.course { palette::GOLD } else if i % 2 == 0 { palette::SEA } else { palette::DEEP_SEA };
            svg.rect(LEFT + i as f64 * SPACE, y + 4.0, SPACE, LANE - 8.0).fill(fill).opacity(0.7).class("space");
        }
        let x = LEFT + (position.min(self.course) as f64) * SPACE;
        svg.group(class, x, y, |svg| {
            svg.path(&hull(3.0, LANE - 16.0, SPACE - 6.0, 8.0)).fill(colour).stroke(palette::INK).stroke_width(0.8);
            svg.line(SPACE / 2.0, 8.0, SPACE / 2.0, LANE - 16.0).stroke(palette::INK).stroke_width(1.2);
            svg.polygon(&[(SPACE / 2.0, 8.0), (SPACE / 2.0 + 9.0, LANE - 18.0), (SPACE / 2.0, LANE - 18.0)]).fill(palette::SAIL).stroke(palette::INK).stroke_width(0.6);
        });
        svg.text(LEFT + (course + 1.0) * SPACE + 6.0, y + LANE / 2.0 + 4.0, &format!("at {position}")).size(11.0);
    }
}

impl Picture for Regatta {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let lanes = self.players + self.pace_boat as usize;
        let width = LEFT + (self.course as f64 + 1.0) * SPACE + 170.0;
        let height = TOP + lanes as f64 * LANE + 16.0;
        let mut svg = Svg::new(width, height, palette::BOARD);
        let status = match s.phase {
            Phase::Over => "the race is over".to_string(),
            Phase::Choose(p) => format!("P{p} sets sails"),
            Phase::Wind => "the wind blows".to_string(),
            Phase::Pace => "the pace boat moves".to_string(),
        };
        svg.text(8.0, 20.0, &format!("Regatta: round {} of {}, {status} ({})", s.round + 1, self.course, viewer.caption())).bold().size(13.0);
        for p in 0..self.players {
            let y = TOP + p as f64 * LANE;
            self.lane(&mut svg, y, &format!("P{p}"), palette::seat(p), s.position[p], "boat");
            let x = LEFT + (self.course as f64 + 1.0) * SPACE + 60.0;
            match s.setting[p] {
                0 => {}
                c if viewer.sees_private(p) => svg.card((x, y + 6.0), (40.0, LANE - 12.0), "sails", palette::CARD, &["sails".into(), c.to_string()]),
                _ => svg.face_down(x, y + 6.0, 40.0, LANE - 12.0, "set"),
            }
            if s.revealed[p] != 0 {
                svg.text(x + 48.0, y + LANE / 2.0 + 4.0, &format!("last {}", s.revealed[p])).size(10.0).fill(palette::MUTED);
            }
        }
        if self.pace_boat {
            self.lane(&mut svg, TOP + self.players as f64 * LANE, "pace boat", palette::PIRATE, s.pace, "boat pace-boat");
        }
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, GameDefinition, Rules};
    use crate::harness::xml::{check_well_formed, count_class};

    #[test]
    fn a_boat_per_seat_and_the_pace_boat_and_secret_sails_face_down() {
        let g = Regatta::load(serde_json::json!({"players": 3, "pace_boat": true}).as_object().unwrap()).unwrap();
        let mut s = g.initial_state();
        g.apply(&mut s, 2 as Action);
        let svg = g.svg(&s, Viewer::Seat(1));
        check_well_formed(&svg).unwrap();
        assert_eq!(count_class(&svg, "boat"), 4);
        assert_eq!(count_class(&svg, "pace-boat"), 1);
        assert_eq!(count_class(&svg, "face-down"), 1, "P0's sails, set in secret");
        assert_eq!(count_class(&g.svg(&s, Viewer::Seat(0)), "sails"), 1);
        assert_eq!(count_class(&g.svg(&s, Viewer::All), "sails"), 1);
    }
}
