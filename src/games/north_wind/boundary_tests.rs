//! North Wind's rule boundaries that once only the golden playthroughs (or nothing) caught.
//! Each test quotes the rulebook sentence it checks, builds its position with `setup()`, and
//! sits exactly on the boundary: the test fails on the likely misreading named in its comment.

use serde_json::{json, Value};

use super::data::{BOOKKEEPER, LOOKOUT};
use super::state::{Phase, NONE};
use super::tests::{legal_names, meet_pirates, play, position, reveal_each, St};

fn gold(st: &St, p: usize) -> u32 {
    st.inner().ships[p].gold
}

#[test]
fn pirates_may_be_paid_with_exactly_one_gold() {
    // 1 gold, 1 cannon against 3 skulls: fighting cannot win, paying is still offered.
    let mut st = position(2, json!({"ships": [{"gold": 1}, {"letters": 0}]}));
    assert_eq!(gold(&st, 0), 1, "1 gold: no income for the poor");
    meet_pirates(&mut st, 3);
    assert_eq!(st.inner().phase, Phase::Pirate, "with 1 gold the pirate is a decision");
    assert_eq!(legal_names(&st), ["pay-pirates", "fight"]);
    play(&mut st, "pay-pirates");
    assert_eq!(gold(&st, 0), 0);
    assert_eq!((st.inner().active, st.inner().phase), (0, Phase::Reveal), "the voyage goes on");
    assert_eq!(st.inner().voyage.revealed, 1);
}

/// "Gunner — When the combat die shows a blue double ball, you have scored 2 hits at once."
/// "To win the combat, you must score at least as many hits as the pirate ship is strong."
/// A gunner with 2 cannons can beat 3 skulls: after a first hit the last roll may still bring
/// the 2 missing hits, so the combat goes on. Fails if the shortcut that ends a combat once
/// the remaining rolls cannot win counts each roll as one hit, forgetting the double ball.
#[test]
fn a_gunner_with_two_cannons_fights_on_after_a_hit_against_three_skulls() {
    let gunner = || position(2, json!({"ships": [{"cannons": 2, "crew": ["gunner"]}, {"letters": 0}]}));
    // Hit, then the double ball: 3 hits.
    let mut st = gunner();
    meet_pirates(&mut st, 3);
    play(&mut st, "fight");
    assert_eq!(st.inner().phase, Phase::Combat, "2 cannons with a gunner may reach 3 hits");
    play(&mut st, "combat:hit");
    assert_eq!(st.inner().phase, Phase::Combat, "1 hit and 1 roll left, which may bring 2");
    assert_eq!((st.inner().voyage.hits, st.inner().voyage.rolls_left), (1, 1));
    play(&mut st, "combat:double");
    assert_eq!(st.inner().ships[0].captains, 1, "3 hits beat 3 skulls");
    assert_eq!((st.inner().active, st.inner().phase), (0, Phase::Reveal));
    // The double ball first, then a hit.
    let mut st = gunner();
    meet_pirates(&mut st, 3);
    play(&mut st, "fight");
    play(&mut st, "combat:double");
    assert_eq!(st.inner().phase, Phase::Combat);
    play(&mut st, "combat:hit");
    assert_eq!(st.inner().ships[0].captains, 1);
    // Hit, then a plain hit: 2 hits lose to 3 skulls, and the voyage ends.
    let mut st = gunner();
    meet_pirates(&mut st, 3);
    play(&mut st, "fight");
    play(&mut st, "combat:hit");
    play(&mut st, "combat:hit");
    assert_eq!((st.inner().ships[0].captains, st.inner().active), (0, 1));
    // A miss first leaves 1 roll, at most 2 hits: the combat is lost at once.
    let mut st = gunner();
    meet_pirates(&mut st, 3);
    play(&mut st, "fight");
    play(&mut st, "combat:miss");
    assert_eq!((st.inner().ships[0].captains, st.inner().active), (0, 1));
    // Without the gunner, 2 cannons never beat 3 skulls: fighting is an immediate defeat.
    let mut st = position(2, json!({"ships": [{"cannons": 2}, {"letters": 0}]}));
    meet_pirates(&mut st, 3);
    play(&mut st, "fight");
    assert_eq!((st.inner().ships[0].captains, st.inner().active), (0, 1));
}

// ----- crew --------------------------------------------------------------------------------------

