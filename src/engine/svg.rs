//! A small SVG writer shared by every game's picture ([`super::game::Picture`]): a document with
//! a view box, groups, rectangles, circles, lines, paths, polygons and text (escaped), a
//! palette for seats and goods, and a face-down card or tile. It knows no game: each game
//! draws its own table in its folder's `picture.rs`, with the layout beside it.
//!
//! Drawing happens only on request (`to_svg`, a notebook's picture), never on the hot path.
//! Elements are written when the builder an element method returns is dropped, so an element
//! is one statement: `svg.rect(x, y, w, h).fill(palette::SEA).class("sea");`.

use std::fmt::Write as _;

/// Who a picture is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Everything shown, hidden cards included (as [`super::game::View::text`] shows it to the same viewer).
    All,
    /// What this seat may know: the others' hidden things are drawn face down.
    Seat(usize),
    /// What every player at the table sees (as [`super::game::View::text`] shows it to the same viewer): every
    /// seat's hidden things face down.
    Table,
}

impl Viewer {
    /// Whether this viewer sees what is hidden from everyone but `owner` (a hand, a secret choice).
    pub fn sees_private(self, owner: usize) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Seat(p) => p == owner,
            Viewer::Table => false,
        }
    }

    /// Whether this viewer sees what is hidden from every seat (a deck's order, a face-down stack).
    pub fn sees_hidden(self) -> bool {
        self == Viewer::All
    }

    /// A short caption: "everything shown", "as P1 sees it", "as the table sees it".
    pub fn caption(self) -> String {
        match self {
            Viewer::All => "everything shown".to_string(),
            Viewer::Seat(p) => format!("as P{p} sees it"),
            Viewer::Table => "as the table sees it".to_string(),
        }
    }
}

/// Colours shared by the pictures.
pub mod palette {
    /// A seat's colour, by seat index (five seats at most).
    pub const SEATS: [&str; 5] = ["#d62728", "#1f77b4", "#2ca02c", "#e6a100", "#9467bd"];
    /// A lighter tint of each seat's colour, for areas.
    pub const SEATS_LIGHT: [&str; 5] = ["#f4c6c6", "#c6dbef", "#c7e9c0", "#fde6a8", "#dadaeb"];
    /// Colours for kinds of goods, by the game's goods index.
    pub const GOODS: [&str; 8] = ["#8c564b", "#f0c808", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22", "#ff7f0e", "#6b8e23"];
    pub const SEA: &str = "#bfe0f2";
    pub const DEEP_SEA: &str = "#7fb5d6";
    pub const LAND: &str = "#e8dcb5";
    pub const BOARD: &str = "#f7f3e8";
    pub const CARD: &str = "#fffdf5";
    pub const CARD_BACK: &str = "#54627a";
    pub const INK: &str = "#222222";
    pub const MUTED: &str = "#777777";
    pub const GOLD: &str = "#d4a017";
    pub const WOOD: &str = "#a0703c";
    pub const SAIL: &str = "#fafafa";
    pub const PIRATE: &str = "#333333";

    /// Seat `p`'s colour (wrapping, so any index draws).
    pub fn seat(p: usize) -> &'static str {
        SEATS[p % SEATS.len()]
    }

    /// Seat `p`'s light tint.
    pub fn seat_light(p: usize) -> &'static str {
        SEATS_LIGHT[p % SEATS_LIGHT.len()]
    }

    /// The colour of goods kind `g`.
    pub fn goods(g: usize) -> &'static str {
        GOODS[g % GOODS.len()]
    }
}

/// Text made safe inside XML and HTML (element content and attribute values).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` cut into lines of at most `width` characters, at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A coordinate or length, with at most two decimals and no trailing zeros.
fn num(out: &mut String, x: f64) {
    let r = (x * 100.0).round() / 100.0;
    if r.fract() == 0.0 {
        let _ = write!(out, "{}", r as i64);
    } else {
        let _ = write!(out, "{r}");
    }
}

/// An SVG document being written.
pub struct Svg {
    out: String,
    depth: usize,
}

/// One element, written when dropped: set its attributes with the builder methods.
pub struct Element<'a> {
    svg: &'a mut Svg,
    tag: &'static str,
    /// Attributes in the order first set; setting one again replaces its value.
    attrs: Vec<(&'static str, String)>,
    text: Option<String>,
    title: Option<String>,
}

