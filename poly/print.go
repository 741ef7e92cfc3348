package poly

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// This file prints Sets and Maps in isl notation. The output is canonical for
// a given value (pieces sorted by tuple space, constraints by the variable
// they bound), isl reads it, and ParseSet/ParseMap read it back to an equal
// value.
//
// Every constraint is written around its pivot, the last variable it
// involves (a variable's column: parameters, then dimensions, then
// existentials): an equality as "a·v = rest", an inequality as a lower bound
// "a·v >= rest" or an upper bound "a·v <= rest"; a lower and an upper bound of
// the same pivot with the same coefficient print as a chain "lo <= a·v <= up",
// and bounds off by one print strictly ("i < N" for i <= N - 1). An
// existential e that occurs only in one equality m·e + rest = 0 (m >= 2) is a
// stride and prints as "rest mod m = 0"; the other existentials print under
// "exists (e0, e1: ...)" with the constraints that involve them. Dimensions
// are named by their tuple's Dims when the names are valid, distinct and not
// parameters, else i0, i1, ... (o0, o1, ... for map outputs).

// String prints s in canonical isl notation; ParseSet(s.String()) is equal to s.
func (s Set) String() string {
	type item struct {
		key, head, cons string
		univ            bool
	}
	var items []item
	isParam := s.IsParamSet()
	for _, b := range s.Basics {
		if b.C == nil {
			continue
		}
		// Zero-Tuple pieces print as "{ : ... }" in a parameter set and as
		// the 0-dimensional "[]" among other tuples.
		param := isParam && IsParamTuple(b.Tuple)
		np := len(s.Params)
		c := printForm(b.C, np, np+len(b.Tuple.Dims))
		if c == nil {
			continue
		}
		pr := newPiecePrinter(s.Params, c)
		var head string
		if param {
			pr.nameDims(nil, "i", len(s.Params), b.C.NVar-len(s.Params))
		} else {
			pr.nameDims(b.Tuple.Dims, "i", len(s.Params), len(b.Tuple.Dims))
			pr.nameDims(nil, "i", len(s.Params)+len(b.Tuple.Dims), b.C.NVar-len(s.Params)-len(b.Tuple.Dims))
		}
		cons, ok := pr.constraints(len(s.Params), len(s.Params)+len(b.Tuple.Dims))
		if !ok {
			continue
		}
		if !param {
			head = pr.header(b.Tuple, len(s.Params))
		}
		key := "0"
		if !param {
			key = "1" + b.Tuple.Name + "\x00" + strconv.Itoa(len(b.Tuple.Dims))
		}
		items = append(items, item{key: key, head: head, cons: cons, univ: cons == ""})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].key < items[j].key })
	var pieces []string
	for i := 0; i < len(items); {
		j := i
		univ := false
		var conds []string
		for ; j < len(items) && items[j].head == items[i].head && items[j].key == items[i].key; j++ {
			univ = univ || items[j].univ
			conds = append(conds, items[j].cons)
		}
		p := items[i].head
		switch {
		case items[i].key == "0" && univ:
			p = ":"
		case items[i].key == "0":
			p = ": " + strings.Join(conds, " or ")
		case !univ:
			p += " : " + strings.Join(conds, " or ")
		}
		pieces = append(pieces, p)
		i = j
	}
	if len(pieces) == 0 && isParam {
		pieces = []string{": false"}
	}
	return wrapPieces(s.Params, pieces)
}

