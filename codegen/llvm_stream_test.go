package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hextile/codegen/gpuplan"
	"hextile/internal/testlong"
	"hextile/schedule"
)

var (
	streamSumRE   = regexp.MustCompile(`: (\d+) memory reads per instance`)
	streamStoreRE = regexp.MustCompile(`store (?:float|double) %hx_sv_\d+,`)
	streamPhiRE   = regexp.MustCompile(`%hx_win\d+_\d+_s\d+ = phi `)
	blockLabelRE  = regexp.MustCompile(`^\S+:$`)
	// The back-edge value of register 0 of a window (the rotation).
	streamRotRE = regexp.MustCompile(`(%hx_win\d+_0_s\d+ = phi (?:float|double) \[ [^\]]+\], \[ )%[\w.]+(, )`)
)

// streamBlockLoads returns, per streamed store (hx_sv_N) of the IR in
// order, the loads of its basic block: the loop body of the streamed
// instances (the newest window registers and the plain reads).
func streamBlockLoads(ll string) []int {
	var out []int
	loads := 0
	for _, l := range strings.Split(ll, "\n") {
		if blockLabelRE.MatchString(l) || strings.HasPrefix(l, "define ") {
			loads = 0
			continue
		}
		if strings.Contains(l, " = load ") {
			loads++
		}
		if streamStoreRE.MatchString(l) {
			out = append(out, loads)
		}
	}
	return out
}

// TestLLVMStreamLikeCUDA: the LLVM back end streams the same nests as the
// CUDA back end (one decision, streamPlanFor) with window registers as
// phi nodes, and each streamed instance makes as many memory reads as the
// CUDA plan's summary says (its loop body's loads); NoReuse and kernels
// without Shared have no window.
func TestLLVMStreamLikeCUDA(t *testing.T) {
	for _, tc := range streamCasesRun() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
			opt := gpuplan.CUDAOptions{Shared: true, Block: tc.block}
			ll, err := EmitLLVM(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			for _, s := range tc.want {
				m := streamSumRE.FindStringSubmatch(s)
				n, _ := strconv.Atoi(m[1])
				want = append(want, n)
			}
			got := streamBlockLoads(ll)
			if !equalInts(got, want) {
				t.Errorf("%s: loads per streamed instance %v, the CUDA plan %v", tc.name, got, want)
			}
			if llc, err := exec.LookPath("llc"); err == nil {
				f := filepath.Join(t.TempDir(), tc.name+".ll")
				os.WriteFile(f, []byte(ll), 0o644)
				if out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_80", "-O1", f, "-o", f+".ptx").CombinedOutput(); err != nil {
					t.Errorf("%s: llc: %v\n%s", tc.name, err, out)
				}
			}
			if n := len(streamPhiRE.FindAllString(ll, -1)); n == 0 {
				t.Errorf("%s: no window register (phi) in the IR", tc.name)
			}
			if m := streamRotRE.FindAllString(ll, -1); len(m) < len(want) {
				t.Errorf("%s: %d rotated windows, want at least %d", tc.name, len(m), len(want))
			}
			for _, o := range []gpuplan.CUDAOptions{{Shared: true, Block: tc.block, NoReuse: true}, {Block: tc.block}} {
				ll, err := EmitLLVM(c, o)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(ll, "hx_win") || strings.Contains(ll, "hx_sv_") {
					t.Errorf("%s: streaming with %+v", tc.name, o)
				}
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLLVMStreamRunsOnCPU runs the streamed IR on the CPU (see
// TestLLVMRunsOnCPU) at problem sizes that the tiles do and do not
// divide: bit-identical to the original program. A wrong stored value or
// a wrong rotation of a window (register 0 taking 1.0 on the back edge)
// must be noticed at every size: the streamed code runs.
func TestLLVMStreamRunsOnCPU(t *testing.T) {
	llc, cc := llvmTools(t)
	dir := t.TempDir()
	// Every case runs; the mutations (a compile and run per size each) on
	// three cheap ones: 2-D at two sizes, 2-D with one thread per column,
	// 3-D at two sizes. By default the first of them, with its mutations
	// (TestCUDAStreamEmu runs the 3-D cases' CUDA kernels).
	cases := streamCases
	mutate := map[string]bool{streamCases[1].name: true, streamCases[6].name: true, streamCases[8].name: true}
	if !testlong.Enabled() {
		cases = []streamCase{streamCases[1]}
		mutate = map[string]bool{streamCases[1].name: true}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := cudaCompile(t, "../testdata/"+tc.file+".c", schedule.Hybrid, tc.sizes)
			opt := gpuplan.CUDAOptions{Shared: true, Block: tc.block}
			if err := runIROnCPUAt(c, opt, llc, cc, dir, "llvm_stream_"+tc.name, tc.runs); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			muts := []struct {
				name string
				re   *regexp.Regexp
				repl string
			}{
				{"store", streamStoreRE, "store float 1.0,"},
				{"rotation", streamRotRE, "${1}1.0${2}"},
			}
			if !mutate[tc.name] {
				muts = nil
			}
			for _, m := range muts {
				n := 0
				edit := func(ll string) string {
					return m.re.ReplaceAllStringFunc(ll, func(s string) string {
						n++
						return m.re.ReplaceAllString(s, m.repl)
					})
				}
				for _, args := range tc.runs {
					err := runIROnCPUEdit(c, opt, llc, cc, dir, filepath.Base("llvm_stream_mut_"+m.name+"_"+tc.name), [][]string{args}, edit)
					if n == 0 {
						t.Errorf("%s: nothing to mutate (%s) in the IR", tc.name, m.name)
					} else if err == nil {
						t.Errorf("%s %v: a wrong %s in the streamed IR went unnoticed", tc.name, args, m.name)
					} else if !strings.Contains(err.Error(), "verify: FAILED") {
						t.Errorf("%s %v: the mutated IR (%s) did not run to a verification failure: %.300s", tc.name, args, m.name, err)
					}
				}
			}
		})
	}
}
