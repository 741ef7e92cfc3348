package harness

import (
	"os"
	"path/filepath"
	"testing"

	"hextile/frontend"
)

// TestRefUnitDeterministic: parameters given by -D only (no #define, no
// declaration) are defined at the top of the reference in the same order on
// every run (they came from a Go map).
func TestRefUnitDeterministic(t *testing.T) {
	src := `void kernel(float A[10][10]) {
#pragma scop
  for (int t = 0; t < TA; t++)
    for (int i = 1; i < NB - 1; i++)
      for (int j = 1; j < NC - 1; j++)
        A[i][j] = A[i][j] + ND;
#pragma endscop
}
`
	file := filepath.Join(t.TempDir(), "k.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{"TA": "2", "NB": "9", "NC": "9", "ND": "1"}
	prog, err := frontend.ParseFile(file, frontend.Options{Defines: defs})
	if err != nil {
		t.Skipf("frontend refuses the case: %v", err)
	}
	params := map[string]int64{"TA": 2, "NB": 9, "NC": 9, "ND": 1}
	var first string
	for i := 0; i < 20; i++ {
		ru, err := BuildRefUnit(prog, prog.Scops, nil, params, true)
		if err != nil {
			t.Skipf("no reference unit: %v", err)
		}
		if i == 0 {
			first = ru.Text
		} else if ru.Text != first {
			t.Fatalf("run %d printed another reference unit", i)
		}
	}
}
