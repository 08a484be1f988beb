//! Where a game's generation of the options at a decision writes: the list of them (the
//! legal actions, into the caller's reused buffer: no allocation once it has grown to the
//! largest list), or a probe that only asks whether anything is offered and stops at the
//! first option. One generator then serves both.

use super::game::Action;

/// What option generation writes into.
pub trait Offers {
    /// Records an option; returns true when generation may stop.
    fn offer(&mut self, a: Action) -> bool;

    /// Records the options of `range` in order; returns true when generation may stop.
    fn offer_range(&mut self, range: std::ops::Range<Action>) -> bool {
        range.into_iter().any(|a| self.offer(a))
    }
}

impl Offers for Vec<Action> {
    #[inline]
    fn offer(&mut self, a: Action) -> bool {
        self.push(a);
        false
    }

    #[inline]
    fn offer_range(&mut self, range: std::ops::Range<Action>) -> bool {
        self.extend(range);
        false
    }
}

/// The probe: true once any option was offered.
#[derive(Default)]
pub struct AnyOffer(pub bool);

impl Offers for AnyOffer {
    #[inline]
    fn offer(&mut self, _: Action) -> bool {
        self.0 = true;
        true
    }
}
