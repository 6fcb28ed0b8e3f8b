package conclave

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/conclave/bench/loadgen/media"
	"github.com/conclave/bench/loadgen/rtc"
	"github.com/conclave/bench/loadgen/run"
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/webrtc/v4"
)

// Publish / mute flag bits (packages/protocol/src/flags.ts).
const (
	flagVideo = 1
	flagSmall = 2
	flagAudio = 8
)

// Driver connects the run's users to a Conclave server.
type Driver struct {
	cfg     *run.Config
	api     *webrtc.API
	ctx     context.Context
	cancel  context.CancelFunc
	mu      sync.Mutex
	closers []func()
}

// New makes the driver of cfg.
func New(cfg *run.Config) (run.Driver, error) {
	api, err := rtc.NewAPI()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Driver{cfg: cfg, api: api, ctx: ctx, cancel: cancel}, nil
}

func (d *Driver) identity(userID, sig string) Identity {
	return Identity{SdkAppID: d.cfg.SdkAppID, UserID: userID, UserSig: sig, RoomID: d.cfg.RoomID}
}

func (d *Driver) onClose(fn func()) {
	d.mu.Lock()
	d.closers = append(d.closers, fn)
	d.mu.Unlock()
}

// negotiate sets the local description and waits for ICE gathering (loopback: instant), so the SDP carries
// this side's candidates.
func negotiate(pc *webrtc.PeerConnection, desc webrtc.SessionDescription) error {
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(desc); err != nil {
		return err
	}
	<-gathered
	return nil
}

func waitConnected(ctx context.Context, connected, failed <-chan struct{}, what string) error {
	select {
	case <-connected:
		return nil
	case <-failed:
		return fmt.Errorf("%s: connection failed", what)
	case <-ctx.Done():
		return fmt.Errorf("%s: not connected: %w", what, ctx.Err())
	}
}

// Publish joins, negotiates the uplink (four sendonly m-lines: audio, video, small, aux, as the SDK's
// Uplink), announces its flags and starts the players once connected.
func (d *Driver) Publish(ctx context.Context, p run.Publisher, files *media.Files) error {
	sig, _, err := Join(ctx, d.cfg.URL, d.identity(p.UserID, p.UserSig), nil)
	if err != nil {
		return fmt.Errorf("%s: %w", p.UserID, err)
	}
	d.onClose(sig.Close)
	pc, err := d.api.NewPeerConnection(rtc.Config)
	if err != nil {
		return err
	}
	d.onClose(func() { _ = pc.Close() })
	var players []*rtc.Player
	slots := []struct {
		on   bool
		clip *media.Clip
		kind stats.Kind
		id   string
	}{{p.Audio, files.Audio, stats.Audio, "audio"}, {p.Video, files.Video, stats.Video, "video"}, {p.Video && p.Small, files.Small, stats.Video, "small"}, {false, nil, stats.Video, "aux"}}
	for _, slot := range slots {
		init := webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}
		if !slot.on {
			kind := webrtc.RTPCodecTypeVideo
			if slot.kind == stats.Audio {
				kind = webrtc.RTPCodecTypeAudio
			}
			if _, err := pc.AddTransceiverFromKind(kind, init); err != nil {
				return err
			}
			continue
		}
		player, err := rtc.NewPlayer(slot.clip, slot.kind, p.UserID, slot.id)
		if err != nil {
			return err
		}
		transceiver, err := pc.AddTransceiverFromTrack(player.Track(), init)
		if err != nil {
			return err
		}
		go player.ReadRTCP(transceiver.Sender())
		players = append(players, player)
	}
	connected, failed := rtc.Connected(pc)
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return err
	}
	if err := negotiate(pc, offer); err != nil {
		return err
	}
	raw, err := sig.Request("publish", map[string]string{"sdp": pc.LocalDescription().SDP})
	if err != nil {
		return fmt.Errorf("%s: %w", p.UserID, err)
	}
	var answer struct {
		SDP string `json:"sdp"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return err
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer.SDP}); err != nil {
		return fmt.Errorf("%s: uplink answer: %w", p.UserID, err)
	}
	if err := waitConnected(ctx, connected, failed, p.UserID+" uplink"); err != nil {
		return err
	}
	for _, player := range players {
		go player.Run(d.ctx)
	}
	flag := 0
	if p.Audio {
		flag |= flagAudio
	}
	if p.Video {
		flag |= flagVideo
		if p.Small {
			flag |= flagSmall
		}
	}
	if _, err := sig.Request("mute-flag", map[string]int{"flag": flag}); err != nil {
		return fmt.Errorf("%s: %w", p.UserID, err)
	}
	return nil
}

// Close leaves with everyone and stops the players.
func (d *Driver) Close() {
	d.cancel()
	d.mu.Lock()
	closers := d.closers
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, fn := range closers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn()
		}()
	}
	wg.Wait()
}
