// Package conclave drives a Conclave server the way @conclave/sdk does (packages/protocol for the wire,
// packages/sdk/src/room and transport for the order): schedule over HTTP, join over the WebSocket with a
// userSig, heartbeats every 2 s, the uplink's offer and answer, subscribe commands and downlink offers.
package conclave

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

const (
	requestTimeout = 10 * time.Second
	heartbeatEvery = 2 * time.Second
	// Wire constants (packages/protocol: flags.ts, version.ts).
	roleAnchor      = 20
	sceneRTC        = 1
	terminalType    = 15
	protocolVersion = 2
)

type reply struct {
	ID      int             `json:"id"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Push    string          `json:"push"`
}

// Signal is one user's signalling connection.
type Signal struct {
	ws      *websocket.Conn
	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[int]chan reply
	onPush  func(name string, data json.RawMessage)
	done    chan struct{}
}

// Identity of a user in a room.
type Identity struct {
	SdkAppID int
	UserID   string
	UserSig  string
	RoomID   string
}

// schedule asks the server where to connect (POST /api/v1/config, form data) and returns the WebSocket URL.
func schedule(ctx context.Context, base string, id Identity) (string, error) {
	form := url.Values{
		"sdkAppId": {strconv.Itoa(id.SdkAppID)}, "userId": {id.UserID}, "userSig": {id.UserSig},
		"isStrGroupId": {"false"}, "groupId": {id.RoomID}, "sdkVersion": {"loadgen"},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/config", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var body struct {
		Code int    `json:"code"`
		Msg  string `json:"msg"`
		Data struct {
			Domains struct {
				Main string `json:"main"`
			} `json:"domains"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return "", fmt.Errorf("schedule: %w", err)
	}
	if body.Code != 0 {
		return "", fmt.Errorf("schedule refused: %d %s", body.Code, body.Msg)
	}
	return body.Data.Domains.Main, nil
}

// Join schedules, connects and joins the room as an anchor of an rtc-scene room; onPush gets every push.
// Returns the join reply's data.
func Join(ctx context.Context, base string, id Identity, onPush func(string, json.RawMessage)) (*Signal, json.RawMessage, error) {
	wsURL, err := schedule(ctx, base, id)
	if err != nil {
		return nil, nil, err
	}
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, wsURL, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("signal connect: %w", err)
	}
	s := &Signal{ws: ws, pending: map[int]chan reply{}, onPush: onPush, done: make(chan struct{})}
	go s.read()
	joined, err := s.Request("join", map[string]any{
		"sdkAppId": id.SdkAppID, "userId": id.UserID, "userSig": id.UserSig, "roomId": id.RoomID,
		"useStringRoomId": false, "trtcRole": roleAnchor, "trtcScene": sceneRTC, "version": "loadgen",
		"protocolVersion": protocolVersion, "ua": "conclave-loadgen", "terminalType": terminalType,
	})
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	go s.heartbeat()
	return s, joined, nil
}

func (s *Signal) read() {
	defer close(s.done)
	for {
		_, data, err := s.ws.ReadMessage()
		if err != nil {
			s.mu.Lock()
			for id, ch := range s.pending {
				ch <- reply{ID: id, Code: -1, Message: "signal connection closed"}
			}
			s.pending = map[int]chan reply{}
			s.mu.Unlock()
			return
		}
		var msg reply
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		if msg.Push != "" {
			if s.onPush != nil {
				s.onPush(msg.Push, msg.Data)
			}
			continue
		}
		s.mu.Lock()
		ch := s.pending[msg.ID]
		delete(s.pending, msg.ID)
		s.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (s *Signal) heartbeat() {
	ticker := time.NewTicker(heartbeatEvery)
	defer ticker.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-ticker.C:
			go func() { _, _ = s.Request("heartbeat", map[string]any{}) }()
		}
	}
}

// Request sends a command and waits for its reply; a nonzero code is an error.
func (s *Signal) Request(cmd string, data any) (json.RawMessage, error) {
	ch := make(chan reply, 1)
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	s.pending[id] = ch
	s.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": id, "cmd": cmd, "data": data})
	if err != nil {
		return nil, err
	}
	s.writeMu.Lock()
	err = s.ws.WriteMessage(websocket.TextMessage, msg)
	s.writeMu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.Code != 0 {
			return nil, fmt.Errorf("%s refused: %d %s", cmd, r.Code, r.Message)
		}
		return r.Data, nil
	case <-time.After(requestTimeout):
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return nil, fmt.Errorf("%s: no reply within %s", cmd, requestTimeout)
	}
}

// Close leaves the room (best effort) and closes the connection.
func (s *Signal) Close() {
	done := make(chan struct{})
	go func() {
		_, _ = s.Request("leave", map[string]any{})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	_ = s.ws.Close()
}
