//! A map by path that a run's threads share, cut into parts by the path's hash, each behind its
//! own lock: a lock is held for a look-up or an insert only, and two threads that want two
//! different paths seldom wait for each other.

use std::ffi::OsString;
use std::hash::BuildHasher;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// How many parts the map is cut into.
const SHARDS: usize = 16;

/// Keyed by the path's bytes: `Path`'s own hash and equality look at each component, several
/// times the work for the canonical paths the run keys these maps by, which are spelled one
/// way only (two spellings of one path would be two entries: the same answer found twice).
#[derive(Debug)]
pub(crate) struct ShardedMap<V> {
    shards: [Mutex<foldhash::HashMap<OsString, V>>; SHARDS],
}

impl<V> Default for ShardedMap<V> {
    fn default() -> ShardedMap<V> {
        ShardedMap {
            shards: std::array::from_fn(|_| Mutex::default()),
        }
    }
}

impl<V: Clone> ShardedMap<V> {
    fn shard(&self, key: &Path) -> &Mutex<foldhash::HashMap<OsString, V>> {
        // A fixed seed: which part a path is in need not be hard to guess, only spread.
        let hash = foldhash::fast::FixedState::with_seed(0).hash_one(key.as_os_str());
        &self.shards[(hash as usize) % SHARDS]
    }

    /// The value at `key`, if any.
    pub(crate) fn get(&self, key: &Path) -> Option<V> {
        let shard = self
            .shard(key)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        shard.get(key.as_os_str()).cloned()
    }

    /// The value at `key`, made by `make` (under the part's lock: it must be quick) and kept
    /// if there is none yet.
    pub(crate) fn get_or_insert_with(&self, key: &Path, make: impl FnOnce() -> V) -> V {
        let mut shard = self
            .shard(key)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = shard.get(key.as_os_str()) {
            return found.clone();
        }
        let value = make();
        shard.insert(key.as_os_str().to_owned(), value.clone());
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value is made once per key, and found again under the same key only.
    #[test]
    fn a_value_is_kept_per_key() {
        let map = ShardedMap::default();
        assert_eq!(map.get(Path::new("/a")), None);
        assert_eq!(map.get_or_insert_with(Path::new("/a"), || 1), 1);
        assert_eq!(map.get_or_insert_with(Path::new("/a"), || 2), 1);
        assert_eq!(map.get_or_insert_with(Path::new("/b"), || 3), 3);
        assert_eq!(map.get(Path::new("/a")), Some(1));
        assert_eq!(map.get(Path::new("/b")), Some(3));
    }
}
