//! North Wind's observation tensor, decoded field by field: the tensor split into the fields
//! the game declares (`docs/games/north-wind.md`, "Observation tensor", lists the same fields:
//! `harness::tensor_doc`), each field's values asserted against positions built with
//! `setup()`, computed from their descriptions.

use serde_json::json;

use crate::engine::prelude::*;
use crate::engine::Field;
use crate::harness::tensor_doc::{one_hot, Decoded};

use super::tests::{legal_names, limited, play, position, St};

/// The documented fields in order (a field added, removed or moved must be documented).
const FIELDS: [&str; 18] = [
    "observer",
    "on turn",
    "ships",
    "columns",
    "contracts done",
    "majority",
    "supply",
    "phase",
    "decider",
    "voyage stack",
    "revealed",
    "current card",
    "lookout",
    "voyage numbers",
    "boatswain's first trade",
    "seen",
    "runs",
    "turn",
];

/// The fields the game declares for this state's configuration.
fn layout(st: &St) -> Vec<Field> {
    st.game().observation_layout().fields
}

/// `player`'s observation of `st`, split into the documented fields.
pub(super) fn decoded(st: &St, player: usize) -> Decoded {
    Decoded::of(st, player)
}

/// A card type's index in the data file's list of types.
fn type_of(st: &St, name: &str) -> usize {
    st.game().data.types.iter().position(|t| t.name == name).unwrap_or_else(|| panic!("no card type {name:?}"))
}

/// Counts of card types by name, as a vector over all types.
fn by_type(st: &St, counts: &[(&str, f32)]) -> Vec<f32> {
    let mut v = vec![0.0; st.game().data.types.len()];
    for &(name, k) in counts {
        v[type_of(st, name)] = k;
    }
    v
}

/// The table's fields in order, each of the size the code writes: 266 + 6·T values with
/// T = 18 card types, in every configuration.
#[test]
fn the_documented_layout_is_the_tensors() {
    let st = position(2, json!({}));
    let types = st.game().data.types.len();
    let layout = layout(&st);
    let names: Vec<&str> = layout.iter().map(|f| f.name).collect();
    assert_eq!(names, FIELDS);
    let sizes: Vec<usize> = layout.iter().map(|f| f.size).collect();
    assert_eq!(sizes, [4, 4, 4 * 19, 3 * 4, 3, 3 * 5, 8, 12, 4, 3, types, types, types, 6, 10, 3 * types, 3 * 4 * 9, 1]);
    assert_eq!(types, 18);
    // The rows of "runs": the multi-copy types in the data file's order, fog then outfitter.
    let multi: Vec<(&str, u8)> =
        st.game().data.types.iter().filter_map(|t| t.multi.map(|m| (t.name.as_str(), m))).collect();
    assert_eq!(multi, [("Fog", 0), ("Outfitter (2)", 1)]);
    for players in 2..=4 {
        assert_eq!(position(players, json!({})).observation_tensor(0).unwrap().len(), 266 + 6 * types);
    }
}

/// The bank's field: its gold/90 with `gold="limited"`; an unlimited bank always shows 1 (it
/// can pay anything). The string says "gold unlimited".
#[test]
fn observation_shows_the_bank_as_the_option_makes_it() {
    let st = limited(2, json!({"ships": [{"gold": 40}, {"gold": 5}]}));
    assert_eq!(decoded(&st, 0).field("supply")[7], 45.0 / 90.0);
    assert!(st.observation_string(1).unwrap().contains("| gold 45"));
    let st = position(2, json!({"ships": [{"gold": 40}, {"gold": 5}]}));
    assert_eq!(decoded(&st, 0).field("supply")[7], 1.0);
    assert!(st.observation_string(1).unwrap().contains("| gold unlimited"));
}

