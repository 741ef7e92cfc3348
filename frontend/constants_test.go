package frontend

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Floating-point constants of statement bodies reach the model as literals
// with their values, whatever their spelling: #define'd floats (kept by name
// before, so back ends without the #define saw an unknown variable), casts,
// hexadecimal and exponent literals, 1.0f/3.
func TestBodyConstants(t *testing.T) {
	tests := []struct {
		name, defs, rhs string
		want            float64
	}{
		{"float define", "#define C1 0.5f\n", "C1", 0.5},
		{"double define", "#define C1 0.25\n", "C1", 0.25},
		{"exponent define", "#define C1 1.5e-1\n", "C1", 0.15},
		{"hex float define", "#define C1 0x1p-2\n", "C1", 0.25},
		{"hex float with fraction", "", "0x1.8p1f", 3},
		{"hex float negative exponent suffix", "", "0X1P-3F", 0.125},
		{"parenthesized division", "#define C1 (1.0f/3)\n", "C1", float64(float32(1.0) / 3)},
		{"cast", "#define C1 ((float)2)\n", "C1", 2},
		{"negative define", "#define C1 -0.5\n", "C1", -0.5},
		{"hex integer", "", "0x10", 16},
		{"octal integer", "", "010", 8},
		{"define of a define", "#define C0 0.125f\n#define C1 C0\n", "C1", 0.125},
		{"overridden by -D", "#define C1 0.5f\n", "C1", 0.75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "#define N 16\n" + tc.defs + "float A[N];\nvoid f(void) {\n#pragma scop\nfor (int i = 0; i < N; i++)\n  A[i] = " + tc.rhs + ";\n#pragma endscop\n}\n"
			opts := Options{}
			if tc.name == "overridden by -D" {
				opts.Defines = map[string]string{"C1": "0.75f"}
			}
			prog, err := Parse("c.c", []byte(src), opts)
			if err != nil {
				t.Fatal(err)
			}
			rhs := prog.Scops[0].Stmts[0].Body.RHS
			got, ok := constValue(rhs)
			if !ok {
				t.Fatalf("RHS %s (%T) is not a constant expression of literals", FormatExpr(rhs), rhs)
			}
			if math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("RHS %s = %g, want %g", FormatExpr(rhs), got, tc.want)
			}
		})
	}
}

// constValue evaluates a tree of literals, casts and arithmetic (no names).
func constValue(e Expr) (float64, bool) {
	switch e := e.(type) {
	case *Number:
		if e.Type == IntT {
			return float64(e.Int), true
		}
		return e.Float, true
	case *Cast:
		return constValue(e.X)
	case *Unary:
		v, ok := constValue(e.X)
		if e.Op == "-" {
			v = -v
		}
		return v, ok
	case *Binary:
		x, ok1 := constValue(e.X)
		y, ok2 := constValue(e.Y)
		switch e.Op {
		case "+":
			return x + y, ok1 && ok2
		case "-":
			return x - y, ok1 && ok2
		case "*":
			return x * y, ok1 && ok2
		case "/":
			return x / y, ok1 && ok2
		}
	}
	return 0, false
}

// M_PI comes from <math.h>: under --cpp it is its literal; without, the
// error says where it may come from.
func TestMathHeaderConstant(t *testing.T) {
	src := "#include <math.h>\n#define N 16\nfloat A[N];\nvoid f(void) {\n#pragma scop\nfor (int i = 0; i < N; i++)\n  A[i] = (float)M_PI * A[i];\n#pragma endscop\n}\n"
	_, err := Parse("m.c", []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "undeclared identifier M_PI (it may be a macro of an included system header") {
		t.Errorf("without --cpp: %v", err)
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	f := filepath.Join(t.TempDir(), "m.c")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := ParseFile(f, Options{Cpp: true})
	if err != nil {
		t.Fatal(err)
	}
	bin, ok := prog.Scops[0].Stmts[0].Body.RHS.(*Binary)
	if !ok {
		t.Fatalf("RHS %s", FormatExpr(prog.Scops[0].Stmts[0].Body.RHS))
	}
	if v, ok := constValue(bin.X); !ok || math.Abs(v-math.Pi) > 1e-12 {
		t.Errorf("(float)M_PI = %v %v", v, ok)
	}
}
