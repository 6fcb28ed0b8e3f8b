// Command loadgen-livekit drives a LiveKit server with the same publishers and subscribers as loadgen drives
// Conclave (bench/README.md "Load generator"), through LiveKit's own Go server SDK: the same clips, the same
// players (pre-encoded, looped, key frame on PLI), the same counting and delay measurement. A module of its
// own, so the Conclave generator's build does not download LiveKit's dependencies.
//
// Differences, all from LiveKit's SDK: its publisher and subscriber connections are its own (two per user);
// no small stream (LiveKit's counterpart is simulcast, not driven here); subscribers auto-subscribe to every
// track in the room (every shape's subscribers take every publisher); NACKs are not counted.
package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/conclave/bench/loadgen/media"
	"github.com/conclave/bench/loadgen/rtc"
	"github.com/conclave/bench/loadgen/run"
	"github.com/conclave/bench/loadgen/stats"
	"github.com/livekit/protocol/livekit"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
)

type driver struct {
	cfg    *run.Config
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	rooms  []*lksdk.Room
}

func main() {
	run.Main(func(cfg *run.Config) (run.Driver, error) {
		ctx, cancel := context.WithCancel(context.Background())
		return &driver{cfg: cfg, ctx: ctx, cancel: cancel}, nil
	})
}

func (d *driver) info(identity string) lksdk.ConnectInfo {
	return lksdk.ConnectInfo{APIKey: d.cfg.APIKey, APISecret: d.cfg.APISecret, RoomName: d.cfg.RoomID, ParticipantIdentity: identity}
}

func (d *driver) keep(room *lksdk.Room) {
	d.mu.Lock()
	d.rooms = append(d.rooms, room)
	d.mu.Unlock()
}

// pliTap hands the PLIs and FIRs a publisher's connection receives to its video players: the SDK reads a
// plain track's RTCP itself and drops it, so the interceptor chain is where they can be seen.
type pliTap struct {
	interceptor.NoOp
	onPLI func()
}

func (t *pliTap) BindRTCPReader(reader interceptor.RTCPReader) interceptor.RTCPReader {
	return interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, attrs, err := reader.Read(b, a)
		if err == nil {
			if pkts, perr := rtcp.Unmarshal(b[:n]); perr == nil {
				for _, pkt := range pkts {
					switch pkt := pkt.(type) {
					case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
						t.onPLI()
					case *rtcp.TransportLayerNack:
						for _, pair := range pkt.Nacks {
							stats.ByKind[stats.Video].NacksReceived.Add(int64(len(pair.PacketList())))
						}
					}
				}
			}
		}
		return n, attrs, err
	})
}

type pliTapFactory struct{ onPLI func() }

func (f pliTapFactory) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &pliTap{onPLI: f.onPLI}, nil
}

func (d *driver) Publish(ctx context.Context, p run.Publisher, files *media.Files) error {
	var players []*rtc.Player
	var video []*rtc.Player
	if p.Audio {
		player, err := rtc.NewPlayer(files.Audio, stats.Audio, p.UserID, "audio")
		if err != nil {
			return err
		}
		players = append(players, player)
	}
	if p.Video {
		player, err := rtc.NewPlayer(files.Video, stats.Video, p.UserID, "video")
		if err != nil {
			return err
		}
		players = append(players, player)
		video = append(video, player)
	}
	onPLI := func() {
		stats.ByKind[stats.Video].PlisReceived.Add(1)
		for _, v := range video {
			v.RequestKeyFrame()
		}
	}
	room, err := lksdk.ConnectToRoom(d.cfg.URL, d.info(p.UserID), lksdk.NewRoomCallback(),
		lksdk.WithAutoSubscribe(false), lksdk.WithInterceptors([]interceptor.Factory{pliTapFactory{onPLI}}))
	if err != nil {
		return fmt.Errorf("%s: %w", p.UserID, err)
	}
	d.keep(room)
	for _, player := range players {
		source, name := livekit.TrackSource_MICROPHONE, "audio"
		opts := &lksdk.TrackPublicationOptions{Name: name, Source: source}
		if player.Kind() == stats.Video {
			opts = &lksdk.TrackPublicationOptions{Name: "video", Source: livekit.TrackSource_CAMERA, VideoWidth: 640, VideoHeight: 360}
		}
		if _, err := room.LocalParticipant.PublishTrack(player.Track(), opts); err != nil {
			return fmt.Errorf("%s publish: %w", p.UserID, err)
		}
	}
	for _, player := range players {
		go player.Run(d.ctx)
	}
	return nil
}

func (d *driver) Subscribe(ctx context.Context, s run.Subscriber) error {
	cb := lksdk.NewRoomCallback()
	cb.OnTrackSubscribed = func(track *webrtc.TrackRemote, _ *lksdk.RemoteTrackPublication, rp *lksdk.RemoteParticipant) {
		stream := rtc.Receive(track)
		kind := stats.Audio
		if track.Kind() == webrtc.RTPCodecTypeVideo {
			kind = stats.Video
		}
		stream.Tag.Store(stats.Tag(rp.Identity(), kind))
	}
	room, err := lksdk.ConnectToRoom(d.cfg.URL, d.info(s.UserID), cb, lksdk.WithAutoSubscribe(true))
	if err != nil {
		return fmt.Errorf("%s: %w", s.UserID, err)
	}
	d.keep(room)
	return nil
}

func (d *driver) Close() {
	d.cancel()
	d.mu.Lock()
	rooms := d.rooms
	d.mu.Unlock()
	var wg sync.WaitGroup
	for _, room := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := make(chan struct{})
			go func() {
				room.Disconnect()
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
			}
		}()
	}
	wg.Wait()
}
