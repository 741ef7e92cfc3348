package codegen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/cudaprint"
	"hextile/codegen/gpuplan"
	"hextile/codegen/interp"
	"hextile/internal/testlong"
)

// TestReferenceMatchesC: the Go reference run of the original program is
// bit-identical to the C compiler's run of the original loop nest (the
// scop text as written) on the same inputs, for every testdata stencil the
// pipeline accepts (by default every other one; all with HEXTILE_LONG=1).
func TestReferenceMatchesC(t *testing.T) {
	t.Parallel()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	for fi, file := range llvmTestFiles(t) {
		if fi%2 == 1 && !testlong.Enabled() {
			continue // by default every other stencil
		}
		tag := strings.TrimSuffix(filepath.Base(file), ".c")
		c, err := Run(Request{File: file, Tile: "none", Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			continue
		}
		s := c.Scops[0].Scop
		params := map[string]int64{}
		var pargs []string
		for _, p := range s.Params {
			v := int64(13)
			if strings.HasPrefix(strings.ToUpper(p), "T") {
				v = 4
			}
			params[p] = v
			pargs = append(pargs, fmt.Sprint(v))
		}
		arrs, err := interp.NewHostArrays(s, params)
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		var in bytes.Buffer
		for _, a := range s.Arrays {
			in.Write(arrs[a.Name].Data)
		}
		if _, _, err := RunReference(c, 0, params, arrs); err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		var want bytes.Buffer
		for _, a := range s.Arrays {
			want.Write(arrs[a.Name].Data)
		}
		css, err := cudaScops(c, gpuplan.CUDAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ref, err := cudaprint.RefFile(c.Prog, css, params)
		if err != nil {
			t.Fatal(err)
		}
		var m strings.Builder
		m.WriteString(ref)
		m.WriteString("int main(void)\n{\n  size_t n = 0, off = 0;\n")
		var args []string
		args = append(args, pargs...)
		for _, a := range s.Arrays {
			fmt.Fprintf(&m, "  n += (size_t)%d;\n", len(arrs[a.Name].Data))
		}
		m.WriteString("  char *buf = malloc(n);\n  if (fread(buf, 1, n, stdin) != n) return 3;\n")
		for _, a := range s.Arrays {
			fmt.Fprintf(&m, "  void *p_%s = buf + off; off += %d;\n", a.Name, len(arrs[a.Name].Data))
			args = append(args, "p_"+a.Name)
		}
		fmt.Fprintf(&m, "  hx_orig_0(%s);\n  fwrite(buf, 1, n, stdout);\n  return 0;\n}\n", strings.Join(args, ", "))
		cf := filepath.Join(dir, tag+".c")
		exe := filepath.Join(dir, tag)
		os.WriteFile(cf, []byte(m.String()), 0o644)
		if out, err := exec.Command(cc, "-O0", "-ffp-contract=off", "-std=gnu99", "-w", cf, "-o", exe, "-lm").CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tag, err, out)
		}
		cmd := exec.Command(exe)
		cmd.Stdin = &in
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", tag, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: the Go reference differs from the C original", tag)
		}
	}
}

// TestLLVMCountReference: the counts without execution equal those of the
// executed reference, for every testdata stencil and schedule kind (the
// original AST is the same, the shortcut over innermost loops is checked).
func TestLLVMCountReference(t *testing.T) {
	t.Parallel()
	for _, file := range llvmTestFiles(t) {
		tag := strings.TrimSuffix(filepath.Base(file), ".c")
		c, err := Run(Request{File: file, Tile: "none", Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
		if err != nil {
			continue
		}
		s := c.Scops[0].Scop
		for _, n := range []int64{7, 12} {
			params := map[string]int64{}
			for _, p := range s.Params {
				params[p] = n
				if strings.HasPrefix(strings.ToUpper(p), "T") {
					params[p] = n/2 + 1
				}
			}
			arrs, err := interp.NewHostArrays(s, params)
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			u, f, err := RunReference(c, 0, params, arrs)
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			cu, cf, err := CountReference(c, 0, params)
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			if u == 0 || cu != u || cf != f {
				t.Errorf("%s %v: CountReference %d updates %d flops, RunReference %d, %d", tag, params, cu, cf, u, f)
			}
		}
	}
}
