//! Before the Wind's Rust tests (the shared conformance suite runs every configuration in
//! `tests/conformance.rs`); rule tests quote
//! the rulebook sentence they check. Positions are built with the setup helper
//! (`Game::setup`), with chance explicit so that draws are named.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::engine::data::{ComponentData, Source};
use crate::engine::{EngineError, GameState};
use crate::engine::prelude::*;

use super::data::{Kind, LARGE, SMALL};
use super::state::{Phase, Standing};
use super::{BeforeTheWind, Data};

fn opts(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn game(players: usize) -> BeforeTheWind {
    BeforeTheWind::load(&opts(json!({ "players": players }))).unwrap()
}

// ----- helpers ---------------------------------------------------------------------------

pub(super) type St = GameState<BeforeTheWind>;

pub(super) const L16: &str = "large ship (1 apple, 1 cheese, 1 spice, 1 silk) worth 16 VP";
const L18: &str = "large ship (2 apples, 2 cheese) worth 18 VP";
const L14A: &str = "large ship (2 cheese, 2 silk) worth 14 VP";
const L14B: &str = "large ship (2 spices, 2 silk) worth 14 VP";
pub(super) const S5: &str = "small ship (1 apple) worth 5 VP";
const S3: &str = "small ship (1 silk) worth 3 VP";
const S8: &str = "small ship (1 cheese, 1 spice) worth 8 VP";

pub(super) const RECEIVE: &str = "Receive 2 apples, 1 spice";
pub(super) const PROFIT8: &str = "Load Goods or Profit 8";
const PROFIT10: &str = "Load Goods or Profit 10";
pub(super) const STORE4: &str = "Store 4 goods for 18 guilders";
const SAFE: &str = "Safe";
const PRESERVE2: &str = "Preservation of 2 goods";
const PRESERVE3: &str = "Preservation of 3 goods";
const EXCHANGE: &str = "Exchange Goods in Warehouse";
const SELL: &str = "Sell Goods";
pub(super) const CHOICE: &str = "Receive 2 goods of choice";
const RS2: &str = "Receive and Store 2 goods for 14 guilders";

/// The harbour for `players` by the setup table: large ships then small ones.
fn harbour(players: usize) -> Value {
    match players {
        2 => json!([L16, L18, L14A, S5, S3]),
        3 => json!([L16, L18, L14A, S5, S3, S8]),
        _ => json!([L16, L18, L14A, L14B, S5, S3, S8]),
    }
}

/// A position from a description (the harbour defaults to the setup table's), with explicit chance.
fn position(players: usize, mut desc: Value) -> St {
    if desc.get("harbour").is_none() {
        desc["harbour"] = harbour(players);
    }
    let g = Arc::new(game(players));
    let inner = g.setup(&desc).unwrap_or_else(|e| panic!("{e}"));
    GameState::from_parts(g, inner, crate::engine::rng::rng_from_seed(1), true)
}

fn play(st: &mut St, action: &str) {
    let a = st.string_to_action(action).unwrap_or_else(|e| panic!("{action}: {e}\n{}", st.render()));
    st.apply(a).unwrap();
}

fn names(st: &St) -> Vec<String> {
    st.legal_actions().iter().map(|&a| st.action_to_string(a)).collect()
}

fn has(st: &St, action: &str) -> bool {
    names(st).iter().any(|n| n == action)
}

fn seat(st: &St, p: usize) -> super::Player {
    st.inner().seats[p]
}

fn bids(st: &St) -> Vec<String> {
    names(st).into_iter().filter(|n| n.starts_with("bid:")).collect()
}

// ----- 2.0 components, data file ------------------------------------------------------------

#[test]
fn the_components_match_the_component_list() {
    // 2.0: "120 Action cards (40 Receive Goods, 40 Store Goods in Warehouse, 40 Load Goods onto
    // Ship/Profit)", "60 Goods cards (15 apples, 15 cheeses, 15 spices, 15 silks)",
    // "46 Ship cards (20 small ships, 26 large ships)".
    let d = Data::shipped();
    assert_eq!(d.num_cards(), 120);
    for deck in 0..3u8 {
        let n: u32 = d.designs.iter().filter(|x| x.deck == deck).map(|x| x.count as u32).sum();
        assert_eq!(n, 40, "deck {deck}");
    }
    let ships = |size: usize| d.ships.iter().filter(|x| x.size as usize == size).map(|x| x.count as u32).sum::<u32>();
    assert_eq!(ships(LARGE), 26);
    assert_eq!(ships(SMALL), 20);
    assert_eq!(d.rules.goods_per_kind, 15);
    // 3.0: 22 guilders each; the harbour table; 5.0: the victory points to win.
    assert_eq!(d.rules.starting_guilders, 22);
    assert_eq!(d.harbour[&2], [3, 2]);
    assert_eq!(d.harbour[&3], [3, 3]);
    assert_eq!(d.harbour[&4], [4, 3]);
    assert_eq!((d.to_win[&2], d.to_win[&3], d.to_win[&4]), (60, 50, 50));
    // Every special action of 4.3.2 is in the decks.
    let kinds: Vec<Kind> = d.specials.iter().map(|&s| d.kind(s)).collect();
    for want in [
        |k: &Kind| matches!(k, Kind::ReceiveChoice { .. }),
        |k: &Kind| matches!(k, Kind::Preservation { .. }),
        |k: &Kind| matches!(k, Kind::ReceiveAndStore { .. }),
        |k: &Kind| matches!(k, Kind::Exchange),
        |k: &Kind| matches!(k, Kind::Sell),
        |k: &Kind| matches!(k, Kind::Safe),
    ] {
        assert!(kinds.iter().any(want), "{kinds:?}");
    }
}

#[test]
fn reconstructed_values_agree_with_the_rulebooks_numbers() {
    let d = Data::shipped();
    let has = |name: &str| d.designs.iter().any(|x| x.name == name);
    // 4.3.1: "You receive 2x apples and 1x spices." "You may pay 18 guilders and place 4 goods
    // into your warehouse." "You receive 11 guilders." 4.1: "The profit of 8 guilders".
    // 6.0: "a profit of 10 guilders". 4.3.2: "You receive 2 goods of your choice", "preserve 2
    // goods", "Take 2 Goods cards ... This costs 14 guilders."
    for name in [RECEIVE, STORE4, "Load Goods or Profit 11", PROFIT8, PROFIT10, CHOICE, PRESERVE2, RS2] {
        assert!(has(name), "{name}");
    }
    // 4.3.1 C: "Take the Ship card (and 16 victory points)".
    assert!(d.ships.iter().any(|s| s.name == L16 && s.vp == 16));
    // Large ships mostly carry 4 goods, small ones 1 or 2.
    let four = d.ships.iter().filter(|s| s.size == 0 && s.goods.iter().sum::<u8>() == 4).map(|s| s.count as u32).sum::<u32>();
    assert!(four * 2 > 26, "{four}");
    assert!(d.ships.iter().filter(|s| s.size == 1).all(|s| (1..=2).contains(&s.goods.iter().sum::<u8>())));
    // Every value is marked printed or reconstructed; the card values are reconstructed.
    assert!(d.file.action_cards.iter().all(|c| c.source == Source::Reconstructed));
    assert!(d.file.ships.iter().all(|c| c.source == Source::Reconstructed));
    assert_eq!(d.file.rules.starting_guilders.source, Source::Printed);
}

#[test]
fn a_users_data_file_is_validated_naming_the_field() {
    let base: Value = serde_json::from_str(Data::SHIPPED).unwrap();
    let field = |edit: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        edit(&mut v);
        match Data::from_value(&v) {
            Err(EngineError::DataFile { field, .. }) => field,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(field(&|v| v["rules"]["warehouse_capacity"]["value"] = json!(0)), "rules.warehouse_capacity.value");
    assert_eq!(field(&|v| v["action_cards"][0]["count"] = json!(0)), "action_cards[0].count");
    assert_eq!(field(&|v| v["action_cards"][0]["deck"] = json!("store_goods")), "action_cards[0].deck");
    assert_eq!(field(&|v| v["action_cards"][0]["goods"]["pears"] = json!(1)), "action_cards[0].goods.pears");
    assert_eq!(field(&|v| v["action_cards"][40]["profit"] = json!(3)), "action_cards[40].profit");
    assert_eq!(field(&|v| v["ships"][0]["goods"]["apples"] = json!(9)), "ships[0].goods.apples");
    assert_eq!(field(&|v| v["ships"][0]["victory_points"] = json!(0)), "ships[0].victory_points");
    assert_eq!(field(&|v| v["harbour"]["4"]["large"]["value"] = json!(7)), "harbour.4.large.value");
    assert_eq!(field(&|v| v["victory_points_to_win"]["5"] = json!({"value": 40, "source": "printed"})), "victory_points_to_win.5");
    assert_eq!(field(&|v| v["ships"][0]["source"] = json!("guessed")), "ships[0].source");
    // A replaced file is used: a game to 30 victory points.
    let mut v = base.clone();
    v["victory_points_to_win"]["2"]["value"] = json!(30);
    let g = BeforeTheWind::load(&opts(json!({"players": 2, "data": v}))).unwrap();
    assert_eq!(g.data.to_win[&2], 30);
    assert_eq!(g.config()["data"]["victory_points_to_win"]["2"]["value"], 30);
}

// ----- 3.0 setup ----------------------------------------------------------------------------

#[test]
fn setup_lays_out_the_harbour_by_player_count_and_gives_22_guilders() {
    // 3.0: "plus 22 guilders"; the table 2: 3 large + 2 small, 3: 3 + 3, 4: 4 + 3.
    for (players, large, small) in [(2, 3, 2), (3, 3, 3), (4, 4, 3)] {
        let g = Arc::new(game(players));
        let st = GameState::new(Arc::clone(&g), 5, false);
        let s = st.inner();
        let sizes: Vec<u8> = s.harbour.iter().filter(|&&h| h != super::state::NONE).map(|&h| g.data.ships[h as usize].size).collect();
        assert_eq!(sizes.iter().filter(|&&x| x == 0).count(), large);
        assert_eq!(sizes.iter().filter(|&&x| x == 1).count(), small);
        for p in 0..players {
            assert_eq!(s.seats[p].money, 22);
        }
    }
}

#[test]
fn each_player_takes_two_goods_of_his_choice_in_turn_order() {
    // 3.0: "Beginning with the active player and continuing clockwise, each player takes two
    // Goods cards of his choice openly."
    let g = Arc::new(game(3));
    let mut st = GameState::new(Arc::clone(&g), 9, false);
    assert_eq!(st.inner().phase, Phase::StartGoods);
    assert_eq!(names(&st), ["take:apple", "take:cheese", "take:spice", "take:silk"]);
    let order: Vec<i32> = (0..6)
        .map(|i| {
            let p = st.current_player();
            play(&mut st, ["take:apple", "take:silk"][i % 2]);
            p
        })
        .collect();
    assert_eq!(order, [0, 0, 1, 1, 2, 2]);
    for p in 0..3 {
        assert_eq!(seat(&st, p).hand, [1, 0, 0, 1]);
    }
    assert_eq!(st.inner().stacks, [12, 15, 15, 12]);
    assert_eq!(st.inner().phase, Phase::ChooseDeck);
    // The goods were taken openly: everyone's view shows them.
    assert!(st.game().text(st.inner(), Viewer::Table).contains("P2: 0 VP (0 ships), guilders secret; hand: 1 apple, 1 silk"));
}

// ----- 4.1 choosing Action cards ------------------------------------------------------------

#[test]
fn the_active_player_draws_as_many_cards_as_players_one_after_another() {
    // 4.1: "The active player draws a number of Action cards equal to the number of players";
    // "You choose which deck to draw the next Action card from only after you have laid the
    // previous card face up." The example (3 players): a Receive Goods card, then a Load Goods
    // onto Ship/Profit card with a profit of 8, then one more Load Goods onto Ship/Profit card.
    let mut st = position(3, json!({}));
    assert_eq!(st.current_player(), 0);
    play(&mut st, "draw:Receive Goods");
    play(&mut st, &format!("drawn:{RECEIVE}"));
    play(&mut st, "draw:Load Goods onto Ship/Profit");
    play(&mut st, &format!("drawn:{PROFIT8}"));
    // "If the first Load Goods onto Ship/Profit card had offered a higher profit, he could
    // have drawn a Store Goods in Warehouse card next."
    assert!(has(&st, "draw:Store Goods in Warehouse"));
    assert!(has(&st, "draw:Load Goods onto Ship/Profit"));
    play(&mut st, "draw:Load Goods onto Ship/Profit");
    play(&mut st, &format!("drawn:{PROFIT10}"));
    assert_eq!(st.inner().phase, Phase::Choose);
    assert!(st.game().text(st.inner(), Viewer::Table).contains(&format!("Action cards laid out: {RECEIVE}; {PROFIT8}; {PROFIT10}")));
}

#[test]
fn at_most_two_cards_from_a_deck_and_at_least_two_decks() {
    // 4.1: "You may take a maximum of two cards from each Action deck. You must also take
    // cards from at least two different Action decks."
    let mut st = position(4, json!({}));
    play(&mut st, "draw:Load Goods onto Ship/Profit");
    play(&mut st, &format!("drawn:{PROFIT8}"));
    // One card from the deck: a second is allowed (at the limit).
    assert!(has(&st, "draw:Load Goods onto Ship/Profit"));
    play(&mut st, "draw:Load Goods onto Ship/Profit");
    play(&mut st, &format!("drawn:{PROFIT10}"));
    // Two: a third is one past it.
    assert_eq!(names(&st), ["draw:Receive Goods", "draw:Store Goods in Warehouse"]);
    // Two players: the second card must come from another deck.
    let mut st = position(2, json!({}));
    play(&mut st, "draw:Receive Goods");
    play(&mut st, &format!("drawn:{RECEIVE}"));
    assert_eq!(names(&st), ["draw:Store Goods in Warehouse", "draw:Load Goods onto Ship/Profit"]);
    // Three players: after two from one deck the third comes from another (both rules agree).
    let mut st = position(3, json!({}));
    play(&mut st, "draw:Receive Goods");
    play(&mut st, &format!("drawn:{RECEIVE}"));
    play(&mut st, "draw:Receive Goods");
    play(&mut st, &format!("drawn:{CHOICE}"));
    assert!(!has(&st, "draw:Receive Goods"));
}

#[test]
fn an_empty_deck_is_formed_again_from_its_discard_pile() {
    // 4.3: "If an Action card deck runs out, form a new one by shuffling the matching discard
    // pile." (ruling 3: at once when it runs out.)
    let g = Arc::new(game(2));
    let mut inner = g.setup(&json!({"harbour": harbour(2)})).unwrap();
    // Move every Load card but one to the discard pile.
    let load: Vec<usize> = (0..g.data.designs.len()).filter(|&i| g.data.designs[i].deck == 2).collect();
    for &i in &load {
        inner.discard[i] = inner.deck[i];
        inner.deck[i] = 0;
    }
    let last = load[0];
    inner.discard[last] -= 1;
    inner.deck[last] = 1;
    let mut st = GameState::from_parts(Arc::clone(&g), inner, crate::engine::rng::rng_from_seed(1), true);
    play(&mut st, "draw:Load Goods onto Ship/Profit");
    assert_eq!(st.chance_outcomes().len(), 1, "the last card of the deck");
    st.apply(last as u32).unwrap();
    let s = st.inner();
    let in_deck: u32 = load.iter().map(|&i| s.deck[i] as u32).sum();
    let in_discard: u32 = load.iter().map(|&i| s.discard[i] as u32).sum();
    assert_eq!((in_deck, in_discard), (39, 0));
}

// ----- 4.2 the auction ----------------------------------------------------------------------

/// Four players (Garik P0, Larisa P1, Oleg P2, Sasha P3) with four cards laid out.
fn four_laid_out() -> St {
    position(4, json!({"display": [RECEIVE, PROFIT8, STORE4, CHOICE]}))
}

#[test]
fn the_rulebooks_four_player_auction_replays() {
    // 6.0, the example (4 players).
    let mut st = four_laid_out();
    // "Garik, the active player, lays out four Action cards. He then chooses the Receive Goods card."
    assert_eq!(st.current_player(), 0);
    play(&mut st, &format!("take:{RECEIVE}"));
    assert_eq!(seat(&st, 0).standing, Standing::FaceUp);
    // "Larisa also wants to receive goods. She offers 4 guilders for that card."
    assert_eq!(st.current_player(), 1);
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:4");
    // "In turn order each of the players may also make a bid. Oleg offers 7 guilders. Sasha is
    // not interested and passes."
    assert_eq!(st.current_player(), 2);
    play(&mut st, "bid:7");
    assert_eq!(st.current_player(), 3);
    play(&mut st, "pass");
    // "Garik takes the 7 guilders and hands the Receive Goods card to Oleg."
    assert_eq!(st.current_player(), 0);
    assert_eq!(
        names(&st),
        [
            "sell-to:P1 for 4 guilders",
            "sell-to:P2 for 7 guilders",
            "keep-paying:P1 4 guilders",
            "keep-paying:P2 7 guilders"
        ]
    );
    play(&mut st, "sell-to:P2 for 7 guilders");
    // "They place their cards face down in front of them."
    assert_eq!((seat(&st, 0).standing, seat(&st, 2).standing), (Standing::Guilders, Standing::FaceDown));
    assert_eq!(st.game().card_name(seat(&st, 2).card), RECEIVE);
    assert_eq!((seat(&st, 0).money, seat(&st, 2).money), (29, 15));
    // "Now Larisa chooses an Action card, since she received neither an Action card nor any
    // guilder cards. She chooses a Load Goods onto Ship/Profit card."
    assert_eq!(st.current_player(), 1);
    play(&mut st, &format!("take:{PROFIT8}"));
    // "Sasha also wants to load goods onto a ship, so he offers Larisa 5 guilders."
    assert_eq!(st.current_player(), 3);
    play(&mut st, &format!("bid-for:P1's {PROFIT8}"));
    play(&mut st, "bid:5");
    // Nobody else may bid: Garik and Oleg have cards or guilders face down.
    assert_eq!(st.inner().phase, Phase::Resolve);
    // "Larisa decides to pay 5 guilders to Sasha and keep the Load Goods onto Ship/Profit card herself."
    play(&mut st, "keep-paying:P3 5 guilders");
    assert_eq!((seat(&st, 1).money, seat(&st, 3).money), (17, 27));
    // "The Action card auction phase ends here, because every player has either an Action
    // card or guilder cards in front of him." The cards nobody took are discarded.
    let s = st.inner();
    assert!(matches!(s.phase, Phase::Play | Phase::Store | Phase::Load) || st.is_terminal() || s.phase == Phase::ChooseDeck);
    let g = st.game();
    let idx = |name: &str| g.data.designs.iter().position(|d| d.name == name).unwrap();
    assert_eq!(s.discard[idx(STORE4)], 1);
    assert_eq!(s.discard[idx(CHOICE)], 1);
    let total: u32 = (0..4).map(|p| seat(&st, p).money).sum();
    assert_eq!(total, 88, "guilders only changed hands");
}

#[test]
fn bids_are_at_least_one_guilder_and_never_above_ones_money() {
    // 4.2: "offering any number of guilders (minimum 1)"; "You may not offer more guilders than you have!"
    let mut st = position(4, json!({"display": [RECEIVE, PROFIT8, STORE4, CHOICE],
        "players": [{}, {"money": 3}, {"money": 0}, {}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    // The challenger must bid: no pass; 1 to 3 guilders (at his money; 4 is one past).
    assert_eq!(names(&st), ["bid:1", "bid:2", "bid:3"]);
    play(&mut st, "bid:3");
    // P2 has no guilders: he can only pass ("a bid must be at least 1 guilder").
    assert_eq!(names(&st), ["pass"]);
    play(&mut st, "pass");
    // P3 may bid higher or lower: "New bids may be either higher or lower than the previous
    // ones"; "Several players may make the same bid."
    assert!(has(&st, "bid:1") && has(&st, "bid:3") && has(&st, "bid:22"));
    assert!(!has(&st, "bid:23"));
    play(&mut st, "bid:3");
    assert_eq!(st.inner().phase, Phase::Resolve);
}

#[test]
fn a_player_without_guilders_cannot_open_an_auction() {
    let mut st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4], "players": [{}, {"money": 0}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    assert!(!names(&st).iter().any(|n| n.starts_with("bid-for:")));
    assert_eq!(names(&st), [format!("take:{PROFIT8}"), format!("take:{STORE4}")]);
}

#[test]
fn the_owner_may_choose_any_bid_but_keeps_only_by_paying_what_he_has() {
    // 4.2: "the player is not obliged to choose the highest bid"; "not obliged to choose the
    // lowest bid". Ruling 6: keeping means paying the bid, which he must have.
    let mut st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4], "players": [{"money": 5}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:5");
    play(&mut st, "bid:6");
    assert_eq!(
        names(&st),
        [
            "sell-to:P1 for 5 guilders",
            "sell-to:P2 for 6 guilders",
            "keep-paying:P1 5 guilders"
        ]
    );
    // The lowest bid may be taken.
    play(&mut st, "sell-to:P1 for 5 guilders");
    assert_eq!((seat(&st, 0).money, seat(&st, 1).money, seat(&st, 2).money), (10, 17, 22));
    // P2 lost and chooses next.
    assert_eq!(st.current_player(), 2);
    assert_eq!(st.inner().phase, Phase::Choose);
}

#[test]
fn players_with_cards_face_down_no_longer_take_part() {
    // 4.2: "Every player with cards placed face down in front of him may no longer take part
    // in the Action card auction phase."; only players who hold nothing may bid.
    let mut st = position(4, json!({"display": [RECEIVE, PROFIT8, STORE4, CHOICE]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("take:{PROFIT8}"));
    // P2 opens an auction for P0's card: P1 holds a face-up card, so only P3 may also bid.
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:2");
    assert_eq!(st.current_player(), 3);
    play(&mut st, "pass");
    assert_eq!(st.inner().phase, Phase::Resolve);
    play(&mut st, "keep-paying:P2 2 guilders");
    // P0 and P2 are done; P3 chooses: he may bid for P1's face-up card but not P0's face-down one.
    assert_eq!(st.current_player(), 3);
    assert!(has(&st, &format!("bid-for:P1's {PROFIT8}")));
    assert!(!has(&st, &format!("bid-for:P0's {RECEIVE}")));
}

#[test]
fn the_safe_before_choosing_protects_the_card() {
    // 4.3.2 F: "If you play the Safe card before choosing an Action card, place the chosen
    // Action card face down in front of you. The other players may not bid for your Action card!"
    let mut st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4], "players": [{"kept": [SAFE]}]}));
    assert!(has(&st, &format!("safe-take:{PROFIT8}")));
    play(&mut st, &format!("safe-take:{PROFIT8}"));
    assert_eq!(seat(&st, 0).standing, Standing::FaceDown);
    assert_eq!(st.current_player(), 1);
    assert!(!names(&st).iter().any(|n| n.starts_with("bid-for:")));
    // The Safe is discarded to its deck's discard pile.
    let g = st.game();
    let safe = g.data.designs.iter().position(|d| d.name == SAFE).unwrap();
    assert_eq!(st.inner().discard[safe], 1);
    assert_eq!(seat(&st, 0).kept.iter().sum::<u8>(), 0);
}

#[test]
fn the_safe_instead_of_a_bid_obtains_the_card_and_pays_5_compensation() {
    // 4.3.2 F: "If you play the Safe card instead of a bid in the auction for another
    // player's Action card, you automatically obtain that Action card, and its previous owner
    // receives compensation of 5 guilders from the bank."
    let mut st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4], "players": [{}, {}, {"kept": [SAFE]}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:4");
    assert_eq!(names(&st)[..2], ["pass", "safe-bid"]);
    play(&mut st, "safe-bid");
    assert_eq!(st.game().card_name(seat(&st, 2).card), RECEIVE);
    assert_eq!(seat(&st, 2).standing, Standing::FaceDown);
    assert_eq!(seat(&st, 0).standing, Standing::Guilders);
    assert_eq!((seat(&st, 0).money, seat(&st, 1).money, seat(&st, 2).money), (27, 22, 22));
    // P1's bid is void; P1 chooses again.
    assert_eq!(st.current_player(), 1);
    assert!(seat(&st, 2).safe_used);
}

#[test]
fn after_the_safe_no_special_card_from_the_hand_this_turn() {
    // 4.3.2 F: "If you have played the Safe card during the Action card auction phase, you may
    // no longer play special action cards from your hand during the Action card playing phase
    // this turn."
    let mut st = position(2, json!({"display": [RECEIVE, PROFIT8], "players": [{"kept": [SAFE, SELL], "hand": {"silk": 1}}]}));
    play(&mut st, &format!("safe-take:{PROFIT8}"));
    play(&mut st, &format!("take:{RECEIVE}"));
    assert_eq!(st.current_player(), 0);
    assert_eq!(st.inner().phase, Phase::Play);
    assert!(!names(&st).iter().any(|n| n.starts_with("play-kept:")));
    // Without the Safe the Sell card could be played.
    let st = position(2, json!({"play": true, "players": [{"kept": [SELL], "hand": {"silk": 1}, "card": PROFIT8}]}));
    assert!(has(&st, "play-kept:Sell Goods"));
}

#[test]
fn untaken_cards_are_discarded_and_every_player_ends_with_a_card_or_guilders() {
    let mut st = position(2, json!({"display": [RECEIVE, PROFIT8]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:3");
    play(&mut st, "sell-to:P1 for 3 guilders");
    let g = st.game();
    let i = g.data.designs.iter().position(|d| d.name == PROFIT8).unwrap();
    assert_eq!(st.inner().discard[i], 1);
    assert!(st.inner().display.iter().all(|&d| d == super::state::NONE));
}

// ----- 4.3.1 the Action cards ---------------------------------------------------------------

#[test]
fn receive_goods_takes_the_goods_shown_from_the_stacks() {
    // 4.3.1 A: "Place into your hand Goods cards of the type and quantity shown".
    let mut st = position(2, json!({"play": true, "players": [{"card": RECEIVE}]}));
    play(&mut st, &format!("play:{RECEIVE}"));
    assert_eq!(seat(&st, 0).hand, [2, 0, 1, 0]);
    assert_eq!(st.inner().stacks, [13, 15, 14, 15]);
}

#[test]
fn a_goods_stack_that_runs_out_gives_what_it_has() {
    // 2.0: 15 of each good (ruling 9: a Receive card gives what the stack still holds).
    let mut st = position(2, json!({"play": true, "players": [{"card": RECEIVE}, {"hand": {"apples": 14}}]}));
    assert_eq!(st.inner().stacks[0], 1);
    play(&mut st, &format!("play:{RECEIVE}"));
    assert_eq!(seat(&st, 0).hand, [1, 0, 1, 0]);
    assert_eq!(st.inner().stacks[0], 0);
}

#[test]
fn storing_pays_the_full_cost_even_for_fewer_goods() {
    // 4.3.1 B: "You may place fewer goods into the warehouse, but you must still pay the full
    // cost"; the example: "You may pay 18 guilders and place 4 goods into your warehouse."
    let mut st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"apples": 1, "silk": 2}}]}));
    assert_eq!(names(&st), [format!("leave-unused:{STORE4}").as_str(), "pay-and-store:apple for 18 guilders", "pay-and-store:silk for 18 guilders"]);
    play(&mut st, "pay-and-store:apple for 18 guilders");
    assert_eq!(seat(&st, 0).money, 4);
    play(&mut st, "store:silk");
    play(&mut st, "stop-storing");
    assert_eq!(seat(&st, 0).warehouse, [1, 0, 0, 1]);
    assert_eq!(seat(&st, 0).hand, [0, 0, 0, 1]);
    assert_eq!(seat(&st, 0).money, 4);
}

#[test]
fn storing_up_to_four_goods_and_the_hand_runs_out() {
    let mut st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"apples": 2, "silk": 3}}]}));
    play(&mut st, "pay-and-store:apple for 18 guilders");
    play(&mut st, "store:apple");
    play(&mut st, "store:silk");
    play(&mut st, "store:silk");
    // Four stored: the card is used up.
    assert_eq!(seat(&st, 0).warehouse, [2, 0, 0, 2]);
    assert_ne!(st.inner().phase, Phase::Store);
}

