package floor

import (
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"
)

var controlID atomic.Int64

// maxControl keeps a control datagram within the floor's 2,048-byte receive buffers.
const maxControl = 1800

// control sends lines to the floor in as many datagrams as they need, each retried until answered.
func control(floor *net.UDPAddr, lines []string) (string, error) {
	var replies []string
	for len(lines) > 0 {
		size, n := 0, 0
		for n < len(lines) && (n == 0 || size+len(lines[n])+1 <= maxControl) {
			size += len(lines[n]) + 1
			n++
		}
		reply, err := controlOnce(floor, lines[:n])
		if err != nil {
			return "", err
		}
		replies = append(replies, reply)
		lines = lines[n:]
	}
	return strings.Join(replies, "\n"), nil
}

func controlOnce(floor *net.UDPAddr, lines []string) (string, error) {
	conn, err := net.DialUDP("udp4", nil, floor)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	id := controlID.Add(1)
	msg := []byte(fmt.Sprintf("C %d\n%s\n", id, strings.Join(lines, "\n")))
	buf := make([]byte, 4096)
	want := fmt.Sprintf("A %d ", id)
	// Resent until answered, the wait growing to 1 s: on a loaded machine the floor or this process may not run
	// for a while (a 40 × 40 meeting at load average 12–22 saw 5 s pass without an answer). About 30 s in all.
	for try := 0; try < 35; try++ {
		if _, err := conn.Write(msg); err != nil {
			return "", err
		}
		_ = conn.SetReadDeadline(time.Now().Add(min(time.Duration(try+1)*250*time.Millisecond, time.Second)))
		for {
			n, err := conn.Read(buf)
			if err != nil {
				break // timeout (or refused): send again
			}
			reply := string(buf[:n])
			if !strings.HasPrefix(reply, want) {
				continue
			}
			if strings.HasPrefix(reply[len(want):], "error") {
				return "", fmt.Errorf("floor: %s", reply)
			}
			return reply, nil
		}
	}
	return "", fmt.Errorf("floor at %s did not answer control %d", floor, id)
}
