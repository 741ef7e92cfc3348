package main

import "hextile/schedule"

// noCodegen reports whether --tile=kind has no code generator for target
// (the ghost-zone kinds: overlapped has none yet; sweep has the CUDA sweep
// kernel, target "cuda", and its C/OpenMP plane sweep, target "c", and no
// other; check, tiles, compare and compile --dump=scop,deps,schedule take
// both).
func noCodegen(kind, target string) bool {
	k := schedule.Kind(kind)
	return k == schedule.Overlapped || k == schedule.Sweep && target != "cuda" && target != "c"
}

// ghostKind reports whether kind is a ghost-zone kind (its schedule has an
// owner map besides the map to every computing tile).
func ghostKind(kind string) bool {
	return schedule.Kind(kind) == schedule.Overlapped || schedule.Kind(kind) == schedule.Sweep
}

// codegenRefusal is the usage error of compile and run for those kinds.
func codegenRefusal(kind, target string) error {
	if schedule.Kind(kind) == schedule.Sweep {
		what := "--target=" + target
		if target == "" {
			what = "this command (hextile run takes it with --device=cpu, --device=emu and --device=gpu --backend=cuda)"
		}
		return usagef("--tile=sweep: code generation exists for --target=cuda (the CUDA sweep kernel) and --target=c (the C/OpenMP plane sweep) only, not for %s", what).
			withNote("hextile compile --target=cuda -o DIR --tile=sweep and compile --target=c --tile=sweep generate it; check, tiles and compare take --tile=sweep, and compile --dump=schedule prints its schedule")
	}
	return usagef("--tile=%s: code generation not implemented yet", kind).
		withNote("hextile check, tiles and compare take --tile=%s, and compile --dump=schedule prints its schedule", kind)
}
