package stats

// KindReport is one media kind's figures over the measurement window.
type KindReport struct {
	SentPackets     int64   `json:"sentPackets"`
	SentBytes       int64   `json:"sentBytes"`
	ReceivedPackets int64   `json:"receivedPackets"`
	ReceivedBytes   int64   `json:"receivedBytes"`
	ExpectedPackets int64   `json:"expectedPackets"`
	LostPackets     int64   `json:"lostPackets"`
	LossRate        float64 `json:"lossRate"`
	NacksSent       int64   `json:"nacksSent"`
	NacksReceived   int64   `json:"nacksReceived"`
	PlisReceived    int64   `json:"plisReceived"`
	Streams         int     `json:"streams"`
	// Received packets whose send time was not found (their delay is not counted).
	Unmatched int64   `json:"unmatched"`
	Delay     Summary `json:"delay"`
}

// WindowReport is the whole window: both kinds and their sum.
type WindowReport struct {
	Seconds float64     `json:"seconds"`
	Audio   KindReport  `json:"audio"`
	Video   KindReport  `json:"video"`
	Total   KindReport  `json:"total"`
	Rates   WindowRates `json:"rates"`
}

// WindowRates per second of the window.
type WindowRates struct {
	SentPacketsPerSecond     float64 `json:"sentPacketsPerSecond"`
	ReceivedPacketsPerSecond float64 `json:"receivedPacketsPerSecond"`
	ReceivedMbps             float64 `json:"receivedMbps"`
}

type streamMark struct{ received, bytes, highest, unmatched int64 }

type mark struct {
	at      int64
	streams map[*Stream]streamMark
	kinds   [2]struct{ sentP, sentB, nackS, nackR, pli int64 }
}

func takeMark() mark {
	m := mark{at: Now(), streams: map[*Stream]streamMark{}}
	streamsMu.Lock()
	for _, s := range streams {
		// A stream with no packet yet counts from its first one (CloseWindow).
		if received := s.received.Load(); received > 0 {
			m.streams[s] = streamMark{received, s.bytes.Load(), s.highest.Load(), s.NoDelayKey.Load()}
		}
	}
	streamsMu.Unlock()
	for k := range ByKind {
		c := &ByKind[k]
		m.kinds[k].sentP, m.kinds[k].sentB = c.SentPackets.Load(), c.SentBytes.Load()
		m.kinds[k].nackS, m.kinds[k].nackR, m.kinds[k].pli = c.NacksSent.Load(), c.NacksReceived.Load(), c.PlisReceived.Load()
	}
	return m
}

var start mark

// OpenWindow starts the measurement window.
func OpenWindow() {
	window.Store(&Window{Delay: [2]*Histogram{{}, {}}})
	start = takeMark()
	measuring.Store(true)
}

// CloseWindow ends it and reports.
func CloseWindow() WindowReport {
	measuring.Store(false)
	end := takeMark()
	seconds := float64(end.at-start.at) / 1e9
	r := WindowReport{Seconds: seconds}
	kinds := [2]*KindReport{&r.Audio, &r.Video}
	for s, e := range end.streams {
		b, ok := start.streams[s]
		if !ok {
			b = streamMark{highest: s.first.Load() - 1}
		}
		k := kinds[s.Kind]
		k.Streams++
		k.ReceivedPackets += e.received - b.received
		k.ReceivedBytes += e.bytes - b.bytes
		k.ExpectedPackets += e.highest - b.highest
		k.Unmatched += e.unmatched - b.unmatched
	}
	w := window.Load()
	for i, k := range kinds {
		a, b := end.kinds[i], start.kinds[i]
		k.SentPackets, k.SentBytes = a.sentP-b.sentP, a.sentB-b.sentB
		k.NacksSent, k.NacksReceived, k.PlisReceived = a.nackS-b.nackS, a.nackR-b.nackR, a.pli-b.pli
		k.LostPackets = max(0, k.ExpectedPackets-k.ReceivedPackets)
		if k.ExpectedPackets > 0 {
			k.LossRate = float64(k.LostPackets) / float64(k.ExpectedPackets)
		}
		k.Delay = w.Delay[i].Summarize()
	}
	all := &Histogram{}
	for i := range all.buckets {
		all.buckets[i].Store(w.Delay[0].buckets[i].Load() + w.Delay[1].buckets[i].Load())
	}
	t := &r.Total
	for _, k := range kinds {
		t.SentPackets += k.SentPackets
		t.SentBytes += k.SentBytes
		t.ReceivedPackets += k.ReceivedPackets
		t.ReceivedBytes += k.ReceivedBytes
		t.ExpectedPackets += k.ExpectedPackets
		t.LostPackets += k.LostPackets
		t.NacksSent += k.NacksSent
		t.NacksReceived += k.NacksReceived
		t.PlisReceived += k.PlisReceived
		t.Streams += k.Streams
		t.Unmatched += k.Unmatched
	}
	if t.ExpectedPackets > 0 {
		t.LossRate = float64(t.LostPackets) / float64(t.ExpectedPackets)
	}
	t.Delay = all.Summarize()
	if seconds > 0 {
		r.Rates = WindowRates{
			SentPacketsPerSecond:     float64(t.SentPackets) / seconds,
			ReceivedPacketsPerSecond: float64(t.ReceivedPackets) / seconds,
			ReceivedMbps:             float64(t.ReceivedBytes) * 8 / 1e6 / seconds,
		}
	}
	return r
}
