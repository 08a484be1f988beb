//! Golden files: seeded playthroughs ([`super::playthrough`]) committed under
//! `tests/golden/<game>/` and compared, byte for byte, with what this build plays.
//!
//! * Every registered game, in every configuration it lists, has one
//!   ([`check_registered`], run by `tests/golden.rs`): a new game gets its files by being
//!   registered. The file is `<game>-<seats>p[-<option>...]-seed<seed>.txt`
//!   ([`configuration_file`]), the seed is `100 + seats` ([`seed`]).
//! * A game's own tests add playthroughs from edge positions built with its `setup`
//!   ([`check_edges`]: [`super::playthrough::playthrough_from`], checked with [`check`]), in files named
//!   `<game>-<seats>p[-<option>...]-from-<position>-seed<seed>.txt` ([`position_file`]).
//!   Their test's name starts with `golden_`, so that `scripts/regenerate-golden.sh`
//!   rewrites them in the same run.
//!
//! With `TRADEWINDS_BLESS` set, [`check`] writes the files instead of comparing them, and
//! appends the first difference of each file it changes (game, file, move, old line and new
//! line, [`first_divergence`]) to the file named by `TRADEWINDS_BLESS_REPORT`, if set.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::playthrough::{move_of_line, playthrough, playthrough_from};
use crate::engine::rng::rng_from_seed;
use crate::engine::{GameDefinition, GameState, OptionDecl};
use crate::games::{visit, Visitor};

/// The table is written every this many moves.
pub const BOARD_EVERY: u64 = 200;
/// Set: [`check`] writes the golden files instead of comparing them.
pub const BLESS: &str = "TRADEWINDS_BLESS";
/// With [`BLESS`]: the file to which each changed file's first difference is appended.
pub const BLESS_REPORT: &str = "TRADEWINDS_BLESS_REPORT";

/// The seed rule: a playthrough with `seats` seats is played from seed `100 + seats`.
pub fn seed(seats: usize) -> u64 {
    100 + seats as u64
}

/// The folder of `game`'s golden files under the crate's root.
pub fn dir(root: &Path, game: &str) -> PathBuf {
    root.join("tests").join("golden").join(game)
}

/// The file of a configuration's playthrough: `<game>-<seats>p`, then each configuration
/// option besides `players` whose value is not its declared default (a flag that is set by
/// its name, any other as `name=value`), then `-seed<seed>.txt`. Options at their defaults
/// are left out, so a new option does not rename the files of the configurations before it.
pub fn configuration_file(game: &str, seats: usize, options: &Map<String, Value>, decls: &[OptionDecl]) -> String {
    format!("{}-seed{}.txt", configuration_stem(game, seats, options, decls), seed(seats))
}

/// The file of a playthrough from the edge position `position` of a configuration:
/// `<game>-<seats>p[-<option>...]-from-<position>-seed<seed>.txt`, the options named as in
/// [`configuration_file`].
pub fn position_file(game: &str, seats: usize, options: &Map<String, Value>, decls: &[OptionDecl], position: &str) -> String {
    format!("{}-from-{position}-seed{}.txt", configuration_stem(game, seats, options, decls), seed(seats))
}

/// `<game>-<seats>p`, then the configuration options off their defaults.
fn configuration_stem(game: &str, seats: usize, options: &Map<String, Value>, decls: &[OptionDecl]) -> String {
    let mut name = format!("{game}-{seats}p");
    for d in decls {
        let Some(v) = options.get(d.name) else { continue };
        if d.name == "players" || *v == d.default_value() {
            continue;
        }
        match v {
            Value::Bool(true) => name.push_str(&format!("-{}", d.name)),
            Value::String(s) => name.push_str(&format!("-{}={s}", d.name)),
            other => name.push_str(&format!("-{}={other}", d.name)),
        }
    }
    name
}

