package conclave

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/conclave/bench/loadgen/rtc"
	"github.com/conclave/bench/loadgen/run"
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/webrtc/v4"
)

// downlink is a subscriber's one receive-only connection (packages/sdk/src/transport/downlink.ts): the
// server offers (push downlink-offer), this side answers (downlink-answer), offers applied in order. Each
// subscription's streams arrive on the m-lines its subscribe reply names.
type downlink struct {
	pc     *webrtc.PeerConnection
	mu     sync.Mutex
	tags   map[string]uint64        // mid → source stream tag
	orphan map[string]*stats.Stream // tracks that arrived before their subscription's reply
	offers chan offer
	errs   chan error
}

type offer struct {
	Seq int    `json:"seq"`
	SDP string `json:"sdp"`
}

func (dl *downlink) tag(mid string, tag uint64) {
	dl.mu.Lock()
	defer dl.mu.Unlock()
	dl.tags[mid] = tag
	if stream := dl.orphan[mid]; stream != nil {
		stream.Tag.Store(tag)
		delete(dl.orphan, mid)
	}
}

func (dl *downlink) onTrack(track *webrtc.TrackRemote, receiver *webrtc.RTPReceiver) {
	stream := rtc.Receive(track)
	mid := rtc.MidOf(dl.pc, receiver)
	dl.mu.Lock()
	defer dl.mu.Unlock()
	if tag, ok := dl.tags[mid]; ok {
		stream.Tag.Store(tag)
	} else {
		dl.orphan[mid] = stream
	}
}

// answerOffers applies the server's offers one after the other and sends each answer.
func (dl *downlink) answerOffers(ctx context.Context, sig *Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case o := <-dl.offers:
			if err := dl.answer(sig, o); err != nil {
				select {
				case dl.errs <- err:
				default:
				}
			}
		}
	}
}

func (dl *downlink) answer(sig *Signal, o offer) error {
	if err := dl.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: o.SDP}); err != nil {
		return fmt.Errorf("downlink offer %d: %w", o.Seq, err)
	}
	answer, err := dl.pc.CreateAnswer(nil)
	if err != nil {
		return err
	}
	if err := negotiate(dl.pc, answer); err != nil {
		return err
	}
	_, err = sig.Request("downlink-answer", map[string]any{"seq": o.Seq, "sdp": dl.pc.LocalDescription().SDP})
	return err
}

// Subscribe joins and subscribes to each source in turn, as the SDK's Subscriptions do.
func (d *Driver) Subscribe(ctx context.Context, s run.Subscriber) error {
	pc, err := d.api.NewPeerConnection(rtc.Config)
	if err != nil {
		return err
	}
	d.onClose(func() { _ = pc.Close() })
	dl := &downlink{pc: pc, tags: map[string]uint64{}, orphan: map[string]*stats.Stream{}, offers: make(chan offer, 16), errs: make(chan error, 1)}
	pc.OnTrack(dl.onTrack)
	connected, failed := rtc.Connected(pc)
	sig, _, err := Join(ctx, d.cfg.URL, d.identity(s.UserID, s.UserSig), func(name string, data json.RawMessage) {
		if name != "downlink-offer" {
			return
		}
		var o offer
		if json.Unmarshal(data, &o) == nil {
			dl.offers <- o
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", s.UserID, err)
	}
	d.onClose(sig.Close)
	go dl.answerOffers(d.ctx, sig)
	for _, src := range s.Sources {
		raw, err := sig.Request("subscribe", map[string]any{"srcUserId": src.UserID, "audio": src.Audio, "bigVideo": src.BigVideo, "smallVideo": src.SmallVideo, "auxVideo": false})
		if err != nil {
			return fmt.Errorf("%s subscribe %s: %w", s.UserID, src.UserID, err)
		}
		var mids struct {
			Audio string `json:"audio"`
			Video string `json:"video"`
		}
		if err := json.Unmarshal(raw, &mids); err != nil {
			return err
		}
		dl.tag(mids.Audio, stats.Tag(src.UserID, stats.Audio))
		dl.tag(mids.Video, stats.Tag(src.UserID, stats.Video))
	}
	select {
	case err := <-dl.errs:
		return fmt.Errorf("%s: %w", s.UserID, err)
	default:
	}
	return waitConnected(ctx, connected, failed, s.UserID+" downlink")
}
