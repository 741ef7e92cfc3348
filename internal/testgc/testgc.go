// Package testgc runs a package's tests with a lazier garbage collector.
//
// hextile's test suites allocate at a high rate (poly's exact arithmetic,
// the pipeline run once per test case) and keep little alive, so with Go's
// default GOGC=100 the collector runs every time the small live heap
// doubles and costs a large part of the default run's CPU: on a 2-core
// machine `go test ./...` took 410 s of CPU with the default and 338 s with
// GOGC=400 (wall 215 -> 180 s). Main sets the collector's target to 400%
// unless GOGC is set in the environment (which then wins, as usual).
//
// Only _test.go files import this package, from their TestMain:
//
//	func TestMain(m *testing.M) { testgc.Main(m) }
package testgc

import (
	"os"
	"runtime/debug"
	"testing"
)

// Percent is the GC target percentage Main sets (GOGC's meaning).
const Percent = 400

// Main runs m with the collector's target at Percent (unless GOGC is set)
// and exits with its status.
func Main(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	os.Exit(m.Run())
}
