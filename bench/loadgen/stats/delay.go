// Package stats counts what the generator sends and receives, and measures each packet's forwarding delay.
//
// Delay: publishers and subscribers live in this one process, so a packet's send time is remembered under a
// hash of its payload (which every SFU forwards byte for byte) mixed with its source stream's tag, and looked
// up when a subscriber receives it. No header extension is needed: the engines rewrite or drop them
// (werift and Janus stamp abs-send-time with their own clock; LiveKit forwards only what it negotiates).
package stats

import (
	"hash/maphash"
	"sync"
	"time"
)

var epoch = time.Now()

// Now is the process's monotonic clock in nanoseconds.
func Now() int64 { return int64(time.Since(epoch)) }

var seed = maphash.MakeSeed()

// Tag names one source stream in the delay table: the publisher's id and the media kind.
func Tag(userID string, kind Kind) uint64 {
	return maphash.String(seed, userID) ^ uint64(kind+1)*0x9e3779b97f4a7c15
}

// Key is the table key of a payload sent on the stream `tag`.
func Key(tag uint64, payload []byte) uint64 {
	return maphash.Bytes(seed, payload) ^ tag
}

// rotateNs: entries live between one and two of these (a forwarded packet arrives well within one).
const rotateNs = int64(2 * time.Second)

type shard struct {
	mu      sync.Mutex
	cur     map[uint64]int64
	prev    map[uint64]int64
	rotated int64
}

var shards [64]shard

func init() {
	for i := range shards {
		shards[i].cur = map[uint64]int64{}
		shards[i].prev = map[uint64]int64{}
	}
}

// Sent remembers when the payload with `key` was sent.
func Sent(key uint64, at int64) {
	s := &shards[key&63]
	s.mu.Lock()
	if at-s.rotated > rotateNs {
		s.prev = s.cur
		s.cur = make(map[uint64]int64, len(s.prev))
		s.rotated = at
	}
	s.cur[key] = at
	s.mu.Unlock()
}

// SentAt returns when the payload with `key` was sent, if it was within the last couple of seconds.
func SentAt(key uint64) (int64, bool) {
	s := &shards[key&63]
	s.mu.Lock()
	at, ok := s.cur[key]
	if !ok {
		at, ok = s.prev[key]
	}
	s.mu.Unlock()
	return at, ok
}