#[test]
fn a_warehouse_holds_at_most_eight_goods() {
    // 2.5, 4.3.1 B: "A warehouse may hold a maximum of 8 goods at one time!"
    let mut st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"silk": 3}, "warehouse": {"cheese": 6}}]}));
    play(&mut st, "pay-and-store:silk for 18 guilders");
    // 7 stored: one more fits (at the limit) ...
    play(&mut st, "store:silk");
    // ... 8: none more (one past it).
    assert_eq!(seat(&st, 0).stored(), 8);
    assert_ne!(st.inner().phase, Phase::Store);
    let st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"silk": 3}, "warehouse": {"cheese": 8}}]}));
    assert!(!names(&st).iter().any(|n| n.contains("store")));
}

#[test]
fn storing_needs_the_full_cost_in_guilders() {
    // 4.3.1 B: "If you do not have enough guilders to pay the storage cost, you may not place
    // the goods into your warehouse." At 18 guilders it is allowed; at 17 not.
    let st = position(2, json!({"play": true, "players": [{"card": STORE4, "money": 18, "hand": {"silk": 1}}]}));
    assert!(has(&st, "pay-and-store:silk for 18 guilders"));
    let st = position(2, json!({"play": true, "players": [{"card": STORE4, "money": 17, "hand": {"silk": 1}}]}));
    assert!(!has(&st, "pay-and-store:silk for 18 guilders"));
    // "If you cannot (or do not wish to) use a Store Goods in Warehouse card you have obtained,
    // you pay no costs at all."
    let mut st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"silk": 1}}]}));
    play(&mut st, &format!("leave-unused:{STORE4}"));
    assert_eq!(seat(&st, 0).money, 22);
}

