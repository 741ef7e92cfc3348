package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"hextile/compare"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "check",
		summary: "prove a tile schedule correct: dependences, exactly once, parallel tiles, full-tile size (--baseline: and compare its counts with a stored baseline)",
		usage:   "hextile check FILE.c [--tile=hybrid|hexagonal|classical|overlapped|sweep|none] [--sizes=h,w0,...] [--baseline=FILE.json] [--write-baseline=FILE.json] [-D NAME=VALUE]",
		run:     runCheck,
	})
}

// runCheck prints one line per property (and per scop) and exits 1 when
// any property fails, or when the counts drift from --baseline.
func runCheck(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var baseline, writeBaseline string
	all, code := parseAndSchedule("check", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.StringVar(&baseline, "baseline", "", "compare the schedule's exact counts (tiles --stats --json) with this file; exit 1 with the differences on drift")
		fs.StringVar(&writeBaseline, "write-baseline", "", "write the schedule's exact counts to this file as the baseline (the JSON of tiles --stats --json)")
	})
	if all == nil {
		return code
	}
	status := 0
	var stats []*compare.Stats
	for i, s := range all {
		if len(all) > 1 {
			fmt.Fprintf(stdout, "# scop %d (%s:%d)\n", i, s.scop.Pos.File, s.scop.Pos.Line)
		}
		rep := schedule.Check(s.scop, s.deps, s.sched)
		fmt.Fprint(stdout, rep.String())
		if !rep.OK() {
			status = 1
		}
		if baseline == "" && writeBaseline == "" {
			continue
		}
		params, err := scopParams(s.scop)
		if err != nil {
			return inputFail(stderr, "check", err, posOf(s.scop.Pos))
		}
		var st *compare.Stats
		if err := newProgress(stderr).step("counting", func() (err error) {
			st, err = compare.NewStats(s.scop.Pos.File, s.scop, s.sched, params)
			return err
		}); err != nil {
			return inputFail(stderr, "check", err, posOf(s.scop.Pos))
		}
		stats = append(stats, st)
	}
	if writeBaseline != "" {
		f, err := os.Create(writeBaseline)
		if err != nil {
			return toolFail(stderr, "%v", err)
		}
		writeJSON(f, stats)
		if err := f.Close(); err != nil {
			return toolFail(stderr, "%v", err)
		}
	}
	if baseline != "" {
		want, err := readBaseline(baseline)
		if err != nil {
			return usageFail(stderr, "check", usagef("--baseline=%s: %v", baseline, err))
		}
		if len(want) != len(stats) {
			fmt.Fprintf(stdout, "baseline: FAIL: %s holds %d scops, the file has %d\n", baseline, len(want), len(stats))
			return 1
		}
		for i := range want {
			if d := want[i].Diff(stats[i]); len(d) > 0 {
				fmt.Fprintf(stdout, "baseline: FAIL: the counts drifted from %s:\n  %s\n", baseline, strings.Join(d, "\n  "))
				status = 1
			} else {
				fmt.Fprintf(stdout, "baseline: ok: the counts equal %s (%d tiles, %d useful and %d computed instances)\n", baseline, stats[i].Counts.Tiles, stats[i].Counts.Useful, stats[i].Counts.Computed)
			}
		}
	}
	return status
}

// readBaseline reads one Stats object or a list of them.
func readBaseline(file string) ([]*compare.Stats, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var list []*compare.Stats
	if err := json.Unmarshal(b, &list); err == nil {
		return list, nil
	}
	var one compare.Stats
	if err := json.Unmarshal(b, &one); err != nil {
		return nil, fmt.Errorf("not the JSON of hextile tiles --stats --json: %v", err)
	}
	if one.Counts == nil {
		return nil, fmt.Errorf("no counts: not the JSON of hextile tiles --stats --json")
	}
	return []*compare.Stats{&one}, nil
}
