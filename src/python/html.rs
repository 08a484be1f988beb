//! The notebook views (`_repr_html_`) of `State` and `ScoreReport`: the table as the players
//! see it, and the score table.

use crate::engine::svg::escape;
use crate::engine::ScoreReport;

fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.2}")
    }
}

/// The score report as an HTML table: a row per category and the totals, a column per seat
/// (and per opponent that is not a seat); the winners, the tier and the notes under it.
pub(crate) fn score_report(r: &ScoreReport) -> String {
    let mut h = String::from("<table class=\"tradewinds-score\">\n<thead><tr><th></th>");
    for p in 0..r.totals.len() {
        let won = if r.winners.contains(&p) { " &#9733;" } else { "" };
        h.push_str(&format!("<th>P{p}{won}</th>"));
    }
    for (o, row) in r.opponents.iter().enumerate() {
        let won = if r.opponent_winners.contains(&o) { " &#9733;" } else { "" };
        h.push_str(&format!("<th>{}{won}</th>", escape(&row.name)));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for (c, category) in r.categories.iter().enumerate() {
        h.push_str(&format!("<tr><th>{}</th>", escape(category)));
        for row in &r.points {
            h.push_str(&format!("<td>{}</td>", row.get(c).map_or(String::new(), |&x| number(x))));
        }
        for o in &r.opponents {
            h.push_str(&format!("<td>{}</td>", o.points.get(c).map_or(String::new(), |&x| number(x))));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("<tr><th>total</th>");
    for &t in &r.totals {
        h.push_str(&format!("<td><b>{}</b></td>", number(t)));
    }
    for o in &r.opponents {
        h.push_str(&format!("<td><b>{}</b></td>", number(o.total)));
    }
    h.push_str("</tr>\n</tbody>\n</table>\n");
    let status = if r.truncated {
        "cut off: no winner".to_string()
    } else if r.terminal {
        let names = r.winner_names();
        if names.is_empty() { "no winner".to_string() } else { format!("won by {}", names.join(", ")) }
    } else {
        "in progress".to_string()
    };
    h.push_str(&format!("<p>{}", escape(&status)));
    if let Some(tier) = &r.tier {
        h.push_str(&format!("; tier reached: {}", escape(tier)));
    }
    h.push_str("</p>\n");
    for note in &r.notes {
        h.push_str(&format!("<p><small>{}</small></p>\n", escape(note)));
    }
    h
}

/// A state: a heading (the game, whose move), the picture of the table (an SVG document) and
/// the table as text, both as every player sees it, and at the end the score table.
pub(crate) fn state(title: &str, players: usize, move_number: u64, who: &str, picture: &str, table: &str, report: Option<&ScoreReport>) -> String {
    let mut h = format!(
        "<div class=\"tradewinds-state\">\n<p><b>{}</b>, {players} player{}, move {move_number}: {}</p>\n<div class=\"tradewinds-picture\" style=\"max-width:100%;overflow-x:auto\">\n{}</div>\n<pre>{}</pre>\n",
        escape(title),
        if players == 1 { "" } else { "s" },
        escape(who),
        picture,
        escape(table.trim_end())
    );
    if let Some(r) = report {
        h.push_str(&score_report(r));
    }
    h.push_str("</div>\n");
    h
}