#[test]
fn loading_needs_exactly_the_goods_of_the_ship_and_takes_its_points() {
    // 4.3.1 C: "If you have in your warehouse the goods, in the quantities shown on a Ship card
    // in the harbour, you may load those goods onto that ship. Discard the indicated goods ...
    // Take the corresponding Ship card" (and 16 victory points).
    let mut st = position(2, json!({"play": true, "players": [{"card": PROFIT8, "warehouse": {"apples": 1, "cheese": 1, "spices": 1, "silk": 2}}]}));
    assert_eq!(names(&st), ["profit:8 guilders".to_string(), format!("load:{L16}"), format!("load:{S5}"), format!("load:{S3}")]);
    play(&mut st, &format!("load:{L16}"));
    assert_eq!(seat(&st, 0).vp, 16);
    assert_eq!(seat(&st, 0).ships, 1);
    assert_eq!(seat(&st, 0).warehouse, [0, 0, 0, 1]);
    // "When playing a single Load Goods onto Ship/Profit card, you may load goods onto several
    // ships": the remaining silk fits the small ship.
    assert_eq!(names(&st), ["stop-loading".to_string(), format!("load:{S3}")]);
    play(&mut st, &format!("load:{S3}"));
    assert_eq!(seat(&st, 0).vp, 19);
    // "You may choose only one of these actions": no profit after loading.
    assert_eq!(seat(&st, 0).money, 22);
    assert_eq!(st.inner().stacks, [15, 15, 15, 15]);
    // One good short: not loadable.
    let st = position(2, json!({"play": true, "players": [{"card": PROFIT8, "warehouse": {"apples": 1, "cheese": 1, "spices": 1}}]}));
    assert!(!has(&st, &format!("load:{L16}")));
}

