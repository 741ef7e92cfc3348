package poly

// Property tests of the set layer: random sets and maps (1 to 4 dimensions,
// 0 to 2 parameters in random order per operand, coefficients in [-3, 3],
// floor/mod existentials and free existentials, unions over several tuple
// spaces) are put through every operation, and each answer is compared with
// brute-force enumeration inside the objects' bounding boxes
// (bruteforce_test.go) for several fixed parameter values. Boolean answers,
// which hold for all parameter values, are compared with the brute force
// over every parameter value of the parameter box that bounds all objects.

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"hextile/internal/testlong"
)

// propTrace, set by POLY_PROP_TRACE=1, prints every case's seed and time to
// stderr (to find a slow case).
var propTrace = os.Getenv("POLY_PROP_TRACE") != ""

// propOnly, set by POLY_PROP_SEED=n, runs only the case of seed n.
var propOnly, _ = strconv.ParseInt(os.Getenv("POLY_PROP_SEED"), 10, 64)

func traceSeed(seed int64) func() {
	if !propTrace {
		return func() {}
	}
	fmt.Fprintf(os.Stderr, "seed %d ...", seed)
	t0 := time.Now()
	return func() { fmt.Fprintf(os.Stderr, " %v\n", time.Since(t0)) }
}

// propTrials returns n with HEXTILE_LONG=1, else n/8 (at least 1); with
// POLY_PROP_SEED every seed is in range.
func propTrials(n int) int {
	if propOnly != 0 {
		return 1 << 20
	}
	if !testlong.Enabled() {
		return max(1, n/8)
	}
	return n
}

// bfCase carries what a failure message needs.
type bfCase struct {
	t    *testing.T
	seed int64
	objs []*bfObj
}

func (pc *bfCase) fail(op string, pv map[string]int64, format string, args ...any) {
	pc.t.Helper()
	msg := ""
	for i, o := range pc.objs {
		msg += "operand " + string(rune('A'+i)) + ": " + o.describe()
	}
	pc.t.Errorf("seed %d, %s at [%s]: "+format+"\n%s", append([]any{pc.seed, op, bfFmtParams(pv)}, append(args, msg)...)...)
}

func (pc *bfCase) checkSet(op string, got Set, pv map[string]int64, want bfPts) bool {
	pc.t.Helper()
	g, err := bfEngineSet(got, pv)
	if err != nil {
		pc.fail(op, pv, "enumerate: %v", err)
		return false
	}
	if !ptEqual(g, want) {
		pc.fail(op, pv, "got %v\nwant %v\nmissing %v\nextra %v", g, want, ptSubtract(want, g), ptSubtract(g, want))
		return false
	}
	return true
}

func (pc *bfCase) checkMap(op string, got Map, pv map[string]int64, want bfPts) bool {
	pc.t.Helper()
	g, err := bfEngineMap(got, pv)
	if err != nil {
		pc.fail(op, pv, "enumerate: %v", err)
		return false
	}
	if !ptEqual(g, want) {
		pc.fail(op, pv, "got %v\nwant %v\nmissing %v\nextra %v", g, want, ptSubtract(want, g), ptSubtract(g, want))
		return false
	}
	return true
}

func (pc *bfCase) checkBool(op string, got, want bool) {
	pc.t.Helper()
	if got != want {
		pc.fail(op, nil, "got %v, want %v", got, want)
	}
}

// bfSlowSeeds lists cases skipped because an algorithm takes too long on
// them. The Conj-level cases (1014, 1341, 9167, 13015, 13193: IsEmpty and
// Complement blow-ups in the Omega test) are fixed (intfeas.go); their
// isolated conjunctions are in TestConjLayerRepros. 13210 passes but takes
// ~20 s, spent in the set layer's lexopt (ratNonEmpty), not in one Conj.
var bfSlowSeeds = map[int64]string{
	13210: "Map.Lexmin takes ~20 s, most of it in lexopt's ratNonEmpty over many pieces (outside the default seed range)",
}