/// "Each player takes ... 4 light blue crew members"; "If you have hired 1 crew member, place
/// 1 light blue figure from your supply into a free slot of the cabin or into the crow's
/// nest." With 4 crew members aboard none is left to hire, though a fifth slot is empty.
/// Fails if a fifth crew member is offered (`crew <= 4` for `crew < 4`).
#[test]
fn no_crew_member_is_offered_after_the_fourth() {
    let four = json!(["boatswain", "bookkeeper", "gunner", "treasurer"]);
    // The active player: sail and cannon, but no lookout for the empty crow's nest.
    let mut st = position(2, json!({"ships": [{"gold": 10, "crew": four}, {"letters": 0}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Outfitter (2)#1");
    assert_eq!(legal_names(&st), ["pass", "outfit:sail", "outfit:cannon"]);
    // With the sail and the cannons at their limits too, the outfitter offers nothing at all.
    let mut st = position(2, json!({"ships": [{"gold": 10, "crew": four, "sail": 6, "cannons": 4}, {"letters": 0}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Outfitter (2)#1");
    assert_eq!(st.inner().phase, Phase::Reveal, "nothing to decide");
    // A fellow player with a trade letter and 4 crew members may not hire a fifth either.
    let crew_of_three = json!(["boatswain", "bookkeeper", "gunner"]);
    let mut st = position(2, json!({"ships": [{"gold": 10, "crew": crew_of_three}, {"gold": 10, "crew": four}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Outfitter (2)#1");
    play(&mut st, "hire:lookout"); // P0's fourth
    assert!(st.inner().ships[0].has(LOOKOUT) && st.inner().ships[0].crew_count() == 4);
    assert_eq!((st.inner().phase, st.current_player()), (Phase::Letter, 1));
    assert_eq!(legal_names(&st), ["pass", "outfit:sail", "outfit:cannon"]);
}

// ----- bookkeeper ------------------------------------------------------------------------------

/// "Bookkeeper — With every sale of 1 or 2 goods, you receive 1 additional gold." A purchase
/// is no sale: a bookkeeper pays the full price and receives nothing, at a trading port, at
/// the merchant (one good, or two with a boatswain) and with a trade letter. Fails if the
/// bookkeeper's gold is paid on a purchase.
#[test]
fn a_bookkeeper_receives_nothing_on_a_purchase() {
    let bookkeeper = json!(["bookkeeper"]);
    // Trading port: 2 salt for 1 gold each.
    let mut st = position(2, json!({"ships": [{"gold": 5, "crew": bookkeeper}, {"letters": 0}]}));
    assert!(st.inner().ships[0].has(BOOKKEEPER));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Salt port (1)");
    play(&mut st, "buy-2:salt");
    assert_eq!(gold(&st, 0), 3);
    // The merchant: 1 wine for 3.
    let mut st = position(2, json!({"ships": [{"gold": 5, "crew": bookkeeper}, {"letters": 0}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Merchant (3)");
    play(&mut st, "merchant-buy:wine");
    assert_eq!(gold(&st, 0), 2);
    // With a boatswain: two purchases, 3 + 3.
    let mut st = position(2, json!({"ships": [{"gold": 6, "crew": ["boatswain", "bookkeeper"]}, {"letters": 0}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Merchant (3)");
    play(&mut st, "merchant-buy:wine");
    assert_eq!(st.inner().phase, Phase::Boatswain);
    play(&mut st, "merchant-buy:grain");
    assert_eq!((gold(&st, 0), st.inner().ships[0].goods), (0, [1, 0, 0, 0, 1]));
    // A fellow player with a bookkeeper buying with a trade letter: 1 salt for 1.
    let mut st = position(2, json!({"ships": [{"gold": 5}, {"gold": 5, "crew": bookkeeper}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Salt port (1)");
    play(&mut st, "buy-1:salt");
    assert_eq!(st.current_player(), 1);
    play(&mut st, "buy-1:salt");
    assert_eq!((gold(&st, 1), st.inner().ships[1].letters), (4, 0));
    // And the same player selling receives the extra gold: 3 + 1.
    let mut st = position(2, json!({"ships": [{"gold": 5, "goods": {"salt": 1}, "crew": bookkeeper}, {"letters": 0}]}));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Salt port (3)");
    play(&mut st, "sell-1:salt");
    assert_eq!(gold(&st, 0), 9);
}

// ----- majority --------------------------------------------------------------------------------

/// "If you have placed the most victory point tokens in the contract column of a destination
/// port, you may place 1 further victory point token on the bonus space of that destination
/// port. Should another player have placed the same number ..., you must remove your victory
/// point token from the bonus space again." The bonus follows the lead: lost on a tie, and
/// placed again by whoever then leads, the player who lost it or the one who tied. Fails if a
/// bonus space emptied by a tie stays empty (only the first token of a column earning it).
#[test]
fn majority_bonus_is_won_back_with_the_lead() {
    // P1 holds Northcape's first contract and its bonus. P0 ties with the second (3 gold).
    let mut st = position(2, json!({
        "contracts": {"Northcape": [1]},
        "ships": [{"gold": 3}, {"goods": {"wine": 2}, "letters": 0}]
    }));
    assert_eq!((st.inner().majority[0], st.scores()), (1, vec![0.0, 2.0]));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Northcape");
    play(&mut st, "fulfil-contract");
    assert_eq!((st.inner().majority[0], st.scores()), (NONE, vec![1.0, 1.0]), "a tie removes the bonus");
    reveal_each(&mut st, &["Fog#1", "Shipwreck", "Salt port (3)"]);
    // P1's turn: the third contract (2 wine) gives him the lead, and the bonus again.
    assert_eq!((st.inner().active, st.inner().phase), (1, Phase::ChooseStack));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Northcape");
    play(&mut st, "fulfil-contract");
    assert_eq!(st.inner().column[0][..2], [1, 2]);
    assert_eq!(st.inner().majority[0], 1, "the lead wins the bonus back");
    assert_eq!(st.scores(), vec![1.0, 3.0]);

    // Tied at 1 each, P0 takes the lead with the third contract and places the bonus.
    let mut st = position(2, json!({
        "contracts": {"Northcape": [1, 0]},
        "ships": [{"goods": {"wine": 2}}, {"letters": 0}]
    }));
    assert_eq!((st.inner().majority[0], st.scores()), (NONE, vec![1.0, 1.0]));
    play(&mut st, "sail:Northcape");
    play(&mut st, "reveal:Northcape");
    play(&mut st, "fulfil-contract");
    assert_eq!(st.inner().majority[0], 0);
    assert_eq!(st.scores(), vec![3.0, 1.0]);
}

// ----- the end of the game ---------------------------------------------------------------------

/// Three players. P2 has 9 tokens placed: Northcape 3 and its bonus, Trutzhaven 1 and its
/// bonus, Olesand 1 and its bonus, the supply bonus; 3 crew members. P0 is on turn with a
/// 2-gold outfitter on top of Northcape; P1 holds `p1_goods` and no trade letter.
fn p2_one_crew_member_from_winning(p1_goods: Value) -> St {
    let st = position(3, json!({
        "ships": [
            {"gold": 5},
            {"gold": 5, "letters": 0, "goods": p1_goods},
            {"gold": 5, "crew": ["boatswain", "bookkeeper", "gunner"]}
        ],
        "contracts": {"Northcape": [2, 2, 2], "Trutzhaven": [2], "Olesand": [2]}
    }));
    assert_eq!(st.scores(), vec![0.0, 0.0, 9.0]);
    st
}

/// P0 buys a cannon at the outfitter; P2 hires his fourth crew member with a trade letter and
/// places his tenth token (the full crew bonus) on P0's turn; P0 then searches the shipwreck
/// (his second action, which ends his voyage).
fn p2_reaches_the_goal_on_p0s_turn(st: &mut St) {
    play(st, "sail:Northcape");
    play(st, "reveal:Outfitter (2)#1");
    play(st, "outfit:cannon");
    assert_eq!((st.inner().phase, st.current_player()), (Phase::Letter, 2));
    play(st, "hire:lookout");
    assert_eq!(st.scores()[2], 10.0);
    assert!(!st.is_terminal(), "P2 is not on turn: no win yet");
    // P0's own use of a card: the win check runs, for the player on turn only.
    play(st, "reveal:Shipwreck");
    play(st, "search-shipwreck");
    assert!(!st.is_terminal(), "P0 on turn has 0 tokens; P2 does not win on P0's turn");
    assert_eq!((st.inner().active, st.inner().phase), (1, Phase::ChooseStack), "2 actions end P0's voyage");
}

/// "In a game with two or three players, whoever is on turn and has placed 10 victory point
/// tokens on the scoring board wins the game." A player who places his tenth token on
/// another's turn (with a trade letter) does not win then, nor at the start of a third
/// player's turn, but at the start of his own, if he still has them. Fails if the win goes to
/// whoever has placed all tokens, on turn or not.
#[test]
fn reaching_the_goal_on_anothers_turn_wins_only_at_the_start_of_ones_own() {
    let mut st = p2_one_crew_member_from_winning(json!({}));
    p2_reaches_the_goal_on_p0s_turn(&mut st);
    assert!(!st.is_terminal(), "P1's turn begins; P2 still waits for his");
    play(&mut st, "sail:Olesand");
    reveal_each(&mut st, &["Fog#4", "Grain port (3)", "Wood port (1)", "Fish port (1)"]);
    assert!(st.is_terminal(), "P2's turn begins with 10 tokens placed");
    assert_eq!(st.winners(), vec![2]);
    assert_eq!(st.inner().active, 2);
    assert_eq!(st.returns(), vec![-0.5, -0.5, 1.0]);

    // If P1 ties P2 in Olesand's column meanwhile (1 grain + 1 salt), P2 loses that bonus:
    // with 9 tokens at the start of his turn he has not won, and plays on.
    let mut st = p2_one_crew_member_from_winning(json!({"grain": 1, "salt": 1}));
    p2_reaches_the_goal_on_p0s_turn(&mut st);
    play(&mut st, "sail:Olesand");
    play(&mut st, "reveal:Olesand");
    play(&mut st, "fulfil-contract");
    assert_eq!((st.inner().majority[2], st.scores()), (NONE, vec![0.0, 1.0, 9.0]));
    reveal_each(&mut st, &["Fog#4", "Grain port (3)", "Wood port (1)"]);
    assert!(!st.is_terminal());
    assert_eq!((st.inner().active, st.inner().phase), (2, Phase::ChooseStack));
    assert!(st.winners().is_empty());
}
