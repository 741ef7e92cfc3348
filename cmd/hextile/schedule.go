package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"hextile/frontend"
	"hextile/schedule"
)

func init() {
	register(command{
		name:    "schedule",
		summary: "print the tile schedule (hybrid, hexagonal, classical or none) of a C file in isl notation",
		usage:   "hextile schedule FILE.c [--tile=hybrid|hexagonal|classical|overlapped|sweep|none] [--sizes=h,w0,...] [--json]",
		run:     runSchedule,
	})
}

// tileFlags are the flags that choose a schedule.
type tileFlags struct {
	tile    string
	sizes   string
	offsets string
}

func (f *tileFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.tile, "tile", "hybrid", "tiling: hybrid, hexagonal, classical, overlapped, sweep or none (overlapped and sweep: code for --target=cuda, their dedicated kernels, and --target=c, through compile and run; here the schedule)")
	fs.StringVar(&f.sizes, "sizes", "", "tile sizes h,w0,w1,... (default: see schedule.DefaultSizes)")
	fs.StringVar(&f.offsets, "offsets", "", "alignment offsets o0,o1,... added to the space dimensions before tiling (section 4.3.1)")
}

func (f *tileFlags) options() (schedule.Options, error) {
	o := schedule.Options{Kind: schedule.Kind(f.tile)}
	if err := checkEnum("tile", f.tile, tileKinds...); err != nil {
		return o, err
	}
	var err error
	if o.Sizes, err = intList("sizes", f.sizes); err != nil {
		return o, err
	}
	if o.Offsets, err = intList("offsets", f.offsets); err != nil {
		return o, err
	}
	return o, nil
}

// scheduled is one scop with its dependences and schedule.
type scheduled struct {
	scop  *frontend.Scop
	deps  *frontend.Deps
	sched *schedule.Schedule
}

// parseAndSchedule reads the file and computes the schedule of every scop.
// It returns the exit status to use when the result is nil.
func parseAndSchedule(name string, args []string, stdout, stderr io.Writer, extra func(*pflag.FlagSet)) ([]scheduled, int) {
	var tf tileFlags
	var opts schedule.Options
	prog, code := parseCommand(name, args, stdout, stderr, func(fs *pflag.FlagSet) {
		tf.register(fs)
		if extra != nil {
			extra(fs)
		}
	}, func() (err error) {
		opts, err = tf.options()
		return err
	})
	if prog == nil {
		return nil, code
	}
	if len(prog.Scops) == 0 {
		return nil, inputFail(stderr, name, fmt.Errorf("no scop (#pragma scop region) found"), prog.File+":1:1")
	}
	if err := checkSizes(opts.Sizes, tf.tile, prog.Scops); err != nil {
		return nil, usageFail(stderr, name, err)
	}
	if opts.Offsets != nil {
		for _, sc := range prog.Scops {
			if ns := spaceDims(sc); len(opts.Offsets) != ns {
				return nil, usageFail(stderr, name, usagef("--offsets=%s gives %d offsets; the scop at %s has %d space dimensions", tf.offsets, len(opts.Offsets), sc.Pos, ns))
			}
		}
	}
	var out []scheduled
	pr := newProgress(stderr)
	for _, sc := range prog.Scops {
		var deps *frontend.Deps
		err := pr.step("analysing dependences", func() (err error) {
			deps, err = frontend.ComputeDeps(sc)
			return err
		})
		if err != nil {
			return nil, inputFail(stderr, name, err, posOf(sc.Pos))
		}
		var s *schedule.Schedule
		err = pr.step("computing the "+tf.tile+" schedule", func() (err error) {
			s, err = schedule.Compute(sc, deps, opts)
			return err
		})
		if err != nil {
			return nil, inputFail(stderr, name, err, posOf(sc.Pos))
		}
		out = append(out, scheduled{sc, deps, s})
	}
	return out, 0
}

type scheduleJSON struct {
	Kind      string   `json:"kind"`
	Schedule  string   `json:"schedule"`
	Parallel  []int    `json:"parallel"`
	Dims      []string `json:"dims"`
	Sizes     []int64  `json:"sizes"`
	Slopes    []string `json:"slopes"`
	Canonical string   `json:"canonical"`
	Slots     int64    `json:"slots"`
	// Owner is the owner map of the ghost-zone kinds (overlapped, sweep):
	// Schedule relates an instance to every tile that computes it.
	Owner string `json:"owner,omitempty"`
}

func runSchedule(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var asJSON bool
	all, code := parseAndSchedule("schedule", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print one JSON object with the fields schedule, parallel, kind, dims, sizes, slopes, canonical, slots")
	})
	if all == nil {
		return code
	}
	if asJSON {
		var out []scheduleJSON
		for _, s := range all {
			j := scheduleJSON{Kind: string(s.sched.Kind), Schedule: s.sched.Map.String(), Parallel: []int{},
				Sizes: s.sched.Sizes, Canonical: s.sched.Canonical.String(), Slots: s.sched.K}
			for i, d := range s.sched.Dims {
				j.Dims = append(j.Dims, d.Name)
				if d.Parallel {
					j.Parallel = append(j.Parallel, i)
				}
			}
			if len(s.sched.Owner.Basics) > 0 {
				j.Owner = s.sched.Owner.String()
			}
			for _, sl := range s.sched.Slopes {
				j.Slopes = append(j.Slopes, sl[0].RatString()+","+sl[1].RatString())
			}
			out = append(out, j)
		}
		writeJSON(stdout, out)
		return 0
	}
	for i, s := range all {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		var names, par []string
		for _, d := range s.sched.Dims {
			names = append(names, d.Name)
			if d.Parallel {
				par = append(par, d.Name)
			}
		}
		fmt.Fprintf(stdout, "# %s schedule, sizes %s, dims [%s], parallel [%s]\n", s.sched.Kind, joinInts(s.sched.Sizes), strings.Join(names, ", "), strings.Join(par, ", "))
		fmt.Fprintln(stdout, s.sched.Map.String())
		if len(s.sched.Owner.Basics) > 0 {
			fmt.Fprintln(stdout, "# owner map: the tile that writes each instance back (the map above relates it to every tile that computes it)")
			fmt.Fprintln(stdout, s.sched.Owner.String())
		}
	}
	return 0
}

func joinInts(v []int64) string {
	var s []string
	for _, x := range v {
		s = append(s, strconv.FormatInt(x, 10))
	}
	return strings.Join(s, ",")
}

// intList parses a comma-separated list of integers ("" is nil).
func intList(flag, s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var out []int64
	for _, x := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return nil, usagef("bad --%s=%s: %q is not an integer", flag, s, x)
		}
		out = append(out, v)
	}
	return out, nil
}
