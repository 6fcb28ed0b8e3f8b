package stats

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/pion/rtp"
)

// Kind is the media kind of a stream.
type Kind int

const (
	Audio Kind = iota
	Video
)

func (k Kind) String() string {
	if k == Audio {
		return "audio"
	}
	return "video"
}

// Counters of one media kind, process-wide.
type Counters struct {
	SentPackets, SentBytes atomic.Int64
	// NACKed packets: asked for by subscribers (sent) and asked of publishers (received).
	NacksSent, NacksReceived atomic.Int64
	PlisReceived             atomic.Int64
}

// ByKind holds the counters of audio and video.
var ByKind [2]Counters

// Histogram of forwarding delays: 10 µs buckets up to 1 s, the last one for anything slower.
type Histogram struct {
	buckets [100_001]atomic.Int64
}

const bucketNs = 10_000

// Add records one delay.
func (h *Histogram) Add(ns int64) {
	i := ns / bucketNs
	if i < 0 {
		i = 0
	}
	if i >= int64(len(h.buckets)) {
		i = int64(len(h.buckets) - 1)
	}
	h.buckets[i].Add(1)
}

// Summary of a histogram in milliseconds.
type Summary struct {
	Samples int64   `json:"samples"`
	P50     float64 `json:"p50Ms"`
	P90     float64 `json:"p90Ms"`
	P99     float64 `json:"p99Ms"`
	Max     float64 `json:"maxMs"`
}

// Summarize reads the quantiles (upper bucket edges).
func (h *Histogram) Summarize() Summary {
	counts := make([]int64, len(h.buckets))
	var total int64
	last := 0
	for i := range h.buckets {
		counts[i] = h.buckets[i].Load()
		total += counts[i]
		if counts[i] > 0 {
			last = i
		}
	}
	s := Summary{Samples: total, Max: float64(last+1) * bucketNs / 1e6}
	if total == 0 {
		return s
	}
	q := func(p float64) float64 {
		want := int64(math.Ceil(p * float64(total)))
		var run int64
		for i, c := range counts {
			run += c
			if run >= want {
				return float64(i+1) * bucketNs / 1e6
			}
		}
		return s.Max
	}
	s.P50, s.P90, s.P99 = q(0.5), q(0.9), q(0.99)
	return s
}

// Window is what subscribers record while the measurement window is open.
type Window struct {
	Delay [2]*Histogram
}

var (
	measuring atomic.Bool
	window    atomic.Pointer[Window]
)

// Stream is one received RTP stream (its reader goroutine alone calls OnPacket).
type Stream struct {
	Kind Kind
	// Tag of the source stream (0 until the subscription that carries it is known).
	Tag        atomic.Uint64
	received   atomic.Int64
	bytes      atomic.Int64
	highest    atomic.Int64 // extended sequence number
	first      atomic.Int64
	started    bool
	cycles     int64
	lastSeq    uint16
	NoDelayKey atomic.Int64 // packets whose send time was not found
}

var (
	streamsMu sync.Mutex
	streams   []*Stream
)

// NewStream registers a received stream.
func NewStream(kind Kind) *Stream {
	s := &Stream{Kind: kind}
	streamsMu.Lock()
	streams = append(streams, s)
	streamsMu.Unlock()
	return s
}

// OnPacket counts a received packet of `size` bytes and, during the window, its delay.
func (s *Stream) OnPacket(pkt *rtp.Packet, size int) {
	now := Now()
	seq := pkt.SequenceNumber
	if !s.started {
		s.started = true
		s.lastSeq = seq
		s.first.Store(int64(seq))
		s.highest.Store(int64(seq))
	} else {
		diff := int16(seq - s.lastSeq)
		if diff > 0 {
			if seq < s.lastSeq {
				s.cycles += 1 << 16
			}
			s.lastSeq = seq
			s.highest.Store(s.cycles + int64(seq))
		}
	}
	s.received.Add(1)
	s.bytes.Add(int64(size))
	if !measuring.Load() {
		return
	}
	tag := s.Tag.Load()
	if tag == 0 {
		return
	}
	if at, ok := SentAt(Key(tag, pkt.Payload)); ok {
		window.Load().Delay[s.Kind].Add(now - at)
	} else {
		s.NoDelayKey.Add(1)
	}
}

// FlowingStreams is the number of received streams that have had a packet.
func FlowingStreams() int {
	streamsMu.Lock()
	defer streamsMu.Unlock()
	n := 0
	for _, s := range streams {
		if s.received.Load() > 0 {
			n++
		}
	}
	return n
}
