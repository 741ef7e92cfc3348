package gpuplan

import (
	"fmt"

	"hextile/codegen/ast"
)

// PersistPlan is the persistent form of a scop's host sequence
// (CUDAOptions.Persistent): ONE launch of one kernel runs every launch of
// the host sequence, with a grid-wide barrier after each.
//
// The per-step schedule launches, for every iteration of the host loops
// (for --tile=none: every time step, and per step every loop nest), a
// kernel whose blocks take the tiles of a grid loop grid-stride
// (c = lo + blockIdx.x; c += gridDim.x). The persistent kernel keeps the
// host loops, guards and Lets, runs them in every block (they are uniform:
// parameters and host counters only) and replaces each launch by a pass of
// its blocks over the launch's VIRTUAL blocks: the launch would have had
// gx*gy*gz blocks (the host's grid extents, the same clamped values); a
// persistent block b runs the virtual blocks v = b, b + G, b + 2G, ...
// (G persistent blocks), each with the virtual block index
// (v mod gx, (v / gx) mod gy, v / (gx*gy)) and the virtual grid (gx, gy, gz)
// in place of blockIdx and gridDim. Every virtual block therefore does
// exactly what the block of the same index did in the per-step launch, and
// the blocks of a launch are independent (the emulator checks it), so
// running several of them one after the other in one persistent block is
// one of the executions the per-step launch allowed. A grid barrier (all
// blocks arrive, then all leave, with the writes before it visible to the
// reads after it) then stands for the end of the launch: what the launch
// boundary ordered, the barrier orders.
//
// Example: testdata/jacobi2d_twonest.c under --tile=none at N=100, blocks
// of 32x8: each step launches hx_kernel0_0 (B from A) and hx_kernel0_1 (A
// from B) over 4x13 = 52 blocks. With G = 16 persistent blocks, block 3
// runs virtual blocks 3, 19, 35, 51 of hx_kernel0_0 (virtual (3,0), (3,4),
// (3,8), (3,12)), waits at the barrier, runs the same of hx_kernel0_1,
// waits, and so on for T steps: 1 launch, 2T barriers instead of 2T
// launches.
//
// The decisions:
//
//   - persistent or not: CUDAOptions.Persistent (--persistent; for now the
//     lead's measurements, later the cost model, decide); the ghost-zone
//     kinds (sweep, overlapped: a band loop with ping-pong copies on the
//     host) are refused;
//   - steps per launch: all of them (the whole host sequence of the scop is
//     one launch; a barrier costs what one launch's tail costs, and L2 keeps
//     the arrays between steps either way);
//   - grid size: G = min(blocks per SM x SMs, Tiles) at run time, the
//     blocks per SM from the occupancy API for Block and Smem (so that
//     every block is resident: the grid barrier needs co-residency, which
//     the cooperative launch guarantees or refuses), Tiles the largest
//     launch's block count (more blocks than that would only wait at the
//     barriers);
//   - the block: the scop's thread block (every kernel with thread work has
//     it); a kernel of one thread (work outside the grid loops) runs on
//     thread 0 of the block, without block barriers (one thread needs
//     none);
//   - the fallback: a device without cooperative launch, or a refused
//     cooperative launch (too many blocks for co-residency), runs the
//     per-step launches instead, with a message on standard error: the same
//     kernels, the same results.
type PersistPlan struct {
	Name  string // the persistent kernel, hx_persistK
	Block [3]int // threads on x, y, z (Scop.Threads, or 1x1x1 when no kernel has threads)
	Smem  int64  // dynamic shared memory per block: the largest kernel's
	// Sites is the number of launch sites of the host sequence (each a
	// pass over its virtual blocks and a grid barrier).
	Sites int
}

// OneThread reports whether kernel kn runs on one thread of the
// persistent block (it has no thread work while the block has threads).
func (p *PersistPlan) OneThread(kn *Kernel) bool {
	return kn.Block == [3]int{1, 1, 1} && p.Block != kn.Block
}

// planPersistent decides the persistent form of cs (see PersistPlan), or
// refuses it with the reason.
func planPersistent(cs *Scop) (*PersistPlan, error) {
	s := cs.Code.Scop
	if cs.Band() != nil {
		return nil, fmt.Errorf("%s: error: --persistent: --tile=%s runs a band per launch with ping-pong copies of the arrays on the host; the persistent kernel takes the kernels of the none, hybrid, hexagonal and classical tilings", ast.PosString(s.Pos), cs.Sched.Kind)
	}
	if cs.HexStream != nil {
		return nil, fmt.Errorf("%s: error: --persistent: the streaming hybrid kernel (--stream) has its own launches per phase; the persistent kernel takes the kernels of the none, hybrid, hexagonal and classical tilings", ast.PosString(s.Pos))
	}
	p := &PersistPlan{Name: fmt.Sprintf("hx_persist%d", cs.Index), Block: [3]int{1, 1, 1}, Sites: len(cs.Kernels)}
	for _, kn := range cs.Kernels {
		if kn.Block != [3]int{1, 1, 1} {
			if p.Block != [3]int{1, 1, 1} && p.Block != kn.Block {
				return nil, fmt.Errorf("%s: error: --persistent: kernels %s and %s have different thread blocks (%v, %v); one persistent kernel runs them all in one block shape", ast.PosString(s.Pos), cs.Kernels[0].Name, kn.Name, p.Block, kn.Block)
			}
			p.Block = kn.Block
		}
		p.Smem = max(p.Smem, kn.Smem)
	}
	if len(cs.Kernels) == 0 {
		return nil, fmt.Errorf("%s: error: --persistent: the scop launches no kernel", ast.PosString(s.Pos))
	}
	return p, nil
}

// RectangularGrid reports whether no grid loop's bounds use the counter of
// a grid loop around it: the launch's extents are then the trip counts
// themselves (the host's largest trip count of each nested grid loop over
// the outer values is the one trip count), which the persistent kernel
// computes without the host's loops over the outer grid loops.
func RectangularGrid(grid []*ast.For) bool {
	for i := 1; i < len(grid); i++ {
		for _, o := range grid[:i] {
			if anyUses(grid[i].Lower, o.Iter) || anyUses(grid[i].Upper, o.Iter) {
				return false
			}
		}
	}
	return true
}

// Persistent is the index of the scop's persistent kernel in Kernels, or
// -1 when it has none.
func (g *GPUScop) Persistent() int { return g.persist }

// PersistentLaunch is the cooperative launch of the persistent kernel for
// the parameter values params: Grid[0] is the largest launch's block count
// of the per-step schedule (Launches), which the runner caps at the blocks
// the device holds at once (0: nothing to launch).
func (g *GPUScop) PersistentLaunch(params map[string]int64) (GPULaunch, error) {
	if g.persist < 0 {
		return GPULaunch{}, fmt.Errorf("%s: internal error: the scop has no persistent kernel", ast.PosString(g.Scop.Pos))
	}
	var tiles int64
	err := g.Launches(params, func(l GPULaunch) error {
		tiles = max(tiles, l.Grid[0]*l.Grid[1]*l.Grid[2])
		return nil
	})
	return GPULaunch{Kernel: g.persist, Grid: [3]int64{tiles, 1, 1}}, err
}
