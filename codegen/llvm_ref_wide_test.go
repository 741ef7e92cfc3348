package codegen

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/interp"
	"hextile/schedule"
)

// TestReferenceWideInts: the Go reference (RunReference, which checks
// run --device=gpu) computes an iterator's arithmetic in 64 bits, as the
// C source's long and the 64-bit CUDA and LLVM code do: (i * 3) % 7 and
// -i / 5 past 3e9 match a brute-force evaluation, while int-only values
// stay 32-bit ((int) of a long truncates).
func TestReferenceWideInts(t *testing.T) {
	src := `#define N 40
#define OFF 3000000000
double A[N];
int B[N];
void kernel(void)
{
#pragma scop
  for (long i = OFF; i < OFF + N; i++) {
    A[i - OFF] = (double)((i * 3) % 7) + 0.5 * (double)(-i / 5);
    B[i - OFF] = (int)(i * 2);
  }
#pragma endscop
}
`
	file := filepath.Join(t.TempDir(), "wide.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Run(Request{File: file, Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int64{3000000000, -7000000001, 12} {
		params := map[string]int64{"N": 40, "OFF": off}
		arrs, err := interp.NewHostArrays(c.Scops[0].Scop, params)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := RunReference(c, 0, params, arrs); err != nil {
			t.Fatal(err)
		}
		for k := int64(0); k < 40; k++ {
			i := off + k
			wantA := float64((i*3)%7) + 0.5*float64(-i/5)
			if got := math.Float64frombits(binary.LittleEndian.Uint64(arrs["A"].Data[k*8:])); got != wantA {
				t.Errorf("OFF = %d: A[%d] = %v, want %v", off, k, got, wantA)
			}
			wantB := int32(i * 2)
			if got := int32(binary.LittleEndian.Uint32(arrs["B"].Data[k*4:])); got != wantB {
				t.Errorf("OFF = %d: B[%d] = %d, want %d", off, k, got, wantB)
			}
		}
	}
}
