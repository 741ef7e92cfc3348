package compare

import (
	"fmt"

	"hextile/codegen"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/schedule"
)

// The rows of named kernels (Stream, N5D) next to the schedule kinds'.
//
//   - stream: the hybrid schedule at the streaming kernel's sizes
//     (without sizes its default, gpuplan.DefaultHexStreamSizes: 7,49,64
//     for a radius-1 stencil), counted by CountStream for the kernel
//     as it runs (default options: column registers, one row group, only
//     the needed cells stored). A scop the kernel refuses (3-D, several
//     statements, in-place updates) is a row with the compiler's reason.
//   - n5d: the sweep schedule at the sweep GPU kernel's default sizes
//     (codegen.GhostGPUSizes at the report's parameter values: e.g.
//     7,32,114 on jacobi2d_mod2 at N = 192, 7,128,242 at 16384^2),
//     counted like the sweep row (Count: each level's ghost-zone region).
//     The kernel's steady state (gpuplan's sweep_steady.go) also computes,
//     on interior boxes, the discarded cells of the face outside each
//     level's region; those are not counted (they are never stored). With
//     sizes of its own (--sizes n5d=... or --sizes for all) it is the sweep
//     schedule at those sizes.

// IsKernelRow reports whether k names a kernel row rather than a schedule
// kind.
func IsKernelRow(k schedule.Kind) bool { return k == Stream || k == N5D }

// KindSizes are the sizes a row of kind k takes without sizes of its own
// at params: the streaming hybrid kernel's and the sweep GPU kernel's
// defaults for stream and n5d, the scheduler's for the schedule kinds.
func KindSizes(scop *frontend.Scop, deps *frontend.Deps, params map[string]int64, k schedule.Kind) ([]int64, error) {
	switch k {
	case Stream:
		s, err := schedule.Compute(scop, deps, schedule.Options{Kind: schedule.Hybrid})
		if err != nil {
			return nil, err
		}
		if sizes := gpuplan.DefaultHexStreamSizes(s); sizes != nil {
			// as the pipeline (codegen's stageSchedule): the scheduler's
			// sizes where the schedule refuses the kernel's
			if _, err := schedule.Compute(scop, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: sizes}); err == nil {
				return sizes, nil
			}
		}
		return s.Sizes, nil
	case N5D:
		s, err := schedule.Compute(scop, deps, schedule.Options{Kind: schedule.Sweep})
		if err != nil {
			return nil, err
		}
		defs := map[string]string{}
		for p, v := range params {
			defs[p] = fmt.Sprint(v)
		}
		return codegen.GhostGPUSizes(scop, s, defs), nil
	}
	return schedule.DefaultSizes(scop, deps, k)
}

// kernelRow is the row of a named kernel (IsKernelRow).
func kernelRow(scop *frontend.Scop, deps *frontend.Deps, params map[string]int64, k schedule.Kind, sizes []int64, g GPU) Row {
	r := Row{Kind: string(k), Sizes: sizes, Scheme: schemeOf(k, false)}
	if sizes == nil {
		d, err := KindSizes(scop, deps, params, k)
		if err != nil {
			r.Err = err.Error()
			return r
		}
		sizes = d
	}
	if k == N5D {
		x := row(scop, deps, params, schedule.Sweep, sizes, g)
		x.Kind, x.Scheme = string(N5D), schemeOf(N5D, false)
		return x
	}
	s, err := schedule.Compute(scop, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: sizes})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Sizes = s.Sizes
	c, err := CountStream(scop, s, params, gpuplan.CUDAOptions{})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Counts = c
	p := Hextile(c, g)
	r.Hextile = &p
	return r
}