#[test]
fn a_load_goods_or_profit_card_and_a_receive_card_are_played_not_left_unused() {
    // 4.3.1 C: "When you play one of these cards, you must choose: load goods onto a ship, or
    // take the profit." 4.3.1 A: "Place into your hand Goods cards of the type and quantity
    // shown on the Receive Goods card". Only the Store card has "If you cannot (or do not wish
    // to) use" (ruling 9).
    let st = position(2, json!({"play": true, "players": [{"card": PROFIT8}]}));
    assert_eq!(names(&st), ["profit:8 guilders"]);
    let st = position(2, json!({"play": true, "players": [{"card": RECEIVE}]}));
    assert_eq!(names(&st), [format!("play:{RECEIVE}")]);
    let st = position(2, json!({"play": true, "players": [{"card": STORE4, "hand": {"silk": 1}}]}));
    assert_eq!(names(&st), [format!("leave-unused:{STORE4}"), "pay-and-store:silk for 18 guilders".into()]);
}

#[test]
fn a_receive_card_with_empty_stacks_is_discarded_in_its_own_words() {
    // 4.3.1 A: "Place into your hand Goods cards of the type and quantity shown on the Receive
    // Goods card"; only a Store card has "If you cannot (or do not wish to) use" (ruling 9). A
    // Receive card whose goods stacks are all empty gives nothing and is discarded: its move and
    // log sentence say so, not that it is left unused. (He is asked, rather than the card set
    // aside unasked, because a kept card could be played with guilders enough, ruling 2.)
    let mut st = position(2, json!({"play": true, "players": [
        {"card": RECEIVE, "money": 10, "kept": [RS2]}, {"hand": {"apples": 15, "spices": 15}}]}));
    assert_eq!(st.inner().stacks, [0, 15, 0, 15]);
    assert_eq!(names(&st), [format!("discard-giving-nothing:{RECEIVE}")]);
    let before = st.inner().clone();
    let a = st.string_to_action(&format!("discard-giving-nothing:{RECEIVE}")).unwrap();
    assert_eq!(a, super::actions::SET_ASIDE);
    st.apply(a).unwrap();
    let told = game(2).describe_move(&before, a, st.inner(), None);
    assert!(
        told.starts_with(&format!("P0 discards {RECEIVE}, which gives nothing: its goods stacks are empty.")),
        "{told}"
    );
    assert!(!told.contains("unused"), "{told}");
    assert_eq!(seat(&st, 0).hand, [0; 4]);
    // A Store card is still left unused in those words.
    let st = position(2, json!({"play": true, "players": [{"card": STORE4, "money": 10, "kept": [RS2]}]}));
    assert_eq!(names(&st), [format!("leave-unused:{STORE4}")]);
}

#[test]
fn a_player_who_cannot_pay_is_asked_all_the_same() {
    // 3.0: "Keep the amount of money you own secret during the game." Being asked must not
    // tell the others whether a player can pay (ruling 2): P1, with a Store card he could use
    // but for his guilders, is asked and may only leave it unused, as a player who could pay
    // may.
    let mut st = position(3, json!({"play": true, "players": [
        {"card": PROFIT8}, {"card": STORE4, "money": 10, "hand": {"silk": 1}}, {"card": PROFIT10}]}));
    play(&mut st, "profit:8 guilders");
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), [format!("leave-unused:{STORE4}")]);
    play(&mut st, &format!("leave-unused:{STORE4}"));
    assert_eq!(st.current_player(), 2);
    // A Receive and Store card, obtained or kept, that he cannot pay for: asked, and the log
    // tells the others nothing of why he keeps it or plays no kept card.
    let mut st = position(3, json!({"play": true, "players": [
        {"card": PROFIT8}, {"card": RS2, "money": 10}, {"card": PROFIT10}]}));
    let before = st.inner().clone();
    let a = st.string_to_action("profit:8 guilders").unwrap();
    st.apply(a).unwrap();
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), [format!("keep:{RS2}")]);
    let told = game(3).describe_move(&before, a, st.inner(), Some(2));
    assert_eq!(told, "P0 plays Load Goods or Profit 8 for its profit of 8 guilders.");
    let mut st = position(3, json!({"play": true, "players": [
        {"card": PROFIT8}, {"card": STORE4, "money": 10, "kept": [RS2]}, {"card": PROFIT10}]}));
    play(&mut st, "profit:8 guilders");
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), [format!("leave-unused:{STORE4}")]);
    play(&mut st, &format!("leave-unused:{STORE4}"));
    assert_eq!(names(&st), ["no-kept-card"]);
    // A card he cannot use for a reason the table shows (an Exchange card with an empty
    // warehouse) is not set aside unasked while a kept card could be played with guilders
    // enough: he is asked, and keeps it in the same words whatever his purse.
    let mut st = position(3, json!({"play": true, "players": [
        {"card": PROFIT8}, {"card": EXCHANGE, "money": 10, "kept": [RS2]}, {"card": PROFIT10}]}));
    play(&mut st, "profit:8 guilders");
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), [format!("keep:{EXCHANGE}")]);
}

#[test]
fn card_names_say_1_good_in_the_singular() {
    // "Receive and Store 1 good for 7 guilders": the singular for one, in the data's card names,
    // the moves and the setup helper's card names.
    let g = game(2);
    assert!(g.data.designs.iter().any(|d| d.name == "Receive and Store 1 good for 7 guilders"));
    assert!(g.data.designs.iter().all(|d| !d.name.contains(" 1 goods")));
    let mut st = position(2, json!({"play": true, "players": [{"card": "Receive and Store 1 good for 7 guilders"}]}));
    let before = st.inner().clone();
    let a = st.string_to_action("play:Receive and Store 1 good for 7 guilders").unwrap();
    st.apply(a).unwrap();
    let told = g.describe_move(&before, a, st.inner(), None);
    assert!(told.contains("takes 1 good of his choice"), "{told}");
}

#[test]
fn the_profit_pays_the_amount_shown() {
    // 4.3.1 C: "If you decide to take the profit, you receive guilders in the amount shown on the card."
    let mut st = position(2, json!({"play": true, "players": [{"card": "Load Goods or Profit 11"}]}));
    play(&mut st, "profit:11 guilders");
    assert_eq!(seat(&st, 0).money, 33);
}

#[test]
fn the_cards_are_played_in_turn_order_from_the_active_player() {
    // 4.3: "Beginning with the active player (and continuing clockwise), each player performs an action"
    let mut st = position(3, json!({"active": 1, "play": true,
        "players": [{"card": PROFIT8}, {"card": PROFIT10}, {"card": "Load Goods or Profit 11"}]}));
    let mut order = Vec::new();
    for _ in 0..3 {
        order.push(st.current_player());
        let profit = names(&st).into_iter().find(|n| n.starts_with("profit:")).unwrap();
        play(&mut st, &profit);
    }
    assert_eq!(order, [1, 2, 0]);
    // The turn ends, the marker passes to the left.
    assert_eq!(st.inner().active, 2);
    assert_eq!(st.inner().phase, Phase::ChooseDeck);
}

// ----- 4.3.2 special actions ----------------------------------------------------------------

#[test]
fn receive_goods_of_choice() {
    // 4.3.2 A: "Take into your hand any goods of your choice, in the quantity shown on the card."
    let mut st = position(2, json!({"play": true, "players": [{"card": CHOICE}]}));
    assert_eq!(names(&st), [format!("play:{CHOICE}"), format!("keep:{CHOICE}")]);
    play(&mut st, &format!("play:{CHOICE}"));
    play(&mut st, "take:silk");
    play(&mut st, "take:silk");
    assert_eq!(seat(&st, 0).hand, [0, 0, 0, 2]);
}