// String prints m in canonical isl notation; ParseMap(m.String()) is equal to m.
func (m Map) String() string {
	type item struct {
		key, head, cons string
		univ            bool
	}
	var items []item
	for _, b := range m.Basics {
		if b.C == nil {
			continue
		}
		np := len(m.Params)
		c := printForm(b.C, np, np+len(b.In.Dims)+len(b.Out.Dims))
		if c == nil {
			continue
		}
		pr := newPiecePrinter(m.Params, c)
		pr.nameDims(b.In.Dims, "i", np, len(b.In.Dims))
		pr.nameDims(b.Out.Dims, "o", np+len(b.In.Dims), len(b.Out.Dims))
		nd := np + len(b.In.Dims) + len(b.Out.Dims)
		pr.nameDims(nil, "i", nd, b.C.NVar-nd)
		cons, ok := pr.constraints(np, nd)
		if !ok {
			continue
		}
		h1 := pr.header(b.In, np)
		h2 := pr.header(b.Out, np+len(b.In.Dims))
		key := b.In.Name + "\x00" + strconv.Itoa(len(b.In.Dims)) + "\x00" + b.Out.Name + "\x00" + strconv.Itoa(len(b.Out.Dims))
		items = append(items, item{key: key, head: h1 + " -> " + h2, cons: cons, univ: cons == ""})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].key < items[j].key })
	var pieces []string
	for i := 0; i < len(items); {
		j := i
		univ := false
		var conds []string
		for ; j < len(items) && items[j].head == items[i].head && items[j].key == items[i].key; j++ {
			univ = univ || items[j].univ
			conds = append(conds, items[j].cons)
		}
		p := items[i].head
		if !univ {
			p += " : " + strings.Join(conds, " or ")
		}
		pieces = append(pieces, p)
		i = j
	}
	return wrapPieces(m.Params, pieces)
}

func wrapPieces(params []string, pieces []string) string {
	var b strings.Builder
	if len(params) > 0 {
		b.WriteString("[" + strings.Join(params, ", ") + "] -> ")
	}
	if len(pieces) == 0 {
		b.WriteString("{  }")
		return b.String()
	}
	b.WriteString("{ " + strings.Join(pieces, "; ") + " }")
	return b.String()
}

// validName reports whether s can be printed as a variable name.
func validName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentChar(s[i]) {
			return false
		}
	}
	_, kw := islKeywords[s]
	return !kw && !reservedNames[s]
}

// printForm is the form of c that is printed: Conj.Simplify's normal form
// (nil when that finds c empty), in which integer divisions that nothing
// else uses are gone. Printing the normal form rather than c itself makes
// the printed text depend less on how c was built, so that reading a print
// back and printing it again gives the same text.
//
// The printer shows a tuple dimension fixed by an equality with a unit
// coefficient (and no existential) as that expression and substitutes it in
// the other rows; that substitution is done here, on the Conj, before
// simplifying again (until nothing changes), so that whatever the
// substitution lets Simplify find (an existential now alone in its rows, a
// pair of bounds that is an equality) is found before printing, as it would
// be when the printed text is read back. dlo and dhi are the visible
// indices of the tuple dimensions.
func printForm(c *Conj, dlo, dhi int) *Conj {
	c = simp(c)
	for round := 0; c != nil && round < 8; round++ {
		dropped, empty := dropDetachedExist(c)
		if empty {
			return nil
		}
		merged := mergeLoneExist(c)
		if !substFixedDims(c, dlo, dhi) && !dropped && !merged {
			break
		}
		c = simp(c)
	}
	return c
}

// mergeLoneExist rewrites every equality in which several existentials
// occur that occur in no other row: a·e + b·f + ... (e, f, ... free
// elsewhere) takes the same values as g·e with g = gcd(a, b, ...), so the
// others are dropped. It reports whether it changed c (in place).
func mergeLoneExist(c *Conj) bool {
	w := c.Width()
	occ := make([]int, w)
	for _, rs := range [][][]Int{c.Eq, c.Ineq} {
		for _, r := range rs {
			for j := 1 + c.NVar; j < w; j++ {
				if !r[j].IsZero() {
					occ[j]++
				}
			}
		}
	}
	changed := false
	for _, r := range c.Eq {
		first, n := -1, 0
		g := I(0)
		for j := 1 + c.NVar; j < w; j++ {
			if occ[j] == 1 && !r[j].IsZero() {
				g = Gcd(g, r[j])
				n++
				if first < 0 {
					first = j
				} else {
					r[j] = I(0)
				}
			}
		}
		if n >= 2 {
			r[first] = g
			changed = true
		}
	}
	return changed
}

