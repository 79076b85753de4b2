//! A state hash that is the same on every run and machine: XXH3 (a fixed, specified
//! algorithm) over the state's values written out as little-endian bytes.

use std::fmt;
use std::str::FromStr;

use glam::Vec2;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use xxhash_rust::xxh3::Xxh3;

/// A world's state hash: two worlds with the same hash are the same bit for bit. Compared as
/// a number; written (in reports, recordings and JSON) as 16 hex digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateHash(pub u64);

impl StateHash {
    /// Its first 8 hex digits: enough to tell states apart by eye in a caption.
    pub fn short(self) -> String {
        format!("{:08x}", self.0 >> 32)
    }
}

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Text that is not a state hash: a hash is 16 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAHash;

impl fmt::Display for NotAHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a hash is 16 hex digits")
    }
}

impl FromStr for StateHash {
    type Err = NotAHash;

    fn from_str(s: &str) -> Result<Self, NotAHash> {
        if s.len() != 16 {
            return Err(NotAHash);
        }
        u64::from_str_radix(s, 16)
            .map(StateHash)
            .map_err(|_| NotAHash)
    }
}

impl Serialize for StateHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for StateHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Bytes are gathered in a buffer this big before they are fed to the hasher.
const BUFFER: usize = 4096;

/// Hashes values in a fixed byte order.
pub struct StateHasher {
    hasher: Xxh3,
    buffer: Vec<u8>,
}

impl StateHasher {
    pub fn new() -> Self {
        Self {
            hasher: Xxh3::new(),
            buffer: Vec::with_capacity(BUFFER),
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        if self.buffer.len() + b.len() > BUFFER {
            self.hasher.update(&self.buffer);
            self.buffer.clear();
        }
        self.buffer.extend_from_slice(b);
    }

    pub fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }

    pub fn i64(&mut self, x: i64) {
        self.bytes(&x.to_le_bytes());
    }

    pub fn i64s(&mut self, xs: &[i64]) {
        self.u64(xs.len() as u64);
        for &x in xs {
            self.i64(x);
        }
    }

    /// Floats are hashed by their bits, so -0.0 and 0.0 differ and nothing is rounded.
    pub fn vec2s(&mut self, vs: &[Vec2]) {
        self.u64(vs.len() as u64);
        for v in vs {
            self.bytes(&v.x.to_bits().to_le_bytes());
            self.bytes(&v.y.to_bits().to_le_bytes());
        }
    }

    pub fn finish(mut self) -> StateHash {
        self.hasher.update(&self.buffer);
        StateHash(self.hasher.digest())
    }
}

impl Default for StateHasher {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_lengths_and_bits_all_matter() {
        let hash = |f: &dyn Fn(&mut StateHasher)| {
            let mut h = StateHasher::new();
            f(&mut h);
            h.finish()
        };
        let a = hash(&|h| h.vec2s(&[Vec2::new(1.0, 2.0)]));
        assert_eq!(a, hash(&|h| h.vec2s(&[Vec2::new(1.0, 2.0)])));
        assert_ne!(a, hash(&|h| h.vec2s(&[Vec2::new(2.0, 1.0)])));
        assert_ne!(
            hash(&|h| h.vec2s(&[Vec2::new(0.0, 0.0)])),
            hash(&|h| h.vec2s(&[Vec2::new(-0.0, 0.0)]))
        );
        assert_ne!(
            hash(&|h| {
                h.i64s(&[1]);
                h.i64s(&[]);
            }),
            hash(&|h| {
                h.i64s(&[]);
                h.i64s(&[1]);
            })
        );
        // Long inputs cross the buffer boundary and are still all hashed.
        let long: Vec<Vec2> = (0..5000).map(|i| Vec2::splat(i as f32)).collect();
        let mut changed = long.clone();
        changed[4999].x += 1.0;
        assert_ne!(hash(&|h| h.vec2s(&long)), hash(&|h| h.vec2s(&changed)));
    }

    #[test]
    fn matches_the_specified_xxh3_of_the_bytes() {
        let mut h = StateHasher::new();
        h.u64(0x0102_0304_0506_0708);
        let expected = xxhash_rust::xxh3::xxh3_64(&[8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(h.finish(), StateHash(expected));
    }
}
