package llvmprint

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// PTX from the LLVM module: llc's NVPTX back end, run as a program (no
// LLVM library is linked into hextile).

// FindLLC returns the llc to run: name when given (a path or a command on
// PATH), else llc on PATH. The error names the Debian package.
func FindLLC(name string) (string, error) {
	if name == "" {
		name = "llc"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("--target=ptx needs llc (LLVM's static compiler) and %q was not found: install the Debian package llvm (apt-get install llvm) or name the program with --llc", name)
	}
	return p, nil
}

// LLVMToPTX compiles the module text ll to PTX for the GPU architecture
// arch (sm_80 when empty) with llc. For sm_90 and newer, when llc does not
// know arch (LLVM before 16), the PTX is llc's for the newest architecture
// it knows, retargeted to sm_90 (RetargetPTX; the driver JIT-compiles sm_90
// PTX for newer GPUs too).
func LLVMToPTX(ll, llc, arch string) (string, error) {
	return LLVMToPTXFlags(ll, llc, arch, nil)
}

// LLVMToPTXFlags is LLVMToPTX with extra llc options after LLCFlags (the
// fast-math options of hextile's --fast-math).
func LLVMToPTXFlags(ll, llc, arch string, extra []string) (string, error) {
	p, err := FindLLC(llc)
	if err != nil {
		return "", err
	}
	if arch == "" {
		arch = "sm_80"
	}
	if !strings.HasPrefix(arch, "sm_") {
		return "", fmt.Errorf("bad --arch %q: want sm_NN (e.g. sm_80)", arch)
	}
	if PDLArch(arch) {
		known := llcArchs(p)
		has := false
		for _, a := range known {
			has = has || a == arch
		}
		if lower := highestArch(known, pdlMinArch); !has && lower != "" {
			ptx, err := LLVMToPTXFlags(ll, p, lower, extra)
			if err != nil {
				return "", err
			}
			return RetargetPTX(ptx, "sm_90")
		}
	}
	dir, err := os.MkdirTemp("", "hextile-llc-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "kernels.ll"), filepath.Join(dir, "kernels.ptx")
	if err := os.WriteFile(in, []byte(ll), 0o644); err != nil {
		return "", err
	}
	// LLVM's optimiser (opt, next to llc) first when present: llc alone
	// runs only the code generator's passes (no unrolling, no LICM). No
	// fast-math flags are in the IR, so floating-point results are kept.
	if o := FindOpt(p); o != "" {
		var oerr bytes.Buffer
		bc := filepath.Join(dir, "kernels.opt.bc")
		cmd := exec.Command(o, "-O3", in, "-o", bc)
		cmd.Stderr = &oerr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s -O3 failed (%v): %s", o, err, strings.TrimSpace(oerr.String()))
		}
		in = bc
	}
	// llc's default contraction (-fp-contract=on) fuses only operations
	// the IR marks contractable, and hextile's IR marks none: the PTX has
	// mul.rn/add.rn, which ptxas does not fuse either, so results round as
	// in C (and as nvcc -fmad=false). TestLLVMNoContraction checks it.
	var stderr bytes.Buffer
	args := append([]string{"-march=nvptx64", "-mcpu=" + arch, "-O3"}, LLCFlags...)
	args = append(append(args, extra...), in, "-o", out)
	cmd := exec.Command(p, args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s -mcpu=%s %s failed (%v): %s", p, arch, strings.Join(extra, " "), err, strings.TrimSpace(stderr.String()))
	}
	if msg := stderr.String(); strings.Contains(msg, "not a recognized processor") {
		// llc ignores an unknown -mcpu and writes PTX of an old ISA version.
		return "", fmt.Errorf("%s does not know %s (%s)", p, arch, firstLineOf(msg))
	}
	ptx, err := os.ReadFile(out)
	if err != nil {
		return "", err
	}
	return string(ptx), nil
}

// LLCFlags are the code generator options of LLVMToPTX after -O3:
// 32-bit pointers into shared, constant and local memory
// (-nvptx-short-ptr, matching NVPTXDataLayout; llc replaces a module's
// data layout by its target's, so the flag decides), and no loop strength
// reduction.
//
// Short pointers: with 64-bit ones every shared-memory address the sweep
// kernel keeps live takes a register pair (bench/results/
// ptx_prefetch_h200_2026-11-28.md has the measurements).
//
// No loop strength reduction. LSR rewrites the addresses of a loop
// into one induction variable per distinct base (a pointer or an offset
// register per access group, at every loop level), which on the GPU costs
// more registers than it saves instructions: a 64-bit pointer increment is
// two instructions there, and an address base + 4*i32 index is one
// (IMAD.WIDE), with the neighbours of an anchor (anchor.go) as
// immediate offsets. On the bench kernels the PTX's peak live virtual
// registers drop from 49-93 to 32-49 (laplacian2d/3d, gradient2d/3d;
// .hxcmp/var/README.txt has the figures).
var LLCFlags = []string{"-nvptx-short-ptr", "-disable-lsr"}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// FindOpt returns the opt of the same LLVM installation as llc (llc-14 ->
// opt-14 in the same directory), or "".
func FindOpt(llc string) string {
	dir, base := filepath.Split(llc)
	name := "opt" + strings.TrimPrefix(base, "llc")
	if p := filepath.Join(dir, name); fileExists(p) {
		return p
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
