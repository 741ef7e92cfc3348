package ast

import (
	"hextile/frontend"
	"hextile/schedule"
)

// ScopCode is one scop with its generated AST.
type ScopCode struct {
	Scop *frontend.Scop
	AST  *AST
	// Orig is the AST of the scop's original schedule (used by the harness
	// to count statement instances cheaply); may be nil.
	Orig *AST
	// Note is a one-line description printed above the code (the schedule).
	Note string
	// Sweep, when set, is the ghost-zone schedule (--tile=sweep or
	// overlapped, its Kind) whose code the C printer prints (cprint's
	// sweep.go from gpuplan.PlanSweepC, overlap.go from PlanOverlapC)
	// instead of scanning AST (then the original loop nest).
	Sweep *schedule.Schedule
}
