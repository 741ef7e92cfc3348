package llvmprint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"

	"hextile/codegen/gpuplan"
)

// TestDivcLowering: the LLVM lowering of hx_divc (divc), compiled by llc
// for the host and called from C, against the C compiler's float division
// bit for bit, for eight constants DivConstExact admits (a negative one
// among them: the residual's sign flips): 2^20 random bit patterns each
// (zeros, subnormals, huge, infinities, NaN), 2^18 tiny ones (the scaled
// branch) and the quotients at and around the midpoints of the subnormal
// grid (the residual's tie-break). NaN only has to stay NaN.
func TestDivcLowering(t *testing.T) {
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("no llc")
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no cc")
	}
	consts := []float32{118, 3, -7, 9.2, 0.1, 1e-5, 33000, 1048576}
	m := ir.NewModule()
	lm := &llvmModule{m: m, decls: map[string]*ir.Func{}}
	var list, fns []string
	for i, c := range consts {
		if !gpuplan.DivConstExact(c) {
			t.Fatalf("DivConstExact(%g) = false", c)
		}
		fn := m.NewFunc(fmt.Sprintf("hx_divc_ll%d", i), types.Float, ir.NewParam("x", types.Float))
		k := &llvmKernel{lm: lm, f: fn, cur: fn.NewBlock("")}
		k.cur.NewRet(k.divc(fn.Params[0], gpuplan.DivConst{C: c, R: float32(1 / float64(c))}))
		list = append(list, fmt.Sprintf("(float)%.9g", c))
		fns = append(fns, fn.Name())
	}
	dir := t.TempDir()
	ll, obj := filepath.Join(dir, "divc.ll"), filepath.Join(dir, "divc.o")
	if err := os.WriteFile(ll, []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(llc, "-O2", "-relocation-model=pic", "-filetype=obj", ll, "-o", obj).CombinedOutput(); err != nil {
		t.Fatalf("llc: %v\n%s", err, out)
	}
	var decls []string
	for _, f := range fns {
		decls = append(decls, "float "+f+"(float);")
	}
	src := `#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
` + strings.Join(decls, "\n") + `
typedef float (*divfn)(float);
static uint32_t st = 2463534242u;
static uint32_t rnd(void) { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return st; }
static long bad, n;
static void check(divfn f, float x, float c)
{
  volatile float cv = c;
  float got = f(x), want = x / cv;
  uint32_t g, w;
  memcpy(&g, &got, 4); memcpy(&w, &want, 4);
  n++;
  if (g != w && !(got != got && want != want) && bad++ < 5) printf("divc(%a) by %a = %a, want %a\n", x, c, got, want);
}
int main(void)
{
  const float cs[] = {` + strings.Join(list, ", ") + `};
  const divfn fs[] = {` + strings.Join(fns, ", ") + `};
  for (int k = 0; k < (int)(sizeof cs / sizeof cs[0]); k++) {
    const float c = cs[k];
    float x;
    for (long i = 0; i < (1L << 20); i++) { uint32_t b = rnd(); memcpy(&x, &b, 4); check(fs[k], x, c); }
    for (long i = 0; i < (1L << 18); i++) { uint32_t b = rnd() & 0x8dffffffu; memcpy(&x, &b, 4); check(fs[k], x, c); }
    for (long i = 0; i < (1L << 15); i++) {
      x = (float)(((double)(rnd() % (1u << 22)) + 0.5) * 0x1p-149 * (double)c);
      for (int d = 0; d < 3; d++) { check(fs[k], x, c); check(fs[k], -x, c); x = nextafterf(x, INFINITY); }
    }
  }
  printf("%ld of %ld differ\n", bad, n);
  return bad != 0;
}
`
	cfile, exe := filepath.Join(dir, "main.c"), filepath.Join(dir, "divc")
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cc", "-O1", "-std=gnu99", cfile, obj, "-o", exe, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "0 of ") {
		t.Errorf("divc against the division: %v\n%s", err, out)
	}
}