/// Three players with the 90-gold bank, P1 on turn at turn 37: every field of the table
/// (ships, columns, contracts, majorities, supply, bank) as the description makes it, for
/// each observer; the voyage fields are empty.
#[test]
fn every_field_of_a_position_between_voyages() {
    let st = limited(3, json!({
        "active": 1,
        "turn": 37,
        "ships": [
            {"gold": 7, "goods": {"grain": 2, "salt": 1}, "captains": 1, "letters": 2, "cannons": 3, "sail": 5,
             "crew": ["boatswain", "treasurer"]},
            {"gold": 12, "goods": {"fish": 1, "wine": 2}, "captains": 2, "letters": 0, "cannons": 4, "sail": 6,
             "crew": ["bookkeeper", "gunner", "treasurer", "lookout"]},
            {"gold": 3, "goods": {"wood": 2}, "captains": 0, "letters": 1, "cannons": 1, "sail": 4, "crew": []}
        ],
        "contracts": {"Northcape": [0, 1, 0], "Trutzhaven": [2, 2, 1], "Olesand": [1]}
    }));
    let types = st.game().data.types.len();
    let columns = st.game().data.contracts.iter().map(|c| c.len() as f32).collect::<Vec<_>>();
    assert_eq!(columns, [9.0, 9.0, 9.0]);
    for p in 0..3 {
        let d = decoded(&st, p);
        assert_eq!(d.field("observer"), one_hot(4, Some(p)));
        assert_eq!(d.field("on turn"), one_hot(4, Some(1)));
        // Gold/10, goods (grain, fish, salt, wood, wine)/2, captains/2, letters/2, cannons/4,
        // sail/6, crew (boatswain, bookkeeper, gunner, treasurer, lookout), tokens placed/10,
        // supply bonus, crew bonus, seat present.
        // P0: Northcape 2 and its majority = 3 tokens.
        assert_eq!(d.row("ships", 0, 19), [
            0.7, 1.0, 0.0, 0.5, 0.0, 0.0, 0.5, 1.0, 0.75, 5.0 / 6.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.0, 1.0
        ]);
        // P1: a token in each column, Olesand's majority, the supply and full crew bonuses = 6.
        assert_eq!(d.row("ships", 1, 19), [
            1.2, 0.0, 0.5, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.6, 1.0, 1.0, 1.0
        ]);
        // P2: Trutzhaven 2 and its majority = 3.
        assert_eq!(d.row("ships", 2, 19), [
            0.3, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.25, 4.0 / 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 0.0, 0.0, 1.0
        ]);
        assert_eq!(d.row("ships", 3, 19), [0.0; 19], "no fourth seat");
        // Tokens per port and seat, /9.
        assert_eq!(d.field("columns"), [
            2.0 / 9.0, 1.0 / 9.0, 0.0, 0.0, // Northcape: P0 2, P1 1
            0.0, 1.0 / 9.0, 2.0 / 9.0, 0.0, // Trutzhaven: P1 1, P2 2
            0.0, 1.0 / 9.0, 0.0, 0.0, // Olesand: P1 1
        ]);
        assert_eq!(d.field("contracts done"), [3.0 / 9.0, 3.0 / 9.0, 1.0 / 9.0]);
        assert_eq!(d.field("majority"), [one_hot(5, Some(0)), one_hot(5, Some(2)), one_hot(5, Some(1))].concat());
        // Goods by kind/8 (grain 6, fish 7, salt 7, wood 6, wine 6 left), captains 5/8,
        // letters 5/8, the bank's 90 - 22 gold /90.
        assert_eq!(d.field("supply"), [0.75, 0.875, 0.875, 0.75, 0.75, 0.625, 0.625, 68.0 / 90.0]);
        assert_eq!(d.field("phase"), one_hot(12, Some(1)), "choose stack");
        assert_eq!(d.field("decider"), [0.0; 4]);
        assert_eq!(d.field("voyage stack"), [0.0; 3]);
        assert_eq!(d.field("revealed"), vec![0.0; types]);
        assert_eq!(d.field("current card"), vec![0.0; types]);
        assert_eq!(d.field("lookout"), vec![0.0; types]);
        assert_eq!(d.field("voyage numbers"), [0.0; 6]);
        // Each stack's destination card is known to all from the start.
        let seen = [by_type(&st, &[("Northcape", 1.0)]), by_type(&st, &[("Trutzhaven", 1.0)]), by_type(&st, &[("Olesand", 1.0)])];
        assert_eq!(d.field("seen"), seen.concat());
        assert_eq!(d.field("runs"), [0.0; 108]);
        assert_eq!(d.field("turn"), [37.0 / 1000.0]);
    }
}

