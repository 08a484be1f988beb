//! Every registered game in every configuration it must pass the shared checks in, built
//! once: what the fuzz targets, the property tests and the registry-driven hostile-input
//! tests iterate, so that a new game is covered as soon as it is registered.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::engine::dynamic::DynGame;

/// One configuration of one registered game.
pub struct Entry {
    pub name: &'static str,
    pub options: Map<String, Value>,
    pub game: Arc<dyn DynGame>,
}

/// Every registered game in every configuration it must pass the conformance suite in
/// (built once, then shared).
pub fn registry() -> &'static [Entry] {
    static REGISTRY: OnceLock<Vec<Entry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut v = Vec::new();
        for name in crate::games::registered() {
            for options in crate::games::all_configurations(name) {
                let game = crate::games::load(name, &options)
                    .unwrap_or_else(|e| panic!("{name} {options:?} does not load: {e}"));
                v.push(Entry { name, options, game });
            }
        }
        assert!(!v.is_empty(), "the registry lists no game");
        v
    })
}
