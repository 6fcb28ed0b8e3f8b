package rtc

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/conclave/bench/loadgen/media"
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v4"
)

// Player plays a clip on a track in real time, looped: packetized (not encoded) with continuous
// timestamps; on a PLI or FIR it jumps to the clip's next key frame. Pion's interceptors send the sender
// reports and answer NACKs from their history.
type Player struct {
	clip       *media.Clip
	track      *webrtc.TrackLocalStaticRTP
	writer     RTPWriter
	packetizer rtp.Packetizer
	kind       stats.Kind
	tag        uint64
	index      int
	keyWanted  atomic.Bool
}

// RTPWriter sends a player's packets: a Pion track, or the floor's plain SRTP sender (bench/loadgen/floor).
type RTPWriter interface {
	WriteRTP(pkt *rtp.Packet) error
}

func codecOf(kind stats.Kind) (webrtc.RTPCodecCapability, rtp.Payloader) {
	if kind == stats.Video {
		return H264Codec, &codecs.H264Payloader{}
	}
	return OpusCodec, &codecs.OpusPayloader{}
}

// NewPlayer makes a track for clip; `source` names the publisher (the delay table's tag).
func NewPlayer(clip *media.Clip, kind stats.Kind, source, trackID string) (*Player, error) {
	codec, _ := codecOf(kind)
	track, err := webrtc.NewTrackLocalStaticRTP(codec, trackID, source)
	if err != nil {
		return nil, err
	}
	p := NewPlayerWriting(clip, kind, source, track)
	p.track = track
	return p, nil
}

// NewPlayerWriting plays clip into writer, which sets the packets' SSRC and payload type.
func NewPlayerWriting(clip *media.Clip, kind stats.Kind, source string, writer RTPWriter) *Player {
	codec, payloader := codecOf(kind)
	p := &Player{
		clip:       clip,
		writer:     writer,
		packetizer: rtp.NewPacketizer(1200, 0, 0, payloader, rtp.NewRandomSequencer(), codec.ClockRate),
		kind:       kind,
		tag:        stats.Tag(source, kind),
	}
	// Publishers start at different places of the clip (a key frame for video), as real ones would.
	p.index = rand.IntN(len(clip.Frames))
	p.skipToKey()
	return p
}

// Track to add to the connection.
func (p *Player) Track() *webrtc.TrackLocalStaticRTP { return p.track }

func (p *Player) skipToKey() {
	if p.kind != stats.Video {
		return
	}
	for i := 0; i < len(p.clip.Frames) && !p.clip.Frames[p.index].Key; i++ {
		p.index = (p.index + 1) % len(p.clip.Frames)
	}
}

// Run sends a frame every clip interval until ctx ends.
func (p *Player) Run(ctx context.Context) {
	next := time.Now()
	interval := time.Duration(p.clip.IntervalNs)
	counters := &stats.ByKind[p.kind]
	for ctx.Err() == nil {
		if p.keyWanted.Swap(false) {
			p.skipToKey()
		}
		frame := p.clip.Frames[p.index]
		p.index = (p.index + 1) % len(p.clip.Frames)
		for _, pkt := range p.packetizer.Packetize(frame.Data, p.clip.Ticks) {
			stats.Sent(stats.Key(p.tag, pkt.Payload), stats.Now())
			if err := p.writer.WriteRTP(pkt); err != nil && !errors.Is(err, io.ErrClosedPipe) {
				return
			}
			counters.SentPackets.Add(1)
			counters.SentBytes.Add(int64(len(pkt.Payload)))
		}
		next = next.Add(interval)
		wait := time.Until(next)
		if wait < -time.Second {
			next = time.Now() // far behind (a stalled process): do not burst to catch up
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// ReadRTCP drains the sender's RTCP (which drives the interceptors), counting NACKs and asking for a key
// frame on a PLI or FIR.
func (p *Player) ReadRTCP(sender *webrtc.RTPSender) {
	counters := &stats.ByKind[p.kind]
	for {
		pkts, _, err := sender.ReadRTCP()
		if err != nil {
			return
		}
		for _, pkt := range pkts {
			switch pkt := pkt.(type) {
			case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
				counters.PlisReceived.Add(1)
				p.keyWanted.Store(true)
			case *rtcp.TransportLayerNack:
				for _, pair := range pkt.Nacks {
					counters.NacksReceived.Add(int64(len(pair.PacketList())))
				}
			}
		}
	}
}

// Kind of the clip it plays.
func (p *Player) Kind() stats.Kind { return p.kind }

// RequestKeyFrame makes the next frame sent the clip's next key frame (a PLI seen elsewhere).
func (p *Player) RequestKeyFrame() { p.keyWanted.Store(true) }
