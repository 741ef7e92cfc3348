package gpumodel

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSpecialDouble: the divisions and math calls counted in double
// precision (C's usual conversions: sqrt is double, sqrtf float; a double
// literal or a double array makes the division double), and what
// IEEESpecial says with and without --fast-math.
func TestSpecialDouble(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, elem, rhs         string
		special, double         int
		ieeeExact, ieeeFastMath bool
	}{
		{"float division by an int", "float", "(A[t%2][i-1][j] + A[t%2][i][j] + A[t%2][i+1][j]) / 118", 1, 0, true, false},
		{"float division by a double literal", "float", "(A[t%2][i-1][j] + A[t%2][i+1][j]) / 2.0", 1, 1, true, true},
		{"gradient2d with sqrt", "float", "A[t%2][i][j] + 1.0f / sqrt(0.0001f + A[t%2][i-1][j] * A[t%2][i-1][j])", 2, 2, true, true},
		{"gradient2d with sqrtf", "float", "A[t%2][i][j] + 1.0f / sqrtf(0.0001f + A[t%2][i-1][j] * A[t%2][i-1][j])", 2, 0, true, false},
		{"double array (PolyBench)", "double", "0.2 * (A[t%2][i-1][j] + A[t%2][i][j] + A[t%2][i+1][j]) / 3", 1, 1, true, true},
		{"no division", "float", "0.25f * (A[t%2][i-1][j] + A[t%2][i+1][j])", 0, 0, false, false},
	} {
		src := `#define N 64
#define T 8
` + tc.elem + ` A[2][N][N];
void k(void) {
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[(t+1)%2][i][j] = ` + tc.rhs + `;
#pragma endscop
}
`
		path := filepath.Join(dir, "s.c")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		delete(parsed, path)
		f := featuresOfPath(t, path, nil)
		if f.Special != tc.special || f.SpecialDouble != tc.double {
			t.Errorf("%s: Special %d, SpecialDouble %d; want %d and %d", tc.name, f.Special, f.SpecialDouble, tc.special, tc.double)
		}
		if got := f.IEEESpecial(); got != tc.ieeeExact {
			t.Errorf("%s: IEEESpecial %v bit-exact, want %v", tc.name, got, tc.ieeeExact)
		}
		f.FastMath = true
		if got := f.IEEESpecial(); got != tc.ieeeFastMath {
			t.Errorf("%s: IEEESpecial %v with --fast-math, want %v", tc.name, got, tc.ieeeFastMath)
		}
	}
}
