package compare

import (
	"fmt"
	"math/big"

	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

// Row is one schedule at one size in a report.
type Row struct {
	Kind string `json:"kind"`
	// Scheme names the published scheme the kind is (schemes.go).
	Scheme  Scheme      `json:"scheme"`
	Sizes   []int64     `json:"sizes"`
	Counts  *Counts     `json:"counts,omitempty"`
	Hextile *Prediction `json:"hextile_model,omitempty"`
	// SL is SL's ghost-zone model (overlapped and sweep only).
	SL *Prediction `json:"sl_model,omitempty"`
	// Measured is filled by a device run (hextile compare --device=gpu).
	Measured *Measured `json:"measured,omitempty"`
	Err      string    `json:"error,omitempty"`
}

// Measured is a verified device run.
type Measured struct {
	Seconds    float64 `json:"seconds"`
	GCellsPerS float64 `json:"gcells_per_s"`
}

// Report is the comparison of schedules of one scop.
type Report struct {
	File   string           `json:"file"`
	Scop   string           `json:"scop"`
	Params map[string]int64 `json:"params"`
	GPU    GPU              `json:"gpu"`
	Rows   []Row            `json:"rows"`
	// SLChoice is SL's pyramid height for overlapped tiling with the
	// report's widths (h in 0..16), with its prediction.
	SLChoice *SLChoice `json:"sl_choice,omitempty"`
	// Command is the command line that made the report.
	Command string `json:"command,omitempty"`
}

// SLChoice is the pyramid height SL's model picks.
type SLChoice struct {
	Widths     []int64      `json:"widths"`
	H          int64        `json:"h"`
	Prediction Prediction   `json:"prediction"`
	ByH        []Prediction `json:"by_h"`
}

// Spec says what to compare.
type Spec struct {
	// Kinds are the rows: schedule kinds and the kernel rows Stream and
	// N5D (kernel_rows.go).
	Kinds []schedule.Kind
	// Sizes per kind (nil: the schedule's default); All applies to every
	// kind without its own.
	Sizes map[schedule.Kind][]int64
	All   []int64
	// SweepH, when non-nil, replaces h by each value of [lo, hi] (none is
	// listed once).
	SweepH *[2]int64
	GPU    GPU
}

// Compare computes the report of spec for one scop at params.
func Compare(scop *frontend.Scop, deps *frontend.Deps, params map[string]int64, spec Spec) *Report {
	rep := &Report{Scop: fmt.Sprintf("%s:%d", scop.Pos.File, scop.Pos.Line), Params: params, GPU: spec.GPU}
	for _, k := range spec.Kinds {
		sizes := spec.Sizes[k]
		if sizes == nil {
			sizes = spec.All
		}
		if spec.SweepH == nil || k == schedule.None {
			rep.Rows = append(rep.Rows, row(scop, deps, params, k, sizes, spec.GPU))
			continue
		}
		base := sizes
		if base == nil {
			d, err := KindSizes(scop, deps, params, k)
			if err != nil {
				rep.Rows = append(rep.Rows, Row{Kind: string(k), Scheme: schemeOf(k, false), Err: err.Error()})
				continue
			}
			base = d
		}
		for h := spec.SweepH[0]; h <= spec.SweepH[1]; h++ {
			s := append([]int64{h}, base[1:]...)
			rep.Rows = append(rep.Rows, row(scop, deps, params, k, s, spec.GPU))
		}
	}
	// SL's pyramid height for overlapped tiling with the widths of the
	// first overlapped row that worked
	for _, r := range rep.Rows {
		if r.Kind == string(schedule.Overlapped) && r.Err == "" {
			s, err := schedule.Compute(scop, deps, schedule.Options{Kind: schedule.Overlapped, Sizes: r.Sizes})
			if err != nil {
				break
			}
			gm, err := GhostOf(scop, s, params)
			if err != nil {
				break
			}
			h, ps := PyramidHeight(gm, 0, 16, spec.GPU, r.Counts.Useful)
			rep.SLChoice = &SLChoice{Widths: r.Sizes[1:], H: h, Prediction: ps[h], ByH: ps}
			break
		}
	}
	return rep
}

func row(scop *frontend.Scop, deps *frontend.Deps, params map[string]int64, k schedule.Kind, sizes []int64, g GPU) Row {
	if IsKernelRow(k) {
		return kernelRow(scop, deps, params, k, sizes, g) // kernel_rows.go
	}
	r := Row{Kind: string(k), Sizes: sizes, Scheme: schemeOf(k, false)}
	s, err := schedule.Compute(scop, deps, schedule.Options{Kind: k, Sizes: sizes})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Scheme = schemeOf(k, len(s.Canonical.Basics) == 0)
	r.Sizes = s.Sizes
	c, err := Count(scop, s, params)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Counts = c
	p := Hextile(c, g)
	r.Hextile = &p
	if k == schedule.Overlapped || k == schedule.Sweep {
		if gm, err := GhostOf(scop, s, params); err == nil {
			sl := SL(gm, s.Sizes[0], g, c.Useful)
			r.SL = &sl
		}
	}
	return r
}

// GhostOf describes a ghost-zone schedule for SL's model: the canonical
// bounding box of the domain at params, the widths, the cone slopes (read
// radius: their ceilings), the largest element size, the number of arrays
// read, and the mean operations per canonical step.
func GhostOf(scop *frontend.Scop, s *schedule.Schedule, params map[string]int64) (Ghost, error) {
	var img poly.Set
	for i, st := range scop.Stmts {
		x := st.Domain.Apply(s.Canonical)
		if i == 0 {
			img = x
		} else {
			img = img.Union(x)
		}
	}
	for p, v := range params {
		img = img.FixParam(p, v)
	}
	lo, hi, err := box(img)
	if err != nil {
		return Ghost{}, err
	}
	gm := Ghost{Steps: hi[0] - lo[0] + 1, W: s.Sizes[1:], ElemBytes: 4}
	for j := 1; j < len(lo); j++ {
		gm.Extent = append(gm.Extent, hi[j]-lo[j]+1)
	}
	for _, sl := range s.Slopes {
		f0, _ := sl[0].Float64()
		f1, _ := sl[1].Float64()
		gm.Lo = append(gm.Lo, f0)
		gm.Hi = append(gm.Hi, f1)
		gm.ReadLo = append(gm.ReadLo, ceilRat(sl[0]))
		gm.ReadHi = append(gm.ReadHi, ceilRat(sl[1]))
	}
	read := map[string]bool{}
	var flops int64
	for _, st := range scop.Stmts {
		for _, a := range st.Reads {
			read[a.Array] = true
		}
		flops += flopsOf(st.Body)
	}
	for _, a := range scop.Arrays {
		if typeBytes(a.Elem) == 8 {
			gm.ElemBytes = 8
		}
	}
	gm.Arrays = float64(max(1, len(read)))
	gm.Flops = float64(flops) / float64(max(1, s.K))
	if len(gm.Extent) != len(gm.W) {
		return Ghost{}, fmt.Errorf("internal error: %d extents for %d widths", len(gm.Extent), len(gm.W))
	}
	return gm, nil
}

func ceilRat(r *big.Rat) int64 {
	q := new(big.Int).Neg(r.Num())
	q.Div(q, r.Denom())
	return -q.Int64()
}

// box returns the integer bounding box of a set without parameters.
func box(s poly.Set) (lo, hi []int64, err error) {
	if len(s.Basics) == 0 {
		return nil, nil, fmt.Errorf("empty domain")
	}
	nv := s.Basics[0].C.NVar
	np := len(s.Params)
	for d := 0; d < nv-np; d++ {
		obj := make([]poly.Int, 1+nv)
		for i := range obj {
			obj[i] = poly.I(0)
		}
		obj[1+np+d] = poly.I(1)
		mx := s.MaxRational(obj)
		obj[1+np+d] = poly.I(-1)
		mn := s.MaxRational(obj)
		if mx.Status != poly.LPOptimal || mn.Status != poly.LPOptimal {
			return nil, nil, fmt.Errorf("the domain is empty or unbounded")
		}
		h := new(big.Int).Div(mx.Value.Num(), mx.Value.Denom())
		l := new(big.Int).Div(mn.Value.Num(), mn.Value.Denom())
		lo = append(lo, -l.Int64())
		hi = append(hi, h.Int64())
	}
	return lo, hi, nil
}