// dropDetachedExist removes from c the rows of every group of existentials
// that no row links to a visible variable: such a group is a separate system
// that says nothing about the visible variables when it has an integer
// solution (then its rows are dropped, dropped=true) and makes c empty when
// it has none (empty=true). c is modified in place.
func dropDetachedExist(c *Conj) (dropped, empty bool) {
	w := c.Width()
	ex0 := 1 + c.NVar
	if ex0 >= w {
		return false, false
	}
	// Union-find over existential columns; a column linked to a visible
	// variable is "attached".
	parent := make([]int, w)
	for j := range parent {
		parent[j] = j
	}
	var find func(int) int
	find = func(j int) int {
		for parent[j] != j {
			parent[j] = parent[parent[j]]
			j = parent[j]
		}
		return j
	}
	attached := make([]bool, w)
	rows := append(append([][]Int(nil), c.Eq...), c.Ineq...)
	for _, r := range rows {
		first, vis := -1, false
		for j := 1; j < w; j++ {
			if r[j].IsZero() {
				continue
			}
			if j < ex0 {
				vis = true
				continue
			}
			if first < 0 {
				first = j
			} else {
				parent[find(j)] = find(first)
			}
		}
		if first >= 0 && vis {
			attached[find(first)] = true
		}
	}
	for j := ex0; j < w; j++ {
		if attached[j] {
			attached[find(j)] = true
		}
	}
	detached := func(r []Int) bool {
		for j := 1; j < w; j++ {
			if !r[j].IsZero() {
				return j >= ex0 && !attached[find(j)]
			}
		}
		return false
	}
	sub := NewConj(0, c.NExist)
	var eq, ineq [][]Int
	for _, r := range c.Eq {
		if detached(r) {
			sub.Eq = append(sub.Eq, append([]Int{r[0]}, r[ex0:]...))
		} else {
			eq = append(eq, r)
		}
	}
	for _, r := range c.Ineq {
		if detached(r) {
			sub.Ineq = append(sub.Ineq, append([]Int{r[0]}, r[ex0:]...))
		} else {
			ineq = append(ineq, r)
		}
	}
	if len(sub.Eq)+len(sub.Ineq) == 0 {
		return false, false
	}
	if sub.IsEmpty() {
		return false, true
	}
	c.Eq, c.Ineq = eq, ineq
	return true, false
}

// substFixedDims eliminates, from the other rows of c, every tuple dimension
// (visible index in [dlo, dhi)) that is the last variable of an equality
// with a unit coefficient there and no existential; it reports whether a
// row changed. c is modified in place.
func substFixedDims(c *Conj, dlo, dhi int) bool {
	changed := false
	done := map[int]bool{}
	for {
		best, col := -1, 0
		for i, r := range c.Eq {
			p := lastNonZero(r)
			d := p - 1
			if done[i] || d < dlo || d >= dhi || d >= c.NVar || !(r[p].IsOne() || r[p].Eq(I(-1))) {
				continue
			}
			hasEx := false
			for j := 1 + c.NVar; j < len(r); j++ {
				hasEx = hasEx || !r[j].IsZero()
			}
			if !hasEx && (best < 0 || p > col) {
				best, col = i, p
			}
		}
		if best < 0 {
			return changed
		}
		done[best] = true
		q := c.Eq[best]
		s := q[col]
		elim := func(r []Int) {
			if r[col].IsZero() {
				return
			}
			f := r[col].Mul(s)
			for j := range r {
				r[j] = r[j].Sub(f.Mul(q[j]))
			}
			changed = true
		}
		for i, r := range c.Eq {
			if i != best {
				elim(r)
			}
		}
		for _, r := range c.Ineq {
			elim(r)
		}
	}
}

// piecePrinter names the columns of one Conj and prints its constraints.
type piecePrinter struct {
	c       *Conj
	names   []string // by column - 1
	used    map[string]bool
	dimExpr map[int]string // visible index -> expression printed in the tuple
}

func newPiecePrinter(params []string, c *Conj) *piecePrinter {
	pr := &piecePrinter{c: c, names: make([]string, c.NVar+c.NExist), used: map[string]bool{}, dimExpr: map[int]string{}}
	for i, p := range params {
		if i < c.NVar {
			pr.names[i] = p
		}
		pr.used[p] = true
	}
	return pr
}

