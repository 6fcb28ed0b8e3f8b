package floor

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"sync"

	"github.com/conclave/bench/loadgen/media"
	"github.com/conclave/bench/loadgen/rtc"
	"github.com/conclave/bench/loadgen/run"
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/rtp"
)

// Payload types as the other engines' answers carry them (rtc.NewAPI).
const (
	opusPT = 111
	h264PT = 102
	// receivers: distinct destinations, as an SFU's subscribers are (each subscriber is on one of them).
	receivers = 4
)

// Driver runs publishers and subscribers against a floor forwarder at cfg.URL ("udp://127.0.0.1:port").
type Driver struct {
	floor     *net.UDPAddr
	send      *net.UDPConn
	receivers []*receiver
	ctx       context.Context
	cancel    context.CancelFunc
	mu        sync.Mutex
	sources   map[string]uint32 // userId/stream → published SSRC
	next      int
}

// New opens the driver's sockets.
func New(cfg *run.Config) (run.Driver, error) {
	floor, err := net.ResolveUDPAddr("udp4", strings.TrimPrefix(cfg.URL, "udp://"))
	if err != nil {
		return nil, fmt.Errorf("floor address %q: %w", cfg.URL, err)
	}
	send, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Driver{floor: floor, send: send, ctx: ctx, cancel: cancel, sources: map[string]uint32{}}
	for range receivers {
		r, err := newReceiver()
		if err != nil {
			return nil, err
		}
		d.receivers = append(d.receivers, r)
		go r.run()
	}
	return d, nil
}

// sender is a published stream: it takes the player's packets, sets SSRC and payload type, protects, sends.
type sender struct {
	conn    *net.UDPConn
	to      *net.UDPAddr
	ssrc    uint32
	pt      uint8
	session *Session
	roc     uint32
	last    uint16
	started bool
	buf     [2048]byte
}

func (s *sender) WriteRTP(pkt *rtp.Packet) error {
	pkt.SSRC, pkt.PayloadType = s.ssrc, s.pt
	n, err := pkt.MarshalTo(s.buf[:])
	if err != nil {
		return err
	}
	seq := pkt.SequenceNumber
	if s.started && seq < s.last && s.last-seq > 32768 {
		s.roc++
	}
	s.started, s.last = true, seq
	out := s.session.Protect(s.buf[:n], pkt.Header.MarshalSize(), s.ssrc, s.roc, seq)
	_, err = s.conn.WriteToUDP(out, s.to)
	return err
}

func streamKey(userID, stream string) string { return userID + "/" + stream }

// Publish installs a route per stream the publisher sends (audio, video, small) and starts its players.
func (d *Driver) Publish(_ context.Context, p run.Publisher, files *media.Files) error {
	type slot struct {
		on   bool
		clip *media.Clip
		kind stats.Kind
		name string
		pt   uint8
	}
	var lines []string
	var players []*rtc.Player
	for _, sl := range []slot{{p.Audio, files.Audio, stats.Audio, "audio", opusPT}, {p.Video, files.Video, stats.Video, "video", h264PT}, {p.Video && p.Small, files.Small, stats.Video, "small", h264PT}} {
		if !sl.on {
			continue
		}
		s := &sender{conn: d.send, to: d.floor, ssrc: rand.Uint32(), pt: sl.pt, session: RandomSession()}
		lines = append(lines, fmt.Sprintf("route %d %s", s.ssrc, s.session.Hex()))
		players = append(players, rtc.NewPlayerWriting(sl.clip, sl.kind, p.UserID, s))
		d.mu.Lock()
		d.sources[streamKey(p.UserID, sl.name)] = s.ssrc
		d.mu.Unlock()
	}
	if _, err := control(d.floor, lines); err != nil {
		return fmt.Errorf("%s: %w", p.UserID, err)
	}
	for _, player := range players {
		go player.Run(d.ctx)
	}
	return nil
}

// Subscribe gives the subscriber one session and one receive socket, and an output per stream it takes.
func (d *Driver) Subscribe(_ context.Context, s run.Subscriber) error {
	session := RandomSession()
	d.mu.Lock()
	r := d.receivers[d.next%len(d.receivers)]
	d.next++
	d.mu.Unlock()
	port := r.conn.LocalAddr().(*net.UDPAddr).Port
	var lines []string
	take := func(src, name string, kind stats.Kind) error {
		d.mu.Lock()
		in, ok := d.sources[streamKey(src, name)]
		d.mu.Unlock()
		if !ok {
			return fmt.Errorf("%s: %s publishes no %s", s.UserID, src, name)
		}
		out := rand.Uint32()
		stream := stats.NewStream(kind)
		stream.Tag.Store(stats.Tag(src, kind))
		r.add(out, &inStream{session: session, stream: stream})
		lines = append(lines, fmt.Sprintf("out %d 127.0.0.1:%d %d %s", in, port, out, session.Hex()))
		return nil
	}
	for _, src := range s.Sources {
		if src.Audio {
			if err := take(src.UserID, "audio", stats.Audio); err != nil {
				return err
			}
		}
		if src.BigVideo || src.SmallVideo {
			name := "video"
			if src.SmallVideo && !src.BigVideo {
				name = "small"
			}
			if err := take(src.UserID, name, stats.Video); err != nil {
				return err
			}
		}
	}
	if _, err := control(d.floor, lines); err != nil {
		return fmt.Errorf("%s: %w", s.UserID, err)
	}
	return nil
}

// Problems are the received packets that were not valid SRTP of a known subscription.
func (d *Driver) Problems() []string {
	var unknown, failed, malformed int64
	for _, r := range d.receivers {
		unknown, failed, malformed = unknown+r.unknown.Load(), failed+r.failed.Load(), malformed+r.malformed.Load()
	}
	if unknown+failed+malformed == 0 {
		return nil
	}
	return []string{fmt.Sprintf("floor: %d packets of no subscription, %d failed SRTP authentication, %d malformed", unknown, failed, malformed)}
}

// Close stops the players and the sockets.
func (d *Driver) Close() {
	d.cancel()
	_ = d.send.Close()
	for _, r := range d.receivers {
		_ = r.conn.Close()
	}
}
