// Command loadgen drives a Conclave server with synthetic publishers and subscribers (bench/README.md
// "Load generator"): the run's configuration is JSON on stdin, the report JSON on stdout. A "udp://" URL is
// the load lab's floor forwarder (bench/floor), driven with plain SRTP instead.
package main

import (
	"strings"

	"github.com/conclave/bench/loadgen/conclave"
	"github.com/conclave/bench/loadgen/floor"
	"github.com/conclave/bench/loadgen/run"
)

func main() {
	run.Main(func(cfg *run.Config) (run.Driver, error) {
		if strings.HasPrefix(cfg.URL, "udp://") {
			return floor.New(cfg)
		}
		return conclave.New(cfg)
	})
}