#[test]
fn a_special_card_may_be_kept_and_played_on_a_later_turn_beside_the_normal_card() {
    // 4.3.2: "special action cards may be played immediately or may be kept by you to be
    // played on later turns. If you have kept special action cards, you may play one of those
    // cards during the Action card playing phase in addition to your normal Action card."
    let mut st = position(2, json!({"play": true, "players": [{"card": CHOICE}, {"card": PROFIT8}]}));
    play(&mut st, &format!("keep:{CHOICE}"));
    assert_eq!(seat(&st, 0).kept.iter().sum::<u8>(), 1);
    let mut st = position(2, json!({"play": true, "players": [{"card": PROFIT8, "kept": [CHOICE, SELL], "hand": {"apples": 1}}]}));
    play(&mut st, "profit:8 guilders");
    assert_eq!(names(&st), ["play-kept:Receive 2 goods of choice", "play-kept:Sell Goods", "no-kept-card"]);
    play(&mut st, "play-kept:Sell Goods");
    play(&mut st, "sell-from-hand:apple");
    // Only one kept card per turn: P0 is done.
    assert_eq!(st.current_player(), 1);
    assert_eq!(seat(&st, 0).money, 22 + 8 + 3);
}

#[test]
fn a_special_kept_this_turn_waits_for_a_later_turn() {
    // 4.3.2: special cards "may be kept by you to be played on later turns. If you have kept
    // special action cards, you may play one of those cards ... in addition to your normal
    // Action card." The card kept this turn is not one of those until the next turn.
    let mut st = position(2, json!({"play": true, "players": [{"card": SELL, "hand": {"apples": 2}}, {"card": PROFIT8}]}));
    play(&mut st, &format!("keep:{SELL}"));
    assert_eq!(seat(&st, 0).kept.iter().sum::<u8>(), 1);
    assert_eq!(st.current_player(), 1, "P0 has nothing more to play this turn");
    // A copy kept on an earlier turn may be played beside it.
    let mut st = position(2, json!({"play": true, "players": [{"card": SELL, "kept": [SELL], "hand": {"apples": 2}}, {"card": PROFIT8}]}));
    play(&mut st, &format!("keep:{SELL}"));
    assert_eq!(names(&st), ["play-kept:Sell Goods", "no-kept-card"]);
    play(&mut st, "play-kept:Sell Goods");
    play(&mut st, "sell-from-hand:apple");
    play(&mut st, "stop-selling");
    assert_eq!(seat(&st, 0).kept.iter().sum::<u8>(), 1, "the card kept this turn stays in the hand");
    assert_eq!(st.current_player(), 1);
}

#[test]
fn without_an_action_card_a_kept_special_may_still_be_played() {
    // 4.3.2: "Exception: if you do not obtain an Action card during the Action card auction
    // phase, you may still play a special action card from your hand."
    let st = position(2, json!({"play": true, "players": [{"kept": [CHOICE]}, {"card": PROFIT8}]}));
    assert_eq!(st.current_player(), 0);
    assert_eq!(names(&st), ["play-kept:Receive 2 goods of choice", "no-kept-card"]);
}

#[test]
fn preservation_is_placed_by_the_warehouse_and_saves_spoiling_goods() {
    // 4.3.2 B: "Play this card by placing it next to your warehouse. When the ships leave the
    // harbour, you will preserve goods in the quantity shown on the card. First determine
    // which goods spoil. Then decide which of those goods you want to preserve."
    let mut st = position(2, json!({"play": true, "harbour": [L16, S5],
        "players": [{"card": PRESERVE2, "warehouse": {"apples": 3, "silk": 1}}]}));
    play(&mut st, &format!("play:{PRESERVE2}"));
    assert_eq!(seat(&st, 0).placed.iter().sum::<u8>(), 1);
    // The turn ends with 2 ships: the fleet leaves. P1 (now active) has nothing to decide; P0 preserves.
    assert_eq!(st.inner().phase, Phase::Preserve);
    assert_eq!(st.current_player(), 0);
    assert_eq!(st.inner().spoiling, [3, 0, 0, 0]);
    assert_eq!(names(&st), ["let-spoil", "preserve-in-warehouse:apple"]);
    play(&mut st, "preserve-in-warehouse:apple");
    play(&mut st, "preserve-in-warehouse:apple");
    // Two preserved, one apple spoils; silk never spoils; the card is discarded (ruling 11).
    assert_eq!(seat(&st, 0).warehouse, [2, 0, 0, 1]);
    assert_eq!(seat(&st, 0).placed.iter().sum::<u8>(), 0);
    assert_eq!(st.inner().phase, Phase::Ships);
}

#[test]
fn preservation_beyond_the_warehouse_saves_goods_in_the_hand() {
    // 4.3.2 B: "If the Preservation of Goods card allows you to preserve more goods than you
    // have in your warehouse, you may also preserve goods in your hand." (ruling 10)
    let mut st = position(2, json!({"play": true, "harbour": [L16],
        "players": [{"placed": [PRESERVE3], "warehouse": {"apples": 1}, "hand": {"cheese": 2, "silk": 1}}]}));
    assert_eq!(st.inner().phase, Phase::Preserve);
    // While a warehouse good spoils unpreserved, no hand good may be preserved.
    assert_eq!(names(&st), ["let-spoil", "preserve-in-warehouse:apple"]);
    play(&mut st, "preserve-in-warehouse:apple");
    assert_eq!(names(&st), ["let-spoil", "preserve-in-hand:cheese", "preserve-in-hand:silk"]);
    play(&mut st, "preserve-in-hand:cheese");
    // What was saved from the hand so far is seen: it decides what more may be (a second
    // cheese, not a third).
    let seen = st.observation_string(0).unwrap();
    assert!(seen.contains("(1 more; spoiling in the warehouse: nothing; preserved from the hand: 1 cheese)"), "{seen}");
    play(&mut st, "preserve-in-hand:cheese");
    assert_eq!(seat(&st, 0).warehouse, [1, 0, 0, 0]);
    assert_eq!(seat(&st, 0).hand, [0, 2, 0, 0]);
}

#[test]
fn preservation_saves_hand_goods_only_beyond_every_good_in_the_warehouse() {
    // Ruling 10, the literal reading of 4.3.2 B: "more goods than you have in your warehouse"
    // counts every good stored, silk too, not only those that spoil. With 1 apple and 4 silk
    // stored (5 goods) a card that saves 3 saves the apple and no hand good; so it does with
    // 1 apple and 2 silk (3 goods: the card saves as many, not more); with 1 apple and 1 silk
    // (2 goods) it saves the apple and 2 goods of the hand.
    let departure = |silk: u8| {
        position(2, json!({"play": true, "harbour": [L16],
            "players": [{"placed": [PRESERVE3], "warehouse": {"apples": 1, "silk": silk}, "hand": {"cheese": 2}}]}))
    };
    for silk in [4, 2] {
        let mut st = departure(silk);
        assert_eq!(names(&st), ["let-spoil", "preserve-in-warehouse:apple"]);
        play(&mut st, "preserve-in-warehouse:apple");
        assert_ne!(st.inner().phase, Phase::Preserve, "{silk} silk: no hand good may be saved");
        assert_eq!(seat(&st, 0).warehouse, [1, 0, 0, silk]);
        assert_eq!(seat(&st, 0).hand, [0; 4], "{silk} silk: the hand is discarded");
    }
    let mut st = departure(1);
    play(&mut st, "preserve-in-warehouse:apple");
    assert_eq!(names(&st), ["let-spoil", "preserve-in-hand:cheese"]);
    play(&mut st, "preserve-in-hand:cheese");
    play(&mut st, "preserve-in-hand:cheese");
    assert_eq!(seat(&st, 0).warehouse, [1, 0, 0, 1]);
    assert_eq!(seat(&st, 0).hand, [0, 2, 0, 0]);
}

#[test]
fn receive_and_store_takes_goods_of_choice_straight_into_the_warehouse_for_its_cost() {
    // 4.3.2 C: "Take 2 Goods cards of your choice from the goods stacks and place them straight
    // into your warehouse. This costs 14 guilders."
    let mut st = position(2, json!({"play": true, "players": [{"card": RS2, "hand": {"apples": 2}}]}));
    play(&mut st, &format!("play:{RS2}"));
    assert_eq!(seat(&st, 0).money, 8);
    play(&mut st, "take-into-warehouse:cheese");
    play(&mut st, "take-into-warehouse:spice");
    assert_eq!(seat(&st, 0).warehouse, [0, 1, 1, 0]);
    assert_eq!(seat(&st, 0).hand, [2, 0, 0, 0], "not from the hand");
    // At 14 guilders it may be played, at 13 not.
    let st = position(2, json!({"play": true, "players": [{"card": RS2, "money": 14}]}));
    assert!(has(&st, &format!("play:{RS2}")));
    let st = position(2, json!({"play": true, "players": [{"card": RS2, "money": 13}]}));
    assert!(!has(&st, &format!("play:{RS2}")));
}

#[test]
fn exchange_one_or_two_goods_with_the_hand_or_other_warehouses() {
    // 4.3.2 D: "You may exchange 1 or 2 goods from your warehouse for the same number of goods
    // from your hand or from other players' warehouses." "If you exchange 2 goods, you may
    // 'move' one good twice." The example: Oleg exchanges the cheese from his warehouse for
    // apples from Larisa's warehouse, then the apples he has just acquired for silk from
    // Alexander's warehouse. (Oleg P0, Larisa P1, Alexander P2.)
    let mut st = position(3, json!({"play": true, "players": [
        {"card": EXCHANGE, "warehouse": {"cheese": 1}, "hand": {"spices": 1}},
        {"warehouse": {"apples": 1}},
        {"warehouse": {"silk": 1}}]}));
    play(&mut st, &format!("play:{EXCHANGE}"));
    assert_eq!(
        names(&st),
        ["exchange:cheese for spice from the hand",
         "exchange:cheese for apple from P1's warehouse",
         "exchange:cheese for silk from P2's warehouse"]
    );
    play(&mut st, "exchange:cheese for apple from P1's warehouse");
    assert!(has(&st, "stop-exchanging"));
    play(&mut st, "exchange:apple for silk from P2's warehouse");
    assert_eq!(seat(&st, 0).warehouse, [0, 0, 0, 1]);
    assert_eq!(seat(&st, 1).warehouse, [0, 1, 0, 0]);
    assert_eq!(seat(&st, 2).warehouse, [1, 0, 0, 0]);
    // Two exchanges at most: the card is done.
    assert_ne!(st.inner().phase, Phase::Exchange);
}

