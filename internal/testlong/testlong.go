package testlong

import (
	"os"
	"strconv"
	"testing"
)

// Env is the environment variable that turns the long campaigns on.
const Env = "HEXTILE_LONG"

// Enabled reports whether the long campaigns run: HEXTILE_LONG is true
// (1, t, true, ...) and the run is not -short. A value that is not a
// boolean counts as false.
func Enabled() bool {
	on, _ := strconv.ParseBool(os.Getenv(Env))
	return on && !testing.Short()
}

// Skip skips t unless the long campaigns run.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("long campaign: set " + Env + "=1 to run (CI does)")
	}
}

// Pick returns long when the long campaigns run and short otherwise: an
// iteration count, a seed count, a size.
func Pick[T any](short, long T) T {
	if Enabled() {
		return long
	}
	return short
}