// someAssignments picks up to n parameter assignments of names.
func bfSomeAssignments(r *rand.Rand, names []string, n int) []map[string]int64 {
	all := bfAssignments(names)
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if len(all) > n {
		all = all[:n]
	}
	return all
}

var bfParamNames = []string{"N", "M"}

// bfBoundSet bounds every parameter of names to the parameter box.
func bfBoundSet(s Set, names []string) Set {
	for _, n := range names {
		s = s.BoundParam(n, bfParamLo, bfParamHi)
	}
	return s
}

func bfBoundMap(m Map, names []string) Map {
	for _, n := range names {
		m = m.BoundParam(n, bfParamLo, bfParamHi)
	}
	return m
}

func bfRandSetSpaces(r *rand.Rand) []bfSpace {
	sp := []bfSpace{bfSetSpace("S", 1+r.Intn(4))}
	if r.Intn(4) == 0 {
		sp = append(sp, bfSetSpace("T", 1+r.Intn(2)))
	}
	return sp
}

// TestPropSetBinary checks union, intersection, subtraction, the subset and
// equality tests and gist of two random sets.
func TestPropSetBinary(t *testing.T) {
	for it := 0; it < propTrials(200); it++ {
		seed := int64(1000 + it)
		if propOnly != 0 && seed != propOnly {
			continue
		}
		if why, ok := bfSlowSeeds[seed]; ok && propOnly == 0 {
			t.Logf("seed %d skipped: %s", seed, why)
			continue
		}
		r := rand.New(rand.NewSource(seed))
		done := traceSeed(seed)
		names := bfParamNames[:r.Intn(3)]
		spaces := bfRandSetSpaces(r)
		a := bfGenObj(r, bfRandParams(r, names), spaces, 3)
		b := bfGenObj(r, bfRandParams(r, names), spaces, 3)
		pc := &bfCase{t: t, seed: seed, objs: []*bfObj{a, b}}
		A, B := a.set(), b.set()
		union, inter, sub, gist := A.Union(B), A.Intersect(B), A.Subtract(B), A.Gist(B).Intersect(B)
		subAB, subBA := true, true
		for _, pv := range bfAssignments(names) {
			pa, pb := a.points(pv), b.points(pv)
			subAB = subAB && len(ptSubtract(pa, pb)) == 0
			subBA = subBA && len(ptSubtract(pb, pa)) == 0
		}
		// An operand does not bound the parameters it lacks: bound all of
		// them so that the brute force over the parameter box is exact.
		Ab, Bb := bfBoundSet(A, names), bfBoundSet(B, names)
		pc.checkBool("IsSubset", Ab.IsSubset(Bb), subAB)
		pc.checkBool("IsEqual", Ab.IsEqual(Bb), subAB && subBA)
		for _, pv := range bfSomeAssignments(r, names, 3) {
			pa, pb := a.points(pv), b.points(pv)
			pc.checkSet("Union", union, pv, ptUnion(pa, pb))
			pc.checkSet("Intersect", inter, pv, ptIntersect(pa, pb))
			pc.checkSet("Subtract", sub, pv, ptSubtract(pa, pb))
			pc.checkSet("Gist", gist, pv, ptIntersect(pa, pb))
		}
		done()
		if t.Failed() {
			return
		}
	}
}

