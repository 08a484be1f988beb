//! Golden playthroughs of every registered game in every configuration it lists
//! (`harness::golden`): a new game gets its files under `tests/golden/<game>/` by being
//! registered. Rewrite them with `scripts/regenerate-golden.sh` after a deliberate change.

use std::path::Path;

use tradewinds::harness::configurations::registry;
use tradewinds::harness::golden::check_registered;

#[test]
fn golden_playthroughs_of_every_registered_configuration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = check_registered(root).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files, registry().len(), "one file per configuration");
}
