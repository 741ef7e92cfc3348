//go:build !unix

package poly

import "time"

// processCPU is -1: the process's CPU time is not asked for here (the
// budget tests fall back to wall time).
func processCPU() time.Duration { return -1 }
