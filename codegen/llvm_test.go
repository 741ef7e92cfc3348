package codegen

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/schedule"
)

var updateLLVM = flag.Bool("update-llvm", false, "rewrite the LLVM IR goldens in testdata/llvm")

// llvmTestFiles are the testdata stencils (../testdata/*.c).
func llvmTestFiles(t *testing.T) []string {
	files, err := filepath.Glob("../testdata/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata stencils: %v", err)
	}
	return files
}

// TestLLVMAcceptedByLLC lowers every testdata stencil under every schedule
// kind and hands each module to llc for sm_80 (in parallel); llc rejects
// ill-typed IR, broken SSA, unknown intrinsics and anything the NVPTX back
// end cannot select. By default hybrid (and --shared) on every third
// stencil, none and classical on one in eight each (the LLVM-on-the-CPU
// tests run llc on their own kernels); all with HEXTILE_LONG=1.
func TestLLVMAcceptedByLLC(t *testing.T) {
	t.Parallel() // independent of the package's other tests (no globals, no environment)
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	dir := t.TempDir()
	type job struct{ tag, ll string }
	var jobs []job
	sharedAll := os.Getenv("HX_LLVM_SHARED_ALL") != ""
	for fi, file := range llvmTestFiles(t) {
		for ki, kind := range []schedule.Kind{schedule.Hybrid, schedule.None, schedule.Classical} {
			if !testlong.Enabled() && ((ki == 0 && fi%3 != 0) || (ki > 0 && fi%8 != ki)) {
				continue
			}
			tag := strings.TrimSuffix(filepath.Base(file), ".c") + "_" + string(kind)
			c, err := Run(Request{File: file, Tile: kind, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
			if err != nil {
				t.Logf("%s: refused by the pipeline: %v", tag, firstLine(err.Error()))
				continue
			}
			text, err := EmitLLVM(c, gpuplan.CUDAOptions{})
			if err != nil {
				t.Errorf("%s: %v", tag, err)
				continue
			}
			if kind == schedule.Hybrid && (fi%3 == 0 || sharedAll) {
				// The same kernels with tiles staged in shared memory (on
				// every third stencil; all with HX_LLVM_SHARED_ALL=1).
				sh, err := EmitLLVM(c, gpuplan.CUDAOptions{Shared: true})
				if err != nil {
					t.Logf("%s --shared: %v", tag, firstLine(err.Error()))
				} else {
					ll := filepath.Join(dir, tag+"_shared.ll")
					if err := os.WriteFile(ll, []byte(sh), 0o644); err != nil {
						t.Fatal(err)
					}
					jobs = append(jobs, job{tag + "_shared", ll})
				}
			}
			for _, want := range []string{"target triple = \"nvptx64-nvidia-cuda\"", "!nvvm.annotations", "addrspace(1)", "llvm.nvvm.read.ptx.sreg.tid.x"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: IR lacks %q", tag, want)
				}
			}
			ll := filepath.Join(dir, tag+".ll")
			if err := os.WriteFile(ll, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, job{tag, ll})
		}
	}
	if len(jobs) == 0 {
		t.Fatal("no stencil was lowered")
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, j := range jobs {
		wg.Add(1)
		go func(j job) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O1", j.ll, "-o", j.ll+".ptx").CombinedOutput()
			if err != nil {
				t.Errorf("%s: llc: %v\n%s", j.tag, err, out)
				return
			}
			ptx, err := os.ReadFile(j.ll + ".ptx")
			if err != nil || !strings.Contains(string(ptx), ".entry") {
				t.Errorf("%s: llc wrote no kernel entry: %v", j.tag, err)
			}
		}(j)
	}
	wg.Wait()
	t.Logf("%d modules accepted by %s", len(jobs), llc)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// TestLLVMGolden fixes the IR of a small kernel: heat1d-like asymmetric1d
// without tiling (one kernel, no barriers beyond the time loop).
func TestLLVMGolden(t *testing.T) {
	c, err := Run(Request{File: "../testdata/jacobi1d_mod2.c", Tile: schedule.None, Gen: ast.Options{SeparateFullTiles: true}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EmitLLVM(c, gpuplan.CUDAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "llvm", "jacobi1d_mod2_none.ll")
	if *updateLLVM {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./codegen -run TestLLVMGolden -update-llvm)", err)
	}
	if got != string(want) {
		t.Errorf("IR differs from %s (rerun with -update-llvm if intended):\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff shows the first differing lines.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}
