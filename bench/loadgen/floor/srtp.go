// Package floor drives the load lab's floor forwarder (bench/floor, bench/README.md "Load: cost per forwarded
// packet"): no ICE, DTLS or signalling, plain SRTP over UDP with keys the generator makes and hands to the floor
// in control datagrams. Publishers and subscribers count as for the other engines (rtc.Player, stats.Stream).
package floor

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
)

// AEAD_AES_256_GCM (RFC 7714): what Chromium and Pion offer first and the engines negotiate.
const (
	keyLen  = 32
	saltLen = 12
	tagLen  = 16
)

// Session is one SRTP session's cipher (the key schedule made once) and salt.
type Session struct {
	aead cipher.AEAD
	key  [keyLen]byte
	salt [saltLen]byte
}

// deriveKey is RFC 3711 §4.3's AES-CM key derivation (key derivation rate 0), as DTLS-SRTP would run it.
func deriveKey(label byte, masterKey, masterSalt []byte, out []byte) {
	block, err := aes.NewCipher(masterKey)
	if err != nil {
		panic(err)
	}
	var in, block16 [16]byte
	copy(in[:], masterSalt)
	in[7] ^= label
	for n, i := 0, uint16(0); n < len(out); n, i = n+16, i+1 {
		binary.BigEndian.PutUint16(in[14:], i)
		block.Encrypt(block16[:], in[:])
		copy(out[n:], block16[:])
	}
}

// NewSession derives the session's encryption key and salt from a master key and salt.
func NewSession(masterKey, masterSalt []byte) *Session {
	s := &Session{}
	deriveKey(0x00, masterKey, masterSalt, s.key[:])
	deriveKey(0x02, masterKey, masterSalt, s.salt[:])
	block, err := aes.NewCipher(s.key[:])
	if err != nil {
		panic(err)
	}
	if s.aead, err = cipher.NewGCM(block); err != nil {
		panic(err)
	}
	return s
}

// RandomSession is a session from a fresh random master key and salt.
func RandomSession() *Session {
	master := make([]byte, keyLen+saltLen)
	if _, err := rand.Read(master); err != nil {
		panic(err)
	}
	return NewSession(master[:keyLen], master[keyLen:])
}

// Hex is the session key and salt as the floor's control lines take them.
func (s *Session) Hex() string {
	return hex.EncodeToString(s.key[:]) + " " + hex.EncodeToString(s.salt[:])
}

func (s *Session) nonce(ssrc, roc uint32, seq uint16) [12]byte {
	var iv [12]byte
	binary.BigEndian.PutUint32(iv[2:], ssrc)
	binary.BigEndian.PutUint32(iv[6:], roc)
	binary.BigEndian.PutUint16(iv[10:], seq)
	for i := range iv {
		iv[i] ^= s.salt[i]
	}
	return iv
}

// Protect encrypts packet[headerLen:] in place (packet's capacity must hold the tag); returns the SRTP packet.
func (s *Session) Protect(packet []byte, headerLen int, ssrc, roc uint32, seq uint16) []byte {
	iv := s.nonce(ssrc, roc, seq)
	return s.aead.Seal(packet[:headerLen], iv[:], packet[headerLen:], packet[:headerLen])
}

// Unprotect authenticates and decrypts in place; returns the payload.
func (s *Session) Unprotect(packet []byte, headerLen int, ssrc, roc uint32, seq uint16) ([]byte, error) {
	iv := s.nonce(ssrc, roc, seq)
	return s.aead.Open(packet[headerLen:headerLen], iv[:], packet[headerLen:], packet[:headerLen])
}

// rocTracker estimates the rollover counter of a received sequence number (RFC 3711 §3.3.1).
type rocTracker struct {
	started bool
	highest uint64
}

func (t *rocTracker) guess(seq uint16) uint32 {
	if !t.started {
		return 0
	}
	roc, last := uint32(t.highest>>16), uint16(t.highest)
	if last < 32768 {
		if seq > last && seq-last > 32768 {
			return roc - 1
		}
	} else if last-32768 > seq {
		return roc + 1
	}
	return roc
}

func (t *rocTracker) accept(roc uint32, seq uint16) {
	index := uint64(roc)<<16 | uint64(seq)
	if !t.started || index > t.highest {
		t.started, t.highest = true, index
	}
}

// headerLen of an RTP packet (fixed header, CSRCs, extension); 0 if it is not RTP or too short for SRTP.
func headerLen(p []byte) int {
	if len(p) < 12+tagLen || p[0]>>6 != 2 {
		return 0
	}
	n := 12 + 4*int(p[0]&0x0f)
	if p[0]&0x10 != 0 {
		if len(p) < n+4 {
			return 0
		}
		n += 4 + 4*int(binary.BigEndian.Uint16(p[n+2:]))
	}
	if n+tagLen > len(p) {
		return 0
	}
	return n
}
