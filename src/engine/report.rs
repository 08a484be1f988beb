//! Score reports: each seat's and each opponent's score broken down by the rulebook's
//! scoring categories, who or what won, and the tier reached.

use serde::{Deserialize, Serialize};

/// The score of an opponent that is not a seat (a solo game's Vikings, an automa player).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OpponentRow {
    /// The opponent's name, as in `GameSpec::opponents`.
    pub name: String,
    /// `points[category]`, in the categories of the report.
    pub points: Vec<f64>,
    pub total: f64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ScoreReport {
    /// Scoring categories, in rulebook order.
    pub categories: Vec<String>,
    /// `points[seat][category]`.
    pub points: Vec<Vec<f64>>,
    /// Each seat's total (the sum of the categories).
    pub totals: Vec<f64>,
    /// The opponents that are not seats, in the order of `GameSpec::opponents`.
    pub opponents: Vec<OpponentRow>,
    /// Names of the tie-breakers, in the order they apply (empty when the rules need none).
    pub tie_breakers: Vec<String>,
    /// `tie_breaker_values[player][i]`.
    pub tie_breaker_values: Vec<Vec<f64>>,
    /// The winning seats (empty in a game no seat won).
    pub winners: Vec<usize>,
    /// The opponents (indices into `opponents`) that won.
    pub opponent_winners: Vec<usize>,
    /// The reward tier or difficulty goal reached, one of `GameSpec::tiers` (none when the
    /// game has no tiers or none was reached).
    pub tier: Option<String>,
    pub terminal: bool,
    pub truncated: bool,
    /// Free-text notes (for example how the game was decided).
    pub notes: Vec<String>,
}

/// The numbers of a score report, as `simulate` records them for every game it plays
/// (`View::score_record`): no names, no notes, and buffers that one game after another reuses.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScoreRecord {
    /// `points[seat * categories + category]`, the report's `points` row by row.
    pub points: Vec<f64>,
    pub totals: Vec<f64>,
    pub winners: Vec<usize>,
    /// Each opponent's total, in the order of `GameSpec::opponents`.
    pub opponent_totals: Vec<f64>,
    pub opponent_winners: Vec<usize>,
    /// The tier reached, as an index into `GameSpec::tiers`.
    pub tier: Option<usize>,
}

impl ScoreRecord {
    /// Empties every field, keeping the buffers.
    pub fn clear(&mut self) {
        self.points.clear();
        self.totals.clear();
        self.winners.clear();
        self.opponent_totals.clear();
        self.opponent_winners.clear();
        self.tier = None;
    }

