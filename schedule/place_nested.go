package schedule

import "fmt"

// Placing instances in the schedules that keep the original loop structure:
// banded classical tiling (banded.go: a sequential prefix of the original
// 2d+1 schedule, then one band's classical tile vector) and the untiled
// original order (untiled.go: the 2d+1 schedule itself, with the loops that
// carry no dependence marked parallel).
//
// Neither is one tiling of one canonical space, so their layout is read
// from the dimensions as the GPU mapping reads them (gpuplan.IsGridLoop: a
// parallel dimension that is not a point dimension is a grid loop): the
// dimensions before the first parallel non-point dimension are sequential
// host loops (a phase, one launch, per distinct value), the run of parallel
// non-point dimensions that follows names the tile (one block), and the
// rest runs inside the tile in schedule order, with a barrier between
// consecutive values of the dimensions up to the point time t (banded; the
// untiled order has no point time and no barrier). With no parallel
// dimension the whole scop is one tile of one phase (it runs sequentially).
//
// Example: adi's banded schedule [p0, p1, p2, p3, p4, V, T, t] has p3 (the
// sweeps' i loop) parallel: a phase per (p0, p1, p2) (time step and sweep),
// a tile per i, and each tile runs its statements p4 and the wavefronts V
// of the j band in order, with a barrier per distinct (p4, V, T, t).

// nestedLayout is the layout of a banded or untiled schedule (see above).
func (s *Schedule) nestedLayout() Layout {
	grid := func(d Dim) bool { return d.Parallel && d.Role != RolePointTime && d.Role != RolePointSpace }
	l := Layout{PointTime: -1}
	first := -1
	for j, d := range s.Dims {
		if grid(d) {
			first = j
			break
		}
	}
	if first < 0 {
		return l // one tile, one phase
	}
	l.Phase, l.Tile = first, first
	for l.Tile < len(s.Dims) && grid(s.Dims[l.Tile]) {
		l.Tile++
	}
	if s.parts != nil {
		for j := l.Tile; j < len(s.Dims); j++ {
			if s.Dims[j].Role == RolePointTime {
				l.PointTime = j
				break
			}
		}
	}
	return l
}

// nestedPlacer is Placer for a banded or untiled schedule: the vector of an
// instance evaluated with the formulas that build the schedule's map
// (banded and untiled); the point it returns is the iterators.
func (s *Schedule) nestedPlacer(stmt int) (func(iters []int64) ([]int64, [][]int64, error), error) {
	sc := s.orig
	if sc == nil || stmt < 0 || stmt >= len(sc.Stmts) {
		return nil, fmt.Errorf("no statement %d", stmt)
	}
	st := sc.Stmts[stmt]
	L := len(s.Dims)
	// prefix writes the original 2d+1 schedule of the first depth loops
	// (all of them when depth is the number of iterators) and the textual
	// position after them; the rest stays zero.
	prefix := func(v, iters []int64, depth int) {
		for q := 0; q < depth; q++ {
			v[2*q] = st.Beta[q]
			v[2*q+1] = iters[q]
			if q < len(st.Down) && st.Down[q] {
				v[2*q+1] = -iters[q]
			}
		}
		v[2*depth] = st.Beta[depth]
	}
	check := func(iters []int64) error {
		if len(iters) != len(st.Iters) {
			return fmt.Errorf("statement %s has %d iterators, got %d values", st.Name, len(st.Iters), len(iters))
		}
		return nil
	}
	if s.Untiled {
		return func(iters []int64) ([]int64, [][]int64, error) {
			if err := check(iters); err != nil {
				return nil, nil, err
			}
			v := make([]int64, L)
			prefix(v, iters, len(iters))
			return iters, [][]int64{v}, nil
		}, nil
	}
	// banded: find the statement's band
	var b *band
	bi := -1
	for _, x := range s.bands {
		for j, i := range x.stmts {
			if i == stmt {
				b, bi = x, j
			}
		}
	}
	if b == nil {
		return nil, fmt.Errorf("internal error: statement %s is in no band", st.Name)
	}
	D, n := bandedShape(s.bands)
	P := 2*D + 1
	if b.tl == nil {
		// a statement outside every tiled loop: its loops in the prefix
		return func(iters []int64) ([]int64, [][]int64, error) {
			if err := check(iters); err != nil {
				return nil, nil, err
			}
			v := make([]int64, L)
			prefix(v, iters, len(iters))
			return iters, [][]int64{v}, nil
		}, nil
	}
	canonical, err := compileLins(st, append([]lin{b.cn.tc[bi]}, b.cn.sc[bi]...))
	if err != nil {
		return nil, err
	}
	nb := b.cn.ns
	return func(iters []int64) ([]int64, [][]int64, error) {
		if err := check(iters); err != nil {
			return nil, nil, err
		}
		v := make([]int64, L)
		prefix(v, iters, b.depth)
		x := canonical(iters)
		bv, ok := b.tl.eval(x)
		if !ok {
			return nil, nil, fmt.Errorf("internal error: canonical point %v of %s is in no tile", x, st.Name)
		}
		// the band's [V, T, S0..S_nb-1, t, s0..s_nb-1], its space
		// dimensions aligned to the innermost of the n
		v[P], v[P+1] = bv[0], bv[1]
		for j := 0; j < nb; j++ {
			v[P+2+(n-nb)+j] = bv[2+j]
			v[P+3+n+(n-nb)+j] = bv[3+nb+j]
		}
		v[P+2+n] = bv[2+nb]
		return iters, [][]int64{v}, nil
	}, nil
}
