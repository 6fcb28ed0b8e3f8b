// Command impair holds the packets of one NFQUEUE for a delay with jitter and drops some of them (random or
// Gilbert–Elliott bursts): netem's delay and loss for kernels without netem (tests/e2e/src/harness/impair.ts runs
// it inside a browser's network namespace, iptables sends the packets of one direction to its queue).
//
// It speaks nfnetlink_queue with the standard library only (no libnetfilter_queue, no module to download).
// Packets leave in the order they came (a release time never earlier than the one before), as on a real path
// whose queue varies: jitter without reordering.
//
// stdin, one command a line: `set delay=MS jitter=MS loss=P ge=PGB,PBG,LOSSGOOD,LOSSBAD` (any subset; ge=off
// ends bursts), `stats` (answers one JSON line on stdout), EOF ends the program. stdout: `ready` once bound.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	netlinkNetfilter = 12
	subsysQueue      = 3
	msgPacket        = subsysQueue<<8 | 0
	msgVerdict       = subsysQueue<<8 | 1
	msgConfig        = subsysQueue<<8 | 2
	attrPacketHdr    = 1
	attrVerdictHdr   = 2
	cfgCmd           = 1
	cfgParams        = 2
	cfgQueueMaxlen   = 3
	cmdBind          = 1
	copyMeta         = 1
	nfDrop           = 0
	nfAccept         = 1
	flagRequest      = 1
	flagAck          = 4
)

// params are the impairment in force; set by flags, changed by `set` lines.
type params struct {
	DelayMs  float64 `json:"delayMs"`
	JitterMs float64 `json:"jitterMs"`
	Loss     float64 `json:"loss"`
	// Gilbert–Elliott: P(good→bad), P(bad→good) per packet, loss in each state; off when PGB is 0.
	PGB      float64 `json:"pGoodToBad"`
	PBG      float64 `json:"pBadToGood"`
	LossGood float64 `json:"lossGood"`
	LossBad  float64 `json:"lossBad"`
}

type stats struct {
	Seen     uint64 `json:"seen"`
	Dropped  uint64 `json:"dropped"`
	Passed   uint64 `json:"passed"`
	Errors   uint64 `json:"errors"`
	MaxQueue int    `json:"maxQueue"`
}

type held struct {
	id uint32
	at time.Time
}

type impairer struct {
	fd    int
	queue uint16
	mu    sync.Mutex
	p     params
	bad   bool
	last  time.Time
	st    stats
	rng   *rand.Rand
	hold  chan held
	seq   uint32
}

func main() {
	queue := flag.Uint("queue", 0, "NFQUEUE number")
	var p params
	flag.Float64Var(&p.DelayMs, "delay", 0, "delay, ms")
	flag.Float64Var(&p.JitterMs, "jitter", 0, "jitter (uniform ±), ms")
	flag.Float64Var(&p.Loss, "loss", 0, "random loss, 0–1")
	ge := flag.String("ge", "", "Gilbert–Elliott PGB,PBG,LOSSGOOD,LOSSBAD")
	seed := flag.Int64("seed", time.Now().UnixNano(), "random seed")
	flag.Parse()
	if *ge != "" {
		if err := p.setGE(*ge); err != nil {
			fail(err)
		}
	}
	im := &impairer{queue: uint16(*queue), p: p, rng: rand.New(rand.NewSource(*seed)), hold: make(chan held, 1<<16)}
	if err := im.bind(); err != nil {
		fail(err)
	}
	go im.release()
	go im.read()
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		im.command(strings.TrimSpace(in.Text()))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "impair:", err)
	os.Exit(1)
}

func (p *params) setGE(v string) error {
	if v == "off" {
		p.PGB, p.PBG, p.LossGood, p.LossBad = 0, 0, 0, 0
		return nil
	}
	parts := strings.Split(v, ",")
	if len(parts) != 4 {
		return fmt.Errorf("ge wants PGB,PBG,LOSSGOOD,LOSSBAD, got %q", v)
	}
	var f [4]float64
	for i, s := range parts {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		f[i] = x
	}
	p.PGB, p.PBG, p.LossGood, p.LossBad = f[0], f[1], f[2], f[3]
	return nil
}

func (im *impairer) command(line string) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "stats":
		im.mu.Lock()
		out, _ := json.Marshal(struct {
			stats
			Params params `json:"params"`
		}{im.st, im.p})
		im.mu.Unlock()
		fmt.Println(string(out))
	case "set":
		im.mu.Lock()
		defer im.mu.Unlock()
		for _, kv := range fields[1:] {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "delay":
				im.p.DelayMs, err = strconv.ParseFloat(v, 64)
			case "jitter":
				im.p.JitterMs, err = strconv.ParseFloat(v, 64)
			case "loss":
				im.p.Loss, err = strconv.ParseFloat(v, 64)
			case "ge":
				err = im.p.setGE(v)
				im.bad = false
			default:
				err = fmt.Errorf("unknown setting %q", k)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "impair: set:", err)
			}
		}
	default:
		fmt.Fprintln(os.Stderr, "impair: unknown command", fields[0])
	}
}

// decide returns whether to drop a packet and, if not, when to let it go.
func (im *impairer) decide(now time.Time) (bool, time.Time) {
	im.mu.Lock()
	defer im.mu.Unlock()
	im.st.Seen++
	p := im.p
	lost := p.Loss > 0 && im.rng.Float64() < p.Loss
	if p.PGB > 0 {
		if im.bad {
			if im.rng.Float64() < p.PBG {
				im.bad = false
			}
		} else if im.rng.Float64() < p.PGB {
			im.bad = true
		}
		share := p.LossGood
		if im.bad {
			share = p.LossBad
		}
		lost = lost || im.rng.Float64() < share
	}
	if lost {
		im.st.Dropped++
		return true, now
	}
	im.st.Passed++
	d := p.DelayMs
	if p.JitterMs > 0 {
		d += (im.rng.Float64()*2 - 1) * p.JitterMs
	}
	at := now.Add(time.Duration(d * float64(time.Millisecond)))
	if at.Before(im.last) {
		at = im.last
	}
	im.last = at
	if q := len(im.hold) + 1; q > im.st.MaxQueue {
		im.st.MaxQueue = q
	}
	return false, at
}

