package schedule

import (
	"fmt"
	"sort"
	"strings"
)

// lin is an affine expression with integer coefficients over named
// variables, printed in isl notation. The schedule maps are written with
// lin constraints only (no floor, mod or exists), so they stay exact and
// simple for any engine.
type lin struct {
	c     int64
	terms map[string]int64
}

func cst(c int64) lin          { return lin{c: c} }
func vr(name string) lin       { return lin{terms: map[string]int64{name: 1}} }
func (e lin) add(f lin) lin    { return e.comb(1, f, 1) }
func (e lin) sub(f lin) lin    { return e.comb(1, f, -1) }
func (e lin) addc(c int64) lin { return e.comb(1, cst(c), 1) }
func (e lin) mul(k int64) lin  { return e.comb(k, lin{}, 0) }

// comb returns a*e + b*f.
func (e lin) comb(a int64, f lin, b int64) lin {
	r := lin{c: a*e.c + b*f.c, terms: map[string]int64{}}
	for v, k := range e.terms {
		r.terms[v] += a * k
	}
	for v, k := range f.terms {
		r.terms[v] += b * k
	}
	for v, k := range r.terms {
		if k == 0 {
			delete(r.terms, v)
		}
	}
	return r
}

// eval evaluates e at the given variable values.
func (e lin) eval(env map[string]int64) int64 {
	s := e.c
	for v, k := range e.terms {
		s += k * env[v]
	}
	return s
}

func (e lin) String() string {
	names := make([]string, 0, len(e.terms))
	for v := range e.terms {
		names = append(names, v)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, v := range names {
		k := e.terms[v]
		switch {
		case b.Len() == 0 && k == 1:
			b.WriteString(v)
		case b.Len() == 0 && k == -1:
			b.WriteString("-" + v)
		case b.Len() == 0:
			fmt.Fprintf(&b, "%d%s", k, v)
		case k == 1:
			b.WriteString(" + " + v)
		case k == -1:
			b.WriteString(" - " + v)
		case k > 0:
			fmt.Fprintf(&b, " + %d%s", k, v)
		default:
			fmt.Fprintf(&b, " - %d%s", -k, v)
		}
	}
	switch {
	case b.Len() == 0:
		fmt.Fprintf(&b, "%d", e.c)
	case e.c > 0:
		fmt.Fprintf(&b, " + %d", e.c)
	case e.c < 0:
		fmt.Fprintf(&b, " - %d", -e.c)
	}
	return b.String()
}

// constraint is e >= 0, or e = 0 when eq is set.
type constraint struct {
	e  lin
	eq bool
}

func (c constraint) String() string {
	if c.eq {
		return c.e.String() + " = 0"
	}
	return c.e.String() + " >= 0"
}

func (c constraint) holds(env map[string]int64) bool {
	v := c.e.eval(env)
	return v == 0 || (!c.eq && v > 0)
}

// cons is a conjunction of constraints.
type cons []constraint

func (cs *cons) ge0(e lin)   { *cs = append(*cs, constraint{e: e}) }
func (cs *cons) eq(e, f lin) { *cs = append(*cs, constraint{e: e.sub(f), eq: true}) }
func (cs *cons) between(lo int64, e lin, hi int64) {
	cs.ge0(e.addc(-lo))
	cs.ge0(cst(hi).sub(e))
}

func (cs cons) holds(env map[string]int64) bool {
	for _, c := range cs {
		if !c.holds(env) {
			return false
		}
	}
	return true
}

func (cs cons) String() string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " and ")
}
