package rtc

import (
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// Receive reads a remote track until it ends, counting every packet on a stats.Stream (not decoded).
// The stream's tag may be set later, once the subscription carrying the track is known.
func Receive(track *webrtc.TrackRemote) *stats.Stream {
	kind := stats.Audio
	if track.Kind() == webrtc.RTPCodecTypeVideo {
		kind = stats.Video
	}
	stream := stats.NewStream(kind)
	go func() {
		buf := make([]byte, 1600)
		var pkt rtp.Packet
		for {
			n, _, err := track.Read(buf)
			if err != nil {
				return
			}
			if pkt.Unmarshal(buf[:n]) != nil {
				continue
			}
			stream.OnPacket(&pkt, n)
		}
	}()
	return stream
}

// MidOf is the mid of the transceiver that holds receiver (empty when not found).
func MidOf(pc *webrtc.PeerConnection, receiver *webrtc.RTPReceiver) string {
	for _, t := range pc.GetTransceivers() {
		if t.Receiver() == receiver {
			return t.Mid()
		}
	}
	return ""
}
