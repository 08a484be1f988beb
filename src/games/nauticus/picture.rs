//! The picture of the table: for now the table's text on a board (the drawing of the
//! components is being built).

use super::state::State;
use super::Nauticus;
use crate::engine::prelude::*;
use crate::engine::svg::{palette, Svg, Viewer};

impl Picture for Nauticus {
    fn svg(&self, s: &State, viewer: Viewer) -> String {
        let text = match viewer {
            Viewer::All => self.render(s),
            Viewer::Seat(p) => self.observation_string(s, p),
            Viewer::Table => self.public_string(s),
        };
        let lines: Vec<&str> = text.lines().collect();
        let mut svg = Svg::new(900.0, 30.0 + 14.0 * lines.len() as f64, palette::BOARD);
        for (i, line) in lines.iter().enumerate() {
            svg.text(8.0, 20.0 + 14.0 * i as f64, line).size(11.0);
        }
        svg.finish()
    }
}