    /// The numbers of `report`, whose game's tiers are `tiers`.
    pub fn read(&mut self, report: &ScoreReport, tiers: &[String]) {
        self.clear();
        report.points.iter().for_each(|row| self.points.extend_from_slice(row));
        self.totals.extend_from_slice(&report.totals);
        self.winners.extend_from_slice(&report.winners);
        self.opponent_totals.extend(report.opponents.iter().map(|o| o.total));
        self.opponent_winners.extend_from_slice(&report.opponent_winners);
        self.tier = report.tier.as_ref().and_then(|t| tiers.iter().position(|name| name == t));
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

impl ScoreReport {
    /// Who or what won, in words: `P0`, `P1, P3`, `Vikings`; empty when nobody did.
    pub fn winner_names(&self) -> Vec<String> {
        let seats = self.winners.iter().map(|p| format!("P{p}"));
        seats.chain(self.opponent_winners.iter().map(|&o| self.opponents[o].name.clone())).collect()
    }

    /// The log's closing sentence, for the move that ends the game: every seat's and
    /// opponent's total, who or what won, and the tier reached: "The game is over: P0 12, P1 9,
    /// Vikings 11; won by Vikings, reaching silver." A game cut off at its bound: "The game is
    /// cut off at its bound: no winner." Each game's own sentence for that move says what
    /// ended the game; this one, written once for all, says how it ended.
    pub fn closing_sentence(&self) -> String {
        if self.truncated {
            return "The game is cut off at its bound: no winner.".to_string();
        }
        let seats = self.totals.iter().enumerate().map(|(p, &t)| format!("P{p} {}", fmt_num(t)));
        let totals: Vec<String> = seats.chain(self.opponents.iter().map(|o| format!("{} {}", o.name, fmt_num(o.total)))).collect();
        let winners = self.winner_names();
        let result = if winners.is_empty() { "nobody wins".to_string() } else { format!("won by {}", winners.join(" and ")) };
        let tier = self.tier.as_ref().map(|t| format!(", reaching {t}")).unwrap_or_default();
        format!("The game is over: {}; {result}{tier}.", totals.join(", "))
    }

    /// A plain-text table: one row per category, one column per seat, then one per opponent.
    pub fn to_table(&self) -> String {
        let players = self.totals.len();
        let columns = players + self.opponents.len();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut header = vec!["category".to_string()];
        for p in 0..players {
            header.push(format!("P{p}{}", if self.winners.contains(&p) { "*" } else { "" }));
        }
        for (o, row) in self.opponents.iter().enumerate() {
            header.push(format!("{}{}", row.name, if self.opponent_winners.contains(&o) { "*" } else { "" }));
        }
        rows.push(header);
        for (c, name) in self.categories.iter().enumerate() {
            let mut row = vec![name.clone()];
            row.extend(self.points.iter().map(|pp| fmt_num(pp[c])));
            row.extend(self.opponents.iter().map(|o| fmt_num(o.points[c])));
            rows.push(row);
        }
        let mut total = vec!["total".to_string()];
        total.extend(self.totals.iter().map(|&v| fmt_num(v)));
        total.extend(self.opponents.iter().map(|o| fmt_num(o.total)));
        rows.push(total);
        for (i, name) in self.tie_breakers.iter().enumerate() {
            let mut row = vec![format!("tie-break: {name}")];
            row.extend(self.tie_breaker_values.iter().map(|v| fmt_num(v[i])));
            row.resize(columns + 1, String::new());
            rows.push(row);
        }
        let widths: Vec<usize> = (0..=columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for (i, row) in rows.iter().enumerate() {
            let line: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    if c == 0 {
                        format!("{cell:<w$}", w = widths[c])
                    } else {
                        format!("{cell:>w$}", w = widths[c])
                    }
                })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
            if i == 0 || i == self.categories.len() {
                out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * columns));
                out.push('\n');
            }
        }
        let status = if self.truncated {
            "truncated (move bound reached, no winner)".to_string()
        } else if !self.terminal {
            "game in progress".to_string()
        } else if self.winners.is_empty() && self.opponent_winners.is_empty() {
            "no winner".to_string()
        } else {
            format!("winner: {}", self.winner_names().join(", "))
        };
        out.push_str(&status);
        out.push('\n');
        if let Some(tier) = &self.tier {
            out.push_str(&format!("tier reached: {tier}\n"));
        }
        for n in &self.notes {
            out.push_str(n);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{OpponentRow, ScoreReport};

    fn report(totals: &[f64], winners: &[usize]) -> ScoreReport {
        ScoreReport { totals: totals.to_vec(), winners: winners.to_vec(), terminal: true, ..Default::default() }
    }

    #[test]
    fn the_closing_sentence_gives_every_total_the_winners_and_the_tier() {
        assert_eq!(report(&[12.0, 9.0], &[0]).closing_sentence(), "The game is over: P0 12, P1 9; won by P0.");
        assert_eq!(
            report(&[7.0, 7.0, 3.5], &[0, 1]).closing_sentence(),
            "The game is over: P0 7, P1 7, P2 3.50; won by P0 and P1."
        );
        let mut vikings = report(&[10.0], &[]);
        vikings.opponents = vec![OpponentRow { name: "Vikings".into(), points: vec![], total: 11.0 }];
        vikings.opponent_winners = vec![0];
        assert_eq!(vikings.closing_sentence(), "The game is over: P0 10, Vikings 11; won by Vikings.");
        let mut solo = report(&[31.0], &[]);
        solo.tier = Some("Mushroom Farmer".into());
        assert_eq!(solo.closing_sentence(), "The game is over: P0 31; nobody wins, reaching Mushroom Farmer.");
        let cut = ScoreReport { truncated: true, ..report(&[3.0, 4.0], &[]) };
        assert_eq!(cut.closing_sentence(), "The game is cut off at its bound: no winner.");
    }
}