impl Element<'_> {
    fn set(mut self, name: &'static str, value: String) -> Self {
        match self.attrs.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.attrs.push((name, value)),
        }
        self
    }

    fn attr(self, name: &'static str, value: &str) -> Self {
        self.set(name, escape(value))
    }

    fn attr_num(self, name: &'static str, value: f64) -> Self {
        let mut v = String::new();
        num(&mut v, value);
        self.set(name, v)
    }

    pub fn fill(self, colour: &str) -> Self {
        self.attr("fill", colour)
    }
    pub fn stroke(self, colour: &str) -> Self {
        self.attr("stroke", colour)
    }
    pub fn stroke_width(self, width: f64) -> Self {
        self.attr_num("stroke-width", width)
    }
    pub fn dashed(self) -> Self {
        self.attr("stroke-dasharray", "4 3")
    }
    pub fn opacity(self, opacity: f64) -> Self {
        self.attr_num("opacity", opacity)
    }
    /// Rounded corners (rectangles).
    pub fn rounded(self, r: f64) -> Self {
        self.attr_num("rx", r)
    }
    /// A class, which names what the element shows (`ship`, `card`, `face-down`): the tests
    /// count elements by it.
    pub fn class(self, class: &str) -> Self {
        self.attr("class", class)
    }
    /// Text size (text elements).
    pub fn size(self, size: f64) -> Self {
        self.attr_num("font-size", size)
    }
    pub fn bold(self) -> Self {
        self.attr("font-weight", "bold")
    }
    /// Text in a fixed-width font with its spaces kept (text elements), so that columns line up.
    pub fn monospace(self) -> Self {
        self.attr("font-family", "monospace").attr("xml:space", "preserve")
    }
    /// Text anchored at its middle (text elements).
    pub fn middle(self) -> Self {
        self.attr("text-anchor", "middle")
    }
    /// Text anchored at its end (text elements).
    pub fn end(self) -> Self {
        self.attr("text-anchor", "end")
    }
    pub fn rotate(self, degrees: f64, cx: f64, cy: f64) -> Self {
        let mut t = String::from("rotate(");
        num(&mut t, degrees);
        t.push(' ');
        num(&mut t, cx);
        t.push(' ');
        num(&mut t, cy);
        t.push(')');
        self.attr("transform", &t)
    }
    /// A tooltip (an SVG `<title>` child): what a viewer sees when pointing at the element.
    pub fn title(mut self, text: &str) -> Self {
        self.title = Some(text.to_string());
        self
    }
}

impl Drop for Element<'_> {
    fn drop(&mut self) {
        let out = &mut self.svg.out;
        for _ in 0..self.svg.depth {
            out.push(' ');
        }
        let _ = write!(out, "<{}", self.tag);
        for (name, value) in &self.attrs {
            let _ = write!(out, " {name}=\"{value}\"");
        }
        if self.text.is_none() && self.title.is_none() {
            out.push_str("/>\n");
            return;
        }
        out.push('>');
        if let Some(t) = &self.title {
            let _ = write!(out, "<title>{}</title>", escape(t));
        }
        if let Some(t) = &self.text {
            out.push_str(&escape(t));
        }
        let _ = writeln!(out, "</{}>", self.tag);
    }
}

