package isloracle

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

//go:embed isloracle.c.in
var source []byte

// Oracle is a running isl oracle process.
type Oracle struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	once   sync.Once
	oracle *Oracle
	err    error
)

// start builds the oracle with the system C compiler (-lisl) and starts it.
func start() (*Oracle, error) {
	dir, err := os.MkdirTemp("", "isloracle")
	if err != nil {
		return nil, err
	}
	src, bin := filepath.Join(dir, "isloracle.c"), filepath.Join(dir, "isloracle")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.Command("cc", "-O1", "-o", bin, src, "-lisl").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the isl oracle: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Oracle{in: in, out: bufio.NewReaderSize(stdout, 1<<20)}, nil
}

// Need returns the shared oracle. When it cannot be built (no C compiler or
// no libisl-dev) the test is skipped, or fails if HEXTILE_REQUIRE_ISL is set
// (CI sets it once isl is installed, so the oracle never skips silently).
func Need(t testing.TB) *Oracle {
	t.Helper()
	once.Do(func() { oracle, err = start() })
	if err != nil {
		if os.Getenv("HEXTILE_REQUIRE_ISL") != "" {
			t.Fatalf("isl oracle required but unavailable: %v", err)
		}
		t.Skipf("isl oracle unavailable (install libisl-dev): %v", err)
	}
	return oracle
}

// Ask sends one request and returns isl's one-line reply. With
// HEXTILE_ISL_SLOW set, replies that take over a second are reported on
// standard error.
func (o *Oracle) Ask(op string, args ...string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	line := op + "\t" + strings.Join(args, "\t") + "\n"
	if _, err := io.WriteString(o.in, line); err != nil {
		return "ERROR write: " + err.Error()
	}
	t0 := time.Now()
	reply, err := o.out.ReadString('\n')
	if d := time.Since(t0); d > time.Second && os.Getenv("HEXTILE_ISL_SLOW") != "" {
		fmt.Fprintf(os.Stderr, "isl took %v for %s", d, line)
	}
	if err != nil {
		return "ERROR read: " + err.Error()
	}
	return strings.TrimRight(reply, "\n")
}