#[test]
fn sell_goods_pays_3_guilders_each_from_hand_or_warehouse() {
    // 4.3.2 E: "You may sell any number of goods from your hand or from your warehouse. For
    // each Goods card you receive 3 guilders from the bank."
    let mut st = position(2, json!({"play": true, "players": [{"card": SELL, "hand": {"apples": 1}, "warehouse": {"silk": 2}}]}));
    play(&mut st, &format!("play:{SELL}"));
    play(&mut st, "sell-from-hand:apple");
    play(&mut st, "sell-from-warehouse:silk");
    play(&mut st, "stop-selling");
    assert_eq!(seat(&st, 0).money, 28);
    assert_eq!(seat(&st, 0).warehouse, [0, 0, 0, 1]);
    assert_eq!(st.inner().stacks, [15, 15, 15, 14]);
}

#[test]
fn the_safe_cannot_be_played_in_the_playing_phase() {
    // 4.3.2 F: "you may only play this card during the Action card auction phase".
    let st = position(2, json!({"play": true, "players": [{"card": SAFE}, {"card": PROFIT8}]}));
    assert_eq!(st.current_player(), 1, "P0 keeps the Safe without a decision");
    assert_eq!(seat(&st, 0).kept.iter().sum::<u8>(), 1);
}

#[test]
fn load_goods_comes_before_receive_and_store_or_exchange() {
    // 4.3.3: "If you have decided to play the special action card 'Receive Goods and Store in
    // Warehouse' or 'Exchange Goods in Warehouse' together with the Action card 'Load Goods
    // onto Ship/Profit', you must play the Load Goods onto Ship/Profit card first!"
    let mut st = position(2, json!({"play": true, "players": [{"card": PROFIT8, "kept": [EXCHANGE, SELL],
        "warehouse": {"cheese": 1}, "hand": {"apples": 1}}]}));
    assert!(!has(&st, "play-kept:Exchange Goods in Warehouse"));
    assert!(has(&st, "play-kept:Sell Goods"));
    play(&mut st, "profit:8 guilders");
    assert!(has(&st, "play-kept:Exchange Goods in Warehouse"));
}

// ----- 4.4 the fleet leaves -----------------------------------------------------------------

#[test]
fn the_fleet_leaves_at_two_ships_and_not_at_three() {
    // 4.4.1: "If at the end of a turn 2 or fewer ships remain in the harbour, the fleet leaves the harbour."
    let st = position(2, json!({"play": true, "harbour": [L16, L18, S5], "players": [{"hand": {"apples": 1}}]}));
    assert_eq!(st.inner().phase, Phase::ChooseDeck);
    assert_eq!(seat(&st, 0).hand, [1, 0, 0, 0]);
    let mut st = position(2, json!({"play": true, "harbour": [L16, S5], "players": [{"hand": {"apples": 1}}]}));
    // "Discard the remaining Ship cards onto the matching discard piles."; "Each player
    // discards all goods remaining in his hand."
    assert_eq!(st.inner().phase, Phase::Ships);
    assert_eq!(seat(&st, 0).hand, [0, 0, 0, 0]);
    assert_eq!(st.inner().ship_discard.total(), 2);
    // 4.4.2: new ships arrive by player count (2 players: 3 large, 2 small).
    assert_eq!(st.inner().deal, [3, 2]);
    while st.is_chance() {
        let a = st.chance_outcomes()[0].0;
        st.apply(a).unwrap();
    }
    let g = st.game();
    let sizes: Vec<u8> = st.inner().harbour.iter().filter(|&&h| h != super::state::NONE).map(|&h| g.data.ships[h as usize].size).collect();
    assert_eq!(sizes, [0, 0, 0, 1, 1]);
}

/// The names of the large ships of the game, each copy once, but for `except`.
fn large_ships(except: &[&str]) -> Vec<String> {
    let g = game(2);
    let mut out = Vec::new();
    for x in g.data.ships.iter().filter(|x| x.size == LARGE as u8) {
        let skip = except.iter().filter(|&&e| e == x.name).count();
        for _ in skip..x.count as usize {
            out.push(x.name.clone());
        }
    }
    out
}

fn arriving(st: &St) -> Vec<String> {
    st.legal_actions().iter().map(|&a| st.action_to_string(a)).collect()
}

#[test]
fn an_empty_ship_deck_is_formed_again_from_its_discard_pile() {
    // Ruling 4: the last large ship is drawn, then the departed large ships are shuffled into
    // a new deck. P1 has loaded 23 of the 26 large ships, L16 and L18 leave with the fleet.
    let mut loaded = large_ships(&[L16, L18]);
    assert_eq!(loaded.len(), 24);
    let last = loaded.pop().unwrap();
    let mut st = position(2, json!({"play": true, "harbour": [L16, L18], "players": [{}, {"ships": loaded, "vp": 0}]}));
    assert_eq!(st.inner().deal, [3, 2]);
    assert_eq!(arriving(&st), [format!("arrives:{last}")]);
    play(&mut st, &format!("arrives:{last}"));
    assert_eq!(arriving(&st), [format!("arrives:{L18}"), format!("arrives:{L16}")]);
    assert_eq!(st.inner().ship_discard.total(), 0, "the discard pile is the new deck");
    play(&mut st, &format!("arrives:{L18}"));
    assert_eq!(arriving(&st), [format!("arrives:{L16}")]);
    play(&mut st, &format!("arrives:{L16}"));
    // Then the 2 small ships.
    assert_eq!(st.inner().deal, [0, 2]);
}

#[test]
fn a_size_with_no_ship_left_lays_out_fewer_ships() {
    // Ruling 4: every large ship is loaded, and none leaves with the fleet: the deck and the
    // discard pile of large ships are empty, so only the 2 small ships arrive.
    let loaded = large_ships(&[]);
    assert_eq!(loaded.len(), 26);
    let mut st = position(2, json!({"play": true, "harbour": [S5, S3], "players": [{}, {"ships": loaded, "vp": 0}]}));
    while st.is_chance() {
        let a = st.legal_actions()[0];
        st.apply(a).unwrap();
    }
    let g = st.game();
    let sizes: Vec<u8> = st.inner().harbour.iter().filter(|&&h| h != super::state::NONE).map(|&h| g.data.ships[h as usize].size).collect();
    assert_eq!(sizes, [1, 1]);
    assert_eq!(st.inner().phase, Phase::ChooseDeck);
}

#[test]
fn the_limited_bank_pays_only_what_it_holds() {
    // Ruling 17 (checklist line 4): by default the bank always pays; with bank="limited" it
    // holds the box's 228 guilders less what the players hold. Here the players hold 223: the
    // bank holds 5, so a profit of 8 pays 5, and then a sale pays nothing.
    let load = |bank: &str| {
        let g = Arc::new(BeforeTheWind::load(&opts(json!({"players": 2, "bank": bank}))).unwrap());
        let inner = g.setup(&json!({"play": true, "harbour": harbour(2), "players": [
            {"money": 150, "card": PROFIT8, "kept": [SELL], "hand": {"silk": 1}}, {"money": 73}]})).unwrap();
        GameState::from_parts(g, inner, crate::engine::rng::rng_from_seed(1), true)
    };
    let mut st = load("limited");
    assert!(st.game().text(st.inner(), Viewer::Table).contains("Bank: 5 guilders"));
    play(&mut st, "profit:8 guilders");
    assert_eq!(seat(&st, 0).money, 155);
    play(&mut st, "play-kept:Sell Goods");
    play(&mut st, "sell-from-hand:silk");
    assert_eq!(seat(&st, 0).money, 155, "an empty bank pays nothing");
    assert_eq!(seat(&st, 0).hand, [0; 4]);
    let mut st = load("unlimited");
    assert!(!st.game().text(st.inner(), Viewer::Table).contains("Bank:"));
    play(&mut st, "profit:8 guilders");
    play(&mut st, "play-kept:Sell Goods");
    play(&mut st, "sell-from-hand:silk");
    assert_eq!(seat(&st, 0).money, 150 + 8 + 3);
    // The limited bank cannot start with less than the players' guilders: a described
    // position holding more than the box is refused.
    let g = BeforeTheWind::load(&opts(json!({"players": 2, "bank": "limited"}))).unwrap();
    assert!(g.setup(&json!({"harbour": harbour(2), "players": [{"money": 200}, {"money": 29}]})).is_err());
    // Both readings are configurations of the game.
    let configs = BeforeTheWind::configurations();
    assert_eq!(configs.len(), 6);
    assert!(configs.iter().any(|c| c["bank"] == "limited" && c["players"] == 4));
}

#[test]
fn the_rulebooks_spoilage_example() {
    // 4.4.1 example: "Garik has 3 apple cards. Garik must discard all of them. Larisa has 1
    // spices card and 1 cheese card in her warehouse (2 cards in total). She must discard half
    // of them and decides to discard the spices card. Alexander has 2 spices cards and 1 cheese
    // card in his warehouse (3 cards in total). He must discard only 1 card and decides to
    // discard the cheese card." (Garik P0, Larisa P1, Alexander P2; P2 is active, so P0 is
    // first after the marker passes.)
    let mut st = position(3, json!({"active": 2, "play": true, "harbour": [L16], "players": [
        {"warehouse": {"apples": 3}},
        {"warehouse": {"spices": 1, "cheese": 1}},
        {"warehouse": {"spices": 2, "cheese": 1}}]}));
    // Garik has no choice: his apples are gone.
    assert_eq!(seat(&st, 0).warehouse, [0, 0, 0, 0]);
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), ["spoil:0 cheese, 1 spice", "spoil:1 cheese, 0 spices"]);
    play(&mut st, "spoil:0 cheese, 1 spice");
    assert_eq!(seat(&st, 1).warehouse, [0, 1, 0, 0]);
    assert_eq!(st.current_player(), 2);
    assert_eq!(names(&st), ["spoil:0 cheese, 1 spice", "spoil:1 cheese, 0 spices"]);
    play(&mut st, "spoil:1 cheese, 0 spices");
    assert_eq!(seat(&st, 2).warehouse, [0, 0, 2, 0]);
    assert_eq!(st.inner().stacks, [15, 14, 13, 15]);
}

