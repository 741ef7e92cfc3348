package main

import "hextile/schedule"

// noCodegen reports whether --tile=kind has no code generator yet (the
// ghost-zone kinds overlapped and sweep: check, tiles, compare and
// compile --dump=scop,deps,schedule take them).
func noCodegen(kind string) bool {
	return schedule.Kind(kind) == schedule.Overlapped || schedule.Kind(kind) == schedule.Sweep
}

// codegenRefusal is the usage error of compile and run for those kinds.
func codegenRefusal(kind string) error {
	return usagef("--tile=%s: code generation not implemented yet", kind).
		withNote("hextile check, tiles and compare take --tile=%s, and compile --dump=schedule prints its schedule", kind)
}
