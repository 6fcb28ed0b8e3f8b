//! The control channel's operations on the worker (README.md "Control channel").

use crate::control::{text, Failure, Reason, Request};
use crate::peers::{make_inactive, media_lines, mids_in_order, DownlinkState, Group, Peer, Role, Slot, UplinkState, Wants};
use crate::worker::Worker;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use str0m::change::{SdpAnswer, SdpOffer};
use str0m::media::{Direction, KeyframeRequestKind, MediaKind, Mid};
use str0m::{Candidate, Rtc};

impl Worker {
    pub fn handle(&mut self, request: &Request) -> Result<Value, Failure> {
        let body = &request.body;
        match request.op.as_str() {
            "publish" => self.publish(text(body, "participant")?, text(body, "offer")?),
            "unpublish" => {
                // With `uplink` (the key publish answered), only that uplink: a later publish's stays.
                let participant = text(body, "participant")?;
                let only = body.get("uplink").and_then(Value::as_u64);
                if let Some(key) = self.uplink_of.get(participant).copied().filter(|k| only.is_none_or(|o| o == *k)) {
                    self.uplink_of.remove(participant);
                    self.remove_peer(key);
                }
                Ok(json!({}))
            }
            "subscribe" => self.subscribe(text(body, "subscriber")?, text(body, "source")?, Wants::parse(body.get("wants"))),
            "playback" => self.playback(text(body, "viewer")?, text(body, "source")?, text(body, "stream")?, text(body, "offer")?, Wants::parse(body.get("wants"))),
            "answer" => self.answer(text(body, "subscriber")?, text(body, "answer")?),
            "update" => self.update(text(body, "subscriber")?, text(body, "source")?, Wants::parse(body.get("wants"))),
            "unsubscribe" => {
                let (subscriber, source) = (text(body, "subscriber")?, text(body, "source")?);
                if let Some(down) = self.downlink(subscriber) {
                    for group in down.groups.iter_mut().filter(|g| g.source.as_deref() == Some(source)) {
                        group.source = None;
                    }
                }
                Ok(json!({}))
            }
            "closeDownlink" => {
                if let Some(key) = self.downlink_of.remove(text(body, "subscriber")?) {
                    self.remove_peer(key);
                }
                Ok(json!({}))
            }
            "stats" => {
                let (packets, bytes, r) = self.counters();
                Ok(json!({ "peers": self.peers.len(), "forwardedPackets": packets, "forwardedBytes": bytes, "forwardedFrames": self.frames_forwarded,
                    "received": { "audio": r[0], "video": r[1], "small": r[2], "aux": r[3] } }))
            }
            other => Err(Failure::new(Reason::Refused, format!("unknown operation '{other}'"))),
        }
    }

    fn new_rtc(&self) -> Result<Rtc, Failure> {
        let mut rtc = Rtc::builder().set_ice_lite(true).set_stats_interval(Some(Duration::from_millis(500))).build(Instant::now());
        let candidate = Candidate::host(self.local, "udp").map_err(|e| Failure::new(Reason::Refused, format!("host candidate: {e}")))?;
        rtc.add_local_candidate(candidate);
        Ok(rtc)
    }

