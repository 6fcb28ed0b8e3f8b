package stats

import (
	"testing"

	"github.com/pion/rtp"
)

func TestLossAcrossSequenceWrapAndReorder(t *testing.T) {
	s := NewStream(Video)
	OpenWindow()
	// 65530 … 65535, 0 … 5 with 2 missing and 65534 arriving late.
	for _, seq := range []uint16{65530, 65531, 65532, 65533, 65535, 0, 1, 65534, 3, 4, 5} {
		s.OnPacket(&rtp.Packet{Header: rtp.Header{SequenceNumber: seq}, Payload: []byte{byte(seq)}}, 100)
	}
	r := CloseWindow()
	if r.Video.ExpectedPackets != 12 || r.Video.ReceivedPackets != 11 || r.Video.LostPackets != 1 {
		t.Fatalf("expected 12, received 11, lost 1; got %+v", r.Video)
	}
}

func TestDelayMatchesPayloadAndSource(t *testing.T) {
	tag := Tag("pub", Audio)
	Sent(Key(tag, []byte("payload")), Now()-5_000_000)
	if _, ok := SentAt(Key(Tag("other", Audio), []byte("payload"))); ok {
		t.Fatal("another source's payload matched")
	}
	s := NewStream(Audio)
	s.Tag.Store(tag)
	OpenWindow()
	s.OnPacket(&rtp.Packet{Header: rtp.Header{SequenceNumber: 1}, Payload: []byte("payload")}, 10)
	r := CloseWindow()
	if r.Audio.Delay.Samples != 1 || r.Audio.Delay.P50 < 5 || r.Audio.Delay.P50 > 50 {
		t.Fatalf("one delay of about 5 ms; got %+v", r.Audio.Delay)
	}
}
