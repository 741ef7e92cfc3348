package llvmprint

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
)

// Programmatic dependent launch (PDL) in the LLVM back end: what the CUDA
// back end does with cudaGridDependencySynchronize() and HX_LAUNCH (see
// the comment above cudaLaunchPlain in cuda_emit.go for why it is safe).
// Every kernel starts with the PTX instruction griddepcontrol.wait (what
// cudaGridDependencySynchronize() compiles to), before any memory access:
// it waits until the previous kernel of the stream has completed and its
// memory operations are visible. The host (runtime.Batch, Function.LaunchPDL)
// launches such kernels through cuLaunchKernelEx with the attribute
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, so a kernel's
// blocks may start during the previous kernel's tail; a kernel without the
// wait is always launched plainly (the attribute would be unsafe there),
// and a waiting kernel launched plainly waits for nothing (still correct).
//
// griddepcontrol needs sm_90 and PTX ISA 7.8. The llc of this machine
// (LLVM 14) knows sm_86 at most, so the instruction is inline assembly (llc
// copies it into the PTX unread) and the PTX of the highest architecture
// llc knows is retargeted to sm_90 (RetargetPTX): PTX is a virtual ISA and
// every instruction of sm_86 PTX is valid in sm_90 PTX.

// pdlMinArch is the first architecture with griddepcontrol.
const pdlMinArch = 90

var smRE = regexp.MustCompile(`^sm_(\d+)[a-z]?$`)

// smNumber returns NN of sm_NN (sm_90a: 90), or -1.
func smNumber(arch string) int {
	m := smRE.FindStringSubmatch(arch)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return n
}

// PDLArch reports whether PTX for the GPU architecture arch (sm_NN) can
// use programmatic dependent launch: sm_90 and newer.
func PDLArch(arch string) bool { return smNumber(arch) >= pdlMinArch }

// pdlWait emits griddepcontrol.wait at the kernel's entry: inline assembly
// with side effects and a memory clobber, so that no memory access moves
// above it.
func (k *llvmKernel) pdlWait() {
	asm := ir.NewInlineAsm(types.NewPointer(types.NewFunc(types.Void)), "griddepcontrol.wait;", "~{memory}")
	asm.SideEffect = true
	k.cur.NewCall(asm)
}

// ptxMinVersion is the PTX ISA version each retarget architecture needs.
var ptxMinVersion = map[string][2]int{"sm_90": {7, 8}}

var (
	ptxTargetRE  = regexp.MustCompile(`(?m)^\.target\s+(sm_\d+[a-z]?)`)
	ptxVersionRE = regexp.MustCompile(`(?m)^\.version\s+(\d+)\.(\d+)\s*$`)
)

// RetargetPTX rewrites the PTX text of an older architecture (llc's
// .target sm_80 or sm_86) for arch (sm_90): the .target directive names
// arch and the .version directive is raised to the first PTX ISA version
// that has arch (7.8 for sm_90) when it is lower. The instructions are left
// alone: those of the older architecture are valid on the newer one.
func RetargetPTX(ptx, arch string) (string, error) {
	minV, ok := ptxMinVersion[arch]
	if !ok {
		return "", fmt.Errorf("cannot retarget PTX to %s (supported: sm_90)", arch)
	}
	t := ptxTargetRE.FindStringSubmatchIndex(ptx)
	v := ptxVersionRE.FindStringSubmatchIndex(ptx)
	if t == nil || v == nil {
		return "", fmt.Errorf("retarget to %s: the PTX has no .version or .target directive", arch)
	}
	from := ptx[t[2]:t[3]]
	if n := smNumber(from); n < 0 || n > smNumber(arch) {
		return "", fmt.Errorf("retarget to %s: the PTX is for %s", arch, from)
	}
	major, _ := strconv.Atoi(ptx[v[2]:v[3]])
	minor, _ := strconv.Atoi(ptx[v[4]:v[5]])
	if major < minV[0] || (major == minV[0] && minor < minV[1]) {
		major, minor = minV[0], minV[1]
	}
	if from == arch && !strings.Contains(ptx, retargetNote) {
		return ptx[:v[2]] + fmt.Sprintf("%d.%d", major, minor) + ptx[v[5]:], nil
	}
	// .version comes before .target: replace from the back.
	out := ptx[:t[2]] + arch + ptx[t[3]:]
	out = out[:v[2]] + fmt.Sprintf("%d.%d", major, minor) + out[v[5]:]
	if from != arch {
		out = fmt.Sprintf("%s%s to %s\n", retargetNote, from, arch) + out
	}
	return out, nil
}

// retargetNote starts the comment line that RetargetPTX puts first.
const retargetNote = "// hextile: PTX retargeted from "

// PTXRetargeted returns "sm_86 PTX retargeted to sm_90" for PTX that
// RetargetPTX rewrote, else "".
func PTXRetargeted(ptx string) string {
	if !strings.HasPrefix(ptx, retargetNote) {
		return ""
	}
	from, to, _ := strings.Cut(strings.TrimPrefix(firstLineOf(ptx), retargetNote), " to ")
	return from + " PTX retargeted to " + to
}

// PTXTarget returns the architecture of the PTX's .target directive.
func PTXTarget(ptx string) string {
	if m := ptxTargetRE.FindStringSubmatch(ptx); m != nil {
		return m[1]
	}
	return ""
}

var PtxEntryRE = regexp.MustCompile(`(?m)^(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)`)

// PDLKernels returns the kernels (.entry functions) of the PTX text whose
// body contains griddepcontrol.wait: those, and only those, may be launched
// with programmatic stream serialization.
func PDLKernels(ptx string) map[string]bool {
	out := map[string]bool{}
	locs := PtxEntryRE.FindAllStringSubmatchIndex(ptx, -1)
	for i, l := range locs {
		end := len(ptx)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if strings.Contains(ptx[l[1]:end], "griddepcontrol.wait") {
			out[ptx[l[2]:l[3]]] = true
		}
	}
	return out
}

// llcArchs returns the sm_NN processors that llc knows (llc -mcpu=help).
func llcArchs(llc string) []string {
	var out bytes.Buffer
	cmd := exec.Command(llc, "-march=nvptx64", "-mcpu=help")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	var as []string
	for _, l := range strings.Split(out.String(), "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && smNumber(f[0]) >= 0 {
			as = append(as, f[0])
		}
	}
	return as
}

// highestArch returns the newest plain sm_NN of as below limit, or "".
func highestArch(as []string, limit int) string {
	best, bn := "", -1
	for _, a := range as {
		if n := smNumber(a); n > bn && n < limit && a == fmt.Sprintf("sm_%d", n) {
			best, bn = a, n
		}
	}
	return best
}
