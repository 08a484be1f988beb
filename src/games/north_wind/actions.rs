//! North Wind's action ids. Player actions form one fixed space of 36 ids; chance outcomes
//! are a separate space (a stack index while dealing, a card id for reveals and the
//! lookout's look, a face index for the dice).

use crate::engine::Action;

use super::data::{CREW_SLOTS, GOODS, PORTS};

/// Sail into the stack under destination port `p` (0..3).
pub const SAIL: Action = 0;
pub const KEEP_TOP: Action = 3;
pub const SLIDE_UNDER: Action = 4;
/// Decline: do not use the card, do not use a trade letter, or end the merchant's second trade.
pub const PASS: Action = 5;
pub const PAY_PIRATES: Action = 6;
pub const FIGHT: Action = 7;
/// Buy 1 (or 2) units at the trading port.
pub const BUY_1: Action = 8;
pub const BUY_2: Action = 9;
pub const SELL_1: Action = 10;
pub const SELL_2: Action = 11;
/// Throw one good of kind g overboard: `JETTISON + g`.
pub const JETTISON: Action = 12;
pub const OUTFIT_SAIL: Action = 17;
pub const OUTFIT_CANNON: Action = 18;
/// Hire a crew member into advantage slot s: `HIRE + s`.
pub const HIRE: Action = 19;
/// Merchant: buy one good of kind g: `MERCHANT_BUY + g`.
pub const MERCHANT_BUY: Action = 24;
/// Merchant: sell one good of kind g: `MERCHANT_SELL + g`.
pub const MERCHANT_SELL: Action = 29;
pub const FULFIL: Action = 34;
pub const SALVAGE: Action = 35;
pub const NUM_ACTIONS: usize = 36;

/// The context-free name of a player action (trading-port trades get their good added by the game).
pub fn base_name(a: Action) -> String {
    match a {
        0..=2 => format!("sail:{}", PORTS[a as usize]),
        KEEP_TOP => "keep-top".into(),
        SLIDE_UNDER => "slide-under".into(),
        PASS => "pass".into(),
        PAY_PIRATES => "pay-pirates".into(),
        FIGHT => "fight".into(),
        BUY_1 => "buy-1".into(),
        BUY_2 => "buy-2".into(),
        SELL_1 => "sell-1".into(),
        SELL_2 => "sell-2".into(),
        12..=16 => format!("jettison:{}", GOODS[(a - JETTISON) as usize]),
        OUTFIT_SAIL => "outfit:sail".into(),
        OUTFIT_CANNON => "outfit:cannon".into(),
        19..=23 => format!("hire:{}", CREW_SLOTS[(a - HIRE) as usize]),
        24..=28 => format!("merchant-buy:{}", GOODS[(a - MERCHANT_BUY) as usize]),
        29..=33 => format!("merchant-sell:{}", GOODS[(a - MERCHANT_SELL) as usize]),
        FULFIL => "fulfil-contract".into(),
        SALVAGE => "search-shipwreck".into(),
        _ => format!("action-{a}"),
    }
}