#[test]
fn half_the_cheeses_and_spices_rounded_down_spoil_and_silk_never() {
    // 4.4.1: "Half of the combined total of cheeses and spices"; "If you have an odd number of
    // cheeses and spices in your warehouse, the number of spoiling goods is rounded down."
    // One cheese: nothing spoils; silk never spoils.
    let st = position(2, json!({"play": true, "harbour": [L16], "players": [{"warehouse": {"cheese": 1, "silk": 4}}, {"warehouse": {"cheese": 3, "spices": 2}}]}));
    assert_eq!(seat(&st, 0).warehouse, [0, 1, 0, 4]);
    // P1 (active after the turn) has 5: 2 spoil, of his choice.
    assert_eq!(st.current_player(), 1);
    assert_eq!(names(&st), ["spoil:0 cheese, 2 spices", "spoil:1 cheese, 1 spice", "spoil:2 cheese, 0 spices"]);
    // Only cheeses: no choice, 2 of 4 spoil.
    let st = position(2, json!({"play": true, "harbour": [L16], "players": [{"warehouse": {"cheese": 4}}]}));
    assert_eq!(seat(&st, 0).warehouse, [0, 2, 0, 0]);
}

// ----- 5.0 winning --------------------------------------------------------------------------

#[test]
fn the_game_ends_at_the_end_of_a_turn_at_60_points_with_two_players() {
    // 5.0: 2 players, 60 victory points. 59 is one short.
    let st = position(2, json!({"play": true, "players": [{"vp": 59}]}));
    assert!(!st.is_terminal());
    let st = position(2, json!({"play": true, "players": [{"vp": 60}]}));
    assert!(st.is_terminal());
    assert_eq!(st.winners(), [0]);
    assert_eq!(st.returns(), [1.0, -1.0]);
}

#[test]
fn the_game_ends_at_50_points_with_three_or_four_players() {
    for players in [3, 4] {
        let st = position(players, json!({"play": true, "players": [{}, {"vp": 49}]}));
        assert!(!st.is_terminal());
        let st = position(players, json!({"play": true, "players": [{}, {"vp": 50}]}));
        assert!(st.is_terminal());
        assert_eq!(st.winners(), [1]);
    }
}

#[test]
fn the_game_only_ends_at_the_end_of_the_turn() {
    // 5.0: "The game can only end at the end of a turn". P0 reaches 60 by loading; P1 still
    // plays his card, and may overtake him.
    let mut st = position(2, json!({"play": true, "players": [
        {"vp": 44, "card": PROFIT8, "warehouse": {"apples": 1, "cheese": 1, "spices": 1, "silk": 1}},
        {"vp": 46, "card": PROFIT10, "warehouse": {"apples": 2, "cheese": 2}}]}));
    play(&mut st, &format!("load:{L16}"));
    assert_eq!(seat(&st, 0).vp, 60);
    assert!(!st.is_terminal());
    assert_eq!(st.current_player(), 1);
    play(&mut st, &format!("load:{L18}"));
    assert!(st.is_terminal());
    assert_eq!(st.winners(), [1]);
    let report = st.score_report();
    assert_eq!(report.totals, [60.0, 64.0]);
    assert_eq!(report.categories, ["ships loaded (victory points)"]);
}

#[test]
fn ties_are_broken_by_warehouse_goods_then_guilders() {
    // 5.0: "If several players have the same number of victory points, the player with more
    // goods in his warehouse wins. If this is still a tie, the player with more guilders in hand wins."
    let st = position(2, json!({"play": true, "players": [{"vp": 60, "warehouse": {"silk": 2}}, {"vp": 60, "warehouse": {"silk": 3}, "money": 1}]}));
    assert_eq!(st.winners(), [1]);
    let st = position(2, json!({"play": true, "players": [{"vp": 60, "warehouse": {"silk": 3}, "money": 23}, {"vp": 60, "warehouse": {"silk": 3}}]}));
    assert_eq!(st.winners(), [0]);
    let report = st.score_report();
    assert_eq!(report.tie_breakers, ["goods in the warehouse", "guilders"]);
    assert_eq!(report.tie_breaker_values, [vec![3.0, 23.0], vec![3.0, 22.0]]);
    // Ruling 12: still tied, the win is shared.
    let st = position(2, json!({"play": true, "players": [{"vp": 61}, {"vp": 61}]}));
    assert_eq!(st.winners(), [0, 1]);
    assert_eq!(st.returns(), [0.0, 0.0]);
}

// ----- information --------------------------------------------------------------------------

#[test]
fn money_is_secret_and_resampled_from_what_the_seat_knows() {
    // 3.0: "Keep the amount of money you own secret during the game." Ruling 2: the table
    // shows no purse; a seat sees its own; resampling draws the others' afresh, keeping every
    // standing bid, from nothing they hold.
    let st = position(3, json!({"players": [{"money": 30}, {"money": 9}, {"money": 40}]}));
    let public = st.game().text(st.inner(), Viewer::Table);
    assert!(public.contains("guilders secret") && !public.contains("30 guilders"), "{public}");
    let mine = st.observation_string(1).unwrap();
    assert!(mine.contains("You are P1.") && mine.contains("P1: 0 VP (0 ships), 9 guilders"), "{mine}");
    assert!(mine.contains("P0: 0 VP (0 ships), guilders secret") && !mine.contains("30 guilders"), "{mine}");
    let mut purses = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let r = st.resample(1, seed).unwrap();
        assert_eq!(r.inner().seats[1], st.inner().seats[1], "P1's own purse is kept");
        assert_eq!(r.observation_string(1).unwrap(), mine);
        // Unlimited bank: each other purse from 0 to twice the starting 22 guilders (P1 holds less).
        assert!(r.inner().seats[0].money <= 44 && r.inner().seats[2].money <= 44);
        purses.insert((r.inner().seats[0].money, r.inner().seats[2].money));
        // Drawn from what P1 knows: the same seed from a resample gives the same state.
        assert_eq!(r.resample(1, seed + 100).unwrap().inner(), st.resample(1, seed + 100).unwrap().inner());
    }
    assert!(purses.len() > 10, "{purses:?}");
    // A bid still standing is a floor: P2 bid 12, so he holds at least 12.
    let mut st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4], "players": [{}, {"money": 3}, {"money": 40}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    play(&mut st, "bid:2");
    play(&mut st, "bid:12");
    for seed in 0..20 {
        let r = st.resample(1, seed).unwrap();
        assert!((12..=12 + 44).contains(&r.inner().seats[2].money), "{}", r.inner().seats[2].money);
        assert!(r.inner().seats[0].money <= 44);
    }
    // Once the game is over every purse is shown: the tie-breaker counts them.
    let g = st.game();
    let mut over = st.inner().clone();
    over.phase = Phase::GameOver;
    assert!(g.text(&over, Viewer::Seat(1)).contains("40 guilders"));
}

#[test]
fn with_the_limited_bank_the_other_purses_add_up_to_what_the_bank_lacks() {
    // Ruling 17 with ruling 2: the bank lies face up, so the guilders the players hold
    // together are known; resampling splits what the other seats hold among them.
    let g = Arc::new(BeforeTheWind::load(&opts(json!({"players": 3, "bank": "limited"}))).unwrap());
    let inner = g.setup(&json!({"harbour": harbour(3), "players": [{"money": 30}, {"money": 9}, {"money": 40}]})).unwrap();
    let st = GameState::from_parts(Arc::clone(&g), inner, crate::engine::rng::rng_from_seed(1), true);
    let mine = st.observation_string(1).unwrap();
    assert!(mine.contains("Bank: 149 guilders") && mine.contains("P0: 0 VP (0 ships), guilders secret"), "{mine}");
    let mut splits = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let r = st.resample(1, seed).unwrap();
        assert_eq!(r.inner().seats[0].money + r.inner().seats[2].money, 70);
        assert_eq!(r.observation_string(1).unwrap(), mine);
        splits.insert(r.inner().seats[0].money);
    }
    assert!(splits.len() > 10, "{splits:?}");
    // With two players the other purse is the box's guilders less the bank and one's own: shown.
    let g = Arc::new(BeforeTheWind::load(&opts(json!({"players": 2, "bank": "limited"}))).unwrap());
    let inner = g.setup(&json!({"harbour": harbour(2), "players": [{"money": 30}, {"money": 9}]})).unwrap();
    assert!(g.text(&inner, Viewer::Seat(1)).contains("P0: 0 VP (0 ships), 30 guilders"));
    assert!(g.text(&inner, Viewer::Table).contains("Bank: 189 guilders"));
}