// TestPropSetUnary checks emptiness, enumeration, complement, projection,
// parameter operations, lexmin/lexmax, coalesce and sample.
func TestPropSetUnary(t *testing.T) {
	for it := 0; it < propTrials(300); it++ {
		seed := int64(5000 + it)
		if propOnly != 0 && seed != propOnly {
			continue
		}
		if why, ok := bfSlowSeeds[seed]; ok && propOnly == 0 {
			t.Logf("seed %d skipped: %s", seed, why)
			continue
		}
		r := rand.New(rand.NewSource(seed))
		done := traceSeed(seed)
		names := bfParamNames[:r.Intn(3)]
		spaces := bfRandSetSpaces(r)
		a := bfGenObj(r, bfRandParams(r, names), spaces, 3)
		ctx := bfGenObj(r, bfRandParams(r, names), []bfSpace{bfSetSpace("", 0)}, 2)
		pc := &bfCase{t: t, seed: seed, objs: []*bfObj{a, ctx}}
		A, P := a.set(), ctx.set()
		if !P.IsParamSet() {
			t.Fatalf("a set of zero-tuple pieces is not a parameter set")
		}
		var boxes Set
		seen := map[string]bool{}
		for _, p := range a.pieces {
			if !seen[p.sp.key()] {
				seen[p.sp.key()] = true
				boxes = boxes.Union(bfBoxSet(p.sp))
			}
		}
		first, n := r.Intn(3), 1+r.Intn(2)
		comp := A.Complement().Intersect(boxes)
		proj := A.ProjectOut(first, n)
		pset := A.ParamSet()
		ip, ipi := A.IntersectParams(P), A.Intersect(P)
		lmin, lmax := A.Lexmin(), A.Lexmax()
		coal := A.Coalesce()
		gp := A.Gist(P).IntersectParams(P)
		sample := A.Sample()
		empty := true
		samplePts := 0
		for _, pv := range bfAssignments(a.params) {
			pa := a.points(pv)
			empty = empty && len(pa) == 0
			want := bfPts{}
			if len(pa) > 0 {
				want.add(bfPt{sp: "/0", x: []int64{}})
			}
			pc.checkSet("ParamSet", pset, pv, want)
			s, err := bfEngineSet(sample, pv)
			if err != nil {
				pc.fail("Sample", pv, "%v", err)
			}
			samplePts += len(s)
			if len(ptSubtract(s, pa)) > 0 {
				pc.fail("Sample", pv, "sample %v not in the set %v", s, pa)
			}
		}
		pc.checkBool("IsEmpty", A.IsEmpty(), empty)
		if !empty && samplePts != 1 || empty && samplePts != 0 {
			pc.fail("Sample", nil, "sample has %d points over all parameter values (empty=%v)", samplePts, empty)
		}
		for _, pv := range bfSomeAssignments(r, names, 3) {
			pa, pp := a.points(pv), ctx.points(pv)
			pc.checkSet("Enumerate", A, pv, pa)
			bx := bfPts{}
			for k := range seen {
				for _, p := range a.pieces {
					if p.sp.key() == k {
						bx = ptUnion(bx, bfBoxOf(p.sp))
						break
					}
				}
			}
			pc.checkSet("Complement", comp, pv, ptSubtract(bx, pa))
			pc.checkSet("ProjectOut", proj, pv, ptProject(pa, first, n))
			wantIP := bfPts{}
			if len(pp) > 0 {
				wantIP = pa
			}
			pc.checkSet("IntersectParams", ip, pv, wantIP)
			pc.checkSet("Intersect(param set)", ipi, pv, wantIP)
			pc.checkSet("Gist(param set)", gp, pv, wantIP)
			pc.checkSet("Lexmin", lmin, pv, ptLexopt(pa, false, false))
			pc.checkSet("Lexmax", lmax, pv, ptLexopt(pa, false, true))
			pc.checkSet("Coalesce", coal, pv, pa)
			for _, name := range names {
				v := pv[name]
				pc.checkSet("FixParam", A.FixParam(name, v), pv, pa)
				other := map[string]int64{}
				for k, x := range pv {
					other[k] = x
				}
				other[name] = v + 1
				pc.checkSet("FixParam(other value)", A.FixParam(name, v), other, bfPts{})
			}
		}
		done()
		if t.Failed() {
			return
		}
	}
}

func bfRandMapSpaces(r *rand.Rand) (bfSpace, string) {
	k := 1 + r.Intn(2)
	l := 1 + r.Intn(2)
	out := "B"
	if r.Intn(2) == 0 {
		out, l = "A", k
	}
	return bfMapSpace("A", k, out, l), out
}

