//! The test harness shared by every game: the invariants every state keeps, the
//! random-simulation conformance suite, golden playthroughs, and the fuzz targets with their
//! inputs and mutators. It sits on top of the engine and the registered games
//! (`engine` → `games` → `harness`): neither imports it.

pub mod conformance;
pub mod fuzzing;
pub mod playthrough;
