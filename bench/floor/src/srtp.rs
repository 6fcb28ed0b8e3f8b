//! SRTP with AEAD_AES_256_GCM (RFC 7714), the profile Chromium and Pion offer first and the engines pick: one
//! context per stream (the cipher's key schedule made once), the packet index kept as RFC 3711 §3.3.1 does,
//! a 64-packet replay window. Session keys and salts come from the generator (no DTLS, so no key derivation).
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM};

pub const KEY_LEN: usize = 32;
pub const SALT_LEN: usize = 12;
pub const TAG_LEN: usize = 16;

/// A session's cipher: its key schedule and salt (one per subscriber, one per published stream).
pub struct Session {
    key: LessSafeKey,
    salt: [u8; SALT_LEN],
}

impl Session {
    pub fn new(key: &[u8; KEY_LEN], salt: &[u8; SALT_LEN]) -> Session {
        let unbound = UnboundKey::new(&AES_256_GCM, key).expect("a 32-byte key");
        Session { key: LessSafeKey::new(unbound), salt: *salt }
    }

    fn nonce(&self, ssrc: u32, roc: u32, seq: u16) -> Nonce {
        let mut iv = [0u8; 12];
        iv[2..6].copy_from_slice(&ssrc.to_be_bytes());
        iv[6..10].copy_from_slice(&roc.to_be_bytes());
        iv[10..12].copy_from_slice(&seq.to_be_bytes());
        for (b, s) in iv.iter_mut().zip(self.salt.iter()) {
            *b ^= s;
        }
        Nonce::assume_unique_for_key(iv)
    }

    /// Encrypts `packet[header_len..len]` in place and appends the tag; returns the protected length.
    /// `packet` must have TAG_LEN bytes of room past `len`.
    pub fn protect(&self, packet: &mut [u8], header_len: usize, len: usize, ssrc: u32, roc: u32, seq: u16) -> usize {
        let (header, rest) = packet.split_at_mut(header_len);
        let payload_len = len - header_len;
        let tag = self
            .key
            .seal_in_place_separate_tag(self.nonce(ssrc, roc, seq), Aad::from(&*header), &mut rest[..payload_len])
            .expect("AES-GCM seal");
        rest[payload_len..payload_len + TAG_LEN].copy_from_slice(tag.as_ref());
        len + TAG_LEN
    }

    /// Authenticates and decrypts in place; returns the plaintext length (header included).
    pub fn unprotect(&self, packet: &mut [u8], header_len: usize, len: usize, ssrc: u32, roc: u32, seq: u16) -> Option<usize> {
        let (header, rest) = packet.split_at_mut(header_len);
        let opened = self
            .key
            .open_in_place(self.nonce(ssrc, roc, seq), Aad::from(&*header), &mut rest[..len - header_len])
            .ok()?;
        Some(header_len + opened.len())
    }
}

/// An incoming stream's packet index: the highest index seen and a 64-packet replay window below it.
#[derive(Default)]
pub struct ReplayIndex {
    started: bool,
    highest: u64,
    window: u64,
}

impl ReplayIndex {
    /// The rollover counter a sequence number most likely belongs to (RFC 3711 §3.3.1).
    pub fn guess_roc(&self, seq: u16) -> u32 {
        if !self.started {
            return 0;
        }
        let roc = (self.highest >> 16) as u32;
        let s_l = (self.highest & 0xffff) as u16;
        if s_l < 32768 {
            if seq > s_l && seq - s_l > 32768 { roc.wrapping_sub(1) } else { roc }
        } else if s_l - 32768 > seq {
            roc.wrapping_add(1)
        } else {
            roc
        }
    }

    /// Whether the packet at `index` is new (not replayed, not too old).
    pub fn fresh(&self, index: u64) -> bool {
        if !self.started || index > self.highest {
            return true;
        }
        let back = self.highest - index;
        back < 64 && self.window & (1 << back) == 0
    }

    /// Records an authenticated packet.
    pub fn accept(&mut self, index: u64) {
        if !self.started {
            self.started = true;
            self.highest = index;
            self.window = 1;
        } else if index > self.highest {
            let shift = index - self.highest;
            self.window = if shift >= 64 { 1 } else { (self.window << shift) | 1 };
            self.highest = index;
        } else {
            self.window |= 1 << (self.highest - index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protect_then_unprotect_round_trips_and_a_flipped_bit_fails() {
        let session = Session::new(&[7; KEY_LEN], &[9; SALT_LEN]);
        let mut packet = [0u8; 64];
        packet[0] = 0x80;
        packet[12..20].copy_from_slice(b"payload!");
        let len = session.protect(&mut packet, 12, 20, 42, 0, 1);
        assert_eq!(len, 36);
        assert_ne!(&packet[12..20], b"payload!");
        let mut copy = packet;
        assert_eq!(session.unprotect(&mut packet, 12, len, 42, 0, 1), Some(20));
        assert_eq!(&packet[12..20], b"payload!");
        copy[13] ^= 1;
        assert_eq!(session.unprotect(&mut copy, 12, len, 42, 0, 1), None);
    }

    #[test]
    fn the_index_follows_a_sequence_wrap_and_refuses_replays() {
        let mut index = ReplayIndex::default();
        index.accept(65535);
        assert_eq!(index.guess_roc(0), 1);
        index.accept((1 << 16) | 0);
        assert_eq!(index.guess_roc(65534), 0);
        assert!(!index.fresh(65535));
        assert!(index.fresh(65534));
        assert!(!index.fresh(10));
    }
}
