package interp

import (
	"strings"
	"testing"

	"hextile/frontend"
)

// TestHostArraysPointerToArray: the GPU run's host arrays (NewHostArrays)
// size a pointer to an array (unknown first extent) by the rows the scop
// accesses (Array.Outer), as the harnesses do; it used to dereference the
// missing extent and crash the GPU run.
func TestHostArraysPointerToArray(t *testing.T) {
	prog, err := frontend.ParseFile("../../testdata/real/an5d_j2d5pt.c", frontend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := prog.Scops[0]
	h, err := NewHostArrays(s, map[string]int64{"dimsize": 10, "timestep": 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := h["A"].Dims; len(got) != 3 || got[0] != 2 || got[1] != 10 || got[2] != 10 {
		t.Errorf("A's dims = %v, want [2 10 10]", got)
	}
	for _, a := range s.Arrays {
		a.Outer = nil
	}
	if _, err := NewHostArrays(s, map[string]int64{"dimsize": 10, "timestep": 3}); err == nil || !strings.Contains(err.Error(), "first extent is unknown") {
		t.Errorf("without a derivable extent: %v, want a refusal", err)
	}
}
