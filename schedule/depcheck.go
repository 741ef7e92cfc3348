package schedule

import (
	"hextile/frontend"
	"hextile/poly"
)

// depPairs decides, without composing maps, whether some dependence pair
// x -> x' of D has schedule vectors y = sched(x), z = sched(x') with
// rel(y, z), where rel is a disjunction of conjunctions of constraints over
// y and z (built by the caller). For every basic map of D, every basic set of
// the context and every pair of schedule pieces (P of the source statement,
// Q of the target), it assembles one conjunction
//
//	D(x, x') and ctx and P(x, y) and Q(x', z) and rel_i(y, z)
//
// over [params, x, x', y, z, D's existentials] and asks the engine whether
// it has an integer point. Composition D' = sched^-1 . D . sched would
// project x and x' first, which the engine does slowly when the slopes
// differ; the question asked here is the same. It returns a description of
// the first witness, or "" when there is none.
func depPairs(scop *frontend.Scop, sched *Schedule, D poly.Map, rel func(y, z []lin) []cons) string {
	tl, cn := sched.tl, sched.cn
	L := tl.length()
	ys := make([]string, L)
	zs := make([]string, L)
	var yl, zl []lin
	for j := 0; j < L; j++ {
		ys[j] = "\x00y" + itoa(j)
		zs[j] = "\x00z" + itoa(j)
		yl = append(yl, vr(ys[j]))
		zl = append(zl, vr(zs[j]))
	}
	rels := rel(yl, zl)
	for _, b := range D.Basics {
		si, ti := cn.index(b.In.Name), cn.index(b.Out.Name)
		if si < 0 || ti < 0 {
			return "dependence between unknown statements " + b.In.Name + " and " + b.Out.Name
		}
		src, dst := scop.Stmts[si], scop.Stmts[ti]
		np := len(D.Params)
		din, dout := b.In.Arity(), b.Out.Arity()
		col := map[string]int{}
		for i, p := range D.Params {
			col[p] = 1 + i
		}
		xs := make([]string, din)
		for i := range xs {
			xs[i] = "\x00x" + itoa(i)
			col[xs[i]] = 1 + np + i
		}
		xps := make([]string, dout)
		for i := range xps {
			xps[i] = "\x00w" + itoa(i)
			col[xps[i]] = 1 + np + din + i
		}
		base := 1 + np + din + dout
		for j := 0; j < L; j++ {
			col[ys[j]] = base + j
			col[zs[j]] = base + L + j
		}
		nv := np + din + dout + 2*L
		ne := b.C.NExist
		stc, ssc := canonExprsNamed(xs, src.Down, int64(cn.k), cn.slot[si], cn.ns, len(src.Iters), canonMode{useDown: cn.useDown, depth: cn.depth})
		dtc, dsc := canonExprsNamed(xps, dst.Down, int64(cn.k), cn.slot[ti], cn.ns, len(dst.Iters), canonMode{useDown: cn.useDown, depth: cn.depth})
		Ps := tl.pieces(stc, ssc, ys)
		Qs := tl.pieces(dtc, dsc, zs)
		ctxs := scop.Context.Basics
		if len(ctxs) == 0 {
			ctxs = []poly.BasicSet{{C: poly.NewConj(len(scop.Context.Params), 0)}}
		}
		for _, cb := range ctxs {
			for _, P := range Ps {
				for _, Q := range Qs {
					for _, r := range rels {
						c := poly.NewConj(nv, ne+cb.C.NExist)
						w := c.Width()
						// D's rows
						conv := func(row []poly.Int) []poly.Int {
							out := zeros(w)
							out[0] = row[0]
							for k := 1; k <= np+din+dout; k++ {
								out[k] = row[k]
							}
							for k := 0; k < ne; k++ {
								out[1+nv+k] = row[1+np+din+dout+k]
							}
							return out
						}
						for _, e := range b.C.Eq {
							c.AddEq(conv(e))
						}
						for _, e := range b.C.Ineq {
							c.AddIneq(conv(e))
						}
						// context rows, parameters aligned by name
						cconv := func(row []poly.Int) ([]poly.Int, bool) {
							out := zeros(w)
							out[0] = row[0]
							for k, p := range scop.Context.Params {
								ci, ok := col[p]
								if !ok {
									if !row[1+k].IsZero() {
										return nil, false
									}
									continue
								}
								out[ci] = row[1+k]
							}
							for k := 0; k < cb.C.NExist; k++ {
								out[1+nv+ne+k] = row[1+cb.C.NVar+k]
							}
							return out, true
						}
						for _, e := range cb.C.Eq {
							if r, ok := cconv(e); ok {
								c.AddEq(r)
							}
						}
						for _, e := range cb.C.Ineq {
							if r, ok := cconv(e); ok {
								c.AddIneq(r)
							}
						}
						for _, cs := range []cons{P, Q, r} {
							for _, k := range cs {
								row := zeros(w)
								row[0] = poly.I(k.e.c)
								for v, a := range k.e.terms {
									row[col[v]] = row[col[v]].Add(poly.I(a))
								}
								if k.eq {
									c.AddEq(row)
								} else {
									c.AddIneq(row)
								}
							}
						}
						if !c.IsEmpty() {
							return b.In.Name + " -> " + b.Out.Name
						}
					}
				}
			}
		}
	}
	return ""
}

func zeros(n int) []poly.Int {
	r := make([]poly.Int, n)
	for i := range r {
		r[i] = poly.I(0)
	}
	return r
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

// canonExprsNamed is canonExprs over the iterator names iters (niters of
// them, time first).
func canonExprsNamed(iters []string, down []bool, k, slot int64, ns, niters int, mode canonMode) (lin, []lin) {
	s := &frontend.Stmt{Iters: iters[:niters], Down: down}
	return canonExprs(s, k, slot, ns, mode)
}

// lexGE is the disjunction y >=lex z: y = z, or y and z agree before j and
// y_j > z_j.
func lexGE(y, z []lin) []cons {
	var res []cons
	for j := 0; j <= len(y); j++ {
		var cs cons
		for q := 0; q < j && q < len(y); q++ {
			cs.eq(y[q], z[q])
		}
		if j < len(y) {
			cs.ge0(y[j].sub(z[j]).addc(-1))
		}
		res = append(res, cs)
	}
	return res
}

// crossAt is the disjunction "y and z agree before j and differ at j".
func crossAt(j int) func(y, z []lin) []cons {
	return func(y, z []lin) []cons {
		var res []cons
		for _, sg := range []int64{1, -1} {
			var cs cons
			for q := 0; q < j; q++ {
				cs.eq(y[q], z[q])
			}
			cs.ge0(y[j].sub(z[j]).mul(sg).addc(-1))
			res = append(res, cs)
		}
		return res
	}
}
