//! Nauticus's observation tensor, decoded field by field: the tensor split into the fields
//! the game declares (`docs/games/nauticus.md`, "Observation tensor", lists the same fields:
//! `harness::tensor_doc`), each field's values asserted against positions built with
//! `setup()`, computed from their descriptions.

use serde_json::json;

use crate::engine::prelude::*;
use crate::engine::Field;
use crate::harness::tensor_doc::{one_hot, Decoded};

use super::data::{KINDS, MAX_SHIPS, TILES};
use super::tests::{last_sail_bought, play, play_starting, position, St, LAYOUT};

/// The documented fields in order (a field added, removed or moved must be documented).
const FIELDS: [&str; 27] = [
    "round",
    "action phases",
    "start player",
    "step",
    "spaces",
    "turned over",
    "anchor tile",
    "turntable",
    "chosen space",
    "blue workers",
    "supply",
    "actor",
    "chosen action",
    "action in hand",
    "extra action in hand",
    "blue workers left",
    "bought",
    "gift owed",
    "pending tile",
    "paid",
    "rewards left",
    "rewards taken",
    "reward goods left",
    "reward goods taken",
    "used",
    "players",
    "ships",
];

/// The fields the game declares.
fn layout() -> Vec<Field> {
    position(2, json!({})).game().observation_layout().fields
}

/// `player`'s observation of `st`, split into the documented fields.
fn decoded(st: &St, player: usize) -> Decoded {
    Decoded::of(st, player)
}

const PLAYER_ROW: usize = 8 + KINDS + 4;
const SHIP_ROW: usize = 24;

fn tile(name: &str) -> usize {
    TILES.iter().position(|t| *t == name).unwrap_or_else(|| panic!("no action tile {name:?}"))
}

fn kind(st: &St, name: &str) -> usize {
    (0..KINDS as u8).find(|&k| st.game().data.kind_name(k) == name).unwrap_or_else(|| panic!("no kind {name:?}")) as usize
}

/// Values by tile kind name, as a vector over all kinds.
fn by_kind(st: &St, counts: &[(&str, f32)]) -> Vec<f32> {
    let mut v = vec![0.0; KINDS];
    for &(name, n) in counts {
        v[kind(st, name)] = n;
    }
    v
}

/// The table's fields in order, of the sizes the code writes.
#[test]
fn the_documented_layout_is_the_tensors() {
    let st = position(2, json!({}));
    let layout = layout();
    let names: Vec<&str> = layout.iter().map(|f| f.name).collect();
    assert_eq!(names, FIELDS);
    let sizes: Vec<usize> = layout.iter().map(|f| f.size).collect();
    assert_eq!(
        sizes,
        [1, 1, 4, 9, 64, 8, 8, 8, 8, 8, KINDS, 4, 3, 8, 1, 1, 4, 1, KINDS, 1, 1, 6, 1, 4, 1, 4 * PLAYER_ROW, MAX_SHIPS * SHIP_ROW]
    );
    assert_eq!(st.observation_tensor(0).unwrap().len(), 1847);
}

