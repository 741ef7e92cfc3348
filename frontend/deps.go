package frontend

import (
	"fmt"

	"hextile/poly"
)

// Dependence analysis.
//
// The original schedule maps every statement instance to a vector of the
// common length L = 2d+1 whose lexicographic order is the execution order,
// and distinct instances to distinct vectors (the constant entries tell
// statements apart). Working in that schedule space turns "the last write
// before this read" into a parametric lexicographic maximum:
//
//	flow_r = (lexmax_{per read instance} ({ r -> sched(w) : w writes the
//	          element r reads and sched(w) <_lex sched(r) }) ; sched^-1)^-1
//
// computed for each read access r separately (the lexmax is taken over the
// union of the candidate writes of all statements, which live in the one
// unnamed schedule space). Anti (read then write) and output (write then
// write) dependences are memory-based: every ordered pair of instances
// touching the same element.
//
// Stencils read one array at many translated subscripts (a 3-D box of
// radius 4 has 729 reads), and one lexmax per read made large boxes take a
// minute. Reads are therefore grouped (deps_group.go): the reads of one
// statement whose access relations differ only in the constants of their
// subscripts form one relation { S[s, o] -> A[f(s) + o] : o in B } per box
// B of their offsets, the lexmax is taken per (s, o) and o is projected out
// afterwards: the union over o of the per-offset last writers, exactly the
// union of the per-read results. When one statement writes the array and
// its schedule preserves the lexicographic order of its iterators (the 2d+1
// form), the lexmax is taken in that statement's iteration space, which is
// the same order and much smaller than the schedule space.
// computeDepsPerRead is the plain per-read computation the tests compare
// against.

// ComputeDeps computes the flow, anti and output dependences of sc, and the
// distance vectors and cone slopes in the canonical schedule.
//
// The result is a pure function of the scop's model; it is memoised by the
// model's printed form (depsmemo.go), so a scop analysed again (the same file
// compiled under several tilings or targets in one process) costs a lookup.
// Callers must treat the returned Deps as read-only.
func ComputeDeps(sc *Scop) (deps *Deps, err error) {
	return depsMemo.get(sc, func() (*Deps, error) { return computeDeps(sc, true) })
}

func computeDeps(sc *Scop, grouped bool) (deps *Deps, err error) {
	defer func() {
		if r := recover(); r != nil {
			deps, err = nil, fmt.Errorf("%s: error: internal error in dependence analysis: %v", sc.Pos, r)
		}
	}()
	d := &Deps{}
	params := sc.Params
	if len(sc.Stmts) == 0 {
		d.Flow = poly.Map{Params: params}
		d.Anti, d.Output = d.Flow, d.Flow
		d.SlopeNote = "no statements"
		return d, nil
	}
	var raw rawDeps
	if grouped {
		raw = groupedDeps(sc)
	} else {
		raw = perReadDeps(sc)
	}
	d.Flow = simplifyMap(raw.flow)
	d.Anti = simplifyMap(raw.anti)
	d.Output = simplifyMap(raw.output)
	if err := d.computeSlopes(sc); err != nil {
		return nil, err
	}
	return d, nil
}

// rawDeps are the dependences before simplification.
type rawDeps struct{ flow, anti, output poly.Map }

// depCtx holds what both computations share.
type depCtx struct {
	params    []string
	sched     poly.Map // union of the statements' schedules
	precedes  poly.Map // { x -> y : sched(x) <_lex sched(y) }
	writes    poly.Map
	writesInv poly.Map
}

func newDepCtx(sc *Scop) *depCtx {
	params := sc.Params
	c := &depCtx{params: params}
	c.sched = poly.Map{Params: params}
	c.writes = poly.Map{Params: params}
	for _, st := range sc.Stmts {
		c.sched = c.sched.Union(st.Schedule)
		for _, a := range st.Writes {
			c.writes = c.writes.Union(a.Rel)
		}
	}
	L := sc.Stmts[0].Schedule.Basics[0].Out.Arity()
	sp := poly.Tuple{Dims: unnamed(L)}
	c.precedes = c.sched.ApplyRange(poly.LexLT(params, sp, sp)).ApplyRange(c.sched.Reverse())
	c.writesInv = c.writes.Reverse()
	return c
}

// perReadDeps is the plain computation: one lexmax in schedule space per
// read access.
func perReadDeps(sc *Scop) rawDeps {
	c := newDepCtx(sc)
	params := c.params
	reads := poly.Map{Params: params}
	flow := poly.Map{Params: params}
	precRev := c.precedes.Reverse()
	for _, st := range sc.Stmts {
		for _, r := range st.Reads {
			reads = reads.Union(r.Rel)
			same := r.Rel.ApplyRange(c.writesInv) // read instance -> writers of the element
			before := same.Intersect(precRev)
			if before.IsEmpty() {
				continue
			}
			last := before.ApplyRange(c.sched).Lexmax()
			src := last.ApplyRange(c.sched.Reverse())
			flow = flow.Union(src.Reverse())
		}
	}
	return rawDeps{
		flow:   flow,
		anti:   reads.ApplyRange(c.writesInv).Intersect(c.precedes),
		output: c.writes.ApplyRange(c.writesInv).Intersect(c.precedes),
	}
}

// All returns flow ∪ anti ∪ output.
func (d *Deps) All() poly.Map {
	return d.Flow.Union(d.Anti).Union(d.Output)
}

// String prints the dependences, distances and slopes.
func (d *Deps) String() string {
	s := fmt.Sprintf("flow:      %s\nanti:      %s\noutput:    %s\n", d.Flow, d.Anti, d.Output)
	if len(d.Canonical.Basics) > 0 {
		s += fmt.Sprintf("canonical: %s\ndistances: %s\n", d.Canonical, d.Distances)
	}
	if d.SlopeNote != "" {
		s += "slopes:    " + d.SlopeNote + "\n"
	}
	for k, sl := range d.Slopes {
		s += fmt.Sprintf("slopes s%d: delta0 = %s, delta1 = %s\n", k, ratText(sl.Delta0), ratText(sl.Delta1))
	}
	return s
}