impl Svg {
    /// A document `width` by `height` units (its view box), with a background of `background`.
    pub fn new(width: f64, height: f64, background: &str) -> Svg {
        let mut out = String::with_capacity(16 * 1024);
        out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
        num(&mut out, width);
        out.push(' ');
        num(&mut out, height);
        out.push_str("\" width=\"");
        num(&mut out, width);
        out.push_str("\" height=\"");
        num(&mut out, height);
        out.push_str("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        let mut svg = Svg { out, depth: 1 };
        svg.rect(0.0, 0.0, width, height).fill(background).class("background");
        svg
    }

    fn element(&mut self, tag: &'static str) -> Element<'_> {
        Element { svg: self, tag, attrs: Vec::new(), text: None, title: None }
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64) -> Element<'_> {
        self.element("rect").attr_num("x", x).attr_num("y", y).attr_num("width", w.max(0.0)).attr_num("height", h.max(0.0))
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64) -> Element<'_> {
        self.element("circle").attr_num("cx", cx).attr_num("cy", cy).attr_num("r", r.max(0.0))
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) -> Element<'_> {
        self.element("line").attr_num("x1", x1).attr_num("y1", y1).attr_num("x2", x2).attr_num("y2", y2)
    }

    /// A path from its `d` attribute (build it with [`PathData`]).
    pub fn path(&mut self, d: &PathData) -> Element<'_> {
        let d = d.0.trim().to_string();
        self.element("path").attr("d", &d)
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[(f64, f64)]) -> Element<'_> {
        let mut p = String::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                p.push(' ');
            }
            num(&mut p, x);
            p.push(',');
            num(&mut p, y);
        }
        self.element("polygon").attr("points", &p)
    }

    /// Text at `(x, y)` (its baseline's start, or middle with [`Element::middle`]).
    pub fn text(&mut self, x: f64, y: f64, text: &str) -> Element<'_> {
        let mut e = self.element("text").attr_num("x", x).attr_num("y", y).fill(palette::INK);
        e.text = Some(text.to_string());
        e
    }

    /// A picture of a text view: `caption` (a bold line), then `text` line by line in a
    /// fixed-width font, the page sized to them. What [`super::game::Picture::svg`] draws for
    /// a game that has no picture of its own.
    pub fn of_text(text: &str, caption: &str) -> String {
        let lines: Vec<&str> = text.lines().collect();
        let widest = lines.iter().chain([&caption]).map(|l| l.chars().count()).max().unwrap_or(0);
        let mut svg = Svg::new(16.0 + 7.5 * widest as f64, 32.0 + 16.0 * lines.len() as f64, palette::BOARD);
        svg.text(8.0, 18.0, caption).bold().class("caption");
        for (i, line) in lines.iter().enumerate() {
            svg.text(8.0, 36.0 + 16.0 * i as f64, line).monospace().class("line");
        }
        svg.finish()
    }

    /// Opens a group moved to `(x, y)`, with a class; close it with [`Svg::end_group`], or
    /// use [`Svg::group`].
    pub fn begin_group(&mut self, class: &str, x: f64, y: f64) {
        for _ in 0..self.depth {
            self.out.push(' ');
        }
        let _ = write!(self.out, "<g class=\"{}\"", escape(class));
        if x != 0.0 || y != 0.0 {
            self.out.push_str(" transform=\"translate(");
            num(&mut self.out, x);
            self.out.push(' ');
            num(&mut self.out, y);
            self.out.push_str(")\"");
        }
        self.out.push_str(">\n");
        self.depth += 1;
    }

    pub fn end_group(&mut self) {
        assert!(self.depth > 1, "end_group without begin_group");
        self.depth -= 1;
        for _ in 0..self.depth {
            self.out.push(' ');
        }
        self.out.push_str("</g>\n");
    }

    /// A group of class `class` moved to `(x, y)`, its content drawn by `draw` in the group's
    /// own coordinates.
    pub fn group(&mut self, class: &str, x: f64, y: f64, draw: impl FnOnce(&mut Svg)) {
        self.begin_group(class, x, y);
        draw(self);
        self.end_group();
    }

    /// A face-down card or tile at `(x, y)`, `w` by `h`: its back, with `label` (a count, a
    /// deck's name) on it when not empty. Class `face-down`.
    pub fn face_down(&mut self, x: f64, y: f64, w: f64, h: f64, label: &str) {
        self.begin_group("face-down", x, y);
        self.rect(0.0, 0.0, w, h).rounded(3.0).fill(palette::CARD_BACK).stroke(palette::INK).stroke_width(0.8);
        let inset = (w.min(h) * 0.15).min(4.0);
        self.rect(inset, inset, w - 2.0 * inset, h - 2.0 * inset).rounded(2.0).fill("none").stroke("#9fb0c8").stroke_width(0.8);
        if !label.is_empty() {
            let size = (h * 0.35).clamp(7.0, 12.0);
            self.text(w / 2.0, h / 2.0 + size * 0.35, label).middle().size(size).fill("#ffffff").bold();
        }
        self.end_group();
    }

    /// A face-up card at `(x, y)`, `(w, h)` in size, with lines of text; its class names it.
    pub fn card(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), class: &str, fill: &str, lines: &[String]) {
        self.begin_group(class, x, y);
        self.rect(0.0, 0.0, w, h).rounded(3.0).fill(fill).stroke(palette::INK).stroke_width(0.8);
        let size = 9.0;
        for (i, line) in lines.iter().enumerate() {
            let y = 11.0 + i as f64 * (size + 2.0);
            if y > h - 2.0 {
                break;
            }
            self.text(w / 2.0, y, line).middle().size(size);
        }
        self.end_group();
    }

    /// A row of `count` small counters (coins, cubes, crew) from `(x, y)` rightwards, at most
    /// `max_shown` drawn and the count written after them.
    pub fn counters(&mut self, (x, y): (f64, f64), count: usize, r: f64, fill: &str, class: &str, max_shown: usize) {
        let shown = count.min(max_shown);
        for i in 0..shown {
            self.circle(x + r + i as f64 * (2.0 * r + 1.0), y, r).fill(fill).stroke(palette::INK).stroke_width(0.5).class(class);
        }
        if count > shown || count == 0 {
            let tx = x + shown as f64 * (2.0 * r + 1.0) + 2.0;
            self.text(tx, y + 4.0, &format!("{}{count}", if count > shown { "+" } else { "" }))
                .size(10.0)
                .fill(palette::MUTED);
        }
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        assert_eq!(self.depth, 1, "a group was left open");
        self.out.push_str("</svg>\n");
        std::mem::take(&mut self.out)
    }
}

