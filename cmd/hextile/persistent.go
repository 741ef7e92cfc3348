package main

import (
	"fmt"
	"io"
	"strings"
)

// persistentReport prints what a harness run under --persistent says about
// its persistent kernels: the emulator's launch and grid barrier counts
// (emu: 1 launches, 2T grid barriers, ...) to stdout, and each fallback to
// per-step launches (hextile: hx_persistK: why: per-step launches instead)
// as a note on stderr; it returns how many fell back.
func persistentReport(out string, stdout, stderr io.Writer) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "emu: ") && strings.Contains(l, "launches"):
			fmt.Fprintln(stdout, l)
		case strings.HasPrefix(l, "hextile: hx_persist") && strings.HasSuffix(l, "per-step launches instead"):
			fmt.Fprintf(stderr, "note: %s\n", strings.TrimPrefix(l, "hextile: "))
			n++
		}
	}
	return n
}
