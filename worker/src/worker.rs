//! The worker's state and its media path: one UDP socket shared by every peer connection, str0m driven
//! sans-IO, media forwarded in str0m's frame mode (MediaData in from an uplink, Writer::write out on each
//! subscribed downlink).

use crate::control::event;
use crate::peers::{Peer, Role, Slot};
use serde_json::json;
use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};
use str0m::media::{KeyframeRequestKind, MediaData};
use str0m::net::{Protocol, Receive};
use str0m::{Event, IceConnectionState, Input, Output};

/// Media to hand on after a peer's outputs are drained.
enum Hand {
    Media(String, Slot, MediaData),
    Keyframe(String, Slot, KeyframeRequestKind),
}

pub struct Worker {
    pub socket: UdpSocket,
    pub local: SocketAddr,
    pub peers: HashMap<u64, Peer>,
    pub uplink_of: HashMap<String, u64>,
    pub downlink_of: HashMap<String, u64>,
    next_key: u64,
    /// The peer a remote address spoke to last (saves asking every Rtc whether it accepts a datagram).
    by_addr: HashMap<SocketAddr, u64>,
    /// Counters of peers gone: forwarded packets and bytes, received packets by slot.
    pub retired: (u64, u64, [u64; 4]),
    pub frames_forwarded: u64,
    last_counters: (u64, u64, [u64; 4]),
    last_census: usize,
    /// When the earliest peer wants its timeout handled (every poll lowers it; a tick raises it again).
    pub wake: Instant,
}

impl Worker {
    pub fn new(socket: UdpSocket) -> std::io::Result<Worker> {
        let local = socket.local_addr()?;
        Ok(Worker {
            socket, local, peers: HashMap::new(), uplink_of: HashMap::new(), downlink_of: HashMap::new(), next_key: 1,
            by_addr: HashMap::new(), retired: (0, 0, [0; 4]), frames_forwarded: 0, last_counters: (0, 0, [0; 4]), last_census: 0, wake: Instant::now(),
        })
    }

    pub fn add_peer(&mut self, peer: Peer) -> u64 {
        let key = self.next_key;
        self.next_key += 1;
        self.peers.insert(key, peer);
        key
    }

    /// Drops a peer, keeping its counters in the totals.
    pub fn remove_peer(&mut self, key: u64) {
        let Some(mut peer) = self.peers.remove(&key) else { return };
        peer.rtc.disconnect();
        let (packets, bytes, received) = Self::peer_counts(&peer);
        self.retired.0 += packets;
        self.retired.1 += bytes;
        for (total, add) in self.retired.2.iter_mut().zip(received) {
            *total += add;
        }
        self.by_addr.retain(|_, k| *k != key);
    }

    fn peer_counts(peer: &Peer) -> (u64, u64, [u64; 4]) {
        let mut received = [0u64; 4];
        match &peer.role {
            Role::Down(_) => (peer.counted.iter().map(|c| c.1).sum(), peer.counted.iter().map(|c| c.2).sum(), received),
            Role::Up(up) => {
                for (mid, packets, _) in &peer.counted {
                    if let Some(slot) = up.slot_of(*mid) {
                        received[slot.index()] += packets;
                    }
                }
                (0, 0, received)
            }
        }
    }

    /// Forwarded packets, bytes, and received packets by slot, since start.
    pub fn counters(&self) -> (u64, u64, [u64; 4]) {
        let mut totals = self.retired;
        for peer in self.peers.values() {
            let (packets, bytes, received) = Self::peer_counts(peer);
            totals.0 += packets;
            totals.1 += bytes;
            for (total, add) in totals.2.iter_mut().zip(received) {
                *total += add;
            }
        }
        totals
    }

    /// Tells the server the counters and the peer census when they changed.
    pub fn report(&mut self) {
        let counters = self.counters();
        if counters != self.last_counters {
            self.last_counters = counters;
            let r = counters.2;
            event("counters", json!({ "forwardedPackets": counters.0, "forwardedBytes": counters.1, "forwardedFrames": self.frames_forwarded,
                "received": { "audio": r[0], "video": r[1], "small": r[2], "aux": r[3] } }));
        }
        if self.peers.len() != self.last_census {
            self.last_census = self.peers.len();
            event("census", json!({ "peers": self.last_census }));
        }
    }