/// A path's `d` attribute, built command by command.
#[derive(Default)]
pub struct PathData(String);

impl PathData {
    pub fn new() -> Self {
        PathData(String::new())
    }
    fn cmd(mut self, c: char, pts: &[f64]) -> Self {
        self.0.push(c);
        for (i, &p) in pts.iter().enumerate() {
            if i > 0 {
                self.0.push(' ');
            }
            num(&mut self.0, p);
        }
        self.0.push(' ');
        self
    }
    pub fn move_to(self, x: f64, y: f64) -> Self {
        self.cmd('M', &[x, y])
    }
    pub fn line_to(self, x: f64, y: f64) -> Self {
        self.cmd('L', &[x, y])
    }
    pub fn quad_to(self, cx: f64, cy: f64, x: f64, y: f64) -> Self {
        self.cmd('Q', &[cx, cy, x, y])
    }
    pub fn arc_to(self, r: f64, large: bool, sweep: bool, x: f64, y: f64) -> Self {
        self.cmd('A', &[r, r, 0.0, large as u8 as f64, sweep as u8 as f64, x, y])
    }
    pub fn close(mut self) -> Self {
        self.0.push('Z');
        self
    }
}

/// A ship's hull seen from the side, `w` wide with its deck at `y`, as a path (for the games
/// that draw ships).
pub fn hull(x: f64, y: f64, w: f64, h: f64) -> PathData {
    PathData::new()
        .move_to(x, y)
        .line_to(x + w, y)
        .line_to(x + w - h * 0.8, y + h)
        .line_to(x + h * 0.6, y + h)
        .close()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "white");
        svg.text(1.0, 2.0, "a < b & \"c\"").class("x'y");
        let out = svg.finish();
        assert!(out.contains("a &lt; b &amp; &quot;c&quot;"), "{out}");
        assert!(out.contains("class=\"x&#39;y\""), "{out}");
        crate::harness::xml::check_well_formed(&out).unwrap();
    }

    #[test]
    fn numbers_are_short_and_groups_nest() {
        let mut svg = Svg::new(100.0, 50.5, "white");
        svg.group("ship", 3.0, 4.125, |s| {
            s.circle(1.0 / 3.0, 2.0, 1.0).fill("red").title("a ship");
        });
        let out = svg.finish();
        assert!(out.contains("viewBox=\"0 0 100 50.5\""), "{out}");
        assert!(out.contains("translate(3 4.13)"), "{out}");
        assert!(out.contains("cx=\"0.33\""), "{out}");
        assert!(out.contains("<title>a ship</title>"), "{out}");
        crate::harness::xml::check_well_formed(&out).unwrap();
    }

    #[test]
    fn viewers_see_what_they_may() {
        assert!(Viewer::All.sees_private(2) && Viewer::All.sees_hidden());
        assert!(Viewer::Seat(1).sees_private(1) && !Viewer::Seat(1).sees_private(0) && !Viewer::Seat(1).sees_hidden());
        assert!(!Viewer::Table.sees_private(0) && !Viewer::Table.sees_hidden());
    }
}
