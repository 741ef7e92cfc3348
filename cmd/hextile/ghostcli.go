package main

import "hextile/schedule"

// noCodegen reports whether --tile=kind has no code generator for target
// (the ghost-zone kinds, sweep and overlapped, have their CUDA kernels,
// target "cuda", and no other; check, tiles, compare and compile
// --dump=scop,deps,schedule take both).
func noCodegen(kind, target string) bool {
	return ghostKind(kind) && target != "cuda"
}

// ghostKind reports whether kind is a ghost-zone kind (its schedule has an
// owner map besides the map to every computing tile).
func ghostKind(kind string) bool {
	return schedule.Kind(kind) == schedule.Overlapped || schedule.Kind(kind) == schedule.Sweep
}

// codegenRefusal is the usage error of compile and run for those kinds.
func codegenRefusal(kind, target string) error {
	what := "--target=" + target
	if target == "" {
		what = "this command (hextile run takes it with --device=emu and --device=gpu --backend=cuda)"
	}
	return usagef("--tile=%s: code generation exists for --target=cuda only (the CUDA %s kernel), not for %s", kind, kind, what).
		withNote("hextile compile --target=cuda -o DIR --tile=%s generates it; check, tiles and compare take --tile=%s, and compile --dump=schedule prints its schedule", kind, kind)
}

// ghostBlockRefusal is the usage error of --block with those kinds.
func ghostBlockRefusal(kind string) error {
	if schedule.Kind(kind) == schedule.Sweep {
		return usagef("--block does not apply to --tile=sweep: its block is the box's face with ghost zones (choose it with --sizes=h,w0,w1[,w2])")
	}
	return usagef("--block does not apply to --tile=%s: its block covers the box with ghost zones (choose the box with --sizes=h,w0,w1[,w2])", kind)
}
