package codegen

import "hextile/internal/testlong"

// The default `go test` runs a representative slice of the long matrices
// below; HEXTILE_LONG=1 (CI) runs all of them (internal/testlong).

// streamCasesRun returns the streaming cases a test runs: by default the
// small 2-D shape, three statements (fdtd2d) and the small 3-D shape, which
// cover every kind of window; every case with HEXTILE_LONG=1. The GPU-sized
// tiles are slow to plan (the shared-memory footprint is enumerated point
// by point).
func streamCasesRun() []streamCase {
	if testlong.Enabled() {
		return streamCases
	}
	return []streamCase{streamCases[1], streamCases[4], streamCases[8]}
}
