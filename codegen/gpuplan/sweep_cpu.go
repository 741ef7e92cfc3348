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
// would be one more buffer). The buffers and the face keep the kernel's
// limits. Refusals are positioned at the offending construct, else at the
// scop.
func PlanSweepC(sc *ast.ScopCode, sched *schedule.Schedule) (*SweepPlan, error) {
	sp, err := planSweep(&Scop{Code: sc}, sched, false)
	if err != nil {
		msg := err.Error()
		if m := posPrefix.FindStringSubmatch(msg); m != nil {
			return nil, fmt.Errorf("%s: error: --tile=sweep (C sweep code): %s", m[1], m[2])
		}
		return nil, fmt.Errorf("%s: error: --tile=sweep (C sweep code): %s", ast.PosString(sc.Scop.Pos), msg)
	}
	return sp, nil
}
