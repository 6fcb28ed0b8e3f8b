// Package run is the generator's main loop, whatever the server: read the run's configuration (JSON on
// stdin), start the publishers, then the subscribers, wait until every subscribed stream flows, let it
// warm up, measure one window and print the report (JSON on stdout). Progress events go to stderr as JSON
// lines ({"event":"window-start"} …) so the caller can read the server's CPU at the window's edges.
package run

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/conclave/bench/loadgen/media"
	"github.com/conclave/bench/loadgen/stats"
)

// Publisher of the run: what it sends.
type Publisher struct {
	UserID  string `json:"userId"`
	UserSig string `json:"userSig"`
	Audio   bool   `json:"audio"`
	Video   bool   `json:"video"`
	Small   bool   `json:"small"`
}

// Source one subscriber receives.
type Source struct {
	UserID     string `json:"userId"`
	Audio      bool   `json:"audio"`
	BigVideo   bool   `json:"bigVideo"`
	SmallVideo bool   `json:"smallVideo"`
}

// Subscriber of the run (publishes nothing).
type Subscriber struct {
	UserID  string   `json:"userId"`
	UserSig string   `json:"userSig"`
	Sources []Source `json:"sources"`
}

// Config of one run.
type Config struct {
	// Conclave: the server's HTTP origin. LiveKit: its WebSocket URL.
	URL           string       `json:"url"`
	SdkAppID      int          `json:"sdkAppId"`
	RoomID        string       `json:"roomId"`
	MediaDir      string       `json:"mediaDir"`
	Publishers    []Publisher  `json:"publishers"`
	Subscribers   []Subscriber `json:"subscribers"`
	WarmupSeconds float64      `json:"warmupSeconds"`
	WindowSeconds float64      `json:"windowSeconds"`
	// Users set up at once.
	Concurrency int `json:"concurrency"`
	// LiveKit's API key and secret (tokens are minted by the generator).
	APIKey    string `json:"apiKey"`
	APISecret string `json:"apiSecret"`
}

// Driver connects users to one kind of server.
type Driver interface {
	// Publish joins as p and starts sending; returns once its media connection is up.
	Publish(ctx context.Context, p Publisher, files *media.Files) error
	// Subscribe joins as s and subscribes to its sources; returns once its media connection is up.
	Subscribe(ctx context.Context, s Subscriber) error
	// Close leaves with everyone.
	Close()
}

// ProblemReporter is a driver that knows of failures the counts do not show (the floor's SRTP failures).
type ProblemReporter interface {
	Problems() []string
}

// Report is the generator's output.
type Report struct {
	Publishers  int                `json:"publishers"`
	Subscribers int                `json:"subscribers"`
	SetupMs     float64            `json:"setupMs"`
	Window      stats.WindowReport `json:"window"`
	// CPUSeconds is the generator's own CPU time (user + system, every thread) over the window: the table
	// prints it beside the server's, so a generator at its limit shows.
	CPUSeconds float64  `json:"cpuSeconds"`
	Errors     []string `json:"errors"`
}

// Event writes a progress line to stderr.
func Event(name string, fields map[string]any) {
	out := map[string]any{"event": name, "t": float64(stats.Now()) / 1e6}
	for k, v := range fields {
		out[k] = v
	}
	line, _ := json.Marshal(out)
	fmt.Fprintln(os.Stderr, string(line))
}

func parallel[T any](ctx context.Context, items []T, limit int, fn func(context.Context, T) error) []string {
	var mu sync.Mutex
	var errs []string
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for _, item := range items {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := fn(ctx, item); err != nil {
				mu.Lock()
				errs = append(errs, err.Error())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errs
}

// expectedStreams: received streams once everything flows (one per wanted audio and video per source).
func expectedStreams(cfg *Config) int {
	n := 0
	for _, s := range cfg.Subscribers {
		for _, src := range s.Sources {
			if src.Audio {
				n++
			}
			if src.BigVideo || src.SmallVideo {
				n++
			}
		}
	}
	return n
}

// Main runs the generator with the driver newDriver makes; exits nonzero on a setup failure.
func Main(newDriver func(*Config) (Driver, error)) {
	var cfg Config
	if err := json.NewDecoder(os.Stdin).Decode(&cfg); err != nil {
		fail("config: %v", err)
	}
	files, err := media.Load(cfg.MediaDir)
	if err != nil {
		fail("media: %v", err)
	}
	driver, err := newDriver(&cfg)
	if err != nil {
		fail("driver: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	report := Report{Publishers: len(cfg.Publishers), Subscribers: len(cfg.Subscribers), Errors: []string{}}
	t0 := time.Now()
	setupCtx, setupCancel := context.WithTimeout(ctx, 60*time.Second+time.Duration(len(cfg.Subscribers))*time.Second)
	defer setupCancel()
	report.Errors = append(report.Errors, parallel(setupCtx, cfg.Publishers, cfg.Concurrency, func(ctx context.Context, p Publisher) error {
		return driver.Publish(ctx, p, files)
	})...)
	Event("published", map[string]any{"ms": time.Since(t0).Milliseconds()})
	report.Errors = append(report.Errors, parallel(setupCtx, cfg.Subscribers, cfg.Concurrency, func(ctx context.Context, s Subscriber) error {
		return driver.Subscribe(ctx, s)
	})...)
	want := expectedStreams(&cfg)
	for stats.FlowingStreams() < want && setupCtx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	if got := stats.FlowingStreams(); got < want {
		report.Errors = append(report.Errors, fmt.Sprintf("%d of %d subscribed streams flow", got, want))
	}
	report.SetupMs = float64(time.Since(t0).Microseconds()) / 1000
	Event("flowing", map[string]any{"ms": report.SetupMs, "streams": stats.FlowingStreams()})
	time.Sleep(time.Duration(cfg.WarmupSeconds * float64(time.Second)))
	Event("window-start", nil)
	stopProfile := startProfile()
	cpu0 := processCPUSeconds()
	stats.OpenWindow()
	time.Sleep(time.Duration(cfg.WindowSeconds * float64(time.Second)))
	report.Window = stats.CloseWindow()
	report.CPUSeconds = processCPUSeconds() - cpu0
	stopProfile()
	Event("window-end", nil)
	if pr, ok := driver.(ProblemReporter); ok {
		report.Errors = append(report.Errors, pr.Problems()...)
	}
	out, _ := json.Marshal(report)
	fmt.Println(string(out))
	driver.Close()
}

// startProfile writes a CPU profile of the window to $LOADGEN_CPUPROFILE, if set (go tool pprof reads it).
func startProfile() func() {
	path := os.Getenv("LOADGEN_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: cpu profile: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}

// processCPUSeconds is the process's user + system CPU time so far.
func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", args...)
	os.Exit(1)
}
