package floor

import (
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"

	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/rtp"
	"golang.org/x/net/ipv4"
)

// inStream is one subscription's stream as it arrives: its subscriber's session, index and counting.
type inStream struct {
	session *Session
	roc     rocTracker
	stream  *stats.Stream
	pkt     rtp.Packet
}

// receiver is one of the generator's receive sockets; the floor sends each subscriber's streams to one of them.
// A stream's packets all arrive on one socket, so its state is its socket goroutine's alone.
type receiver struct {
	conn    *net.UDPConn
	streams atomic.Pointer[map[uint32]*inStream]
	mu      sync.Mutex // serialises additions (copy on write: the read loop takes no lock)
	// Packets that were not a known subscription's valid SRTP.
	unknown, failed, malformed atomic.Int64
}

const batchSize = 64

func newReceiver() (*receiver, error) {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	// A fan-out arrives in bursts of thousands of packets; the kernel caps this at net.core.rmem_max.
	_ = conn.SetReadBuffer(16 << 20)
	r := &receiver{conn: conn}
	r.streams.Store(&map[uint32]*inStream{})
	return r, nil
}

func (r *receiver) add(ssrc uint32, s *inStream) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := *r.streams.Load()
	next := make(map[uint32]*inStream, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[ssrc] = s
	r.streams.Store(&next)
}

// run reads batches (recvmmsg) until the socket closes.
func (r *receiver) run() {
	pc := ipv4.NewPacketConn(r.conn)
	msgs := make([]ipv4.Message, batchSize)
	for i := range msgs {
		msgs[i].Buffers = [][]byte{make([]byte, 2048)}
	}
	for {
		n, err := pc.ReadBatch(msgs, 0)
		if err != nil {
			return
		}
		streams := *r.streams.Load()
		for i := 0; i < n; i++ {
			r.packet(streams, msgs[i].Buffers[0][:msgs[i].N])
		}
	}
}

func (r *receiver) packet(streams map[uint32]*inStream, b []byte) {
	hlen := headerLen(b)
	if hlen == 0 {
		r.malformed.Add(1)
		return
	}
	s := streams[binary.BigEndian.Uint32(b[8:12])]
	if s == nil {
		r.unknown.Add(1)
		return
	}
	seq := binary.BigEndian.Uint16(b[2:4])
	roc := s.roc.guess(seq)
	payload, err := s.session.Unprotect(b, hlen, binary.BigEndian.Uint32(b[8:12]), roc, seq)
	if err != nil {
		r.failed.Add(1)
		return
	}
	s.roc.accept(roc, seq)
	// Counting reads the sequence number and the payload (its hash finds the send time), as for the other engines.
	s.pkt.SequenceNumber = seq
	s.pkt.Payload = payload
	s.stream.OnPacket(&s.pkt, len(b))
}
