package poly

// Bound-based pruning of an omega problem. The single-variable inequalities
// give every variable an interval [lo_j, hi_j] (either end may be missing).
// Interval arithmetic then bounds every other row over that box: an
// inequality whose minimum over the box is >= 0 is implied by the
// single-variable rows and is dropped, and a row that cannot be satisfied in
// the box (an inequality with maximum < 0, an equality whose range misses
// 0) proves the problem empty.
//
// Fourier-Motzkin produces many rows that are redundant in this sense; on
// boxed problems (loop bounds) removing them keeps the row count from
// growing with every elimination.
//
// Example: with 0 <= x <= 3 and 0 <= y <= 3, x + y + 1 >= 0 is dropped (its
// minimum is 1), and x + y - 7 >= 0 proves emptiness (its maximum is -1).

// pruneByBounds applies the pruning above, with p.single[i] the single
// variable of p.ineq[i] or -1 (set by normalize). It returns false when the
// problem is proven empty.
func (p *omega) pruneByBounds() bool {
	w := p.w
	if cap(p.lo) < w {
		p.lo = make([]Int, w)
		p.hi = make([]Int, w)
		p.hasLo = make([]bool, w)
		p.hasHi = make([]bool, w)
	}
	lo, hi, hasLo, hasHi := p.lo[:w], p.hi[:w], p.hasLo[:w], p.hasHi[:w]
	clear(hasLo)
	clear(hasHi)
	multi, nb := 0, 0
	for i, r := range p.ineq {
		j := int(p.single[i])
		if j < 0 {
			multi++
			continue
		}
		nb++
		// normalised: r = ±x_j + c
		if r[j].Sign() > 0 {
			v := r[0].Neg()
			if !hasLo[j] || v.Cmp(lo[j]) > 0 {
				lo[j], hasLo[j] = v, true
			}
		} else {
			v := r[0]
			if !hasHi[j] || v.Cmp(hi[j]) < 0 {
				hi[j], hasHi[j] = v, true
			}
		}
	}
	for j := 1; j < w; j++ {
		if hasLo[j] && hasHi[j] && lo[j].Cmp(hi[j]) > 0 {
			return false
		}
	}
	for _, r := range p.eq {
		if nb == 0 {
			break
		}
		min, max, okMin, okMax := p.rowRange(r)
		if (okMin && min.Sign() > 0) || (okMax && max.Sign() < 0) {
			return false
		}
	}
	if multi == 0 || nb == 0 {
		return true
	}
	k := 0
	for i, r := range p.ineq {
		if p.single[i] < 0 {
			min, max, okMin, okMax := p.rowRange(r)
			if okMax && max.Sign() < 0 {
				return false
			}
			if okMin && min.Sign() >= 0 {
				continue // implied by the bounds
			}
		}
		p.ineq[k] = r
		k++
	}
	clear(p.ineq[k:])
	p.ineq = p.ineq[:k]
	return true
}

// rowRange bounds r·(1, x) over the box of p.lo/p.hi; ok* is false where
// a needed bound is missing.
func (p *omega) rowRange(r []Int) (min, max Int, okMin, okMax bool) {
	min, max = r[0], r[0]
	okMin, okMax = true, true
	for t := 1; t < len(r) && (okMin || okMax); t++ {
		a := r[t]
		if a.IsZero() {
			continue
		}
		// a > 0: the minimum uses lo, the maximum hi; a < 0: the reverse
		minHas, minV, maxHas, maxV := p.hasLo[t], p.lo[t], p.hasHi[t], p.hi[t]
		if a.Sign() < 0 {
			minHas, minV, maxHas, maxV = maxHas, maxV, minHas, minV
		}
		if okMin {
			if minHas {
				min = min.Add(a.Mul(minV))
			} else {
				okMin = false
			}
		}
		if okMax {
			if maxHas {
				max = max.Add(a.Mul(maxV))
			} else {
				okMax = false
			}
		}
	}
	return
}
