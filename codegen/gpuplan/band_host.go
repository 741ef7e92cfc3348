package gpuplan

import (
	"fmt"

	"hextile/codegen/ast"
)

// The host schedule of the ghost-zone kernels (sweep, overlapped: a
// BandPlan) for the LLVM/PTX path, walked in Go as cudaprint's
// sweepHostFunc prints it in CUDA C: every written array has two device
// copies (both initialised from the host array); one launch per band of
// h+1 levels (time steps tb = tlo, tlo + (h+1)/k, ..; the last band may
// be short: hx_nlev levels), the grid one block per box (nb_i boxes per
// space dimension, clamped to the CUDA limits: the kernel loops over its
// boxes cyclically), the kernel's host arguments hx_tb and hx_nlev; the
// copies swap roles after every launch (GPULaunch.Ping), so that after n
// launches the final state is in copy n mod 2.
//
// Example: jacobi2d_mod2 with sizes 3,5,6, N = 23, T = 7 (t in 0..6, space
// 1..21): (h+1)/k = 4 time steps per band, bands tb = 0 (4 levels) and
// tb = 4 (3 levels), boxes floor((s + o)/w) over 1..21: a grid of
// nb1 x nb0; launch 1 reads copy 0 and writes copy 1 (Ping false), launch
// 2 reads copy 1 and writes copy 0 (Ping true): the final state is in
// copy 0.

// bandHostArgs are the host arguments of a ghost-zone kernel: hx_tb in
// the loops' type, hx_nlev an int (bandHostInt32).
var (
	bandHostArgs  = []string{"hx_tb", "hx_nlev"}
	bandHostInt32 = []bool{false, true}
)

// Copies is the number of device copies of array name: 2 for the written
// arrays of a ghost-zone kernel (ping-pong), else 1.
func (g *GPUScop) Copies(name string) int {
	if g.cs.Band() != nil && g.cs.Written[name] {
		return 2
	}
	return 1
}

// bandLaunches walks the band loop of a ghost-zone kernel.
func (w *hostWalk) bandLaunches(bp *BandPlan) error {
	f := bp.Form
	ns := f.NS
	tlo, err := w.bound(f.TLo, true)
	if err != nil {
		return err
	}
	thi, err := w.bound(f.THi, false)
	if err != nil {
		return err
	}
	st := f.Stmts[0]
	gd := [3]int64{1, 1, 1}
	for i := 0; i < ns; i++ {
		lo, err := w.bound(st.Lo[i], true)
		if err != nil {
			return err
		}
		hi, err := w.bound(st.Hi[i], false)
		if err != nil {
			return err
		}
		if hi < lo {
			return nil // no boxes (the CUDA host code launches nothing)
		}
		gd[ns-1-i] = floorDiv(hi+bp.Off[i], bp.W[i]) - floorDiv(lo+bp.Off[i], bp.W[i]) + 1
	}
	gd[0] = min(gd[0], 2147483647)
	gd[1] = min(gd[1], 65535)
	gd[2] = min(gd[2], 65535)
	steps := (bp.H + 1) / int64(bp.K)
	if steps < 1 {
		return fmt.Errorf("%s: internal error: a band of %d levels with %d statements per time step", ast.PosString(w.g.Scop.Pos), bp.H+1, bp.K)
	}
	ping := false
	for tb := tlo; tb <= thi; tb += steps {
		nlev := bp.H + 1
		if thi-tb+1 < steps {
			nlev = (thi - tb + 1) * int64(bp.K)
		}
		if err := w.f(GPULaunch{Kernel: 0, Grid: gd, Host: []int64{tb, nlev}, Ping: ping}); err != nil {
			return err
		}
		ping = !ping
	}
	return nil
}

// floorDiv is floor(a / b) for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
