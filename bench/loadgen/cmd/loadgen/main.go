// Command loadgen drives a Conclave server with synthetic publishers and subscribers (bench/README.md
// "Load generator"): the run's configuration is JSON on stdin, the report JSON on stdout.
package main

import (
	"github.com/conclave/bench/loadgen/conclave"
	"github.com/conclave/bench/loadgen/run"
)

func main() {
	run.Main(conclave.New)
}