/// A voyage through every phase of a turn, decoded after each step: the phase, the voyage's
/// stack, the decider (the voyager on his card, a trade-letter holder on his offer, the
/// boatswain's owner), the cards revealed and resolved, the lookout's private card (only in
/// the voyager's observation), the voyage numbers, and at the end what each observer has
/// seen of the stack. Three players, the unlimited bank (its field shows 1).
#[test]
fn every_voyage_field_through_a_turn() {
    let mut st = position(3, json!({
        "ships": [
            {"gold": 5, "cannons": 2, "crew": ["boatswain", "gunner", "lookout"], "letters": 1},
            {"gold": 5, "letters": 1},
            {"gold": 5, "letters": 0}
        ]
    }));
    let types = st.game().data.types.len();
    let fog = type_of(&st, "Fog");
    let outfitter = type_of(&st, "Outfitter (2)");
    let none = vec![0.0; types];
    let check = |st: &St, phase: usize, decider: Option<usize>, numbers: [f32; 6]| {
        for p in 0..3 {
            let d = decoded(st, p);
            assert_eq!(d.field("phase"), one_hot(12, Some(phase)), "{}", st.render());
            assert_eq!(d.field("on turn"), one_hot(4, Some(0)));
            assert_eq!(d.field("decider"), one_hot(4, decider), "{}", st.render());
            assert_eq!(d.field("voyage stack"), one_hot(3, Some(1)), "Trutzhaven");
            assert_eq!(d.field("voyage numbers"), numbers, "{}", st.render());
            assert_eq!(d.field("supply")[7], 1.0, "an unlimited bank shows full");
        }
    };
    let lookout = |st: &St, p: usize| decoded(st, p).field("lookout").to_vec();
    let revealed = |st: &St| decoded(st, 2).field("revealed").to_vec();
    let current = |st: &St| decoded(st, 2).field("current card").to_vec();

    play(&mut st, "sail:Trutzhaven");
    check(&st, 2, None, [0.0; 6]); // the lookout looks
    assert_eq!(lookout(&st, 0), none);
    play(&mut st, "peek:Fog#2");
    check(&st, 3, None, [0.0; 6]); // keep or slide
    assert_eq!(lookout(&st, 0), one_hot(types, Some(fog)), "the voyager sees his lookout's card");
    assert_eq!((lookout(&st, 1), lookout(&st, 2)), (none.clone(), none.clone()), "the others do not");
    assert_eq!(revealed(&st), none, "a looked-at card is not revealed");
    play(&mut st, "slide-under");
    check(&st, 4, None, [0.0; 6]); // reveal
    assert_eq!(lookout(&st, 0), one_hot(types, Some(fog)), "the slid card");
    assert_eq!(lookout(&st, 1), none);

    // An outfitter the voyager passes: he stays the decider until the next card's decision.
    play(&mut st, "reveal:Outfitter (2)#2");
    check(&st, 8, Some(0), [0.0, 1.0 / 6.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(current(&st), one_hot(types, Some(outfitter)));
    play(&mut st, "pass");
    check(&st, 4, Some(0), [0.0, 1.0 / 6.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(current(&st), none);

    // A fog: the event die, pirates of strength 3, a fight with 2 cannons and a gunner.
    play(&mut st, "reveal:Fog#3");
    check(&st, 5, Some(0), [0.0, 2.0 / 6.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(revealed(&st), by_type(&st, &[("Outfitter (2)", 1.0), ("Fog", 1.0)]));
    assert_eq!(current(&st), one_hot(types, Some(fog)));
    play(&mut st, "event:pirates-3");
    check(&st, 6, Some(0), [0.0, 2.0 / 6.0, 1.0, 0.0, 0.0, 0.0]);
    play(&mut st, "fight");
    check(&st, 7, Some(0), [0.0, 2.0 / 6.0, 1.0, 0.0, 0.5, 0.0]);
    play(&mut st, "combat:hit");
    check(&st, 7, Some(0), [0.0, 2.0 / 6.0, 1.0, 1.0 / 3.0, 0.25, 0.0]);
    play(&mut st, "combat:double");
    // Won: the fight's numbers stay until the next fight; no card is being resolved.
    check(&st, 4, Some(0), [0.0, 2.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    assert_eq!(current(&st), none);
    assert_eq!(decoded(&st, 0).row("ships", 0, 19)[6], 0.5, "a pirate captain in the prison");

    // A trading port: the voyager's card, then P1's trade-letter offer (P2 holds no letter);
    // after the offers nobody decides.
    play(&mut st, "reveal:Grain port (1)");
    check(&st, 8, Some(0), [0.0, 3.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    assert_eq!(revealed(&st), by_type(&st, &[("Outfitter (2)", 1.0), ("Fog", 1.0), ("Grain port (1)", 1.0)]));
    assert_eq!(current(&st), one_hot(types, Some(type_of(&st, "Grain port (1)"))));
    play(&mut st, "buy-1:grain");
    check(&st, 9, Some(1), [0.5, 3.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    assert_eq!(st.current_player(), 1);
    play(&mut st, "pass");
    check(&st, 4, None, [0.5, 3.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);

    // A merchant: the boatswain's second trade, then P1's offer; two actions end the voyage.
    play(&mut st, "reveal:Merchant (2)");
    check(&st, 8, Some(0), [0.5, 4.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    assert!(decoded(&st, 0).field("boatswain's first trade").iter().all(|&x| x == 0.0));
    play(&mut st, "merchant-buy:wine");
    check(&st, 10, Some(0), [1.0, 4.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    // The first trade, which the second may not repeat ("1 other good"): bought wine (good 4).
    for p in 0..3 {
        assert_eq!(decoded(&st, p).field("boatswain's first trade"), one_hot(10, Some(4)));
    }
    assert!(st.observation_string(1).unwrap().contains("P0's boatswain may trade once more (he bought wine)"));
    assert_eq!(legal_names(&st)[0], "pass");
    play(&mut st, "pass");
    assert!(decoded(&st, 0).field("boatswain's first trade").iter().all(|&x| x == 0.0));
    check(&st, 9, Some(1), [1.0, 4.0 / 6.0, 1.0, 1.0, 0.0, 0.0]);
    play(&mut st, "pass");

    // P1's turn: the voyage fields are empty again; what each has seen of Trutzhaven.
    let tr = [("Trutzhaven", 1.0), ("Outfitter (2)", 1.0), ("Fog", 1.0), ("Grain port (1)", 1.0), ("Merchant (2)", 1.0)];
    let multi = |t: usize| st.game().data.types[t].multi.unwrap() as usize;
    for p in 0..3 {
        let d = decoded(&st, p);
        assert_eq!(d.field("phase"), one_hot(12, Some(1)));
        assert_eq!(d.field("on turn"), one_hot(4, Some(1)));
        assert_eq!(d.field("turn"), [1.0 / 1000.0]);
        for empty in ["decider", "voyage stack", "revealed", "current card", "lookout", "voyage numbers"] {
            assert!(d.field(empty).iter().all(|&x| x == 0.0), "{empty} after the voyage");
        }
        assert_eq!(d.row("seen", 1, types), by_type(&st, &tr));
        assert_eq!(d.row("seen", 0, types), by_type(&st, &[("Northcape", 1.0)]));
        // Copies seen at once on this voyage (stack 1, a row of 9 per multi-copy type): 1
        // outfitter; 2 fogs for the voyager (one slid under), 1 for the others.
        let mut runs = vec![0.0; 3 * 4 * 9];
        runs[(4 + multi(outfitter)) * 9 + 1] = 1.0 / 16.0;
        runs[(4 + multi(fog)) * 9 + if p == 0 { 2 } else { 1 }] = 1.0 / 16.0;
        assert_eq!(d.field("runs"), runs, "P{p}");
    }
    // The voyager's goods: 1 grain and 1 wine; the supply is one short of each.
    let d = decoded(&st, 2);
    assert_eq!(d.row("ships", 0, 19)[1..6], [0.5, 0.0, 0.0, 0.0, 0.5]);
    assert_eq!(d.field("supply")[..5], [0.875, 1.0, 1.0, 1.0, 0.875]);
}

/// The first and last phases: dealing the sea cards (nobody on turn yet is not a state the
/// tensor distinguishes: the first player is on turn), and the end of a game, where nobody
/// is on turn.
#[test]
fn the_deal_and_the_end_of_the_game() {
    let game = std::sync::Arc::new(super::tests::game(2));
    let st = St::new(game, 1, true);
    let d = decoded(&st, 0);
    assert_eq!(d.field("phase"), one_hot(12, Some(0)));
    assert_eq!(d.field("on turn"), one_hot(4, Some(0)));

    // Two players: P0 at 9 tokens fulfils Olesand's open contract (2 fish, 1 grain) and wins.
    let mut st = position(2, json!({
        "ships": [{"goods": {"fish": 2, "grain": 1}}],
        "contracts": {"Northcape": [0, 0, 0, 1], "Trutzhaven": [0, 0, 1], "Olesand": [0, 1, 1, 1, 1]}
    }));
    assert_eq!(st.scores()[0], 9.0);
    play(&mut st, "sail:Olesand");
    play(&mut st, "reveal:Olesand");
    play(&mut st, "fulfil-contract");
    assert!(st.is_terminal());
    for p in 0..2 {
        let d = decoded(&st, p);
        assert_eq!(d.field("phase"), one_hot(12, Some(11)));
        assert_eq!(d.field("on turn"), [0.0; 4]);
        assert_eq!(d.row("ships", 0, 19)[15], 1.0, "ten tokens of ten");
        assert!(d.field("voyage numbers").iter().all(|&x| x == 0.0));
    }
}