    /// One datagram from the socket, to the peer that accepts it.
    pub fn receive(&mut self, source: SocketAddr, datagram: &[u8]) {
        let Ok(contents) = datagram.try_into() else { return }; // neither STUN, DTLS nor RTP: not ours
        let input = Input::Receive(Instant::now(), Receive { proto: Protocol::Udp, source, destination: self.local, contents });
        let cached = self.by_addr.get(&source).copied().filter(|k| self.peers.get(k).is_some_and(|p| p.rtc.accepts(&input)));
        let key = cached.or_else(|| self.peers.iter().find(|(_, p)| p.rtc.accepts(&input)).map(|(k, _)| *k));
        let Some(key) = key else { return }; // a peer closed meanwhile, or STUN before its Rtc exists
        self.by_addr.insert(source, key);
        if let Some(peer) = self.peers.get_mut(&key) {
            if let Err(error) = peer.rtc.handle_input(input) {
                eprintln!("peer {key}: input failed: {error}");
                peer.rtc.disconnect();
            }
        }
        self.drain(key);
    }

    /// Drives time in every peer; `wake` becomes the earliest next timeout.
    pub fn tick(&mut self) -> Instant {
        let now = Instant::now();
        self.wake = now + Duration::from_millis(100);
        // Only the peers whose timeout is due: a tick of every peer at every wake costs O(peers) per packet.
        let keys: Vec<u64> = self.peers.iter().filter(|(_, p)| p.due <= now).map(|(k, _)| *k).collect();
        for key in &keys {
            if let Some(peer) = self.peers.get_mut(key) {
                if let Err(error) = peer.rtc.handle_input(Input::Timeout(now)) {
                    eprintln!("peer {key}: timeout input failed: {error}");
                    peer.rtc.disconnect();
                }
            }
        }
        for key in keys {
            self.drain(key);
        }
        self.wake = self.peers.values().map(|p| p.due).fold(now + Duration::from_millis(100), Instant::min);
        self.wake
    }

    /// Polls one peer until its timeout: sends what it transmits, hands on its media and keyframe requests.
    pub fn drain(&mut self, key: u64) -> Instant {
        let mut hands = Vec::new();
        let next = self.poll(key, &mut hands);
        for hand in hands {
            match hand {
                Hand::Media(source, slot, data) => self.fan_out(&source, slot, &data),
                Hand::Keyframe(source, slot, kind) => self.request_keyframe(&source, slot, kind, false),
            }
        }
        next
    }

    fn poll(&mut self, key: u64, hands: &mut Vec<Hand>) -> Instant {
        let Some(peer) = self.peers.get_mut(&key) else { return Instant::now() + Duration::from_millis(100) };
        loop {
            if !peer.rtc.is_alive() {
                tell_gone(peer, "the peer connection closed (ICE or DTLS ended)");
                peer.due = Instant::now() + Duration::from_secs(1); // nothing more to drive: the server closes it
                return peer.due;
            }
            let output = match peer.rtc.poll_output() {
                Ok(output) => output,
                Err(error) => {
                    eprintln!("peer {key}: poll failed: {error}");
                    peer.rtc.disconnect();
                    continue;
                }
            };
            match output {
                Output::Timeout(at) => {
                    peer.due = at;
                    self.wake = self.wake.min(at);
                    return at;
                }
                Output::Transmit(t) => {
                    if let Err(error) = self.socket.send_to(&t.contents, t.destination) {
                        eprintln!("send to {}: {error}", t.destination); // a datagram lost: RTP/RTCP recover
                    }
                }
                Output::Event(e) => on_event(peer, e, hands),
            }
        }
    }

    /// Writes one frame of `source`'s `slot` on every downlink whose group routes it.
    fn fan_out(&mut self, source: &str, slot: Slot, data: &MediaData) {
        let keys: Vec<u64> = self.peers.iter().filter(|(_, p)| matches!(&p.role, Role::Down(d) if d.group_of(source).is_some())).map(|(k, _)| *k).collect();
        for key in keys {
            let Some(peer) = self.peers.get_mut(&key) else { continue };
            let Role::Down(down) = &peer.role else { continue };
            let Some(group) = down.group_of(source).map(|g| &down.groups[g]) else { continue };
            let Some(line) = group.wants.line_for(slot) else { continue };
            let mid = group.mids[line];
            let Some(writer) = peer.rtc.writer(mid) else { continue }; // not negotiated yet (the answer is on its way), or no such m-line
            let Some(pt) = pick_pt(&writer, data.params) else {
                eprintln!("downlink {key}: no payload type matches {:?}", data.params); // the subscriber took no such codec
                continue;
            };
            match writer.write(pt, data.network_time, data.time, data.data.clone()) {
                Ok(()) => { self.frames_forwarded += 1; if crate::tracing_on() { eprintln!("trace: wrote {:?} to {key} mid {mid}", slot); } }
                Err(error) => eprintln!("downlink {key}: write failed: {error}"),
            }
            self.drain(key);
        }
    }