func (pr *piecePrinter) pick(want, prefix string, k int) string {
	if validName(want) && !pr.used[want] {
		pr.used[want] = true
		return want
	}
	for n := k; ; n++ {
		cand := prefix + strconv.Itoa(n)
		if !pr.used[cand] {
			pr.used[cand] = true
			return cand
		}
	}
}

// nameDims names n columns starting at visible index first (0-based over the
// visible variables) after want[k] or prefix+k.
func (pr *piecePrinter) nameDims(want []string, prefix string, first, n int) {
	for k := 0; k < n; k++ {
		w := ""
		if k < len(want) {
			w = want[k]
		}
		if first+k >= 0 && first+k < len(pr.names) {
			pr.names[first+k] = pr.pick(w, prefix, k)
		}
	}
}

// header prints the tuple t whose dimensions start at visible index first:
// "S[i, j]", or "S[i, i + 1]" where a dimension is printed as the expression
// an equality gives it.
func (pr *piecePrinter) header(t Tuple, first int) string {
	parts := make([]string, len(t.Dims))
	for k := range t.Dims {
		switch {
		case pr.dimExpr[first+k] != "":
			parts[k] = pr.dimExpr[first+k]
		case first+k < len(pr.names):
			parts[k] = pr.names[first+k]
		default:
			parts[k] = "i" + strconv.Itoa(k)
		}
	}
	return t.Name + "[" + strings.Join(parts, ", ") + "]"
}

// normRow divides an inequality's variable coefficients by their gcd
// (flooring the constant) or an equality by the gcd of all its entries. It
// returns ok=false when the row has no integer solution and trivial=true when
// every integer point satisfies it.
func normRow(r []Int, eq bool) (out []Int, ok, trivial bool) {
	g := I(0)
	for _, x := range r[1:] {
		g = Gcd(g, x)
	}
	if g.IsZero() {
		if eq {
			return nil, r[0].IsZero(), true
		}
		return nil, r[0].Sign() >= 0, true
	}
	out = make([]Int, len(r))
	if eq {
		if !g.Divides(r[0]) {
			return nil, false, false
		}
		for i, x := range r {
			out[i] = x.ExactDiv(g)
		}
		return out, true, false
	}
	out[0] = r[0].FloorDiv(g)
	for i := 1; i < len(r); i++ {
		out[i] = r[i].ExactDiv(g)
	}
	return out, true, false
}

func lastNonZero(r []Int) int {
	for j := len(r) - 1; j >= 1; j-- {
		if !r[j].IsZero() {
			return j
		}
	}
	return 0
}

type pcons struct {
	eq    bool
	row   []Int
	pivot int // last column with a non-zero coefficient
}

