package main

import (
	"fmt"
	"io"

	"hextile/schedule"
)

func init() {
	register(command{
		name:    "check",
		summary: "prove a tile schedule correct: dependences, exactly once, parallel tiles, full-tile size",
		usage:   "hextile check FILE.c [--tile=hybrid|hexagonal|classical|none] [--sizes=h,w0,...]",
		run:     runCheck,
	})
}

// runCheck prints one line per property (and per scop) and exits 1 when
// any property fails.
func runCheck(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	all, code := parseAndSchedule("check", args, stdout, stderr, nil)
	if all == nil {
		return code
	}
	status := 0
	for i, s := range all {
		if len(all) > 1 {
			fmt.Fprintf(stdout, "# scop %d (%s:%d)\n", i, s.scop.Pos.File, s.scop.Pos.Line)
		}
		rep := schedule.Check(s.scop, s.deps, s.sched)
		fmt.Fprint(stdout, rep.String())
		if !rep.OK() {
			status = 1
		}
	}
	return status
}
