package schedule

import (
	"fmt"

	"hextile/frontend"
)

// Layout says how to read a schedule vector: its first Tile dimensions name
// the tile and its first Phase dimensions (a prefix of those) the phase, the
// set of tiles that run in parallel in one launch: (T, p) for hybrid and
// hexagonal, the wavefront V for classical, the time step t for none, the
// band T for overlapped and sweep. A tile runs its instances in schedule
// order with a barrier between consecutive values of the dimensions
// Tile..PointTime (t; z for sweep); PointTime is -1 when a tile has no
// barrier (none: one time step per tile). The schedules in the original
// loop structure (banded classical, untiled none) read their dimensions
// generically: see nestedLayout.
type Layout struct {
	Tile, Phase, PointTime int
}

// Layout returns the schedule's layout.
func (s *Schedule) Layout() (Layout, error) {
	switch {
	case s.Untiled || s.parts != nil:
		return s.nestedLayout(), nil
	case s.gh != nil:
		return Layout{Tile: s.gh.nTile(), Phase: 1, PointTime: s.gh.nTile()}, nil
	case s.tl == nil:
		return Layout{}, fmt.Errorf("schedule was not built by Compute")
	}
	l := Layout{Tile: s.tl.nTile(), Phase: 1, PointTime: s.tl.nTile()}
	switch s.Kind {
	case Hybrid, Hexagonal:
		l.Phase = 2
	case None:
		l.PointTime = -1
	}
	return l, nil
}

// Vectors returns the schedule vectors of instance iters of statement stmt
// (an index into the scop's statements), evaluated pointwise with the
// schedule's floor formulas: the owner's vector first, then, for the
// ghost-zone kinds, those of the other tiles that compute it. The caller
// must pass an instance of the statement's domain.
func (s *Schedule) Vectors(stmt int, iters []int64) ([][]int64, error) {
	if _, err := s.Layout(); err != nil {
		return nil, err
	}
	if s.Untiled || s.parts != nil {
		place, err := s.nestedPlacer(stmt)
		if err != nil {
			return nil, err
		}
		_, vs, err := place(iters)
		return vs, err
	}
	cn := s.cn
	if cn == nil || stmt < 0 || stmt >= len(cn.tc) {
		return nil, fmt.Errorf("no statement %d", stmt)
	}
	st := cn.scop.Stmts[stmt]
	if len(iters) != len(st.Iters) {
		return nil, fmt.Errorf("statement %s has %d iterators, got %d values", st.Name, len(st.Iters), len(iters))
	}
	env := make(map[string]int64, len(iters))
	for i, n := range st.Iters {
		env[n] = iters[i]
	}
	x := make([]int64, 1+len(cn.sc[stmt]))
	x[0] = cn.tc[stmt].eval(env)
	for j, e := range cn.sc[stmt] {
		x[1+j] = e.eval(env)
	}
	if s.gh != nil {
		return s.gh.computing(x), nil
	}
	v, ok := s.tl.eval(x)
	if !ok {
		return nil, fmt.Errorf("internal error: canonical point %v of %s is in no tile", x, st.Name)
	}
	return [][]int64{v}, nil
}

// Placer returns Vectors for one statement with the canonical coordinates
// compiled to coefficient rows over the iterators (for counting millions
// of instances); the function also returns the instance's canonical point
// [k*t + i, s0..sn] (for the schedules in the original loop structure,
// which have no common canonical space: the iterators).
func (s *Schedule) Placer(stmt int) (func(iters []int64) ([]int64, [][]int64, error), error) {
	if _, err := s.Layout(); err != nil {
		return nil, err
	}
	if s.Untiled || s.parts != nil {
		return s.nestedPlacer(stmt)
	}
	cn := s.cn
	if cn == nil || stmt < 0 || stmt >= len(cn.tc) {
		return nil, fmt.Errorf("no statement %d", stmt)
	}
	st := cn.scop.Stmts[stmt]
	canonical, err := compileLins(st, append([]lin{cn.tc[stmt]}, cn.sc[stmt]...))
	if err != nil {
		return nil, err
	}
	return func(iters []int64) ([]int64, [][]int64, error) {
		if len(iters) != len(st.Iters) {
			return nil, nil, fmt.Errorf("statement %s has %d iterators, got %d values", st.Name, len(st.Iters), len(iters))
		}
		x := canonical(iters)
		if s.gh != nil {
			return x, s.gh.computing(x), nil
		}
		v, ok := s.tl.eval(x)
		if !ok {
			return nil, nil, fmt.Errorf("internal error: canonical point %v of %s is in no tile", x, st.Name)
		}
		return x, [][]int64{v}, nil
	}, nil
}

// compileLins compiles affine expressions over the iterators of st to one
// function of the iterator values (for placing millions of instances).
func compileLins(st *frontend.Stmt, es []lin) (func(iters []int64) []int64, error) {
	pos := map[string]int{}
	for i, n := range st.Iters {
		pos[n] = i
	}
	type row struct {
		c    int64
		coef []int64
	}
	rows := make([]row, len(es))
	for j, e := range es {
		r := row{c: e.c, coef: make([]int64, len(st.Iters))}
		for v, k := range e.terms {
			i, ok := pos[v]
			if !ok {
				return nil, fmt.Errorf("internal error: canonical coordinate of %s uses %s", st.Name, v)
			}
			r.coef[i] = k
		}
		rows[j] = r
	}
	return func(iters []int64) []int64 {
		x := make([]int64, len(rows))
		for j, r := range rows {
			v := r.c
			for i, k := range r.coef {
				v += k * iters[i]
			}
			x[j] = v
		}
		return x
	}, nil
}
