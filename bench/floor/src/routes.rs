//! The floor's forwarding table: per published stream (by its SSRC) its SRTP session, packet index and the
//! subscribers' outputs (destination, rewritten SSRC, their session). Filled by the generator's control
//! datagrams (text, first byte 'C', which no RTP packet has: RTP's version bits make it 0x80–0xBF):
//!
//! ```text
//! C <id>
//! route <in-ssrc> <key hex> <salt hex>
//! out <in-ssrc> <ip:port> <out-ssrc> <key hex> <salt hex>
//! stats
//! ```
//! answered with `A <id> ok` (or `A <id> error <why>`; `stats` adds the counters).
use crate::srtp::{ReplayIndex, Session, KEY_LEN, SALT_LEN};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::net::SocketAddrV4;

/// A subscriber's copy of a stream.
pub struct Output {
    pub addr: libc::sockaddr_in,
    pub ssrc: u32,
    pub session: usize,
}

/// A published stream.
pub struct Route {
    pub session: Session,
    pub index: ReplayIndex,
    pub outputs: Vec<Output>,
}

/// SSRCs are random: a multiply is hash enough, and cheaper than SipHash per packet.
#[derive(Default)]
pub struct SsrcHasher(u64);

impl Hasher for SsrcHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8 | *b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.0 = (v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

#[derive(Default)]
pub struct Counters {
    /// Packets authenticated and decrypted.
    pub received: u64,
    /// Copies protected and queued (so that between two packets forwarded = Σ received × outputs); of them
    /// `send_failed` the kernel refused.
    pub forwarded: u64,
    pub auth_failed: u64,
    pub replayed: u64,
    pub unknown_ssrc: u64,
    pub malformed: u64,
    pub send_failed: u64,
    pub control: u64,
}

#[derive(Default)]
pub struct Table {
    pub routes: HashMap<u32, Route, BuildHasherDefault<SsrcHasher>>,
    /// Subscribers' sessions, shared by all the streams a subscriber takes (one SRTP session per transport).
    pub sessions: Vec<Session>,
    session_ids: HashMap<(Vec<u8>, Vec<u8>), usize>,
    pub counters: Counters,
}

fn hex<const N: usize>(s: &str) -> Result<[u8; N], String> {
    if s.len() != 2 * N {
        return Err(format!("want {} hex digits, got {}", 2 * N, s.len()));
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn ssrc(s: &str) -> Result<u32, String> {
    s.parse::<u32>().map_err(|e| format!("ssrc {s}: {e}"))
}

fn sockaddr(addr: SocketAddrV4) -> libc::sockaddr_in {
    // SAFETY: sockaddr_in is plain data; all-zero is a valid value before the fields are set.
    let mut sa: libc::sockaddr_in = unsafe { std::mem::zeroed() };
    sa.sin_family = libc::AF_INET as libc::sa_family_t;
    sa.sin_port = addr.port().to_be();
    sa.sin_addr.s_addr = u32::from(*addr.ip()).to_be();
    sa
}

impl Table {
    fn line(&mut self, line: &str, reply: &mut String) -> Result<(), String> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match words.as_slice() {
            ["route", ssrc_s, key, salt] => {
                // Idempotent: the generator resends a datagram it got no answer to, and the first may have arrived.
                let session = Session::new(&hex::<KEY_LEN>(key)?, &hex::<SALT_LEN>(salt)?);
                self.routes.entry(ssrc(ssrc_s)?).or_insert_with(|| Route { session, index: ReplayIndex::default(), outputs: Vec::new() });
            }
            ["out", in_ssrc, addr, out_ssrc, key, salt] => {
                let addr: SocketAddrV4 = addr.parse().map_err(|e| format!("address {addr}: {e}"))?;
                let id_key = (hex::<KEY_LEN>(key)?.to_vec(), hex::<SALT_LEN>(salt)?.to_vec());
                let session = match self.session_ids.get(&id_key) {
                    Some(&id) => id,
                    None => {
                        let id = self.sessions.len();
                        self.sessions.push(Session::new(&hex::<KEY_LEN>(key)?, &hex::<SALT_LEN>(salt)?));
                        self.session_ids.insert(id_key, id);
                        id
                    }
                };
                let route = self.routes.get_mut(&ssrc(in_ssrc)?).ok_or_else(|| format!("no route for ssrc {in_ssrc}"))?;
                let out_ssrc = ssrc(out_ssrc)?;
                if !route.outputs.iter().any(|o| o.ssrc == out_ssrc) {
                    route.outputs.push(Output { addr: sockaddr(addr), ssrc: out_ssrc, session });
                }
            }
            ["stats"] => {
                let c = &self.counters;
                reply.push_str(&format!(
                    " received={} forwarded={} auth_failed={} replayed={} unknown_ssrc={} malformed={} send_failed={} routes={} outputs={}",
                    c.received, c.forwarded, c.auth_failed, c.replayed, c.unknown_ssrc, c.malformed, c.send_failed,
                    self.routes.len(), self.routes.values().map(|r| r.outputs.len()).sum::<usize>()
                ));
            }
            [] => {}
            _ => return Err(format!("unknown line: {line}")),
        }
        Ok(())
    }

    /// Applies a control datagram; returns the reply to send back.
    pub fn control(&mut self, datagram: &[u8]) -> String {
        self.counters.control += 1;
        let text = String::from_utf8_lossy(datagram);
        let mut lines = text.lines();
        let id = lines.next().and_then(|l| l.strip_prefix("C ")).unwrap_or("?").trim().to_string();
        let mut reply = format!("A {id} ok");
        for line in lines {
            if let Err(why) = self.line(line, &mut reply) {
                eprintln!("floor: control {id}: {why}");
                return format!("A {id} error {why}");
            }
        }
        reply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resent_control_datagram_adds_nothing_twice() {
        let mut table = Table::default();
        let key = "11".repeat(KEY_LEN);
        let salt = "22".repeat(SALT_LEN);
        let msg = format!("C 1\nroute 7 {key} {salt}\nout 7 127.0.0.1:9 8 {key} {salt}\n");
        assert_eq!(table.control(msg.as_bytes()), "A 1 ok");
        assert_eq!(table.control(msg.as_bytes()), "A 1 ok");
        assert_eq!(table.routes[&7].outputs.len(), 1);
        assert_eq!(table.sessions.len(), 1);
        assert!(table.control(b"C 2\nout 9 127.0.0.1:9 8 00 00\n").starts_with("A 2 error"));
    }
}
