package gpuplan

import "fmt"

// The resident-block floor of a kernel: Kernel.MinBlocks, printed as the
// second argument of CUDA's __launch_bounds__(threads, MinBlocks) and as
// NVVM's minctasm annotation. It asks ptxas to keep the registers per
// thread at most 65536 / (threads x MinBlocks), so that MinBlocks blocks fit
// on one multiprocessor's register file (sm_70 to sm_90: 64K 32-bit
// registers, 2048 threads). ptxas spills what does not fit to local memory
// (L1-cached).
//
// The sweep kernel is latency-bound: each sweep step waits on a barrier and
// on the shared-memory reads that follow it, and only other blocks' warps
// fill those cycles. Without a floor ptxas gives it what its unrolled steady
// state asks for (64 to 96 registers), so a 1,024-thread 3-D block runs
// alone on its SM and a 256-thread 2-D block three to a SM. Measured on an
// H200 (bench/results/profile_2026-11-28.md; kernel GCells/s, same run):
// star3d1r 512^3 x 200, blocks 32x32: 240.7 with 64 registers (one block
// per SM, 50% occupancy) against 321.2 with the floor 2 (32 registers,
// 99% occupancy, some spills); 256^3: 173.1 against 203.5. j2d5pt 16384^2
// bit-exact, blocks of 256: 272.4 (73 registers, 3 blocks) against 283.0
// with the floor 4 (64 registers). Later, same run (sidebyside_h200_2026-11-28d.md),
// 256-thread blocks with the floor 5 (48 registers) against 4 (59-64):
// j2d5pt exact 332.6 against 315, fast 1158.1 against 1148.2, box2d1r
// 729.0 against 720.4 exact, 778.6 against 772.8 fast.
//
// The default (want 0): registers per thread R = 65536 / (2 x threads),
// clamped to [32, 64] and lowered to 48 for blocks of 256 threads or
// more (measured), and MinBlocks = 65536 / (threads x R): 1,024 threads
// -> 2 (32 registers), 512 -> 2 (64), 256 -> 5 (48, AN5D's count), 128
// -> 8 (64, not measured lower), at most 32 blocks and 2,048 threads (an SM's limits; a floor that
// leaves 128 registers or more limits nothing and is left out); lowered while MinBlocks blocks' shared memory exceeds a
// multiprocessor's (227 KB on the H100; the target's opt-in limit, minBlocksOn)
// (no point asking for registers for blocks that cannot be resident), and lowered while the kernel's register need
// (need > 0: the plan's estimate, SweepPlan.RegisterNeed) exceeds the
// floor's budget by more than a fifth: a small excess spills a few values
// to L1 and keeps the occupancy (star3d1r's 34 against 32: 28 bytes of
// spill stores, 321 GCells/s against 241 with one block per SM), a large
// one spills in the steady loop (star2d2r, radius 2: 7 levels x 5 column
// registers and 9 prefetched loads, about 62 against 48: 188 GCells/s, the
// hybrid --shared kernel 301, same H200 run; the prefetch is now off there
// by default, sweep_prefetch.go's PrefetchMaxRadius: 53). want 1 turns the floor off
// (__launch_bounds__ with the thread count only); want > 1 is taken as
// given (--min-blocks=N) where the shared memory holds that many blocks,
// else lowered to what it holds.
const (
	smRegisters  = 65536
	smSharedMax  = 227 * 1024
	smBlocksMax  = 32   // resident blocks per SM (sm_70 to sm_90)
	smThreadsMax = 2048 // resident threads per SM
)

// minBlocks decides the resident-block floor of a kernel of nt threads
// using smem bytes of shared memory per block: the floor (0: none) and a
// line for the plan dump.
func minBlocks(nt int, smem int64, want, need int) (int, string) {
	return minBlocksOn(nt, smem, want, need, 0)
}