#[test]
fn the_observation_tensor_decodes_field_by_field() {
    use super::view::FIXED;
    let st = position(2, json!({"display": [RECEIVE, PROFIT8], "players": [
        {"money": 25, "ships": ["large ship (2 apples, 2 silk) worth 16 VP"], "hand": {"apples": 2}, "warehouse": {"silk": 3}, "kept": [SAFE]}]}));
    let t = st.observation_tensor(1).unwrap();
    let g = st.game();
    assert_eq!(t.len(), FIXED + 2 * g.data.designs.len() + 2 * g.data.ships.len());
    assert_eq!((FIXED, t.len()), (492, 706), "the length docs/games/before-the-wind.md gives");
    // Observer, actor, active, phase.
    assert_eq!(&t[0..4], [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(&t[4..8], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(&t[8..12], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(t[12 + 4], 1.0, "phase Choose");
    // Seat 0: money/10 (secret from P1: 0; P0 sees his own), vp/10, ships, hand, warehouse,
    // kept Safe.
    let s0 = 28;
    assert_eq!(&t[s0..s0 + 3], [0.0, 1.6, 1.0]);
    assert_eq!(st.observation_tensor(0).unwrap()[s0], 2.5);
    assert_eq!(t[s0 + 69], 2.2, "P1's own purse");
    assert_eq!(&t[s0 + 3..s0 + 7], [2.0, 0.0, 0.0, 0.0]);
    assert_eq!(&t[s0 + 7..s0 + 11], [0.0, 0.0, 0.0, 3.0]);
    let safe = g.data.specials.iter().position(|&d| g.data.designs[d as usize].name == SAFE).unwrap();
    assert_eq!(t[s0 + 11 + safe], 1.0);
    // Standing: nothing.
    assert_eq!(t[s0 + 11 + 32], 1.0);
    // Display slot 0: the Receive card (present, deck 0, kind 0, goods 2 apples 1 spice).
    let d0 = 28 + 4 * 69;
    assert_eq!(&t[d0..d0 + 5], [1.0, 1.0, 0.0, 0.0, 1.0]);
    assert_eq!(&t[d0 + 13..d0 + 17], [2.0, 0.0, 1.0, 0.0]);
    // Display slot 1: profit 8 (deck 2, kind 2, profit/10).
    let d1 = d0 + 20;
    assert_eq!((t[d1 + 3], t[d1 + 4 + 2], t[d1 + 19]), (1.0, 1.0, 0.8));
    // Harbour slot 0: the 16-VP large ship.
    let h0 = d0 + 4 * 20;
    assert_eq!(&t[h0..h0 + 8], [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.6]);
    // Goods stacks after the hands and warehouses.
    let k = h0 + 8 * 8;
    assert_eq!(&t[k..k + 4], [13.0, 15.0, 15.0, 12.0]);
    // Cards drawn this turn per deck.
    assert_eq!(&t[k + 4..k + 7], [1.0, 0.0, 1.0]);
    // The bank / 10: 0 with the unlimited bank (the last field before the deck counts).
    assert_eq!(t[FIXED - 1], 0.0);
    // The deck counts: the Receive card's design has its copies minus the laid-out one.
    let i = g.data.designs.iter().position(|d| d.name == RECEIVE).unwrap();
    assert_eq!(t[FIXED + i], g.data.designs[i].count as f32 - 1.0);
}

#[test]
fn moves_read_as_phrases_and_bad_setups_name_the_field() {
    let st = position(3, json!({"display": [RECEIVE, PROFIT8, STORE4]}));
    assert_eq!(names(&st), [format!("take:{RECEIVE}"), format!("take:{PROFIT8}"), format!("take:{STORE4}")]);
    let g = game(3);
    let bad = |desc: Value| match g.setup(&desc) {
        Err(EngineError::Setup { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(bad(json!({"harbour": harbour(3), "active": 3})), "active");
    assert_eq!(bad(json!({"harbour": ["a raft"]})), "harbour[0]");
    assert_eq!(bad(json!({"harbour": harbour(3), "players": [{"warehouse": {"silk": 9}}]})), "players[0].warehouse");
    assert_eq!(bad(json!({"harbour": harbour(3), "players": [{"kept": ["Store 4 goods for 18 guilders"]}]})), "players[0].kept[0]");
    assert_eq!(bad(json!({"harbour": harbour(3), "display": [RECEIVE]})), "display");
    // 4.1: at most two cards from a deck, and from at least two decks.
    assert_eq!(bad(json!({"harbour": harbour(3), "display": [PROFIT8, PROFIT10, "Load Goods or Profit 9"]})), "display");
    let g2 = game(2);
    let field = |desc: Value| match g2.setup(&desc) {
        Err(EngineError::Setup { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(field(json!({"harbour": harbour(2), "display": [PROFIT8, PROFIT10]})), "display");
    assert!(g2.setup(&json!({"harbour": harbour(2), "display": [RECEIVE, PROFIT10]})).is_ok());
    assert_eq!(bad(json!({"harbour": harbour(3), "players": [{"card": RECEIVE}]})), "players[0].card");
}

#[test]
fn a_bid_is_bounded_by_the_bidders_purse_alone() {
    // 4.2: "offering any number of guilders (minimum 1)"; "You may not offer more guilders than
    // you have!" With the unlimited bank a purse may pass the box's 228 guilders: a bid of up to
    // 228 is one move, and a larger one is announced 228 at a time (ruling 7).
    let mut st = position(2, json!({"display": [RECEIVE, PROFIT8], "players": [{}, {"money": 500}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    let b = bids(&st);
    assert_eq!(b.len(), 228);
    assert_eq!(b.last().unwrap(), "bid:228");
    assert!(has(&st, "bid-more-than:228 guilders"));
    play(&mut st, "bid-more-than:228 guilders");
    assert_eq!(st.current_player(), 1, "the same bidder goes on");
    assert!(has(&st, "bid-more-than:456 guilders") && !has(&st, "pass"));
    assert_eq!(bids(&st).first().unwrap(), "bid:229");
    play(&mut st, "bid-more-than:456 guilders");
    // 500 guilders: 44 more at most, and no further announcement.
    assert_eq!(bids(&st).len(), 44);
    assert_eq!(bids(&st).last().unwrap(), "bid:500");
    assert!(!names(&st).iter().any(|n| n.starts_with("bid-more-than")));
    play(&mut st, "bid:500");
    assert_eq!(seat(&st, 1).bid, 500);
    play(&mut st, "sell-to:P1 for 500 guilders");
    assert_eq!(seat(&st, 0).money, 522);
    assert_eq!(seat(&st, 1).money, 0);
    // 228 guilders exactly: no announcement.
    let mut st = position(2, json!({"display": [RECEIVE, PROFIT8], "players": [{}, {"money": 228}]}));
    play(&mut st, &format!("take:{RECEIVE}"));
    play(&mut st, &format!("bid-for:P0's {RECEIVE}"));
    assert_eq!(bids(&st).len(), 228);
    assert!(!names(&st).iter().any(|n| n.starts_with("bid-more-than")));
}

#[test]
fn a_description_without_a_harbour_lays_out_the_ships_by_chance() {
    // Like a new game: the ships by chance, then (turn 1) the starting goods not described.
    let g = Arc::new(game(2));
    let inner = g.setup(&json!({"players": [{"hand": {"silk": 2}}]})).unwrap();
    assert_eq!(inner.phase, Phase::Ships);
    let st = GameState::from_parts(Arc::clone(&g), inner, crate::engine::rng::rng_from_seed(3), false);
    assert_eq!(st.inner().phase, Phase::StartGoods);
    assert_eq!(st.current_player(), 1, "P0 holds his two goods already");
    assert_eq!(st.inner().harbour.iter().filter(|&&h| h != super::state::NONE).count(), 5);
}

// ----- the evaluation for the search agents -------------------------------------------------

#[test]
fn evaluation_credits_goods_a_harbour_ship_asks_for() {
    let g = game(2);
    let eval = |desc: Value| {
        let mut desc = desc;
        desc["harbour"] = harbour(2);
        let s = g.setup(&desc).unwrap();
        let mut out = [0.0; 2];
        g.evaluate(&s, &mut out);
        out[0]
    };
    let nothing = eval(json!({}));
    let useful = eval(json!({"players": [{"warehouse": {"apples": 1, "cheese": 1, "spices": 1}}]}));
    let useless_hand = eval(json!({"players": [{"hand": {"apples": 1, "cheese": 1, "spices": 1}}]}));
    assert!(useful > useless_hand && useless_hand > nothing, "{useful} {useless_hand} {nothing}");
    // Victory points count most.
    let points = eval(json!({"players": [{"vp": 16}]}));
    assert!(points > useful);
}

#[test]
fn greedy_loads_a_ship_it_has_the_goods_for() {
    use crate::engine::AgentSpec;
    let st = position(2, json!({"play": true, "players": [{"card": PROFIT8, "warehouse": {"apples": 1, "cheese": 1, "spices": 1, "silk": 1}}]}));
    let greedy: AgentSpec = "greedy".parse().unwrap();
    for seed in 0..5 {
        let a = st.agent_action(&greedy, seed).unwrap();
        assert_eq!(st.action_to_string(a), format!("load:{L16}"));
    }
}

#[test]
fn the_strategy_tips_half_profit_bid_earns_both_players_the_same() {
    // 6.0: "if another player has chosen a Load Goods onto Ship/Profit card with a profit of 10
    // guilders, offer 5 guilders for that card. Either way each of you earns 5 guilders".
    for (resolve, profit_taker) in [("sell-to:P1 for 5 guilders", 1), ("keep-paying:P1 5 guilders", 0)] {
        let mut st = position(2, json!({"display": [PROFIT10, RECEIVE]}));
        play(&mut st, &format!("take:{PROFIT10}"));
        play(&mut st, &format!("bid-for:P0's {PROFIT10}"));
        play(&mut st, "bid:5");
        play(&mut st, resolve);
        assert_eq!(st.current_player(), profit_taker);
        play(&mut st, "profit:10 guilders");
        assert_eq!((seat(&st, 0).money, seat(&st, 1).money), (27, 27), "{resolve}");
    }
}

#[test]
fn a_saved_state_cut_off_before_the_end_or_its_turn_bound_is_refused() {
    // Only the turn bound cuts a game off, and it ends the game: a state marked truncated in
    // the middle of play, or before the bound, cannot be reached.
    let g = game(2);
    let mut s = g.initial_state();
    s.truncated = true;
    assert!(g.validate_state(&s).is_err());
    s.phase = Phase::GameOver;
    assert!(g.validate_state(&s).is_err(), "before the turn bound");
    s.turn = g.max_turns;
    s.truncated = false;
    let mut t = s.clone();
    t.truncated = true;
    assert!(g.validate_state(&t).map_err(|e| e.to_string()).err().is_none_or(|e| !e.contains("cut off")));
}
