package schedule

// pieces writes the tiler as affine constraints between the canonical
// coordinates (tc, sc: affine expressions in a statement's iterators) and the
// output variables out (len(out) == tl.length()). The result is a union of
// conjunctions (one per hexagonal phase) whose union is the graph of eval:
// every floor q = floor(e/m) of the formulas becomes the pair of bounds
// 0 <= e - m*q <= m-1 on the output that holds it, and the local coordinates
// a and b are affine in the outputs, so no existential variables are needed.
func (tl *tiler) pieces(tc lin, sc []lin, out []string) []cons {
	o := func(i int) lin { return vr(out[i]) }
	nt := tl.nTile()
	var res []cons
	point := func(cs *cons) {
		j := nt
		if tl.kind != None {
			cs.eq(o(nt), tc)
			j++
		}
		for i := 0; i < tl.ns; i++ {
			cs.eq(o(j+i), sc[i])
		}
	}
	switch tl.kind {
	case Hybrid, Hexagonal:
		x := tl.hex
		n0, q0, n1, q1 := x.d0.n, x.d0.d, x.d1.n, x.d1.d
		h := x.h
		for p := int64(0); p <= 1; p++ {
			var cs cons
			T, S0 := o(0), o(2)
			cs.eq(o(1), cst(p))
			a := tc.sub(T.mul(x.H))
			u := sc[0].addc(tl.off[0]).add(T.mul(x.f1 - x.f0))
			if p == 0 {
				a = a.addc(h + 1)
				u = u.addc(x.w0 + 1 + x.f0)
			}
			b := u.sub(S0.mul(x.W))
			cs.between(0, a, x.H-1)                                                    // (2), (4), and (7), (13)
			cs.between(0, b, x.W-1)                                                    // (3), (5)
			cs.ge0(cst((2*h+1)*n0 - q0*x.f0).sub(a.mul(n0).sub(b.mul(q0))))            // (6)
			cs.ge0(cst((2*h+1)*n1 + q1*(x.f0+x.w0)).sub(a.mul(n1).add(b.mul(q1))))     // (8)
			cs.ge0(a.mul(n1).add(b.mul(q1)).addc(-(n1*h - q1 + 1)))                    // (10)
			cs.ge0(a.mul(n0).sub(b.mul(q0)).addc(-(n0*h - q0*(x.f0+x.w0+x.f1+1) + 1))) // (12)
			if tl.kind == Hybrid {
				for i := 1; i < tl.ns; i++ {
					sl := tl.hi[i]
					e := sc[i].addc(tl.off[i]).mul(sl.d).add(a.mul(sl.n)).sub(o(2 + i).mul(sl.d * tl.w[i]))
					cs.between(0, e, sl.d*tl.w[i]-1) // (14) with (15), (16)
				}
			}
			point(&cs)
			res = append(res, cs)
		}
	case Classical:
		var cs cons
		T := o(1)
		cs.between(0, tc.sub(T.mul(tl.h+1)), tl.h)
		V := T
		for i := 0; i < tl.ns; i++ {
			S := o(2 + i)
			cs.between(0, sc[i].addc(tl.off[i]).add(tc.mul(tl.hi[i].ceil())).add(tl.skewLin(i, sc)).sub(S.mul(tl.w[i])), tl.w[i]-1)
			V = V.add(S)
		}
		cs.eq(o(0), V)
		point(&cs)
		res = append(res, cs)
	case None:
		var cs cons
		cs.eq(o(0), tc)
		for i := 0; i < tl.ns; i++ {
			cs.between(0, sc[i].addc(tl.off[i]).sub(o(1+i).mul(tl.w[i])), tl.w[i]-1)
		}
		point(&cs)
		res = append(res, cs)
	}
	return res
}
