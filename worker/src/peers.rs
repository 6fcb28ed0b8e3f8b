//! What the worker keeps per peer connection: a publisher's uplink (its m-lines by slot) and a subscriber's
//! downlink (groups of three m-lines, one group per subscribed source).

use serde_json::Value;
use std::time::Instant;
use str0m::change::SdpPendingOffer;
use str0m::media::Mid;
use str0m::Rtc;

/// A publisher's stream, in the uplink's m-line order (UPLINK_SLOTS of @conclave/protocol/media).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Audio,
    Video,
    Small,
    Aux,
}

impl Slot {
    pub const ORDER: [Slot; 4] = [Slot::Audio, Slot::Video, Slot::Small, Slot::Aux];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Which of a source's streams a subscriber receives (SubscriptionWants).
#[derive(Debug, Clone, Copy, Default)]
pub struct Wants {
    pub audio: bool,
    pub big: bool,
    pub small: bool,
    pub aux: bool,
}

impl Wants {
    pub fn parse(value: Option<&Value>) -> Wants {
        let flag = |name: &str| value.and_then(|v| v.get(name)).and_then(Value::as_bool).unwrap_or(false);
        Wants { audio: flag("audio"), big: flag("bigVideo"), small: flag("smallVideo"), aux: flag("auxVideo") }
    }

    /// The source slot that feeds the group's main-video m-line: big when wanted, else small.
    pub fn main_video(self) -> Option<Slot> {
        if self.big {
            Some(Slot::Video)
        } else if self.small {
            Some(Slot::Small)
        } else {
            None
        }
    }

    /// Which of the group's m-lines (0 audio, 1 main video, 2 aux) carries `slot`, if any.
    pub fn line_for(self, slot: Slot) -> Option<usize> {
        match slot {
            Slot::Audio if self.audio => Some(0),
            Slot::Video | Slot::Small if self.main_video() == Some(slot) => Some(1),
            Slot::Aux if self.aux => Some(2),
            _ => None,
        }
    }
}

/// Three m-lines of a downlink: audio, main video, auxiliary video.
pub struct Group {
    pub mids: [Mid; 3],
    /// The source it carries; None when free for the next subscription.
    pub source: Option<String>,
    pub wants: Wants,
}

pub struct UplinkState {
    pub participant: String,
    /// The uplink's mids in m-line order (index = Slot).
    pub mids: Vec<Mid>,
    /// RTP came on it (feed-up told).
    pub flowing: bool,
    pub last_keyframe_request: [Option<Instant>; 4],
}

impl UplinkState {
    pub fn slot_of(&self, mid: Mid) -> Option<Slot> {
        self.mids.iter().position(|m| *m == mid).and_then(|i| Slot::ORDER.get(i).copied())
    }
}

pub struct DownlinkState {
    pub subscriber: String,
    pub groups: Vec<Group>,
    /// The offer handed to the client, until its answer comes.
    pub pending: Option<SdpPendingOffer>,
}

impl DownlinkState {
    pub fn group_of(&self, source: &str) -> Option<usize> {
        self.groups.iter().position(|g| g.source.as_deref() == Some(source))
    }

    /// The source and slot that feed m-line `mid`, for a keyframe request coming back from the subscriber.
    pub fn feed_of(&self, mid: Mid) -> Option<(String, Slot)> {
        let group = self.groups.iter().find(|g| g.mids.contains(&mid))?;
        let source = group.source.clone()?;
        let line = group.mids.iter().position(|m| *m == mid)?;
        let slot = match line {
            0 => Slot::Audio,
            1 => group.wants.main_video()?,
            _ => Slot::Aux,
        };
        Some((source, slot))
    }
}

pub enum Role {
    Up(UplinkState),
    Down(DownlinkState),
}

/// One str0m peer connection and what it is for.
pub struct Peer {
    pub rtc: Rtc,
    pub role: Role,
    /// Egress (downlink) or ingress (uplink) counters by mid, from str0m's periodic stats: packets, bytes.
    pub counted: Vec<(Mid, u64, u64)>,
    /// Told of as gone (uplink-lost or downlink-failed) already.
    pub told_gone: bool,
    /// When it wants its next timeout input (its last poll said).
    pub due: std::time::Instant,
}

/// The mids of an SDP's m-lines in order (`a=mid:` lines).
pub fn mids_in_order(sdp: &str) -> Vec<Mid> {
    sdp.lines().filter_map(|line| line.trim().strip_prefix("a=mid:")).map(|mid| Mid::from(mid.trim())).collect()
}

/// The kind ("audio", "video") and mid of each of an SDP's m-lines, in order.
pub fn media_lines(sdp: &str) -> Vec<(String, Mid)> {
    let mut lines = Vec::new();
    let mut kind: Option<String> = None;
    for line in sdp.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("m=") {
            kind = rest.split(' ').next().map(str::to_string);
        } else if let (Some(mid), Some(k)) = (line.strip_prefix("a=mid:"), kind.as_ref()) {
            lines.push((k.clone(), Mid::from(mid.trim())));
        }
    }
    lines
}

/// The SDP with the m-line of `mid` made inactive (a playback link answers what it does not carry so).
pub fn make_inactive(sdp: &str, mid: Mid) -> String {
    let sections: Vec<&str> = sdp.split("\r\nm=").collect();
    let mut out = Vec::with_capacity(sections.len());
    for section in sections {
        let carries = section.contains(&format!("a=mid:{mid}\r\n"));
        out.push(if carries { section.replace("a=sendonly", "a=inactive").replace("a=sendrecv", "a=inactive") } else { section.to_string() });
    }
    out.join("\r\nm=")
}
