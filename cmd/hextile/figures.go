package main

// Figures a reader can trust: times with units and enough significant
// digits (the number after the colon stays seconds, for scripts), rates
// per second, and a speedup that never rounds to 0.00.

import (
	"fmt"
	"io"
	"math"
)

// shortRun is the time under which a measurement mostly shows start-up
// costs (thread creation, first touches of memory, timer resolution).
const shortRun = 1e-3

// secs formats seconds as "0.001626 s (1.63 ms)": a plain number of
// seconds with 4 significant digits, then the value in a readable unit.
func secs(s float64) string {
	return fmt.Sprintf("%s s (%s)", sig4(s), human(s))
}

// sig4 prints x with 4 significant digits, without an exponent where the
// number is between 1e-6 and 1e9.
func sig4(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	a := math.Abs(x)
	if a < 1e-6 || a >= 1e9 {
		return fmt.Sprintf("%.4g", x)
	}
	dec := 3 - int(math.Floor(math.Log10(a)))
	if dec < 0 {
		dec = 0
	}
	return fmt.Sprintf("%.*f", dec, x)
}

// human prints a duration in ns, µs, ms or s with 3 significant digits.
func human(s float64) string {
	switch a := math.Abs(s); {
	case a == 0:
		return "0 s"
	case a < 1e-6:
		return fmt.Sprintf("%.3g ns", s*1e9)
	case a < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g s", s)
}

// rate prints a count per second with an SI prefix ("3.32 G").
func rate(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1e12:
		return fmt.Sprintf("%.3g T", x*1e-12)
	case a >= 1e9:
		return fmt.Sprintf("%.3g G", x*1e-9)
	case a >= 1e6:
		return fmt.Sprintf("%.3g M", x*1e-6)
	case a >= 1e3:
		return fmt.Sprintf("%.3g k", x*1e-3)
	}
	return fmt.Sprintf("%.3g ", x)
}

// printCPUTimes prints the timing lines of hextile run --device=cpu|emu.
func printCPUTimes(w io.Writer, orig, tiled float64, updates int64, tiledRate, origRate float64) {
	fmt.Fprintf(w, "time-original: %s\n", secs(orig))
	fmt.Fprintf(w, "time-tiled: %s\n", secs(tiled))
	if orig > 0 && tiled > 0 {
		sp := orig / tiled
		how := "faster"
		f := sp
		if sp < 1 {
			how, f = "slower", 1/sp
		}
		fs := fmt.Sprintf("%.3g", f)
		if f >= 100 {
			fs = fmt.Sprintf("%.0f", f)
		}
		fmt.Fprintf(w, "speedup: %s (the tiled code is %sx %s)\n", sig4(sp), fs, how)
	} else {
		fmt.Fprintln(w, "speedup: n/a (a time is below the timer's resolution)")
	}
	fmt.Fprintf(w, "updates: %d\n", updates)
	fmt.Fprintf(w, "updates/s: tiled %.4g (%supdates/s), original %.4g (%supdates/s)\n", tiledRate, rate(tiledRate), origRate, rate(origRate))
	if orig < shortRun || tiled < shortRun {
		fmt.Fprintf(w, "note: a run took under %s, so the times mostly show start-up costs (threads, first touches of memory); give larger sizes with -D (e.g. -D N=4000 -D T=100) for meaningful figures\n", human(shortRun))
	}
}