/// Where two playthroughs first differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The line number (from 1).
    pub line: usize,
    /// The move the line belongs to: `move N` for a move line, `after move N` for the table
    /// or the report that follows move N, `before the first move` for the header and the
    /// first table.
    pub place: String,
    /// The old and the new line, `(end of file)` where one text has ended.
    pub old: String,
    pub new: String,
    /// When the first different line is no move (the header, a table, the report): the
    /// first different move line, old and new, if the moves differ at all.
    pub first_move: Option<(String, String)>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (line {}): {} → {}", self.place, self.line, self.old.trim(), self.new.trim())?;
        if let Some((old, new)) = &self.first_move {
            write!(f, "; the first different move: {} → {}", old.trim(), new.trim())?;
        }
        Ok(())
    }
}

/// The first line where `new` differs from `old`, and the move it belongs to; `None` when
/// the texts are equal.
pub fn first_divergence(old: &str, new: &str) -> Option<Divergence> {
    if old == new {
        return None;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    // Equal lines but different texts: they differ in the line ends; the last line differs.
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(a.len().max(b.len()).saturating_sub(1));
    let end = "(end of file)";
    let old_line = a.get(i).copied().unwrap_or(end);
    let new_line = b.get(i).copied().unwrap_or(end);
    let place = match move_of_line(old_line).or_else(|| move_of_line(new_line)) {
        Some(n) => format!("move {n}"),
        None => match a[..i.min(a.len())].iter().rev().find_map(|l| move_of_line(l)) {
            Some(n) => format!("after move {n}"),
            None => "before the first move".to_string(),
        },
    };
    let first_move = if place.starts_with("move ") {
        None
    } else {
        let moves = |lines: &[&str]| -> Vec<String> {
            lines.iter().filter(|l| move_of_line(l).is_some()).map(|l| l.to_string()).collect()
        };
        let (ma, mb) = (moves(&a), moves(&b));
        (0..ma.len().max(mb.len())).find(|&k| ma.get(k) != mb.get(k)).map(|k| {
            let line = |m: &[String]| m.get(k).cloned().unwrap_or_else(|| end.to_string());
            (line(&ma), line(&mb))
        })
    };
    Some(Divergence { line: i + 1, place, old: old_line.to_string(), new: new_line.to_string(), first_move })
}

/// Compares `text` with the golden file `file` of `game` (under `root`, the crate's root).
/// With [`BLESS`] set, writes it instead and reports a change (see the module's doc).
pub fn check(root: &Path, game: &str, file: &str, text: &str) -> Result<(), String> {
    let path = dir(root, game).join(file);
    let old = std::fs::read_to_string(&path).ok();
    if std::env::var_os(BLESS).is_some() {
        std::fs::create_dir_all(dir(root, game)).map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let change = match &old {
            None => Some("new file".to_string()),
            Some(old) => first_divergence(old, text).map(|d| d.to_string()),
        };
        if let Some(change) = change {
            report(game, file, &change)?;
        }
        return Ok(());
    }
    let Some(old) = old else {
        return Err(format!("{} is missing: run scripts/regenerate-golden.sh", path.display()));
    };
    match first_divergence(&old, text) {
        None => Ok(()),
        Some(d) => {
            let mut e = format!(
                "{} differs from this build's playthrough at {}, line {}:\n  golden: {}\n  now:    {}\n",
                path.display(), d.place, d.line, d.old, d.new
            );
            if let Some((old, new)) = &d.first_move {
                e.push_str(&format!("The first different move:\n  golden: {old}\n  now:    {new}\n"));
            }
            e.push_str("After a deliberate rules change, run scripts/regenerate-golden.sh and review what it prints.");
            Err(e)
        }
    }
}

/// An edge position of a game's own golden playthroughs: its name in the file name, the
/// game's options (the player count, and any configuration option off its default), the setup
/// description, and, where given, each player's score in it (checked, so that the description
/// says what it means).
pub struct Edge {
    pub name: &'static str,
    pub options: Value,
    pub description: Value,
    pub scores: Option<Vec<f64>>,
}

/// Plays `G` from each edge position ([`playthrough_from`]) and compares the playthrough with
/// its golden file ([`position_file`], [`check`]); `inspect` checks what else the position
/// must be before it is played. Panics with every difference found.
pub fn check_edges<G: GameDefinition>(edges: Vec<Edge>, mut inspect: impl FnMut(&Edge, &G, &G::State)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut errors = Vec::new();
    for edge in edges {
        let options: Map<String, Value> = edge.options.as_object().unwrap().clone();
        let game = Arc::new(G::load(&options).unwrap());
        let state = game.setup(&edge.description).unwrap_or_else(|e| panic!("{}: {e}", edge.name));
        if let Some(scores) = &edge.scores {
            let at = GameState::from_parts(Arc::clone(&game), state.clone(), rng_from_seed(0), true).scores();
            assert_eq!(&at, scores, "{}: the scores of the position", edge.name);
        }
        inspect(&edge, &game, &state);
        let seats = game.spec().players;
        let file = position_file(G::NAME, seats, &options, G::OPTIONS, edge.name);
        let text = playthrough_from(Arc::clone(&game), state, seed(seats), BOARD_EVERY);
        if let Err(e) = check(root, G::NAME, &file, &text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}

/// Appends `game  file  change` to the report file named by [`BLESS_REPORT`], if set.
fn report(game: &str, file: &str, change: &str) -> Result<(), String> {
    let Some(path) = std::env::var_os(BLESS_REPORT) else { return Ok(()) };
    let mut f = OpenOptions::new().create(true).append(true).open(&path).map_err(|e| format!("{path:?}: {e}"))?;
    // One write per line, so that tests running in parallel do not mix their lines.
    f.write_all(format!("{game}  {file}  {change}\n").as_bytes()).map_err(|e| format!("{path:?}: {e}"))
}

/// One configuration's playthrough: its file name and text.
pub struct Golden {
    pub game: &'static str,
    pub file: String,
    pub text: String,
}

struct Play<'a> {
    name: &'static str,
    options: &'a Map<String, Value>,
}

impl Visitor for Play<'_> {
    type Output = Result<Golden, String>;
    fn visit<G: GameDefinition>(self) -> Self::Output {
        let game = G::load(self.options).map_err(|e| format!("{} {:?} does not load: {e}", self.name, self.options))?;
        let seats = game.spec().players;
        let file = configuration_file(self.name, seats, self.options, G::OPTIONS);
        let text = playthrough(Arc::new(game), seed(seats), BOARD_EVERY);
        Ok(Golden { game: self.name, file, text })
    }
}

/// The playthrough of every registered game in every configuration it lists.
pub fn registered_playthroughs() -> Result<Vec<Golden>, String> {
    let mut out = Vec::new();
    for name in crate::games::registered() {
        for options in crate::games::all_configurations(name) {
            out.push(visit(name, Play { name, options: &options }).map_err(|e| e.to_string())??);
        }
    }
    Ok(out)
}

/// Checks (or, with [`BLESS`], writes) the golden file of every registered game in every
/// configuration; returns how many there are. A file in a game's folder that looks like a
/// configuration's (no `-from-` in its name) but belongs to none is an error too (a
/// configuration renamed or removed), and is deleted when blessing; so is a file name two
/// configurations share. Every problem is reported, not only the first.
pub fn check_registered(root: &Path) -> Result<usize, String> {
    let goldens = registered_playthroughs()?;
    let mut errors = Vec::new();
    for (i, g) in goldens.iter().enumerate() {
        if goldens[..i].iter().any(|h| h.game == g.game && h.file == g.file) {
            errors.push(format!("two configurations of {} share the golden file {}", g.game, g.file));
        }
    }
    for g in &goldens {
        if let Err(e) = check(root, g.game, &g.file, &g.text) {
            errors.push(e);
        }
    }
    let bless = std::env::var_os(BLESS).is_some();
    for name in crate::games::registered() {
        let Ok(entries) = std::fs::read_dir(dir(root, name)) else { continue };
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let ours = goldens.iter().any(|g| g.game == name && g.file == file);
            if ours || file.contains("-from-") || !file.ends_with(".txt") {
                continue;
            }
            if bless {
                std::fs::remove_file(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
                report(name, &file, "removed: it belongs to no configuration")?;
            } else {
                errors.push(format!("{} belongs to no configuration of {name}: run scripts/regenerate-golden.sh", entry.path().display()));
            }
        }
    }
    if errors.is_empty() {
        Ok(goldens.len())
    } else {
        Err(errors.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PLAY: &str = "# game seed 1\n\nboard\n    0 chance  deal\n    1 P0      pass\n  200 P1      sail\n\nboard\nreport\n";

    #[test]
    fn the_first_divergence_names_its_move() {
        assert_eq!(first_divergence(PLAY, PLAY), None);
        let d = first_divergence(PLAY, &PLAY.replace("1 P0      pass", "1 P0      fight")).unwrap();
        assert_eq!((d.line, d.place.as_str(), d.old.trim(), d.new.trim()), (5, "move 1", "1 P0      pass", "1 P0      fight"));
        assert_eq!(d.to_string(), "move 1 (line 5): 1 P0      pass → 1 P0      fight");
        let d = first_divergence(PLAY, &PLAY.replace("report", "other report")).unwrap();
        assert_eq!((d.line, d.place.as_str()), (9, "after move 200"));
        let d = first_divergence(PLAY, &PLAY.replace("\nboard\n    0", "\nboards\n    0")).unwrap();
        assert_eq!((d.place.as_str(), d.first_move.clone()), ("before the first move", None));
        // The header and a move differ: the first different move is named too.
        let changed = PLAY.replace("seed 1", "seed 2").replace("200 P1      sail", "200 P1      pass");
        let d = first_divergence(PLAY, &changed).unwrap();
        assert_eq!(d.place, "before the first move");
        assert_eq!(d.first_move, Some(("  200 P1      sail".to_string(), "  200 P1      pass".to_string())));
        assert!(d.to_string().ends_with("; the first different move: 200 P1      sail → 200 P1      pass"), "{d}");
        // A longer game: the old text ends where the new one goes on.
        let d = first_divergence(PLAY, &format!("{PLAY}  201 P0      pass\n")).unwrap();
        assert_eq!((d.place.as_str(), d.old.as_str()), ("move 201", "(end of file)"));
        // Only the last line end differs.
        let d = first_divergence(PLAY, PLAY.trim_end()).unwrap();
        assert_eq!(d.line, 9);
    }

    #[test]
    fn move_lines_are_told_from_table_lines() {
        assert_eq!(move_of_line("   12 P3      buy-1:salt"), Some(12));
        assert_eq!(move_of_line("123456 chance  reveal:Fog#1"), Some(123456));
        assert_eq!(move_of_line("  3 Players   gold"), None);
        assert_eq!(move_of_line("P0 gold 5"), None);
        assert_eq!(move_of_line(""), None);
    }

    #[test]
    fn configuration_files_name_the_seats_and_the_options_off_their_defaults() {
        use crate::engine::OptionKind;
        const DECLS: &[OptionDecl] = &[
            OptionDecl { name: "players", kind: OptionKind::Int { min: 1, max: 5, default: 2 }, configuration: true, doc: "" },
            OptionDecl { name: "boat", kind: OptionKind::Bool { default: false }, configuration: true, doc: "" },
            OptionDecl { name: "mode", kind: OptionKind::Choice { values: &["a", "b"], default: "a" }, configuration: true, doc: "" },
        ];
        let o = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(configuration_file("g", 2, &o(json!({"players": 2, "boat": false, "mode": "a"})), DECLS), "g-2p-seed102.txt");
        assert_eq!(configuration_file("g", 1, &o(json!({"players": 1, "boat": true, "mode": "b"})), DECLS), "g-1p-boat-mode=b-seed101.txt");
        assert_eq!(position_file("g", 2, &o(json!({"players": 2})), DECLS, "edge"), "g-2p-from-edge-seed102.txt");
        assert_eq!(position_file("g", 2, &o(json!({"mode": "b"})), DECLS, "edge"), "g-2p-mode=b-from-edge-seed102.txt");
    }
}