    /// Answers a publisher's offer with a new uplink, replacing its earlier one.
    fn publish(&mut self, participant: &str, offer_sdp: &str) -> Result<Value, Failure> {
        let offer = SdpOffer::from_sdp_string(offer_sdp).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("bad offer: {e}")))?;
        let mut rtc = self.new_rtc()?;
        let answer = rtc.sdp_api().accept_offer(offer).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("offer refused: {e}")))?;
        let up = UplinkState { participant: participant.to_string(), mids: mids_in_order(offer_sdp), flowing: false, last_keyframe_request: [None; 4] };
        let key = self.add_peer(Peer { rtc, role: Role::Up(up), counted: Vec::new(), told_gone: false, due: Instant::now() });
        if let Some(old) = self.uplink_of.insert(participant.to_string(), key) {
            self.remove_peer(old);
        }
        Ok(json!({ "answer": answer.to_sdp_string(), "uplink": key }))
    }

    fn downlink(&mut self, subscriber: &str) -> Option<&mut DownlinkState> {
        let key = self.downlink_of.get(subscriber)?;
        match &mut self.peers.get_mut(key)?.role {
            Role::Down(down) => Some(down),
            Role::Up(_) => None,
        }
    }

    /// Carries `source` on the subscriber's downlink: its group, a free one, or three new m-lines (then an offer).
    fn subscribe(&mut self, subscriber: &str, source: &str, wants: Wants) -> Result<Value, Failure> {
        if !self.downlink_of.contains_key(subscriber) {
            let rtc = self.new_rtc()?;
            let down = DownlinkState { subscriber: subscriber.to_string(), groups: Vec::new(), pending: None };
            let key = self.add_peer(Peer { rtc, role: Role::Down(down), counted: Vec::new(), told_gone: false, due: Instant::now() });
            self.downlink_of.insert(subscriber.to_string(), key);
        }
        let key = self.downlink_of[subscriber];
        let peer = self.peers.get_mut(&key).ok_or_else(|| Failure::new(Reason::Refused, "downlink gone"))?;
        let Role::Down(down) = &mut peer.role else { return Err(Failure::new(Reason::Refused, "not a downlink")) };
        let reuse = down.group_of(source).or_else(|| down.groups.iter().position(|g| g.source.is_none()));
        let (mids, offer) = if let Some(index) = reuse {
            let group = &mut down.groups[index];
            group.source = Some(source.to_string());
            group.wants = wants;
            (group.mids, None)
        } else {
            if down.pending.is_some() {
                return Err(Failure::new(Reason::Refused, "a negotiation of this downlink is under way"));
            }
            let mut change = peer.rtc.sdp_api();
            let stream = Some(format!("conclave-{source}"));
            let audio = change.add_media(MediaKind::Audio, Direction::SendOnly, stream.clone(), None, None);
            let video = change.add_media(MediaKind::Video, Direction::SendOnly, stream.clone(), None, None);
            let aux = change.add_media(MediaKind::Video, Direction::SendOnly, stream, None, None);
            let (offer, pending) = change.apply().ok_or_else(|| Failure::new(Reason::NegotiationFailed, "no offer made"))?;
            down.pending = Some(pending);
            down.groups.push(Group { mids: [audio, video, aux], source: Some(source.to_string()), wants });
            ([audio, video, aux], Some(offer.to_sdp_string()))
        };
        self.request_all(source, wants);
        let mids = json!({ "audio": mids[0].to_string(), "video": mids[1].to_string(), "aux": mids[2].to_string() });
        Ok(match offer {
            Some(offer) => json!({ "mids": mids, "offer": offer }),
            None => json!({ "mids": mids }),
        })
    }

    /// Answers a player's receive-only offer (WHEP) with a link carrying one source: its audio and its main or aux video.
    fn playback(&mut self, viewer: &str, source: &str, stream: &str, offer_sdp: &str, wants: Wants) -> Result<Value, Failure> {
        let offer = SdpOffer::from_sdp_string(offer_sdp).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("bad offer: {e}")))?;
        let mut rtc = self.new_rtc()?;
        let answer = rtc.sdp_api().accept_offer(offer).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("offer refused: {e}")))?;
        let lines = media_lines(offer_sdp);
        let first = |kind: &str| lines.iter().find(|(k, _)| k == kind).map(|(_, mid)| *mid);
        let none = Mid::from("-");
        let (audio, video) = (first("audio"), first("video"));
        let video_line = video.unwrap_or(none);
        let mids = if stream == "aux" { [audio.unwrap_or(none), none, video_line] } else { [audio.unwrap_or(none), video_line, none] };
        let mut sdp = answer.to_sdp_string();
        if let Some(mid) = audio.filter(|_| !wants.audio) {
            sdp = make_inactive(&sdp, mid);
        }
        if let Some(mid) = video.filter(|_| if stream == "aux" { !wants.aux } else { !wants.big }) {
            sdp = make_inactive(&sdp, mid);
        }
        let down = DownlinkState { subscriber: viewer.to_string(), groups: vec![Group { mids, source: Some(source.to_string()), wants }], pending: None };
        let key = self.add_peer(Peer { rtc, role: Role::Down(down), counted: Vec::new(), told_gone: false, due: Instant::now() });
        if let Some(old) = self.downlink_of.insert(viewer.to_string(), key) {
            self.remove_peer(old);
        }
        self.request_all(source, wants);
        Ok(json!({ "answer": sdp }))
    }

    /// The client's answer to the downlink's pending offer.
    fn answer(&mut self, subscriber: &str, answer_sdp: &str) -> Result<Value, Failure> {
        let key = *self.downlink_of.get(subscriber).ok_or_else(|| Failure::new(Reason::NegotiationFailed, "no downlink"))?;
        let peer = self.peers.get_mut(&key).ok_or_else(|| Failure::new(Reason::NegotiationFailed, "no downlink"))?;
        let Role::Down(down) = &mut peer.role else { return Err(Failure::new(Reason::Refused, "not a downlink")) };
        let pending = down.pending.take().ok_or_else(|| Failure::new(Reason::NegotiationFailed, "no offer pending"))?;
        if crate::tracing_on() { eprintln!("trace: ANSWER {}", answer_sdp.replace("\r\n", " | ")); }
        let answer = SdpAnswer::from_sdp_string(answer_sdp).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("bad answer: {e}")))?;
        peer.rtc.sdp_api().accept_answer(pending, answer).map_err(|e| Failure::new(Reason::NegotiationFailed, format!("answer refused: {e}")))?;
        let sources: Vec<(String, Wants)> = down.groups.iter().filter_map(|g| g.source.clone().map(|s| (s, g.wants))).collect();
        self.drain(key);
        for (source, wants) in sources {
            self.request_all(&source, wants);
        }
        Ok(json!({}))
    }

    fn update(&mut self, subscriber: &str, source: &str, wants: Wants) -> Result<Value, Failure> {
        let missing = || Failure::new(Reason::NotSubscribed, format!("{subscriber} has no subscription to {source}"));
        let down = self.downlink(subscriber).ok_or_else(missing)?;
        let index = down.group_of(source).ok_or_else(missing)?;
        down.groups[index].wants = wants;
        self.request_all(source, wants);
        Ok(json!({}))
    }

    /// A new receiver of `source`'s video needs a key frame to start decoding.
    fn request_all(&mut self, source: &str, wants: Wants) {
        if let Some(slot) = wants.main_video() {
            self.request_keyframe(source, slot, KeyframeRequestKind::Pli, true);
        }
        if wants.aux {
            self.request_keyframe(source, Slot::Aux, KeyframeRequestKind::Pli, true);
        }
    }
}
