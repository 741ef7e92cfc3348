package frontend

import (
	"testing"
	"time"
	"hextile/poly"
)

func TestPhaseTimes(t *testing.T) {
	for _, c := range []struct{ d, r int; box bool }{{2, 1, false}, {3, 1, true}, {3, 2, true}} {
		prog, err := Parse("x.c", []byte(stencilSrc(c.d, c.r, c.box)), Options{})
		if err != nil { t.Fatal(err) }
		sc := prog.Scops[0]
		params := sc.Params
		t0 := time.Now()
		sched := poly.Map{Params: params}
		var reads, writes poly.Map
		reads.Params, writes.Params = params, params
		for _, st := range sc.Stmts {
			sched = sched.Union(st.Schedule)
			for _, a := range st.Reads { reads = reads.Union(a.Rel) }
			for _, a := range st.Writes { writes = writes.Union(a.Rel) }
		}
		L := sc.Stmts[0].Schedule.Basics[0].Out.Arity()
		sp := poly.Tuple{Dims: unnamed(L)}
		precedes := sched.ApplyRange(poly.LexLT(params, sp, sp)).ApplyRange(sched.Reverse())
		writesInv := writes.Reverse()
		t1 := time.Now()
		flow := poly.Map{Params: params}
		var tl time.Duration
		for _, st := range sc.Stmts {
			for _, r := range st.Reads {
				same := r.Rel.ApplyRange(writesInv)
				before := same.Intersect(precedes.Reverse())
				if before.IsEmpty() { continue }
				x := time.Now()
				last := before.ApplyRange(sched).Lexmax()
				tl += time.Since(x)
				src := last.ApplyRange(sched.Reverse())
				flow = flow.Union(src.Reverse())
			}
		}
		t2 := time.Now()
		fl := simplifyMap(flow)
		t3 := time.Now()
		anti := simplifyMap(reads.ApplyRange(writesInv).Intersect(precedes))
		t4 := time.Now()
		out := simplifyMap(writes.ApplyRange(writesInv).Intersect(precedes))
		t5 := time.Now()
		d := &Deps{Flow: fl, Anti: anti, Output: out}
		d.computeSlopes(sc)
		t6 := time.Now()
		t.Logf("d=%d r=%d box=%v: setup %v flow %v (lexmax %v, %d pieces) simplify %v (%d) anti %v (%d) out %v slopes %v", c.d, c.r, c.box, t1.Sub(t0), t2.Sub(t1), tl, len(flow.Basics), t3.Sub(t2), len(fl.Basics), t4.Sub(t3), len(anti.Basics), t5.Sub(t4), t6.Sub(t5))
		t.Logf("flow %s\nanti %s\ndist %s", fl, anti, d.Distances)
	}
}