// TestPropMapBinary checks the operations of two maps with the same spaces
// and composition with a third.
func TestPropMapBinary(t *testing.T) {
	for it := 0; it < propTrials(60); it++ {
		seed := int64(9000 + it)
		if propOnly != 0 && seed != propOnly {
			continue
		}
		if why, ok := bfSlowSeeds[seed]; ok && propOnly == 0 {
			t.Logf("seed %d skipped: %s", seed, why)
			continue
		}
		r := rand.New(rand.NewSource(seed))
		done := traceSeed(seed)
		names := bfParamNames[:r.Intn(3)]
		sp, _ := bfRandMapSpaces(r)
		sp2 := bfMapSpace("A", sp.in.Arity(), "C", 1+r.Intn(2))
		a := bfGenObj(r, bfRandParams(r, names), []bfSpace{sp, sp2}[:1+r.Intn(2)], 3)
		b := bfGenObj(r, bfRandParams(r, names), []bfSpace{sp}, 2)
		l := sp.out.Arity()
		c := bfGenObj(r, bfRandParams(r, names), []bfSpace{bfMapSpace(sp.out.Name, l, "D", 1+r.Intn(4-l))}, 2)
		d := bfGenObj(r, bfRandParams(r, names), []bfSpace{bfMapSpace("A", sp.in.Arity(), "E", 1+r.Intn(4-sp.in.Arity()))}, 2)
		pc := &bfCase{t: t, seed: seed, objs: []*bfObj{a, b, c, d}}
		A, B, C, D := a.mapv(), b.mapv(), c.mapv(), d.mapv()
		union, inter, sub := A.Union(B), A.Intersect(B), A.Subtract(B)
		gist := A.Gist(B).Intersect(B)
		ar, ad := A.ApplyRange(C), A.ApplyDomain(D)
		subAB, subBA := true, true
		empty := true
		for _, pv := range bfAssignments(names) {
			pa, pb := a.points(pv), b.points(pv)
			subAB = subAB && len(ptSubtract(pa, pb)) == 0
			subBA = subBA && len(ptSubtract(pb, pa)) == 0
			empty = empty && len(pa) == 0
		}
		pc.checkBool("Map.IsSubset", bfBoundMap(A, names).IsSubset(bfBoundMap(B, names)), subAB)
		pc.checkBool("Map.IsEmpty", A.IsEmpty(), empty)
		pc.checkBool("Map.IsEqual", bfBoundMap(A, names).IsEqual(bfBoundMap(B, names)), subAB && subBA)
		for _, pv := range bfSomeAssignments(r, names, 3) {
			pa, pb, pcc, pd := a.points(pv), b.points(pv), c.points(pv), d.points(pv)
			pc.checkMap("Map.Union", union, pv, ptUnion(pa, pb))
			pc.checkMap("Map.Intersect", inter, pv, ptIntersect(pa, pb))
			pc.checkMap("Map.Subtract", sub, pv, ptSubtract(pa, pb))
			pc.checkMap("Map.Gist", gist, pv, ptIntersect(pa, pb))
			pc.checkMap("ApplyRange", ar, pv, ptApplyRange(pa, pcc))
			// ApplyDomain(m, n) = { y -> z : x -> z in m, x -> y in n }
			pc.checkMap("ApplyDomain", ad, pv, ptApplyRange(ptReverse(pd), pa))
		}
		done()
		if t.Failed() {
			return
		}
	}
}

