package frontend

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// lin is an affine expression c + sum coef*var over named variables: loop
// counters, parameters and integer divisions (named "#d<k>", defined in the
// builder's div table as floor(num/den)).
type lin struct {
	c int64
	t map[string]int64
}

func linConst(c int64) lin             { return lin{c: c} }
func linVar(name string) lin           { return lin{t: map[string]int64{name: 1}} }
func (a lin) isConst() bool            { return len(a.t) == 0 }
func (a lin) coef(name string) int64   { return a.t[name] }
func (a lin) vars() []string           { return sortedKeys(a.t) }
func (a lin) withConst(c int64) lin    { b := a.scale(1); b.c = c; return b }
func (a lin) add(b lin) (lin, bool)    { return a.combine(1, b, 1) }
func (a lin) sub(b lin) (lin, bool)    { return a.combine(1, b, -1) }
func (a lin) neg() lin                 { r, _ := a.combine(-1, lin{}, 0); return r }
func (a lin) plus(c int64) (lin, bool) { return a.add(linConst(c)) }

func sortedKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (a lin) scale(k int64) lin {
	r, _ := a.combine(k, lin{}, 0)
	return r
}

// mulOK multiplies with overflow detection.
func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}

func addOK(a, b int64) (int64, bool) {
	r := a + b
	if (a > 0 && b > 0 && r < 0) || (a < 0 && b < 0 && r >= 0) {
		return 0, false
	}
	return r, true
}

// combine returns ka*a + kb*b; ok is false on int64 overflow.
func (a lin) combine(ka int64, b lin, kb int64) (lin, bool) {
	ok := true
	mul := func(x, y int64) int64 {
		r, o := mulOK(x, y)
		ok = ok && o
		return r
	}
	add := func(x, y int64) int64 {
		r, o := addOK(x, y)
		ok = ok && o
		return r
	}
	r := lin{c: add(mul(ka, a.c), mul(kb, b.c)), t: map[string]int64{}}
	for v, c := range a.t {
		r.t[v] = add(r.t[v], mul(ka, c))
	}
	for v, c := range b.t {
		r.t[v] = add(r.t[v], mul(kb, c))
	}
	for v, c := range r.t {
		if c == 0 {
			delete(r.t, v)
		}
	}
	return r, ok
}

func (a lin) equal(b lin) bool {
	d, ok := a.sub(b)
	return ok && d.c == 0 && len(d.t) == 0
}

// divisibleBy reports whether every coefficient and the constant are
// multiples of k.
func (a lin) divisibleBy(k int64) bool {
	if a.c%k != 0 {
		return false
	}
	for _, c := range a.t {
		if c%k != 0 {
			return false
		}
	}
	return true
}

func (a lin) divExact(k int64) lin {
	r := lin{c: a.c / k, t: map[string]int64{}}
	for v, c := range a.t {
		r.t[v] = c / k
	}
	return r
}

// String prints a in isl-like notation (for messages and tests).
func (a lin) String() string {
	var b strings.Builder
	for _, v := range a.vars() {
		c := a.t[v]
		switch {
		case b.Len() == 0 && c == 1:
		case b.Len() == 0 && c == -1:
			b.WriteString("-")
		case b.Len() == 0:
			fmt.Fprintf(&b, "%d*", c)
		case c == 1:
			b.WriteString(" + ")
		case c == -1:
			b.WriteString(" - ")
		case c < 0:
			fmt.Fprintf(&b, " - %d*", -c)
		default:
			fmt.Fprintf(&b, " + %d*", c)
		}
		b.WriteString(v)
	}
	switch {
	case b.Len() == 0:
		fmt.Fprintf(&b, "%d", a.c)
	case a.c > 0:
		fmt.Fprintf(&b, " + %d", a.c)
	case a.c < 0:
		fmt.Fprintf(&b, " - %d", -a.c)
	}
	return b.String()
}

// constraint is e >= 0 (or e = 0 when eq).
type constraint struct {
	e  lin
	eq bool
}

// conj is a conjunction of constraints; dnf a disjunction of conjunctions.
type conj []constraint
type dnf []conj

// and returns the conjunction of two DNFs (distributing).
func (d dnf) and(e dnf) dnf {
	var out dnf
	for _, a := range d {
		for _, b := range e {
			c := append(append(conj(nil), a...), b...)
			out = append(out, c)
		}
	}
	return out
}

// negate returns the DNF of the negation of d (over the integers:
// not(e >= 0) is -e - 1 >= 0; not(e = 0) is e >= 1 or e <= -1).
func (d dnf) negate() dnf {
	out := dnf{conj{}}
	for _, c := range d {
		var alts dnf
		for _, k := range c {
			alts = append(alts, negConstraint(k)...)
		}
		out = out.and(alts)
	}
	return out
}

func negConstraint(k constraint) dnf {
	if k.eq {
		p, _ := k.e.plus(-1)
		n, _ := k.e.neg().plus(-1)
		return dnf{{{e: p}}, {{e: n}}}
	}
	n, _ := k.e.neg().plus(-1)
	return dnf{{{e: n}}}
}
