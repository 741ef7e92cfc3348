package distribute

import (
	"testing"

	"hextile/codegen"
	"hextile/schedule"
)

func TestProfBand(t *testing.T) {
	p, c, err := planFor(t, "../testdata/jacobi2d_mod2.c", nil, []int{2, 2}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.EmitC(Request{Prog: c.Prog, Tile: schedule.Hybrid, Gen: codegen.Options{SeparateFullTiles: true}}); err != nil {
		t.Fatal(err)
	}
}