// minBlocksOn is minBlocks on an SM of smShared bytes of shared memory (0:
// the H100's 227 KB; CUDAOptions.SmemOptIn, the target's opt-in limit per
// block, which is its SM's shared memory less 1 KB). Neither the default
// nor --min-blocks=N asks for more blocks than that shared memory holds:
// N is lowered to what fits, with a note (e.g. the 92,520 bytes of
// j2d5pt's 15,128,482 buffers: two blocks on sm_90, one on sm_80).
func minBlocksOn(nt int, smem int64, want, need int, smShared int64) (int, string) {
	if nt <= 0 {
		return 0, ""
	}
	if smShared <= 0 {
		smShared = smSharedMax
	}
	switch {
	case want == 1:
		return 0, "no resident-block floor (--min-blocks=1): ptxas chooses the registers"
	case want > 1:
		fit := want
		for fit > 1 && smem > 0 && int64(fit)*smem > smShared {
			fit--
		}
		if fit < want {
			if fit <= 1 {
				return 0, fmt.Sprintf("no resident-block floor: --min-blocks=%d asks for %d blocks of %d bytes of shared memory, the SM holds %d bytes: one block", want, want, smem, smShared)
			}
			return fit, fmt.Sprintf("__launch_bounds__(%d, %d) (--min-blocks=%d lowered to %d: %d blocks of %d bytes of shared memory fill the SM's %d): at most %d registers per thread", nt, fit, want, fit, fit, smem, smShared, regsFor(nt, fit))
		}
		return want, fmt.Sprintf("__launch_bounds__(%d, %d) (--min-blocks=%d): at most %d registers per thread", nt, want, want, regsFor(nt, want))
	}
	r := smRegisters / (2 * nt)
	r = max(32, min(64, r))
	if r == 64 && nt >= 256 {
		r = 48 // measured: 5 blocks of 256 threads beat 4 (see above)
	}
	mb := smRegisters / (nt * r)
	mb = min(mb, smBlocksMax, smThreadsMax/nt)
	for mb > 1 && smem > 0 && int64(mb)*smem > smShared {
		mb--
	}
	lowered := ""
	for mb > 1 && need*5 > regsFor(nt, mb)*6 {
		mb--
		lowered = fmt.Sprintf(", lowered for the plan's estimate of %d registers per thread (column and prefetch registers: more than a fifth over the budget would spill in the steady loop)", need)
	}
	if mb > 1 && regsFor(nt, mb) >= 128 {
		return 0, fmt.Sprintf("no resident-block floor: %d blocks of %d threads (the most an SM holds) would leave %d registers per thread, no limit", mb, nt, regsFor(nt, mb))
	}
	if mb <= 1 && lowered != "" {
		return 0, fmt.Sprintf("no resident-block floor: the plan's estimate of %d registers per thread leaves room for one block of %d threads per SM", need, nt)
	}
	if mb <= 1 {
		return 0, fmt.Sprintf("no resident-block floor: %d threads x %d bytes of shared memory per block leave room for one block per SM", nt, smem)
	}
	return mb, fmt.Sprintf("__launch_bounds__(%d, %d): %d blocks resident per SM, at most %d registers per thread (the sweep kernel is latency-bound: more resident warps hide its barriers)%s", nt, mb, mb, regsFor(nt, mb), lowered)
}

// DefaultMinBlocks is the plan's default resident-block floor of a kernel
// of nt threads, smem bytes of shared memory per block and an estimated
// need of registers per thread (0: unknown), for the cost model (0: none).
func DefaultMinBlocks(nt int, smem int64, need int) int {
	return DefaultMinBlocksOn(nt, smem, need, 0)
}

// DefaultMinBlocksOn is DefaultMinBlocks on an SM of smShared bytes of
// shared memory (0: the H100's; CUDAOptions.SmemOptIn).
func DefaultMinBlocksOn(nt int, smem int64, need int, smShared int64) int {
	mb, _ := minBlocksOn(nt, smem, 0, need, smShared)
	return mb
}

// SweepRegisterNeed estimates the registers per thread of the sweep
// kernel's steady loop: a base of 18 (indices, pointers, the loop and the
// values in flight), every buffered level's column registers, the
// prefetched loads, the staged input's registers and 8 for an IEEE
// division or math call's sequence (ieee). E.g. j2d5pt 7,128,242 with
// --fast-math: 18 + 7 x 3 + 5 = 44 (ptxas: 48 without spills under the
// floor of 5 blocks); bit-exact (no prefetch with the division): 18 + 21 +
// 8 = 47 (16 bytes of spill stores); star2d2r (radius 2, not prefetched
// by default): 18 + 7 x 5 = 53 (62 with --sweep-prefetch=on); j2d9pt
// bit-exact 18 + 35 + 8 = 61.
func SweepRegisterNeed(colRegs, pf, stage int, ieee bool) int {
	n := 18 + colRegs + pf + stage
	if ieee {
		n += 8
	}
	return n
}

// RegisterNeed is SweepRegisterNeed of the plan.
func (sp *SweepPlan) RegisterNeed() int {
	col, st := 0, 0
	for _, lv := range sp.Levels {
		col += lv.Regs
	}
	if sp.Stage {
		for _, g := range sp.St {
			st += g.Regs + g.HaloRegs + 1 // + the current plane's register
		}
	}
	pf := 0
	if sp.Prefetch {
		pf = len(sp.Pf)
	}
	return SweepRegisterNeed(col, pf, st, sp.IEEESpecial)
}

// regsFor is the register budget per thread of mb resident blocks of nt
// threads, rounded down to ptxas's allocation unit of 8.
func regsFor(nt, mb int) int {
	r := smRegisters / (nt * mb)
	return min(255, r/8*8)
}

// FloorResident reports whether a floor of mb blocks of nt threads, each
// with smem bytes of static shared memory, can be resident on one SM
// (at most 32 blocks, 2,048 threads and 227 KB): a floor beyond that
// asks ptxas for nothing it can honour (it ignores a minctasm above the
// threads limit; the shared memory keeps the blocks out anyway). E.g.
// blocks of 1,024 threads: 1 and 2 fit, 3 does not; of 256 threads with
// 20 KB: up to 8 (11 by the shared memory, 8 by the threads).
func FloorResident(nt int, smem int64, mb int) bool {
	return nt > 0 && mb >= 1 && mb <= smBlocksMax && mb*nt <= smThreadsMax && int64(mb)*smem <= smSharedMax
}
