package compare

import (
	"fmt"
	"reflect"
	"sort"

	"hextile/frontend"
	"hextile/schedule"
)

// Stats is the stable JSON of `hextile tiles --stats --json` and of the
// baselines of `hextile check --baseline`: the schedule (kind, sizes, cone
// slopes per space dimension as "delta0,delta1"), the parameter values, the
// points of a full tile (owned points for the ghost kinds) and the exact
// counts. Fields are only ever added.
type Stats struct {
	File           string           `json:"file"`
	Kind           string           `json:"kind"`
	Sizes          []int64          `json:"sizes"`
	Slopes         []string         `json:"slopes"`
	Params         map[string]int64 `json:"params"`
	FullTilePoints int64            `json:"full_tile_points"`
	Counts         *Counts          `json:"counts"`
}

// NewStats computes the stats of a schedule at params.
func NewStats(file string, scop *frontend.Scop, sched *schedule.Schedule, params map[string]int64) (*Stats, error) {
	c, err := Count(scop, sched, params)
	if err != nil {
		return nil, err
	}
	full, _ := schedule.FullTilePoints(sched)
	st := &Stats{File: file, Kind: string(sched.Kind), Sizes: sched.Sizes, Params: params, FullTilePoints: full, Counts: c, Slopes: []string{}}
	for _, s := range sched.Slopes {
		st.Slopes = append(st.Slopes, s[0].RatString()+","+s[1].RatString())
	}
	return st, nil
}

// Diff lists the differences of now from the baseline b, one line per
// field ("tiles: baseline 12, now 14"); the file name, the floating-point
// ratios (derived from the counts) and the per-update figures are not
// compared.
func (b *Stats) Diff(now *Stats) []string {
	var d []string
	add := func(name string, x, y any) {
		if !reflect.DeepEqual(x, y) {
			d = append(d, fmt.Sprintf("%s: baseline %v, now %v", name, x, y))
		}
	}
	add("kind", b.Kind, now.Kind)
	add("sizes", b.Sizes, now.Sizes)
	add("slopes", b.Slopes, now.Slopes)
	add("params", paramString(b.Params), paramString(now.Params))
	add("full_tile_points", b.FullTilePoints, now.FullTilePoints)
	if b.Counts == nil || now.Counts == nil {
		if (b.Counts == nil) != (now.Counts == nil) {
			d = append(d, "counts: missing on one side")
		}
		return d
	}
	x, y := b.Counts, now.Counts
	for _, f := range []struct {
		name string
		a, b int64
	}{
		{"tiles", x.Tiles, y.Tiles}, {"phases", x.Phases, y.Phases},
		{"tiles_per_phase.min", x.TilesPerPhase.Min, y.TilesPerPhase.Min}, {"tiles_per_phase.max", x.TilesPerPhase.Max, y.TilesPerPhase.Max},
		{"useful", x.Useful, y.Useful}, {"computed", x.Computed, y.Computed}, {"redundant", x.Redundant, y.Redundant},
		{"loads", x.Loads, y.Loads}, {"stores", x.Stores, y.Stores}, {"load_bytes", x.LoadBytes, y.LoadBytes}, {"store_bytes", x.StoreBytes, y.StoreBytes},
		{"shared_accesses", x.SharedAccesses, y.SharedAccesses}, {"barriers", x.Barriers, y.Barriers}, {"launches", x.Launches, y.Launches},
		{"flops", x.Flops, y.Flops}, {"max_tile_shared", x.MaxTileShared, y.MaxTileShared},
	} {
		add(f.name, f.a, f.b)
	}
	sort.Strings(d)
	return d
}
