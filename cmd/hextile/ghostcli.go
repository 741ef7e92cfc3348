package main

import (
	"slices"

	"hextile/codegen"
	"hextile/schedule"
)

// noCodegen reports whether --tile=kind has no code generator for target
// (the ghost-zone kinds have theirs for codegen.GhostTargets only: sweep the
// CUDA sweep kernel, target "cuda", the same kernel in LLVM IR, targets
// "llvm" and "ptx", and its C/OpenMP plane sweep, target "c"; overlapped
// the CUDA overlapped kernel, the same in LLVM IR and its C/OpenMP boxes;
// check, tiles, compare and
// compile --dump=scop,deps,schedule take both).
func noCodegen(kind, target string) bool {
	return ghostKind(kind) && !slices.Contains(codegen.GhostTargets(schedule.Kind(kind)), target)
}

// ghostKind reports whether kind is a ghost-zone kind (its schedule has an
// owner map besides the map to every computing tile).
func ghostKind(kind string) bool {
	return schedule.Kind(kind) == schedule.Overlapped || schedule.Kind(kind) == schedule.Sweep
}

// codegenRefusal is the usage error of compile and run for those kinds.
func codegenRefusal(kind, target string) error {
	k := schedule.Kind(kind)
	what := "--target=" + target
	if target == "" {
		devs := "--device=emu and --device=gpu --backend=cuda"
		if slices.Contains(codegen.GhostTargets(k), "llvm") {
			devs = "--device=emu, --device=gpu --backend=cuda and --device=gpu --backend=ptx"
		}
		if slices.Contains(codegen.GhostTargets(k), "c") {
			devs = "--device=cpu, " + devs
		}
		what = "this command (hextile run takes it with " + devs + ")"
	}
	var gens []string
	for _, t := range codegen.GhostTargets(k) {
		g := "compile --target=" + t
		if t == "cuda" {
			g += " -o DIR"
		}
		gens = append(gens, "hextile "+g+" --tile="+kind)
	}
	return usagef("--tile=%s: code generation exists for %s only, not for %s", kind, codegen.GhostTargetsText(k), what).
		withNote("%s generate%s it; check, tiles and compare take --tile=%s, and compile --dump=schedule prints its schedule", joinAnd(gens), plural1(len(gens)), kind)
}

// joinAnd joins with commas and a final "and".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " and " + xs[len(xs)-1]
}

// plural1 is the verb ending of a third-person verb with n subjects.
func plural1(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// ghostBlockRefusal is the usage error of --block with those kinds.
func ghostBlockRefusal(kind string) error {
	if schedule.Kind(kind) == schedule.Sweep {
		return usagef("--block does not apply to --tile=sweep: its block is the box's face with ghost zones (choose it with --sizes=h,w0,w1[,w2])")
	}
	return usagef("--block does not apply to --tile=%s: its block covers the box with ghost zones (choose the box with --sizes=h,w0,w1[,w2])", kind)
}
