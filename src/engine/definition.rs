//! What a game declares to be registered: its name, its options, how it is built from them,
//! the configurations it must pass in and its component data file. The registry
//! (`crate::games`) takes one line per game and derives everything shared from this.

use serde_json::{Map, Value};

use super::data::ComponentData;
use super::error::Result;
use super::game::Game;
use super::options::{self, OptionDecl, Options};

/// A game's shipped component data file, for the fuzzers and for users who copy it: the
/// file's text and a parser that validates a file's text (errors name the field).
#[derive(Clone, Copy)]
pub struct DataFileDecl {
    pub shipped: &'static str,
    pub parse_text: fn(&str) -> Result<()>,
}

impl DataFileDecl {
    /// The declaration of a game's component data: its shipped file, validated by its
    /// [`ComponentData::compile`].
    pub const fn of<D: ComponentData>() -> DataFileDecl {
        DataFileDecl { shipped: D::SHIPPED, parse_text: validates::<D> }
    }
}

fn validates<D: ComponentData>(text: &str) -> Result<()> {
    D::from_json_str(text).map(|_| ())
}

pub trait GameDefinition: Game {
    /// The name users load the game by (`tw.load(NAME)`).
    const NAME: &'static str;
    /// The game's full title as users know it ("North Wind"), for listings (`tradewinds games`,
    /// `Game.title`).
    const TITLE: &'static str;
    /// How to play, on one page, for someone without the rulebook (plain text: the terminal
    /// game's `rules`, `Game.how_to_play`, and the opening of the game's doc page).
    const HOW_TO_PLAY: &'static str;
    /// A glossary of the game's action names and of the notation of its text renderings
    /// (plain text: the terminal game's `legend`, `Game.notation`, and the game's doc page).
    /// The shared checks require every action name's stem to appear in it.
    const NOTATION: &'static str;
    /// Every option the game takes. `tw.load` checks the caller's options against this list
    /// (see [`Options::parse`]) before [`GameDefinition::from_options`] sees them.
    const OPTIONS: &'static [OptionDecl];
    /// The component data file, for games that have one.
    const DATA_FILE: Option<DataFileDecl> = None;

    /// Builds the game from checked options. Errors here are for combinations of options
    /// that the declarations cannot express (an `InvalidOption` naming one of them).
    fn from_options(options: &Options) -> Result<Self>;

    /// Builds the game from the options a caller gave (a JSON object; `{}` for the defaults).
    fn load(given: &Map<String, Value>) -> Result<Self> {
        Self::from_options(&Options::parse(Self::NAME, Self::OPTIONS, given)?)
    }

    /// Every configuration the game must pass the shared checks in (conformance, fuzzing,
    /// golden files, Python tests, saved-state fixtures, benches): by default every
    /// combination of the values of its configuration options that it accepts.
    fn configurations() -> Vec<Map<String, Value>> {
        options::configurations(Self::OPTIONS, |m| Self::load(m).is_ok())
    }
}
