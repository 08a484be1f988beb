//! Running a check body on one input and saying how it fared: passed, or failed with the
//! broken invariant or the panic (its location and message). A panic is caught, so that the
//! bounded fuzz test reports the input that caused it; under libFuzzer the previous panic
//! hook (which reports the crash and aborts) still runs.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use super::invariants::Check;
use crate::engine::error::panic_message;

/// How one input fared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// A broken invariant, or a panic (`panic at <file>:<line>: <message>`).
    Failed(String),
}

thread_local! {
    /// The location and message of the last panic on this thread.
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Wraps the process's panic hook (once): a panic's location and message are recorded for
/// [`run_checked`], then the previous hook runs as before.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some((at, panic_message(info.payload()))));
            previous(info);
        }));
    });
}

/// Runs a target body on one input, catching panics.
pub fn run_target(target: fn(&[u8]) -> Check, data: &[u8]) -> Outcome {
    run_checked(|| target(data))
}

/// Runs any check, catching panics.
pub fn run_checked(check: impl FnOnce() -> Check) -> Outcome {
    install_hook();
    LAST_PANIC.with(|p| *p.borrow_mut() = None);
    match catch_unwind(AssertUnwindSafe(check)) {
        Ok(Ok(())) => Outcome::Passed,
        Ok(Err(e)) => Outcome::Failed(e),
        Err(payload) => {
            let (at, message) =
                LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| (String::new(), panic_message(&*payload)));
            Outcome::Failed(format!("panic at {at}: {message}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_say_what_failed_and_where_a_panic_was() {
        assert_eq!(run_checked(|| Ok(())), Outcome::Passed);
        assert_eq!(run_checked(|| Err("a broken invariant".into())), Outcome::Failed("a broken invariant".into()));
        match run_checked(|| panic!("a panic in a check")) {
            Outcome::Failed(m) => assert!(m.contains("triage.rs:") && m.contains("a panic in a check"), "{m}"),
            other => panic!("{other:?}"),
        }
        fn target(data: &[u8]) -> Check {
            match data {
                [] => Ok(()),
                _ => panic!("input of {} bytes", data.len()),
            }
        }
        assert_eq!(run_target(target, &[]), Outcome::Passed);
        match run_target(target, &[1, 2]) {
            Outcome::Failed(m) => assert!(m.contains("input of 2 bytes"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
