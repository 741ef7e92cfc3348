package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeNVCC is an nvcc that logs its arguments and writes, as its -o
// output, a "harness" that logs its own arguments and prints the report in
// $HXLOG/report with exit status $HXLOG/status.
const fakeNVCC = `#!/bin/sh
PATH=/usr/bin:/bin
echo "$@" >> "$HXLOG/nvcc.args"
out=
while [ $# -gt 0 ]; do if [ "$1" = -o ]; then out=$2; fi; shift; done
cat > "$out" <<'EOF'
#!/bin/sh
PATH=/usr/bin:/bin
echo "$@" > "$HXLOG/run.args"
cat "$HXLOG/report"
exit $(cat "$HXLOG/status")
EOF
chmod +x "$out"
`

// fakeCC logs its arguments and creates its -o output.
const fakeCC = `#!/bin/sh
PATH=/usr/bin:/bin
echo "$@" >> "$HXLOG/cc.args"
out=
while [ $# -gt 0 ]; do if [ "$1" = -o ]; then out=$2; fi; shift; done
: > "$out"
`

const cudaReportOK = `verify: ok
max-diff: 0
rel-error: 0
time-original: 0.001
time-tiled: 0.002000
time-gpu-kernel: 0.002000
time-gpu-total: 0.004000
reps: 5
updates: 4000000
flops-per-update: 3.0000
gcells-kernel: 2.000
checksum: 1.0e+00
threads: 1
`

// fakeTools puts the fake nvcc and cc (those named in which) into a fresh
// directory that becomes the whole PATH, and returns the log directory.
func fakeTools(t *testing.T, which ...string) string {
	t.Helper()
	bin, log := t.TempDir(), t.TempDir()
	for _, w := range which {
		text := map[string]string{"nvcc": fakeNVCC, "cc": fakeCC}[w]
		if err := os.WriteFile(filepath.Join(bin, w), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	t.Setenv("CC", "")
	t.Setenv("HXLOG", log)
	os.WriteFile(filepath.Join(log, "report"), []byte(cudaReportOK), 0o644)
	os.WriteFile(filepath.Join(log, "status"), []byte("0\n"), 0o644)
	return log
}

func readLog(t *testing.T, log, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(log, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return strings.TrimSpace(string(b))
}

// TestRunCUDAMissingTools: without nvcc (or without a C compiler) the
// error is one line naming the missing program.
func TestRunCUDAMissingTools(t *testing.T) {
	for _, tc := range []struct {
		tools []string
		want  string
	}{
		{nil, `"nvcc" was not found`},
		{[]string{"cc"}, `"nvcc" was not found`},
		{[]string{"nvcc"}, `"cc" was not found`},
	} {
		fakeTools(t, tc.tools...)
		out, errs, code := runCmd(t, "", "run", "../../testdata/jacobi1d_mod2.c", "--device=gpu", "--backend=cuda")
		if code != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q: want 1 and nothing", tc.tools, code, out)
		}
		if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "hextile: error: run --backend=cuda: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: want one error line containing %s, got %q", tc.tools, tc.want, errs)
		}
	}
}

