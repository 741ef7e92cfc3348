// Package bench holds the benchmark scripts (no Go code); its test runs the
// side-by-side script's self-test: the log parsing and the table of
// bench/sidebyside.sh on fake logs (bash, python3; about a second).
package bench

import (
	"os/exec"
	"strings"
	"testing"
)

func TestSideBySideTable(t *testing.T) {
	for _, tool := range []string{"bash", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	if out, err := exec.Command("bash", "-n", "sidebyside.sh").CombinedOutput(); err != nil {
		t.Fatalf("bash -n sidebyside.sh: %v\n%s", err, out)
	}
	out, err := exec.Command("bash", "sidebyside.sh", "selftest").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "selftest: ok") {
		t.Fatalf("sidebyside.sh selftest: %v\n%s", err, out)
	}
}
