//! Score reports: each player's score broken down by the rulebook's scoring categories.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// Scoring categories, in rulebook order.
    pub categories: Vec<String>,
    /// `points[player][category]`.
    pub points: Vec<Vec<f64>>,
    /// Each player's total (the sum of the categories).
    pub totals: Vec<f64>,
    /// Names of the tie-breakers, in the order they apply (empty when the rules need none).
    pub tie_breakers: Vec<String>,
    /// `tie_breaker_values[player][i]`.
    pub tie_breaker_values: Vec<Vec<f64>>,
    pub winners: Vec<usize>,
    pub terminal: bool,
    pub truncated: bool,
    /// Free-text notes (for example how the game was decided).
    pub notes: Vec<String>,
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

impl ScoreReport {
    /// A plain-text table: one row per category, one column per player.
    pub fn to_table(&self) -> String {
        let players = self.totals.len();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut header = vec!["category".to_string()];
        for p in 0..players {
            header.push(format!("P{p}{}", if self.winners.contains(&p) { "*" } else { "" }));
        }
        rows.push(header);
        for (c, name) in self.categories.iter().enumerate() {
            let mut row = vec![name.clone()];
            row.extend(self.points.iter().map(|pp| fmt_num(pp[c])));
            rows.push(row);
        }
        let mut total = vec!["total".to_string()];
        total.extend(self.totals.iter().map(|&v| fmt_num(v)));
        rows.push(total);
        for (i, name) in self.tie_breakers.iter().enumerate() {
            let mut row = vec![format!("tie-break: {name}")];
            row.extend(self.tie_breaker_values.iter().map(|v| fmt_num(v[i])));
            rows.push(row);
        }
        let widths: Vec<usize> = (0..=players)
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
                out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * players));
                out.push('\n');
            }
        }
        let status = if self.truncated {
            "truncated (move bound reached, no winner)".to_string()
        } else if !self.terminal {
            "game in progress".to_string()
        } else {
            let w: Vec<String> = self.winners.iter().map(|p| format!("P{p}")).collect();
            format!("winner: {}", w.join(", "))
        };
        out.push_str(&status);
        out.push('\n');
        for n in &self.notes {
            out.push_str(n);
            out.push('\n');
        }
        out
    }
}
