package testgc

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestPercent: under Main the collector's target is Percent, or GOGC's
// value when the environment sets it.
func TestPercent(t *testing.T) {
	got := debug.SetGCPercent(-1)
	debug.SetGCPercent(got)
	want := Percent
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC set in the environment: it wins")
	}
	if got != want {
		t.Errorf("GC percent %d, want %d", got, want)
	}
}