func (im *impairer) read() {
	buf := make([]byte, 1<<16)
	for {
		n, _, err := syscall.Recvfrom(im.fd, buf, 0)
		if err != nil {
			// ENOBUFS: the kernel's socket buffer overflowed (those packets wait in the queue or were let through by
			// --queue-bypass); counted, the loop goes on.
			im.mu.Lock()
			im.st.Errors++
			im.mu.Unlock()
			continue
		}
		for msg := buf[:n]; len(msg) >= 16; {
			length := int(binary.LittleEndian.Uint32(msg[0:4]))
			if length < 16 || length > len(msg) {
				break
			}
			typ := binary.LittleEndian.Uint16(msg[4:6])
			if typ == msgPacket {
				if id, ok := packetID(msg[16+4 : length]); ok {
					now := time.Now()
					if drop, at := im.decide(now); drop {
						im.verdict(id, nfDrop)
					} else if !at.After(now) {
						im.verdict(id, nfAccept)
					} else {
						im.hold <- held{id, at}
					}
				}
			}
			msg = msg[align(length):]
		}
	}
}

func (im *impairer) release() {
	for h := range im.hold {
		if d := time.Until(h.at); d > 0 {
			time.Sleep(d)
		}
		im.verdict(h.id, nfAccept)
	}
}

func packetID(attrs []byte) (uint32, bool) {
	for len(attrs) >= 4 {
		l := int(binary.LittleEndian.Uint16(attrs[0:2]))
		t := binary.LittleEndian.Uint16(attrs[2:4]) & 0x3fff
		if l < 4 || l > len(attrs) {
			return 0, false
		}
		if t == attrPacketHdr && l >= 8 {
			return binary.BigEndian.Uint32(attrs[4:8]), true
		}
		attrs = attrs[align(l):]
	}
	return 0, false
}

func align(n int) int { return (n + 3) &^ 3 }

func attr(typ uint16, data []byte) []byte {
	b := make([]byte, align(4+len(data)))
	binary.LittleEndian.PutUint16(b[0:2], uint16(4+len(data)))
	binary.LittleEndian.PutUint16(b[2:4], typ)
	copy(b[4:], data)
	return b
}

func (im *impairer) message(typ uint16, flags uint16, attrs ...[]byte) []byte {
	body := []byte{syscall.AF_UNSPEC, 0, byte(im.queue >> 8), byte(im.queue)}
	for _, a := range attrs {
		body = append(body, a...)
	}
	im.mu.Lock()
	im.seq++
	seq := im.seq
	im.mu.Unlock()
	h := make([]byte, 16)
	binary.LittleEndian.PutUint32(h[0:4], uint32(16+len(body)))
	binary.LittleEndian.PutUint16(h[4:6], typ)
	binary.LittleEndian.PutUint16(h[6:8], flags)
	binary.LittleEndian.PutUint32(h[8:12], seq)
	return append(h, body...)
}

func (im *impairer) send(msg []byte) error {
	return syscall.Sendto(im.fd, msg, 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK})
}

func (im *impairer) verdict(id uint32, v uint32) {
	hdr := make([]byte, 8)
	binary.BigEndian.PutUint32(hdr[0:4], v)
	binary.BigEndian.PutUint32(hdr[4:8], id)
	if err := im.send(im.message(msgVerdict, flagRequest, attr(attrVerdictHdr, hdr))); err != nil {
		im.mu.Lock()
		im.st.Errors++
		im.mu.Unlock()
	}
}

func (im *impairer) bind() error {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_RAW, netlinkNetfilter)
	if err != nil {
		return fmt.Errorf("netlink socket: %w", err)
	}
	im.fd = fd
	if err := syscall.Bind(fd, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return fmt.Errorf("netlink bind: %w", err)
	}
	_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, 8<<20)
	cmd := []byte{cmdBind, 0, 0, 0}
	if err := im.request(im.message(msgConfig, flagRequest|flagAck, attr(cfgCmd, cmd))); err != nil {
		return fmt.Errorf("bind queue %d (is nfnetlink_queue in the kernel, another program on it?): %w", im.queue, err)
	}
	params := make([]byte, 5)
	binary.BigEndian.PutUint32(params[0:4], 0)
	params[4] = copyMeta
	maxlen := make([]byte, 4)
	binary.BigEndian.PutUint32(maxlen, 1<<14)
	return im.request(im.message(msgConfig, flagRequest|flagAck, attr(cfgParams, params), attr(cfgQueueMaxlen, maxlen)))
}

// request sends a message and reads its acknowledgement (an NLMSG_ERROR with errno 0).
func (im *impairer) request(msg []byte) error {
	if err := im.send(msg); err != nil {
		return err
	}
	buf := make([]byte, 8192)
	n, _, err := syscall.Recvfrom(im.fd, buf, 0)
	if err != nil {
		return err
	}
	if n >= 20 && binary.LittleEndian.Uint16(buf[4:6]) == syscall.NLMSG_ERROR {
		if errno := int32(binary.LittleEndian.Uint32(buf[16:20])); errno != 0 {
			return syscall.Errno(-errno)
		}
	}
	return nil
}
