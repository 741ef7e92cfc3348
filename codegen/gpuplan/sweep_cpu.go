package gpuplan

import (
	"fmt"

	"hextile/codegen/ast"
	"hextile/schedule"
)

// PlanSweepC is the sweep plan of sc under the sweep schedule sched for the
// C/OpenMP target (cprint's sweep.go): the same levels, read routing, plane
// buffers, ping-pong copies and owner write-back as the CUDA sweep kernel,
// without column registers (every read of a level from its plane buffer:
// the CPU code runs the face as an inner loop, where per-column registers
// would be one more buffer) and without the kernel's steady state (the C
// code has its own loops). The buffers and the face keep the kernel's
// limits. Refusals are positioned at the offending construct, else at the
// scop.
func PlanSweepC(sc *ast.ScopCode, sched *schedule.Schedule) (*SweepPlan, error) {
	sp, err := planSweep(&Scop{Code: sc}, sched, CUDAOptions{NoReuse: true, NoSteady: true, NoSteadyUnroll: true, NoSteadyRamp: true, NoPrefetch: true, NoSweepStageInput: true, NoSweepEdge: true, SmemOptIn: MaxSweepSmem})
	if err != nil {
		return nil, cRefusal(sc, "sweep", "C sweep code", err)
	}
	return sp, nil
}

// PlanOverlapC is the overlapped plan of sc under the overlapped schedule
// sched for the C/OpenMP target (cprint's overlap.go): the CUDA overlapped
// kernel's levels, read routing, buffer reuse, ping-pong copies and owner
// write-back, without its shared-memory limit (the C code keeps a box's
// buffers in a heap block per thread) and without a thread block (Block is
// the kernel's, unused).
func PlanOverlapC(sc *ast.ScopCode, sched *schedule.Schedule) (*OverlapPlan, error) {
	op, err := planOverlap(&Scop{Code: sc}, sched, false)
	if err != nil {
		return nil, cRefusal(sc, "overlapped", "C overlapped code", err)
	}
	return op, nil
}

// cRefusal positions a C plan's refusal err at the offending construct
// (the planner's position prefix), else at the scop:
// "file:line:col: error: --tile=KIND (WHAT): why".
func cRefusal(sc *ast.ScopCode, kind, what string, err error) error {
	msg := err.Error()
	pos := ast.PosString(sc.Scop.Pos)
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		pos, msg = m[1], m[2]
	}
	return fmt.Errorf("%s: error: --tile=%s (%s): %s", pos, kind, what, msg)
}