// constraints prints the conjunction; ok is false when a row alone shows the
// piece is empty (the piece is then left out). Tuple dimensions are the
// visible indices [dlo, dhi): one fixed by an equality with a unit
// coefficient in terms of earlier variables (no existentials) is printed in
// the tuple instead (see header) and substituted in the other rows.
func (pr *piecePrinter) constraints(dlo, dhi int) (string, bool) {
	c := pr.c
	w := c.Width()
	var rows []pcons
	seen := map[string]bool{}
	add := func(r []Int, eq bool) bool {
		if len(r) != w {
			fixed := make([]Int, w)
			copy(fixed, r)
			r = fixed
		}
		n, ok, triv := normRow(r, eq)
		if !ok {
			return false
		}
		if triv {
			return true
		}
		if eq && n[lastNonZero(n)].Sign() < 0 {
			for k := range n {
				n[k] = n[k].Neg()
			}
		}
		key := fmt.Sprint(eq, n)
		if !seen[key] {
			seen[key] = true
			rows = append(rows, pcons{eq: eq, row: n, pivot: lastNonZero(n)})
		}
		return true
	}
	for _, r := range c.Eq {
		if !add(r, true) {
			return "", false
		}
	}
	for _, r := range c.Ineq {
		if !add(r, false) {
			return "", false
		}
	}
	first := 1 + c.NVar
	// Tuple dimensions fixed by equalities: reduce the equalities with a unit
	// coefficient on a dimension (and no existential) to reduced echelon form,
	// highest pivot first, so that each such dimension occurs only in its own
	// equality; it is then printed in the tuple as the expression.
	used := map[int]bool{}
	for {
		best := -1
		for i, r := range rows {
			d := r.pivot - 1
			if !r.eq || used[i] || d < dlo || d >= dhi || d >= c.NVar || !(r.row[r.pivot].IsOne() || r.row[r.pivot].Eq(I(-1))) {
				continue
			}
			hasEx := false
			for j := first; j < w; j++ {
				hasEx = hasEx || !r.row[j].IsZero()
			}
			if !hasEx && (best < 0 || r.pivot > rows[best].pivot) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		q := rows[best].row
		col := rows[best].pivot
		s := q[col]
		var kept []pcons
		keptUsed := map[int]bool{}
		for i, o := range rows {
			if i != best && !o.row[col].IsZero() {
				n := make([]Int, w)
				f := o.row[col].Mul(s)
				for j := range n {
					n[j] = o.row[j].Sub(f.Mul(q[j]))
				}
				nn, ok, triv := normRow(n, o.eq)
				if !ok {
					return "", false
				}
				if triv {
					continue
				}
				o = pcons{eq: o.eq, row: nn, pivot: lastNonZero(nn)}
			}
			if used[i] || i == best {
				keptUsed[len(kept)] = true
			}
			kept = append(kept, o)
		}
		rows, used = kept, keptUsed
	}
	var rest []pcons
	for i, r := range rows {
		if !used[i] {
			rest = append(rest, r)
			continue
		}
		s := r.row[r.pivot]
		val := make([]Int, w)
		for j := range r.row {
			if j != r.pivot {
				val[j] = r.row[j].Mul(s).Neg()
			}
		}
		pr.dimExpr[r.pivot-1] = pr.expr(val)
	}
	rows = rows[:0]
	seen = map[string]bool{}
	for _, r := range rest {
		if key := fmt.Sprint(r.eq, r.row); !seen[key] {
			seen[key] = true
			rows = append(rows, r)
		}
	}
	// Existentials with a unit coefficient in an equality are substituted
	// away (the substitution of dimensions above can create them).
	for {
		bi, bc := -1, 0
		for i, r := range rows {
			if !r.eq {
				continue
			}
			for j := first; j < w; j++ {
				if r.row[j].IsOne() || r.row[j].Eq(I(-1)) {
					bi, bc = i, j
					break
				}
			}
			if bi >= 0 {
				break
			}
		}
		if bi < 0 {
			break
		}
		q, s := rows[bi].row, rows[bi].row[bc]
		var kept []pcons
		seen = map[string]bool{}
		for i, o := range rows {
			if i == bi {
				continue
			}
			if a := o.row[bc]; !a.IsZero() {
				n := make([]Int, w)
				f := a.Mul(s)
				for j := range n {
					n[j] = o.row[j].Sub(f.Mul(q[j]))
				}
				nn, ok, triv := normRow(n, o.eq)
				if !ok {
					return "", false
				}
				if triv {
					continue
				}
				if o.eq && nn[lastNonZero(nn)].Sign() < 0 {
					for k := range nn {
						nn[k] = nn[k].Neg()
					}
				}
				o = pcons{eq: o.eq, row: nn, pivot: lastNonZero(nn)}
			}
			if key := fmt.Sprint(o.eq, o.row); !seen[key] {
				seen[key] = true
				kept = append(kept, o)
			}
		}
		rows = kept
	}
	// An existential that occurs only in rows on it alone is a separate
	// one-dimensional system: when it has an integer solution its rows say
	// nothing about the other variables and are left out; when it has none
	// the piece is empty.
	for j := first; j < w; j++ {
		var lo, hi *Int
		alone, any := true, false
		for _, r := range rows {
			if r.row[j].IsZero() {
				continue
			}
			any = true
			for k := 1; k < w; k++ {
				if k != j && !r.row[k].IsZero() {
					alone = false
				}
			}
			if !alone {
				break
			}
			a, c := r.row[j], r.row[0]
			setLo := func(v Int) {
				if lo == nil || v.Cmp(*lo) > 0 {
					lo = &v
				}
			}
			setHi := func(v Int) {
				if hi == nil || v.Cmp(*hi) < 0 {
					hi = &v
				}
			}
			switch {
			case r.eq: // a e + c = 0
				if !a.Divides(c) {
					return "", false
				}
				v := c.Neg().FloorDiv(a)
				setLo(v)
				setHi(v)
			case a.Sign() > 0: // e >= -c/a
				setLo(c.Neg().CeilDiv(a))
			default: // e <= c/|a|
				setHi(c.FloorDiv(a.Neg()))
			}
		}
		if !alone || !any {
			continue
		}
		if lo != nil && hi != nil && lo.Cmp(*hi) > 0 {
			return "", false
		}
		var kept []pcons
		for _, r := range rows {
			if r.row[j].IsZero() {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	// Parallel inequalities (same variable part): only the tightest, the
	// one with the smallest constant, matters.
	tight := map[string]int{}
	var par []pcons
	for _, r := range rows {
		if r.eq {
			par = append(par, r)
			continue
		}
		key := fmt.Sprint(r.row[1:])
		if k, ok := tight[key]; ok {
			if r.row[0].Cmp(par[k].row[0]) < 0 {
				par[k] = r
			}
			continue
		}
		tight[key] = len(par)
		par = append(par, r)
	}
	rows = par
	// Strides: an existential that occurs in exactly one row, an equality.
	occ := make([]int, w)
	last := make([]int, w)
	for i, r := range rows {
		for j := first; j < w; j++ {
			if !r.row[j].IsZero() {
				occ[j]++
				last[j] = i
			}
		}
	}
	stride := make([]int, len(rows)) // column of the stride existential, or 0
	isStride := make([]bool, w)
	for j := first; j < w; j++ {
		if occ[j] != 1 {
			continue
		}
		// Of several candidates in one row, the largest coefficient wins
		// (then the first), so that the printed "rest mod m" reads back to
		// the same choice.
		i := last[j]
		a := rows[i].row[j].Abs()
		if rows[i].eq && a.Cmp(I(2)) >= 0 && (stride[i] == 0 || a.Cmp(rows[i].row[stride[i]].Abs()) > 0) {
			if stride[i] != 0 {
				isStride[stride[i]] = false
			}
			stride[i] = j
			isStride[j] = true
		}
	}
	// Existentials that stay quantified.
	var evars []int
	for j := first; j < w; j++ {
		if occ[j] > 0 && !isStride[j] {
			evars = append(evars, j)
		}
	}
	for k, j := range evars {
		pr.names[j-1] = pr.pick("", "e", k)
	}
	quant := func(r pcons, skip int) bool {
		for _, j := range evars {
			if j != skip && !r.row[j].IsZero() {
				return true
			}
		}
		return false
	}
	var outer, inner []pcons
	var outerMod, innerMod []string
	for i, r := range rows {
		if stride[i] != 0 {
			s := pr.modText(r.row, stride[i])
			if quant(r, stride[i]) {
				innerMod = append(innerMod, s)
			} else {
				outerMod = append(outerMod, s)
			}
			continue
		}
		if quant(r, 0) {
			inner = append(inner, r)
		} else {
			outer = append(outer, r)
		}
	}
	parts := dedupStrings(append(pr.group(outer), outerMod...))
	if len(evars) > 0 {
		in := dedupStrings(append(pr.group(inner), innerMod...))
		names := make([]string, len(evars))
		for k, j := range evars {
			names[k] = pr.names[j-1]
		}
		parts = append(parts, "exists ("+strings.Join(names, ", ")+": "+strings.Join(in, " and ")+")")
	}
	return strings.Join(parts, " and "), true
}

// modText prints the stride row m·e + rest = 0 as "rest mod m = 0", in a
// canonical form of the congruence rest ≡ 0 (mod m), so that every way of
// writing the same congruence prints the same text: the common factor of m
// and the coefficients is divided out, the coefficients of the variables are
// reduced into (-m/2, m/2] and scaled so that the first is positive (and 1
// when it is invertible modulo m), and the constant is reduced into [0, m).
// For example (i - 1) mod 3 = 0, (i + 2) mod 3 = 0, (-i + 1) mod 3 = 0 and
// (2i - 2) mod 6 = 0 all print as "(i + 2) mod 3 = 0".
func (pr *piecePrinter) modText(row []Int, col int) string {
	m := row[col].Abs()
	rest := append([]Int(nil), row...)
	rest[col] = I(0)
	quantified := false
	for j := 1 + pr.c.NVar; j < len(rest); j++ {
		quantified = quantified || !rest[j].IsZero()
	}
	if !quantified {
		rest = canonCongruence(rest, &m)
	} else {
		// Under "exists" the text is read back as an equality whose
		// coefficients must stay those of the row (a unit coefficient
		// would be substituted away), so only the sign is normalised.
		for j := 1; j < len(rest); j++ {
			if !rest[j].IsZero() {
				if rest[j].Sign() < 0 {
					for k := range rest {
						rest[k] = rest[k].Neg()
					}
				}
				break
			}
		}
	}
	e := pr.expr(rest)
	nvars := 0
	for j := 1; j < len(rest); j++ {
		if !rest[j].IsZero() {
			nvars++
		}
	}
	simple := nvars == 1 && rest[0].IsZero()
	if simple {
		for j := 1; j < len(rest); j++ {
			if !rest[j].IsZero() && !rest[j].IsOne() {
				simple = false
			}
		}
	}
	if !simple && !(nvars == 0 && rest[0].Sign() >= 0) {
		e = "(" + e + ")"
	}
	return e + " mod " + m.String() + " = 0"
}

// maxCanonModulus bounds the moduli whose congruences canonCongruence
// puts in the fully canonical form (it tries every unit modulo m).
const maxCanonModulus = 512

// canonCongruence returns the canonical form (see modText) of the
// congruence row·(1, x) ≡ 0 (mod *m), updating *m when a common factor is
// divided out. row is not modified.
func canonCongruence(row []Int, m *Int) []Int {
	r := append([]Int(nil), row...)
	g := *m
	for _, x := range r {
		g = Gcd(g, x)
	}
	if !g.IsZero() && !g.IsOne() {
		for k := range r {
			r[k] = r[k].ExactDiv(g)
		}
		*m = m.ExactDiv(g)
	}
	mod := *m
	if mod.IsOne() {
		for k := range r {
			r[k] = I(0)
		}
		return r
	}
	half := mod.FloorDiv(I(2))
	sym := func(x Int) Int { // into (-m/2, m/2]
		x = x.Mod(mod)
		if x.Cmp(half) > 0 {
			x = x.Sub(mod)
		}
		return x
	}
	reduce := func() {
		for k := 1; k < len(r); k++ {
			r[k] = sym(r[k])
		}
		r[0] = r[0].Mod(mod)
	}
	reduce()
	lead := 0
	for k := 1; k < len(r); k++ {
		if !r[k].IsZero() {
			lead = k
			break
		}
	}
	if lead == 0 {
		return r
	}
	// The same congruence is written u·row for every unit u modulo m; the
	// canonical one is the least in the order of coefficients in [0, m),
	// column by column (its leading coefficient is gcd(lead, m)). Moduli
	// too large to try every unit make the leading coefficient 1 when it
	// is invertible, else positive.
	if mv, ok := mod.Int64(); ok && mv <= maxCanonModulus {
		best := append([]Int(nil), r...)
		key := func(x []Int) []Int {
			k := make([]Int, len(x))
			for j := 1; j < len(x); j++ {
				k[j-1] = x[j].Mod(mod)
			}
			k[len(x)-1] = x[0].Mod(mod)
			return k
		}
		less := func(a, b []Int) bool {
			for j := range a {
				if c := a[j].Cmp(b[j]); c != 0 {
					return c < 0
				}
			}
			return false
		}
		bestKey := key(best)
		cand := make([]Int, len(r))
		for u := int64(2); u < mv; u++ {
			if !Gcd(I(u), mod).IsOne() {
				continue
			}
			for k := range r {
				cand[k] = r[k].Mul(I(u))
			}
			if ck := key(cand); less(ck, bestKey) {
				bestKey = ck
				copy(best, cand)
			}
		}
		r = best
		reduce()
		return r
	}
	if Gcd(r[lead], mod).IsOne() {
		inv := modInverse(r[lead], mod)
		for k := range r {
			r[k] = r[k].Mul(inv)
		}
		reduce()
	} else if r[lead].Sign() < 0 {
		for k := range r {
			r[k] = r[k].Neg()
		}
		reduce()
	}
	return r
}

type bound struct {
	coef   Int
	expr   string
	strict bool
}

// group prints rows pivot by pivot: equalities, then chained bounds.
func (pr *piecePrinter) group(rows []pcons) []string {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].pivot < rows[j].pivot })
	var out []string
	for i := 0; i < len(rows); {
		piv := rows[i].pivot
		var lows, ups []bound
		j := i
		for ; j < len(rows) && rows[j].pivot == piv; j++ {
			r := rows[j]
			a := r.row[piv]
			rest := append([]Int(nil), r.row...)
			rest[piv] = I(0)
			if r.eq {
				if a.Sign() > 0 { // a v + rest = 0: a v = -rest
					for k := range rest {
						rest[k] = rest[k].Neg()
					}
				} else {
					a = a.Neg()
				}
				out = append(out, pr.term(a, piv)+" = "+pr.expr(rest))
				continue
			}
			if a.Sign() > 0 { // a v >= -rest
				for k := range rest {
					rest[k] = rest[k].Neg()
				}
				b := bound{coef: a}
				if rest[0].IsOne() { // a v >= e + 1: a v > e
					rest[0] = I(0)
					b.strict = true
				}
				b.expr = pr.expr(rest)
				lows = append(lows, b)
			} else { // -|a| v + rest >= 0: |a| v <= rest
				b := bound{coef: a.Neg()}
				if rest[0].Eq(I(-1)) { // a v <= e - 1: a v < e
					rest[0] = I(0)
					b.strict = true
				}
				b.expr = pr.expr(rest)
				ups = append(ups, b)
			}
		}
		usedUp := make([]bool, len(ups))
		for _, lo := range lows {
			paired := false
			for k, up := range ups {
				if !usedUp[k] && up.coef.Eq(lo.coef) {
					usedUp[k] = true
					paired = true
					out = append(out, lo.expr+" "+rel(lo.strict, "<")+" "+pr.term(lo.coef, piv)+" "+rel(up.strict, "<")+" "+up.expr)
					break
				}
			}
			if !paired {
				out = append(out, pr.term(lo.coef, piv)+" "+rel(lo.strict, ">")+" "+lo.expr)
			}
		}
		for k, up := range ups {
			if !usedUp[k] {
				out = append(out, pr.term(up.coef, piv)+" "+rel(up.strict, "<")+" "+up.expr)
			}
		}
		i = j
	}
	return out
}

func rel(strict bool, op string) string {
	if strict {
		return op
	}
	return op + "="
}

// term prints a·v for a > 0.
func (pr *piecePrinter) term(a Int, col int) string {
	if a.IsOne() {
		return pr.names[col-1]
	}
	return a.String() + pr.names[col-1]
}

// expr prints the affine expression row·(1, x, e): variables in column
// order, then the constant, e.g. "2i - N + 1".
func (pr *piecePrinter) expr(row []Int) string {
	var b strings.Builder
	first := true
	put := func(v Int, name string) {
		neg := v.Sign() < 0
		abs := v.Abs()
		switch {
		case first && neg:
			b.WriteString("-")
		case !first && neg:
			b.WriteString(" - ")
		case !first:
			b.WriteString(" + ")
		}
		if name == "" {
			b.WriteString(abs.String())
		} else {
			if !abs.IsOne() {
				b.WriteString(abs.String())
			}
			b.WriteString(name)
		}
		first = false
	}
	for j := 1; j < len(row); j++ {
		if !row[j].IsZero() {
			put(row[j], pr.names[j-1])
		}
	}
	if !row[0].IsZero() || first {
		put(row[0], "")
	}
	return b.String()
}

func dedupStrings(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
