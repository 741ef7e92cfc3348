package poly

import (
	"fmt"
	"math/rand"
	"testing"

	"hextile/internal/testlong"
)

func TestConjSampleTable(t *testing.T) {
	tests := []struct {
		name string
		c    *Conj
		want string // "" for empty
	}{
		{"worked example x>=5, x=3y+1", omCj(2, 0, [][]int64{{-1, 1, -3}}, [][]int64{{-5, 1, 0}}), "[7 2]"},
		{"universe", NewConj(2, 0), "[0 0]"},
		{"x <= -4", omCj(1, 0, nil, [][]int64{{-4, -1}}), "[-4]"},
		{"pugh empty", omCj(2, 0, nil, [][]int64{{-27, 11, 13}, {45, -11, -13}, {10, 7, -9}, {4, -7, 9}}), ""},
		{"x odd via existential", omCj(1, 1, [][]int64{{-1, 1, -2}}, nil), "[1]"},
		{"x = 5 mod 7 and x = 2 mod 3 unbounded", omCj(1, 2, [][]int64{{-5, 1, -7, 0}, {-2, 1, 0, -3}}, nil), "[5]"},
		{"zero vars nonempty", NewConj(0, 1), "[]"},
		{"zero vars empty", omCj(0, 1, [][]int64{{-1, 2}}, nil), ""},
		{"big", omCj(1, 0, nil, [][]int64{{-1 << 62, 1}}), "[4611686018427387904]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, ok := tc.c.Sample()
			if !ok {
				if tc.want != "" {
					t.Fatalf("no sample, want %s", tc.want)
				}
				return
			}
			if got := fmt.Sprint(x); got != tc.want {
				t.Errorf("Sample() = %s, want %s", got, tc.want)
			}
			if !omSampleIn(tc.c, x) {
				t.Errorf("sample %v not in set", x)
			}
		})
	}
}

func TestConjSampleRandom(t *testing.T) {
	n := 2000
	if !testlong.Enabled() {
		n = 400
	}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < n; i++ {
		c, b := omRandBoxed(rng)
		empty := len(omBrute(c, b)) == 0
		x, ok := c.Sample()
		if ok == empty {
			t.Fatalf("case %d: Sample ok=%v, brute force empty=%v\n%s", i, ok, empty, omStr(c))
		}
		if !ok {
			continue
		}
		pt := make([]int64, len(x))
		for j, v := range x {
			pt[j], _ = v.Int64()
		}
		if !omMember(c, pt, b) {
			t.Fatalf("case %d: sample %v not in c\n%s", i, x, omStr(c))
		}
	}
}
