//! The worker threads of bulk simulation and of vectorised stepping: a pool of the size a call
//! asks for, kept for the next call that asks for the same size. Starting a pool costs tens of
//! microseconds a thread, more than a short simulation of a few games. The pools of the last
//! few sizes asked for are kept (a run asks for one thread to read its layout, then for its
//! own number).

use std::sync::{Arc, Mutex};

use rayon::ThreadPool;

use super::error::{EngineError, Result};

/// How many sizes of pool are kept.
const SIZES: usize = 4;

/// The pools kept, the most recently asked for last: each one's size as asked, the process it
/// was built in, the pool.
struct Kept(Mutex<Vec<(usize, u32, Arc<ThreadPool>)>>);

static KEPT: Kept = Kept(Mutex::new(Vec::new()));

impl Kept {
    fn pool(&self, threads: usize) -> Result<Arc<ThreadPool>> {
        let process = std::process::id();
        let mut kept = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // A forked child's copies of its parent's pools have no threads.
        kept.retain(|&(_, owner, _)| owner == process);
        if let Some(at) = kept.iter().position(|&(size, _, _)| size == threads) {
            let entry = kept.remove(at);
            let pool = Arc::clone(&entry.2);
            kept.push(entry);
            return Ok(pool);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EngineError::InvalidRequest(format!("cannot start {threads} threads: {e}")))?;
        let pool = Arc::new(pool);
        if kept.len() == SIZES {
            kept.remove(0);
        }
        kept.push((threads, process, Arc::clone(&pool)));
        Ok(pool)
    }
}

/// A pool of `threads` worker threads (0: one a core): a kept one of that size built in this
/// process, or a new one, which is kept (the least recently asked for size is let go).
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    KEPT.pool(threads)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::Kept;

    #[test]
    fn a_pool_of_the_size_asked_for_is_kept_for_the_next_call_of_that_size() {
        let kept = Kept(Mutex::new(Vec::new()));
        let two = kept.pool(2).unwrap();
        assert_eq!(two.current_num_threads(), 2);
        assert!(Arc::ptr_eq(&two, &kept.pool(2).unwrap()));
        let one = kept.pool(1).unwrap();
        assert_eq!(one.current_num_threads(), 1);
        assert!(Arc::ptr_eq(&two, &kept.pool(2).unwrap()) && Arc::ptr_eq(&one, &kept.pool(1).unwrap()));
        // Four sizes are kept: a fifth lets go of the one asked for longest ago (2).
        for n in [3, 4, 5] {
            kept.pool(n).unwrap();
        }
        assert!(Arc::ptr_eq(&one, &kept.pool(1).unwrap()));
        assert!(!Arc::ptr_eq(&two, &kept.pool(2).unwrap()));
        assert_eq!(kept.0.lock().unwrap().len(), 4);
        // A pool kept by another process (a forked parent's) is not given out.
        let before = kept.pool(2).unwrap();
        kept.0.lock().unwrap().iter_mut().for_each(|entry| entry.1 ^= 1);
        assert!(!Arc::ptr_eq(&before, &kept.pool(2).unwrap()));
        assert_eq!(kept.0.lock().unwrap().len(), 1, "the other process's pools are let go");
    }
}
