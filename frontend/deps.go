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

// ComputeDeps computes the flow, anti and output dependences of sc, and the
// distance vectors and cone slopes in the canonical schedule.
func ComputeDeps(sc *Scop) (deps *Deps, err error) {
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
	sched := poly.Map{Params: params}
	var reads, writes poly.Map
	reads.Params, writes.Params = params, params
	for _, st := range sc.Stmts {
		sched = sched.Union(st.Schedule)
		for _, a := range st.Reads {
			reads = reads.Union(a.Rel)
		}
		for _, a := range st.Writes {
			writes = writes.Union(a.Rel)
		}
	}
	L := sc.Stmts[0].Schedule.Basics[0].Out.Arity()
	sp := poly.Tuple{Dims: unnamed(L)}
	// precedes: { x -> y : sched(x) <_lex sched(y) }
	precedes := sched.ApplyRange(poly.LexLT(params, sp, sp)).ApplyRange(sched.Reverse())
	writesInv := writes.Reverse()

	flow := poly.Map{Params: params}
	for _, st := range sc.Stmts {
		for _, r := range st.Reads {
			same := r.Rel.ApplyRange(writesInv) // read instance -> writers of the element
			before := same.Intersect(precedes.Reverse())
			if before.IsEmpty() {
				continue
			}
			last := before.ApplyRange(sched).Lexmax()
			src := last.ApplyRange(sched.Reverse())
			flow = flow.Union(src.Reverse())
		}
	}
	d.Flow = simplifyMap(flow)
	d.Anti = simplifyMap(reads.ApplyRange(writesInv).Intersect(precedes))
	d.Output = simplifyMap(writes.ApplyRange(writesInv).Intersect(precedes))
	if err := d.computeSlopes(sc); err != nil {
		return nil, err
	}
	return d, nil
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