// TestRunCUDAFakeNVCC: the arguments nvcc, cc and the harness receive, the
// relayed report, the exit status of a failed verification and the reuse
// of a kept build.
func TestRunCUDAFakeNVCC(t *testing.T) {
	log := fakeTools(t, "nvcc", "cc")
	keep := t.TempDir()
	file := "../../testdata/jacobi1d_mod2.c"
	out, errs, code := runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda", "-D", "N=100", "--keep", keep)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `verify: ok
max-diff: 0
device: CUDA build (nvcc -O3 -arch=sm_90 -fmad=false; pdl, register reuse)
time-gpu-kernel: 0.002000 s (2 ms)
time-gpu-total: 0.004000 s (4 ms)
reps: 5
updates: 4000000
gcells-kernel: 2.000
gflops-kernel: 6.000
gcells-total: 1.000
gflops-total: 3.000
`
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	k := filepath.Join(keep, "jacobi1d_mod2")
	mc, xmc := "", ""
	if m := largeData(); m != nil {
		mc, xmc = m[0]+" ", "-Xcompiler "+m[0]+" "
	}
	if got, w := readLog(t, log, "nvcc.args"), "-O3 -arch=sm_90 -fmad=false "+xmc+"-o "+k+"_cuda "+k+"_host.cu "+k+"_kernel.cu "+k+"_ref.o"; got != w {
		t.Errorf("nvcc got\n  %s\nwant\n  %s", got, w)
	}
	if got, w := readLog(t, log, "cc.args"), "-O2 -std=gnu99 -ffp-contract=off "+mc+"-I "+srcDir(file)+" -c "+k+"_ref.c -o "+k+"_ref.o"; got != w {
		t.Errorf("cc got\n  %s\nwant\n  %s", got, w)
	}
	if got, w := readLog(t, log, "run.args"), "T=8 N=100 HX_REPS=5 HX_VERIFY=1"; got != w {
		t.Errorf("harness got %q, want %q", got, w)
	}
	for _, f := range []string{"_host.cu", "_kernel.cu", "_ref.c", ".h"} {
		if _, err := os.Stat(k + f); err != nil {
			t.Errorf("kept build lacks %s", f)
		}
	}
	// The same build again, at another size: reused (nvcc not called);
	// other flags rebuild.
	os.Remove(filepath.Join(log, "nvcc.args"))
	if _, errs, code := runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda", "-D", "N=200", "--keep", keep, "--reps=2", "--verify=false"); code != 0 {
		t.Fatalf("second run: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(log, "nvcc.args")); err == nil {
		t.Errorf("an up-to-date kept build was rebuilt")
	}
	if got, w := readLog(t, log, "run.args"), "T=8 N=200 HX_REPS=2 HX_VERIFY=0"; got != w {
		t.Errorf("harness got %q, want %q", got, w)
	}
	if _, errs, code := runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda", "--keep", keep, "--fmad", "--arch=sm_80"); code != 0 {
		t.Fatalf("--fmad run: exit %d: %s", code, errs)
	}
	if got := readLog(t, log, "nvcc.args"); !strings.HasPrefix(got, "-O3 -arch=sm_80 -fmad=true ") {
		t.Errorf("--fmad --arch=sm_80: nvcc got %s", got)
	}
	// --pdl=false --reuse=false: other CUDA code (rebuilt), named in the report.
	pdlHeader, _ := os.ReadFile(k + ".h")
	os.Remove(filepath.Join(log, "nvcc.args"))
	out, errs, code = runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda", "--keep", keep, "--pdl=false", "--reuse=false")
	if code != 0 || !strings.Contains(out, "-fmad=false; no pdl, no register reuse)") {
		t.Errorf("--pdl=false --reuse=false: exit %d: %s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(log, "nvcc.args")); err != nil {
		t.Errorf("--pdl=false did not rebuild")
	}
	if plain, _ := os.ReadFile(k + ".h"); string(plain) == string(pdlHeader) || strings.Contains(string(plain), "hx_pdl") {
		t.Errorf("--pdl=false: the header still has hx_pdl")
	}
	// A failed verification: the harness's line and exit status 1.
	os.WriteFile(filepath.Join(log, "report"), []byte(strings.Replace(cudaReportOK, "verify: ok", "verify: FAILED: A[1][3]: original 1, gpu 2", 1)), 0o644)
	os.WriteFile(filepath.Join(log, "status"), []byte("1\n"), 0o644)
	out, _, code = runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda")
	if code != 1 || !strings.HasPrefix(out, "verify: FAILED: A[1][3]") {
		t.Errorf("failed verification: exit %d, output %q", code, out)
	}
	// A crash (status 2, no report): one error line with the harness's last words.
	os.WriteFile(filepath.Join(log, "report"), []byte("x.cu:3: CUDA error: out of memory\n"), 0o644)
	os.WriteFile(filepath.Join(log, "status"), []byte("2\n"), 0o644)
	out, errs, code = runCmd(t, "", "run", file, "--device=gpu", "--backend=cuda")
	if code != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "out of memory") {
		t.Errorf("crash: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestRunUnknownBackend: a misspelt backend is refused.
func TestRunUnknownBackend(t *testing.T) {
	_, errs, code := runCmd(t, "", "run", "../../testdata/jacobi1d_mod2.c", "--device=gpu", "--backend=hip")
	if code != 2 || !strings.Contains(errs, "unknown --backend=hip (valid: ptx, cuda)") {
		t.Errorf("exit %d: %q", code, errs)
	}
}

// TestMedian: the harness's median (mean of the middle two when even).
func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.v); got != tc.want {
			t.Errorf("median(%v) = %g, want %g", tc.v, got, tc.want)
		}
	}
}

// TestRunPTXFlagsWithoutDriver: the timing flags parse and the PTX back
// end still fails with one line where there is no driver.
func TestRunPTXFlagsWithoutDriver(t *testing.T) {
	if _, err := exec.LookPath("nvidia-smi"); err == nil {
		t.Skip("this machine may have a GPU")
	}
	out, errs, code := runCmd(t, "", "run", "../../testdata/jacobi1d_mod2.c", "--device=gpu", "--backend=ptx", "--reps=3", "--verify=false")
	if code != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "hextile: error: run --device=gpu: ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
