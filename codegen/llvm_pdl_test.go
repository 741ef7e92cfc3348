package codegen

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/gpuplan"
	"hextile/codegen/llvmprint"
)

func TestPDLArch(t *testing.T) {
	for arch, want := range map[string]bool{"sm_90": true, "sm_90a": true, "sm_100": true, "sm_89": false, "sm_80": false, "": false, "sm_x": false, "compute_90": false} {
		if got := llvmprint.PDLArch(arch); got != want {
			t.Errorf("PDLArch(%q) = %v, want %v", arch, got, want)
		}
	}
}

// TestRetargetPTX: .target and .version are rewritten, nothing else; a
// version already high enough is kept; PTX of a newer architecture, an
// unsupported target and PTX without directives are refused.
func TestRetargetPTX(t *testing.T) {
	const note86 = "// hextile: PTX retargeted from sm_86 to sm_90\n"
	const body = "\n.address_size 64\n\n.visible .entry k()\n{\n\tgriddepcontrol.wait;\n\tret;\n}\n"
	for _, tc := range []struct {
		name, in, arch, want, err string
	}{
		{"sm_86 7.1", "//\n.version 7.1\n.target sm_86" + body, "sm_90", note86 + "//\n.version 7.8\n.target sm_90" + body, ""},
		{"sm_80 7.0", ".version 7.0\n.target sm_80" + body, "sm_90", "// hextile: PTX retargeted from sm_80 to sm_90\n.version 7.8\n.target sm_90" + body, ""},
		{"newer version kept", ".version 8.1\n.target sm_86" + body, "sm_90", note86 + ".version 8.1\n.target sm_90" + body, ""},
		{"7.10 is newer than 7.8", ".version 7.10\n.target sm_86" + body, "sm_90", note86 + ".version 7.10\n.target sm_90" + body, ""},
		{"already sm_90", ".version 7.8\n.target sm_90" + body, "sm_90", ".version 7.8\n.target sm_90" + body, ""},
		{"newer PTX", ".version 8.6\n.target sm_100" + body, "sm_90", "", "the PTX is for sm_100"},
		{"unsupported", ".version 7.1\n.target sm_86" + body, "sm_100", "", "cannot retarget"},
		{"no target", ".version 7.1" + body, "sm_90", "", "no .version or .target"},
	} {
		got, err := llvmprint.RetargetPTX(tc.in, tc.arch)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tc.name, d)
		}
		// Idempotent: retargeting again changes nothing.
		if again, err := llvmprint.RetargetPTX(got, tc.arch); err != nil || again != got {
			t.Errorf("%s: retargeting twice: %v\n%s", tc.name, err, cmp.Diff(got, again))
		}
	}
	if got := llvmprint.PTXRetargeted(note86 + ".version 7.8\n.target sm_90" + body); got != "sm_86 PTX retargeted to sm_90" {
		t.Errorf("PTXRetargeted = %q", got)
	}
	if got := llvmprint.PTXRetargeted(".version 7.8\n.target sm_90" + body); got != "" {
		t.Errorf("PTXRetargeted of llc's PTX = %q", got)
	}
}

func TestPDLKernels(t *testing.T) {
	ptx := ".version 7.8\n.target sm_90\n.visible .entry a(\n\t.param .u32 p)\n{\n\tgriddepcontrol.wait;\n\tret;\n}\n.visible .entry b()\n{\n\tret;\n}\n.entry c()\n{\n\tgriddepcontrol.wait;\n}\n"
	if d := cmp.Diff(map[string]bool{"a": true, "c": true}, llvmprint.PDLKernels(ptx)); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if llvmprint.PTXTarget(ptx) != "sm_90" {
		t.Errorf("PTXTarget = %q", llvmprint.PTXTarget(ptx))
	}
}

var kernelDefRE = regexp.MustCompile(`(?m)^define void @(\w+)\(.*\)(?: [^\n]*)? \{\nentry:\n\s*(.*)\n`)

// TestLLVMPDL: with PDL and an sm_90 target every kernel's first
// instruction is griddepcontrol.wait; not for sm_80, nor with NoPDL, nor
// through EmitLLVM. With llc, the PTX for sm_90 is retargeted (llc 14
// knows sm_86 at most), and every kernel waits before any global load.
func TestLLVMPDL(t *testing.T) {
	tc := reuseCases[0]
	c := compileReuseCase(t, t.TempDir(), tc)
	opt := gpuplan.CUDAOptions{Block: tc.block}
	ll, err := EmitLLVMFor(c, opt, "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	ms := kernelDefRE.FindAllStringSubmatch(ll, -1)
	if len(ms) == 0 {
		t.Fatalf("no kernel definitions found:\n%.1000s", ll)
	}
	kernels := map[string]bool{}
	for _, m := range ms {
		kernels[m[1]] = true
		if m[2] != `call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()` {
			t.Errorf("%s: first instruction %q, want the griddepcontrol.wait asm", m[1], m[2])
		}
	}
	for name, o := range map[string]struct {
		opt  gpuplan.CUDAOptions
		arch string
	}{"sm_80": {opt, "sm_80"}, "NoPDL": {gpuplan.CUDAOptions{Block: tc.block, NoPDL: true}, "sm_90"}, "unknown": {opt, ""}} {
		x, err := EmitLLVMFor(c, o.opt, o.arch)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(x, "griddepcontrol") {
			t.Errorf("%s: griddepcontrol in the IR", name)
		}
	}
	if x, _ := EmitLLVM(c, opt); strings.Contains(x, "griddepcontrol") {
		t.Errorf("EmitLLVM: griddepcontrol in the IR")
	}
	llc, err := exec.LookPath("llc")
	if err != nil {
		t.Skip("llc not found on PATH (Debian package llvm)")
	}
	ptx, err := llvmprint.LLVMToPTX(ll, llc, "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if llvmprint.PTXTarget(ptx) != "sm_90" || !regexp.MustCompile(`(?m)^\.version (7\.([89]|\d\d)|[89]\.\d+)$`).MatchString(ptx) {
		t.Errorf("PTX not for sm_90 with version >= 7.8:\n%.300s", ptx)
	}
	if d := cmp.Diff(kernels, llvmprint.PDLKernels(ptx)); d != "" {
		t.Errorf("kernels waiting in the PTX (-IR +PTX):\n%s", d)
	}
	for _, l := range llvmprint.PtxEntryRE.FindAllStringIndex(ptx, -1) {
		rest := ptx[l[1]:]
		w, g := strings.Index(rest, "griddepcontrol.wait"), strings.Index(rest, "ld.global")
		if w < 0 || (g >= 0 && g < w) {
			t.Errorf("a kernel loads from global memory before griddepcontrol.wait")
		}
	}
	// Without PDL the PTX stays llc's own (sm_86 here: no retarget).
	plain, err := llvmprint.LLVMToPTX(ll, llc, "sm_80")
	if err == nil && llvmprint.PTXTarget(plain) != "sm_80" {
		t.Errorf("sm_80 PTX has .target %s", llvmprint.PTXTarget(plain))
	}
}
