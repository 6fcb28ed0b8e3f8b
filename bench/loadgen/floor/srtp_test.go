package floor

import (
	"bytes"
	"testing"

	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
)

// The floor's SRTP must be the one browsers and the engines speak: Pion's AEAD_AES_256_GCM context, made from
// the same master key and salt, decrypts what Session protects and the other way round, across a ROC change.
func TestSessionInteroperatesWithPionSRTP(t *testing.T) {
	master := bytes.Repeat([]byte{0x5a}, keyLen+saltLen)
	ours := NewSession(master[:keyLen], master[keyLen:])
	pion, err := srtp.CreateContext(master[:keyLen], master[keyLen:], srtp.ProtectionProfileAeadAes256Gcm)
	if err != nil {
		t.Fatal(err)
	}
	pionOut, err := srtp.CreateContext(master[:keyLen], master[keyLen:], srtp.ProtectionProfileAeadAes256Gcm)
	if err != nil {
		t.Fatal(err)
	}
	var tracker rocTracker
	roc := uint32(0)
	for i, seq := range []uint16{65534, 65535, 0, 1} {
		if seq == 0 {
			roc++
		}
		pkt := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 102, SequenceNumber: seq, SSRC: 1234}, Payload: []byte{byte(i), 1, 2, 3, 4, 5}}
		plain, _ := pkt.Marshal()
		buf := make([]byte, len(plain), len(plain)+tagLen)
		copy(buf, plain)
		protected := ours.Protect(buf, 12, 1234, roc, seq)
		decrypted, err := pion.DecryptRTP(nil, protected, nil)
		if err != nil || !bytes.Equal(decrypted, plain) {
			t.Fatalf("seq %d: Pion could not decrypt ours: %v", seq, err)
		}
		theirs, err := pionOut.EncryptRTP(nil, plain, nil)
		if err != nil {
			t.Fatal(err)
		}
		guess := tracker.guess(seq)
		payload, err := ours.Unprotect(theirs, 12, 1234, guess, seq)
		if err != nil || !bytes.Equal(payload, pkt.Payload) || guess != roc {
			t.Fatalf("seq %d: ours could not decrypt Pion's (roc %d, guessed %d): %v", seq, roc, guess, err)
		}
		tracker.accept(guess, seq)
	}
}