/// The table of a position in the middle of a round, seen by two seats: where the round
/// stands, the spaces, the turntable, the supply, the players' rows and the ships.
#[test]
fn the_table_and_the_players_decode() {
    let st = position(
        4,
        json!({"round": 2, "phases": 3, "start": 2, "pointing": 5, "spaces": LAYOUT, "anchor": "transport",
               "turned": ["transport", "buy sails", "deliver goods"], "chosen": "buy goods", "actor": 0,
               "players": [{"ships": [{"hull": ["bow"], "coat": "whale", "masts": 1}]},
                           {"taler": 20, "workers": 7, "points": -3, "passes": 2, "extra": false, "crown_points": 4,
                            "extra_crown_points": 5, "warehouse": {"crown sail": 1, "bow": 2}, "delivered": {"coffee": 2, "fish": 1}},
                           {"ships": [{"hull": ["single hull"], "crown_masts": 1, "crown_sails": 1, "goods": {"salt": 1}}]},
                           {}]}),
    );
    let g = st.game();
    for observer in [0usize, 1] {
        let d = decoded(&st, observer);
        let rel = |p: usize| (p + 4 - observer) % 4;
        assert_eq!(d.field("round"), [2.0]);
        assert_eq!(d.field("action phases"), [3.0]);
        assert_eq!(d.field("start player"), one_hot(4, Some(rel(2))));
        assert_eq!(d.field("step"), one_hot(9, Some(3)), "the turn");
        for (sp, name) in LAYOUT.iter().enumerate() {
            assert_eq!(d.row("spaces", sp, 8), one_hot(8, Some(tile(name))), "space {}", sp + 1);
        }
        let turned: Vec<f32> = LAYOUT.iter().map(|t| ["transport", "buy sails", "deliver goods"].contains(t) as u8 as f32).collect();
        assert_eq!(d.field("turned over"), turned);
        let space_of = |name: &str| LAYOUT.iter().position(|t| *t == name);
        assert_eq!(d.field("anchor tile"), one_hot(8, space_of("transport")));
        assert_eq!(d.field("turntable"), one_hot(8, Some(4)), "space 5");
        assert_eq!(d.field("chosen space"), one_hot(8, space_of("buy goods")));
        // The space the anchor points to shows the anchor sector (0); sector k lies k spaces on.
        let blue: Vec<f32> = (0..8).map(|sp| g.data.turntable[(sp + 8 - 4) % 8] as f32).collect();
        assert_eq!(blue[4], 0.0);
        assert_eq!(d.field("blue workers"), blue);
        // What the players hold or delivered is out of the supply.
        let mut supply: Vec<f32> = g.data.stock.iter().map(|&n| n as f32).collect();
        for (name, held) in [("bow", 3.0), ("whale mast", 1.0), ("crown sail", 2.0), ("crown mast", 1.0), ("single hull", 1.0), ("salt", 1.0), ("coffee", 2.0), ("fish", 1.0)] {
            supply[kind(&st, name)] -= held;
        }
        assert_eq!(d.field("supply"), supply);

        // Player rows from the observer on.
        let row = |p: usize| d.row("players", rel(p), PLAYER_ROW).to_vec();
        let p1 = row(1);
        assert_eq!(p1[..8], [20.0, 7.0, -3.0, 2.0, 0.0, 4.0, 5.0, 3.0], "the crown sail and 2 pass tiles are 3 crowns");
        assert_eq!(p1[8..8 + KINDS], by_kind(&st, &[("crown sail", 1.0), ("bow", 2.0)]));
        assert_eq!(p1[8 + KINDS..], [2.0, 0.0, 0.0, 1.0]);
        let p3 = row(3);
        let r = &g.data.rules;
        let comp = g.data.compensation[&4][3];
        assert_eq!(
            p3[..8],
            [(r.starting_taler + comp.0) as f32, (r.starting_workers + comp.1) as f32, r.starting_points as f32, 0.0, 1.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(row(2)[7], 2.0, "a crown mast and a crown sail on a ship");

        // Ships in the order begun: P0's bow, then P2's single hull (complete with its crown
        // mast and crown sail, and loaded).
        let ship = |i: usize| d.row("ships", i, SHIP_ROW).to_vec();
        // A ship's row: present, the owner, single hull, bow, stern, centres, the coat of arms,
        // then masts, crown masts, sails, crown sails, crown sails on masts, goods, complete.
        let row_of = |owner: usize, hull: [f32; 4], coat: usize, rest: [f32; 10]| -> Vec<f32> {
            [vec![1.0], one_hot(4, Some(rel(owner))), hull.to_vec(), one_hot(5, Some(coat)), rest.to_vec()].concat()
        };
        assert_eq!(ship(0), row_of(0, [0.0, 1.0, 0.0, 0.0], 0, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]));
        assert_eq!(ship(1), row_of(2, [1.0, 0.0, 0.0, 0.0], 4, [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0]));
        assert!(d.field("ships")[2 * SHIP_ROW..].iter().all(|&v| v == 0.0));

        // The turn: P0 is about to carry out or pass on buy goods, with the space's blue workers.
        assert_eq!(d.field("actor"), one_hot(4, Some(rel(0))));
        assert_eq!(d.field("chosen action"), one_hot(3, Some(0)));
        assert_eq!(d.field("action in hand"), one_hot(8, None));
        assert_eq!(d.field("blue workers left"), [blue[space_of("buy goods").unwrap()]]);
        for f in ["extra action in hand", "bought", "gift owed", "pending tile", "paid", "rewards left", "rewards taken"] {
            assert!(d.field(f).iter().all(|&v| v == 0.0), "{f}");
        }
        for f in ["reward goods left", "reward goods taken", "used"] {
            assert!(d.field(f).iter().all(|&v| v == 0.0), "{f}");
        }
    }
    // Three players: the fourth row is empty.
    let st3 = position(3, json!({}));
    let d = decoded(&st3, 0);
    assert!(d.row("players", 3, PLAYER_ROW).iter().all(|&v| v == 0.0));
    assert_eq!(d.field("step"), one_hot(9, Some(0)), "the deal");
    assert!(d.field("actor").iter().all(|&v| v == 0.0) && d.field("spaces").iter().all(|&v| v == 0.0));
    assert_eq!(d.field("turntable"), one_hot(8, Some(0)), "the game starts pointing to space 1");
    assert_eq!(d.field("anchor tile"), one_hot(8, None));
}

/// The turn's fields while buying: the action in hand, blue workers left, items bought, the
/// pending tile, whether it was paid for and the gift owed for the fourth item; and the
/// extra action in hand.
#[test]
fn the_turn_decodes_while_buying_and_with_the_extra_action() {
    let base = || {
        position(
            3,
            json!({"pointing": 2, "spaces": LAYOUT, "chosen": "buy hull parts", "actor": 1,
                   "players": [{}, {"taler": 20, "workers": 7}, {}]}),
        )
    };
    // Space 4 (buy hull parts) has 2 blue workers; its prices are single 0, bow 1, stern 3, centre 2.
    let mut st = base();
    play(&mut st, "buy: a bow for 1 Taler");
    let d = decoded(&st, 1);
    assert_eq!(d.field("step"), one_hot(9, Some(4)), "place");
    assert_eq!(d.field("actor"), one_hot(4, Some(0)));
    assert_eq!(d.field("chosen action"), one_hot(3, Some(1)));
    assert_eq!(d.field("action in hand"), one_hot(8, Some(tile("buy hull parts"))));
    assert_eq!(d.field("extra action in hand"), [0.0]);
    assert_eq!(d.field("blue workers left"), [1.0]);
    assert_eq!(d.field("bought"), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(d.field("pending tile"), by_kind(&st, &[("bow", 1.0)]));
    assert_eq!(d.field("paid"), [1.0]);
    assert_eq!(d.field("gift owed"), [0.0]);
    assert_eq!(d.field("used"), [1.0]);
    // Seen by another seat, the actor is one seat back.
    assert_eq!(decoded(&st, 2).field("actor"), one_hot(4, Some(2)));
    play(&mut st, "begin a new ship: the bow");
    play(&mut st, "buy: a single hull for 0 Taler");
    play(&mut st, "buy: a stern for 3 Taler");
    play_starting(&mut st, "put on ship 1: the stern");
    play(&mut st, "buy: a centre for 2 Taler");
    let d = decoded(&st, 1);
    assert_eq!(d.field("bought"), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(d.field("gift owed"), [1.0]);
    assert_eq!(d.field("pending tile"), by_kind(&st, &[("centre", 1.0)]));
    assert_eq!(d.field("blue workers left"), [0.0]);

    let mut st = base();
    play(&mut st, "use the extra action: withdraw money");
    let d = decoded(&st, 1);
    assert_eq!(d.field("extra action in hand"), [1.0]);
    assert_eq!(d.field("action in hand"), one_hot(8, Some(tile("withdraw money"))));
    assert_eq!(d.field("used"), [0.0]);
    assert_eq!(d.field("chosen action"), one_hot(3, Some(0)));
}

/// The reward fields while a completed ship's rewards are chosen, and the step at the end.
#[test]
fn the_rewards_decode() {
    let mut st = last_sail_bought();
    play_starting(&mut st, "put on ship 1: the anchor sail");
    let d = decoded(&st, 0);
    assert_eq!(d.field("step"), one_hot(9, Some(6)), "reward");
    assert_eq!(d.field("rewards left"), [2.0]);
    assert_eq!(d.row("ships", 0, SHIP_ROW)[SHIP_ROW - 1], 1.0, "complete");
    play(&mut st, "reward: 2 different goods");
    let d = decoded(&st, 0);
    assert_eq!(d.field("step"), one_hot(9, Some(7)), "reward good");
    assert_eq!(d.field("rewards left"), [1.0]);
    assert_eq!(d.field("rewards taken"), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    assert_eq!(d.field("reward goods left"), [2.0]);
    play(&mut st, "take as a reward: salt");
    let d = decoded(&st, 0);
    assert_eq!(d.field("reward goods left"), [1.0]);
    assert_eq!(d.field("reward goods taken"), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(d.row("players", 0, PLAYER_ROW)[8 + kind(&st, "salt")], 1.0);
}

/// The crown sails standing on regular masts (ruling 1): after the crown sails, before the goods.
#[test]
fn the_crown_sails_on_regular_masts_decode() {
    let st = position(
        2,
        json!({"players": [{"ships": [{"hull": ["bow", "stern"], "coat": "whale", "masts": 1, "crown_masts": 1,
                                       "crown_sails": 1, "crown_sails_on_regular_masts": 1}]}]}),
    );
    let d = decoded(&st, 0);
    // present, owner (4), single, bow, stern, centres, coat (5), then the masts and sails.
    assert_eq!(d.row("ships", 0, SHIP_ROW)[14..19], [1.0, 1.0, 0.0, 1.0, 1.0]);
}
