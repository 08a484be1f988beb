//! The worker threads of bulk simulation and of vectorised stepping: a pool of the size a call
//! asks for, kept for the next call that asks for the same size. Starting a pool costs tens of
//! microseconds a thread, more than a short simulation of a few games.

use std::sync::{Arc, Mutex};

use rayon::ThreadPool;

use super::error::{EngineError, Result};

/// The pool the last call built: its size as asked, the process it was built in, the pool.
struct Kept(Mutex<Option<(usize, u32, Arc<ThreadPool>)>>);

static KEPT: Kept = Kept(Mutex::new(None));

impl Kept {
    fn pool(&self, threads: usize) -> Result<Arc<ThreadPool>> {
        let process = std::process::id();
        let mut kept = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((size, owner, pool)) = &*kept {
            if *size == threads && *owner == process {
                return Ok(Arc::clone(pool));
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EngineError::InvalidRequest(format!("cannot start {threads} threads: {e}")))?;
        let pool = Arc::new(pool);
        *kept = Some((threads, process, Arc::clone(&pool)));
        Ok(pool)
    }
}

/// A pool of `threads` worker threads (0: one a core). The pool of the last call is kept and
/// given again for the same size in the same process; a forked child, whose copy of the pool
/// has no threads, builds its own.
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    KEPT.pool(threads)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::Kept;

    #[test]
    fn a_pool_of_the_size_asked_for_is_kept_for_the_next_call_of_that_size() {
        let kept = Kept(Mutex::new(None));
        let two = kept.pool(2).unwrap();
        assert_eq!(two.current_num_threads(), 2);
        assert!(Arc::ptr_eq(&two, &kept.pool(2).unwrap()));
        let three = kept.pool(3).unwrap();
        assert_eq!(three.current_num_threads(), 3);
        assert!(!Arc::ptr_eq(&two, &kept.pool(2).unwrap()), "only the last size is kept");
        // A pool kept by another process (a forked parent's) is not given out.
        let before = kept.pool(2).unwrap();
        kept.0.lock().unwrap().as_mut().unwrap().1 ^= 1;
        assert!(!Arc::ptr_eq(&before, &kept.pool(2).unwrap()));
    }
}