// TestPropMapUnary checks the unary map operations and the maps built from
// sets.
func TestPropMapUnary(t *testing.T) {
	for it := 0; it < propTrials(100); it++ {
		seed := int64(13000 + it)
		if propOnly != 0 && seed != propOnly {
			continue
		}
		if why, ok := bfSlowSeeds[seed]; ok && propOnly == 0 {
			t.Logf("seed %d skipped: %s", seed, why)
			continue
		}
		r := rand.New(rand.NewSource(seed))
		done := traceSeed(seed)
		names := bfParamNames[:r.Intn(3)]
		sp, _ := bfRandMapSpaces(r)
		a := bfGenObj(r, bfRandParams(r, names), []bfSpace{sp}, 3)
		k, l := sp.in.Arity(), sp.out.Arity()
		s := bfGenObj(r, bfRandParams(r, names), []bfSpace{bfSetSpace("A", k)}, 2)
		s2 := bfGenObj(r, bfRandParams(r, names), []bfSpace{bfSetSpace(sp.out.Name, l)}, 2)
		pc := &bfCase{t: t, seed: seed, objs: []*bfObj{a, s, s2}}
		A, S, S2 := a.mapv(), s.set(), s2.set()
		rev, dom, ran := A.Reverse(), A.Domain(), A.Range()
		idom, iran := A.IntersectDomain(S), A.IntersectRange(S2)
		lmin, lmax := A.Lexmin(), A.Lexmax()
		deltas := A.Deltas()
		coal := A.Coalesce()
		img := S.Apply(A)
		id := Identity(S)
		prod := FromDomainAndRange(S, S2)
		lt := LexLT(nil, sp.in, sp.in).Intersect(bfBoxMap(bfMapSpace("A", k, "A", k)))
		sample := A.Sample()
		samplePts := 0
		empty := true
		for _, pv := range bfAssignments(a.params) {
			pa := a.points(pv)
			empty = empty && len(pa) == 0
			g, err := bfEngineMap(sample, pv)
			if err != nil {
				pc.fail("Map.Sample", pv, "%v", err)
			}
			samplePts += len(g)
			if len(ptSubtract(g, pa)) > 0 {
				pc.fail("Map.Sample", pv, "sample %v not in the map", g)
			}
		}
		if !empty && samplePts != 1 || empty && samplePts != 0 {
			pc.fail("Map.Sample", nil, "sample has %d points over all parameter values (empty=%v)", samplePts, empty)
		}
		for _, pv := range bfSomeAssignments(r, names, 3) {
			pa, ps, ps2 := a.points(pv), s.points(pv), s2.points(pv)
			pc.checkMap("Map.Enumerate", A, pv, pa)
			pc.checkMap("Reverse", rev, pv, ptReverse(pa))
			pc.checkSet("Domain", dom, pv, ptDomain(pa))
			pc.checkSet("Range", ran, pv, ptRange(pa))
			wantID, wantIR := bfPts{}, bfPts{}
			for _, q := range pa {
				in, o, kk := bfSplitSp(q.sp)
				if ps.has(bfPt{sp: in, x: q.x[:kk]}) {
					wantID.add(q)
				}
				if ps2.has(bfPt{sp: o, x: q.x[kk:]}) {
					wantIR.add(q)
				}
			}
			pc.checkMap("IntersectDomain", idom, pv, wantID)
			pc.checkMap("IntersectRange", iran, pv, wantIR)
			pc.checkMap("Map.Lexmin", lmin, pv, ptLexopt(pa, true, false))
			pc.checkMap("Map.Lexmax", lmax, pv, ptLexopt(pa, true, true))
			pc.checkSet("Deltas", deltas, pv, ptDeltas(pa))
			pc.checkMap("Map.Coalesce", coal, pv, pa)
			pc.checkSet("Apply", img, pv, ptApply(ps, pa))
			wantId, wantProd := bfPts{}, bfPts{}
			for _, p := range ps {
				wantId.add(bfPt{sp: p.sp + "->" + p.sp, x: append(append([]int64(nil), p.x...), p.x...)})
				for _, q := range ps2 {
					wantProd.add(bfPt{sp: p.sp + "->" + q.sp, x: append(append([]int64(nil), p.x...), q.x...)})
				}
			}
			pc.checkMap("Identity", id, pv, wantId)
			pc.checkMap("FromDomainAndRange", prod, pv, wantProd)
			wantLT := bfPts{}
			bfBoxPoints(bfMapSpace("A", k, "A", k), func(x []int64) {
				if bfLexLess(x[:k], x[k:]) {
					wantLT.add(bfPt{sp: "A/" + string(rune('0'+k)) + "->A/" + string(rune('0'+k)), x: append([]int64(nil), x...)})
				}
			})
			pc.checkMap("LexLT", lt, pv, wantLT)
			for _, name := range names {
				pc.checkMap("Map.FixParam", A.FixParam(name, pv[name]), pv, pa)
			}
		}
		done()
		if t.Failed() {
			return
		}
	}
}