    /// Asks `source`'s uplink for a key frame on `slot` (throttled to one per 300 ms unless `force`).
    pub fn request_keyframe(&mut self, source: &str, slot: Slot, kind: KeyframeRequestKind, force: bool) {
        let Some(key) = self.uplink_of.get(source).copied() else { return };
        let Some(peer) = self.peers.get_mut(&key) else { return };
        let Role::Up(up) = &mut peer.role else { return };
        let Some(mid) = up.mids.get(slot.index()).copied() else { return };
        let last = &mut up.last_keyframe_request[slot.index()];
        if !force && last.is_some_and(|at| at.elapsed() < Duration::from_millis(300)) {
            return;
        }
        *last = Some(Instant::now());
        if let Some(mut writer) = peer.rtc.writer(mid) {
            if let Err(error) = writer.request_keyframe(None, kind) {
                eprintln!("keyframe request to {source}: {error}"); // e.g. audio, or not receiving yet
            }
        }
        self.drain(key);
    }
}

fn tell_gone(peer: &mut Peer, detail: &str) {
    if peer.told_gone {
        return;
    }
    peer.told_gone = true;
    match &peer.role {
        Role::Up(up) => event("uplink-lost", json!({ "participant": up.participant, "detail": detail })),
        Role::Down(down) => event("downlink-failed", json!({ "subscriber": down.subscriber, "detail": detail })),
    }
}

fn on_event(peer: &mut Peer, e: Event, hands: &mut Vec<Hand>) {
    match e {
        Event::IceConnectionStateChange(IceConnectionState::Disconnected) => {
            peer.rtc.disconnect();
            tell_gone(peer, "ICE disconnected (consent expired)");
        }
        Event::MediaData(data) => {
            let Role::Up(up) = &mut peer.role else { return };
            let Some(slot) = up.slot_of(data.mid) else { eprintln!("trace: media on unknown mid {} (mids {:?})", data.mid, up.mids); return };
            if crate::tracing_on() { eprintln!("trace: media {:?} {} bytes contiguous {}", slot, data.data.len(), data.contiguous); }
            if !up.flowing {
                up.flowing = true;
                event("feed-up", json!({ "participant": up.participant }));
            }
            if !data.contiguous && slot != Slot::Audio {
                hands.push(Hand::Keyframe(up.participant.clone(), slot, KeyframeRequestKind::Pli));
            }
            hands.push(Hand::Media(up.participant.clone(), slot, data));
        }
        Event::KeyframeRequest(req) => {
            let Role::Down(down) = &peer.role else { return };
            if let Some((source, slot)) = down.feed_of(req.mid) {
                hands.push(Hand::Keyframe(source, slot, req.kind));
            }
        }
        Event::MediaEgressStats(s) => { if crate::tracing_on() { eprintln!("trace: egress {} {} packets", s.mid, s.packets); } count(peer, s.mid, s.packets, s.bytes) }
        Event::MediaIngressStats(s) => count(peer, s.mid, s.packets, s.bytes),
        _ => {}
    }
}

/// Keeps the latest cumulative counters of one m-line.
fn count(peer: &mut Peer, mid: str0m::media::Mid, packets: u64, bytes: u64) {
    match peer.counted.iter_mut().find(|c| c.0 == mid) {
        Some(entry) => {
            entry.1 = entry.1.max(packets);
            entry.2 = entry.2.max(bytes);
        }
        None => peer.counted.push((mid, packets, bytes)),
    }
}

/// The downlink payload type for a publisher's codec: the exact match when the subscriber accepted it, else the first
/// payload type of the same codec it accepted (the SDK's H264 42e01f constrained baseline decodes as 42001f baseline).
fn pick_pt(writer: &str0m::media::Writer, params: str0m::format::PayloadParams) -> Option<str0m::media::Pt> {
    let accepted: Vec<_> = writer.payload_params().map(|p| (p.pt(), p.spec().codec)).collect();
    if let Some(pt) = writer.match_params(params).filter(|pt| accepted.iter().any(|(a, _)| a == pt)) {
        return Some(pt);
    }
    accepted.iter().find(|(_, codec)| *codec == params.spec().codec).map(|(pt, _)| *pt)
}
