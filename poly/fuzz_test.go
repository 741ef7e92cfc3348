package poly

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fuzzMaxLen bounds the inputs the targets look at. With 2,000 the
// fuzzer stalled at "0 execs/sec" within seconds: no input was slow (each is
// parsed and printed in microseconds to a millisecond; fuzzStall below never
// fired), but the engine found "new coverage" in inputs over a kilobyte
// (e.g. 1,768 bytes of invalid UTF-8 after "{ [i] D") and then spent up to
// -fuzzminimizetime (60 s by default) minimizing each one, a candidate at a
// time, reporting no executions meanwhile (golang/go#51484, #48820).
// Short inputs reach every parser path, so longer ones are skipped (they
// hit the same early return and give no new coverage to minimize).
const fuzzMaxLen = 256

// fuzzStall is how long one input may take (parse, print, parse, print)
// before the fuzz targets report a stall: the goroutine's panic crashes the
// worker, so the fuzzer records the input.
const fuzzStall = 10 * time.Second

func watchStall(src string) *time.Timer {
	return time.AfterFunc(fuzzStall, func() { panic(fmt.Sprintf("stalled over %v on %q", fuzzStall, src)) })
}

func fuzzSeeds(f *testing.F) {
	for _, tc := range setCases {
		f.Add(tc.src)
	}
	for _, tc := range mapCases {
		f.Add(tc.src)
	}
	for _, s := range []string{"", "{", "{ }", "[N] -> { : N > 0 }", "{ [i] : exists (e0 = floor((i)/2): i = 2e0) }",
		"{ [i] : not (i mod 3 = 0) }", "{ A[i]; B[i, j] : i = j }", "{ [i] -> [o0] : 2o0 = i }", "{ [i] : i >= 99999999999999999999999 }"} {
		f.Add(s)
	}
}

// FuzzParseSet: ParseSet never panics; what it accepts prints to text that
// parses again and prints the same.
func FuzzParseSet(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > fuzzMaxLen {
			return
		}
		defer watchStall(src).Stop()
		s, err := ParseSet(src)
		if err != nil {
			if !strings.Contains(err.Error(), ":") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		p := s.String()
		back, err := ParseSet(p)
		if err != nil {
			t.Fatalf("ParseSet(%q) printed %q, which does not parse: %v", src, p, err)
		}
		if q := back.String(); q != p {
			t.Fatalf("print is not stable for %q:\n %s\n %s", src, p, q)
		}
	})
}

// FuzzParseMap is FuzzParseSet for maps.
func FuzzParseMap(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > fuzzMaxLen {
			return
		}
		defer watchStall(src).Stop()
		m, err := ParseMap(src)
		if err != nil {
			return
		}
		p := m.String()
		back, err := ParseMap(p)
		if err != nil {
			t.Fatalf("ParseMap(%q) printed %q, which does not parse: %v", src, p, err)
		}
		if q := back.String(); q != p {
			t.Fatalf("print is not stable for %q:\n %s\n %s", src, p, q)
		}
	})
}
