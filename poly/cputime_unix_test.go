//go:build unix

package poly

import (
	"syscall"
	"time"
)

// processCPU is the test process's CPU time so far (user and system), or
// -1 where the system does not say.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
