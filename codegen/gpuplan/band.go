package gpuplan

// BandPlan is what the two ghost-zone kernels (the sweep kernel,
// sweep.go, and the overlapped kernel, overlap.go) share: a band of H+1
// levels (level a runs statement a mod K at time tb + a/K), boxes of W_i
// cells at offsets Off_i with the ghost zones GL[a], GR[a] of
// schedule.GhostZone, every read of a level routed to the latest earlier
// level that wrote the same field (else the band-start state in global
// memory), and the classes of written fields, whose last writer writes the
// owned cells back to the band's output copy (ping-pong of global state).
//
// Example: jacobi2d_mod2 with h = 3: levels 0..3 all S0 at tb..tb+3, every
// read of level a >= 1 from level a-1 at rel in {-1,0,1}^2 (A[(t+1)%2]
// written at t is A[t%2] read at t+1), ghost zones 3,2,1,0 on both sides,
// two fields, A[(tb+1)%2] written by levels 0 and 2 and A[tb%2] by 1 and
// 3: Classes {0,2}, {1,3}, Next = 2,3,-1,-1 (level 0 is the last writer of
// its field when the band has at most 2 levels).
type BandPlan struct {
	Form   *StencilForm
	K      int     // statements per time step (levels per time step)
	H      int64   // h: H+1 levels per band
	W      []int64 // box widths per space dimension
	Off    []int64 // box offsets (schedule.Offsets)
	GL, GR [][]int64
	Levels []SweepLevel
	// Classes are the fields written in a band: the levels that write each
	// (ascending); Next[a] is the next level of a's class (-1: none).
	Classes [][]int
	Next    []int
	// Kill[a] >= 0: level a's stores are dead in a band whose next band
	// has more than Kill[a] levels (its level Kill[a] overwrites the field
	// before any read; band_kill.go); -1: live.
	Kill []int
	// Written are the written arrays (ping-pong copies).
	Written []string
	Elem    string // the element type of the buffers (all written arrays share it)
	ElemSz  int64
}

// Band is the band plan of a scop with a ghost-zone kernel (nil: none).
func (cs *Scop) Band() *BandPlan {
	switch {
	case cs.Sweep != nil:
		return &cs.Sweep.BandPlan
	case cs.Overlap != nil:
		return &cs.Overlap.BandPlan
	}
	return nil
}
