package poly

import (
	"fmt"
	"math/big"
	"strings"
)

// This file parses isl notation into Sets and Maps.
//
// Grammar (isl's, less nested tuples, min/max and piecewise expressions):
//
//	object  := [ '[' [ident {',' ident}] ']' '->' ] '{' [ piece {';' piece} ] '}'
//	piece   := tuple [ '->' tuple ] [ ':' [formula] ] | ':' [formula]
//	tuple   := [ident] '[' [ entry {',' entry} ] ']'
//	entry   := a fresh identifier (a new dimension) | ident '=' affine | affine expression
//	formula := formula 'or' formula | formula 'and' formula | 'not' formula
//	         | '(' formula ')' | 'true' | 'false'
//	         | 'exists' '(' evar {',' evar} ':' formula ')' | 'exists' evar {',' evar} ':' formula
//	         | list cmp list { cmp list }          (chained: 0 <= i < N)
//	list    := affine {',' affine}                  (0 <= i, j < N: every pair)
//	affine  := integers, variables, + - *, / by a constant (rational, as isl),
//	           floor(e), ceil(e), e mod d, e % d, juxtaposition 2i, 2(i + 1);
//	           mod binds tighter than * and unary -, as in isl: 3i mod 5 is
//	           3(i mod 5), -i mod 5 is -(i mod 5)
//	evar    := ident [ '=' affine ]
//
// Synonyms: && & /\ for and, || | \/ for or, ! for not, == for =, 'implies'.
//
// Semantics. A tuple entry that is a fresh name declares a dimension; any
// other entry (an expression, or a name already bound such as a parameter or
// an earlier dimension, as in S[i, i]) declares an unnamed dimension equal to
// it. An affine expression may have rational coefficients (i/2); a constraint
// is scaled by the lcm of its denominators, so i/2 >= 1 is 2 <= i.
// floor(e) with e = n/L (n integer-valued, L > 0) is a new existential q with
// L·q <= n <= L·q + L - 1, which defines q uniquely; ceil(e) = -floor(-e) and
// e mod d = e - d·floor(e/d). Because such definitions are functions of the
// variables they are conjoined to the whole piece, which lets 'not' apply to
// constraints with floor and mod. A formula is brought into disjunctive normal
// form: every disjunct becomes one basic set or map. 'not' of a formula with
// an explicit 'exists' is rejected (it would be a universal quantifier).

// maxDisjuncts bounds the size of a formula's disjunctive normal form.
const maxDisjuncts = 4096

// maxWork bounds the constraints copied while building a normal form.
const maxWork = 1 << 20

// maxDepth bounds the nesting of parentheses and operators.
const maxDepth = 500

// ParseSet parses isl notation for a (union) set, e.g.
// "[N] -> { S[i] : 0 <= i < N; T[i, j] : i = j }". A parameter set
// "[N] -> { : N > 0 }" has pieces with the zero Tuple (see IsParamTuple).
func ParseSet(s string) (Set, error) {
	o, err := parseObject(s)
	if err != nil {
		return Set{}, err
	}
	if o.isMap {
		return Set{}, o.kindErr(s, "set", "map")
	}
	return o.set(), nil
}

// ParseMap parses isl notation for a (union) map, e.g.
// "[N] -> { S[i] -> T[i + 1] : i < N }". The empty "{ }" is the empty map.
func ParseMap(s string) (Map, error) {
	o, err := parseObject(s)
	if err != nil {
		return Map{}, err
	}
	if !o.isMap && o.npieces > 0 {
		return Map{}, o.kindErr(s, "map", "set")
	}
	return Map{Params: o.params, Basics: o.maps}, nil
}

// ParseSetOrMap parses isl notation for either a set or a map and reports
// which one it was. The empty "{ }" is reported as a set.
func ParseSetOrMap(s string) (set Set, m Map, isMap bool, err error) {
	o, err := parseObject(s)
	if err != nil {
		return Set{}, Map{}, false, err
	}
	if o.isMap {
		return Set{}, Map{Params: o.params, Basics: o.maps}, true, nil
	}
	return o.set(), Map{}, false, nil
}

// MustParseSet is ParseSet that panics on error (for tests and literals).
func MustParseSet(s string) Set {
	x, err := ParseSet(s)
	if err != nil {
		panic(err)
	}
	return x
}

// MustParseMap is ParseMap that panics on error.
func MustParseMap(s string) Map {
	x, err := ParseMap(s)
	if err != nil {
		panic(err)
	}
	return x
}

// object is the result of parsing: a set or a map.
type object struct {
	params   []string
	isMap    bool
	sets     []BasicSet
	maps     []BasicMap
	npieces  int  // pieces written (before false ones were dropped)
	paramSet bool // the pieces were parameter pieces "{ : ... }"
	firstPos int  // position of the first piece
}

func (o *object) set() Set {
	s := Set{Params: o.params, Basics: o.sets}
	if o.paramSet && len(s.Basics) == 0 {
		s.Basics = []BasicSet{{C: falseConj(len(o.params))}}
	}
	return s
}

func (o *object) kindErr(src, want, found string) error {
	l, c := lineCol(src, o.firstPos)
	return &SyntaxError{Line: l, Col: c, Msg: fmt.Sprintf("expected %s, found %s", want, found)}
}

// ---- syntax tree of formulas and affine expressions ----

type nkind int

const (
	nInt nkind = iota
	nVar
	nNeg
	nAdd
	nSub
	nMul
	nDiv
	nFloor
	nCeil
	nMod
	nCmp // chain: groups[0] ops[0] groups[1] ops[1] ...
	nAnd
	nOr
	nNot
	nImplies
	nTrue
	nFalse
	nExists
)

type node struct {
	k      nkind
	pos    int
	val    Int
	name   string
	a, b   *node
	groups [][]*node
	ops    []tokKind
	evars  []token // exists: names
	edefs  []*node // exists: optional "= expr" per name (nil when absent)
}

// start returns the position where the text of n begins.
func (n *node) start() int {
	switch n.k {
	case nAdd, nSub, nMul, nDiv, nMod, nAnd, nOr, nImplies:
		if n.a != nil && n.a.start() < n.pos {
			return n.a.start()
		}
	}
	return n.pos
}

// ---- parser ----

type parser struct {
	src   string
	toks  []token
	p     int
	depth int
	work  int // constraints copied into normal forms so far

	params []string
	// per piece
	vars  []pvar
	scope []scopeEntry
	defs  []lcons // definitions of floor existentials, conjoined to the piece
	divs  map[string]int
	tupEq []lcons // equalities from tuple entries
}

type varKind int

const (
	vParam varKind = iota
	vIn
	vOut
	vExist
)

type pvar struct {
	kind varKind
	name string
}

type scopeEntry struct {
	name string
	id   int
}

// lcons is an integer constraint row over the piece's variables by id:
// row[0] is the constant, row[1+id] the coefficient of variable id (rows
// built before later variables were created are shorter).
type lcons struct {
	eq  bool
	row []Int
}

type dnf [][]lcons

// perr is a parse error in flight.
type perr struct {
	pos int
	msg string
}

func (p *parser) fail(pos int, format string, args ...any) *perr {
	return &perr{pos: pos, msg: fmt.Sprintf(format, args...)}
}

func (p *parser) tok() token       { return p.toks[p.p] }
func (p *parser) peek(k int) token { return p.toks[min(p.p+k, len(p.toks)-1)] }
func (p *parser) next() token {
	t := p.toks[p.p]
	if p.p < len(p.toks)-1 {
		p.p++
	}
	return t
}

func (p *parser) expected(what string) *perr {
	t := p.tok()
	return p.fail(t.pos, "expected %s, found %s", what, t.describe())
}

func (p *parser) expect(k tokKind, what string) (token, *perr) {
	if p.tok().kind != k {
		return token{}, p.expected(what)
	}
	return p.next(), nil
}

func parseObject(src string) (o *object, err error) {
	toks, lerr := lex(src)
	if lerr != nil {
		return nil, lerr
	}
	p := &parser{src: src, toks: toks}
	o, pe := p.object()
	if pe != nil {
		l, c := lineCol(src, pe.pos)
		return nil, &SyntaxError{Line: l, Col: c, Msg: pe.msg}
	}
	return o, nil
}

func (p *parser) object() (*object, *perr) {
	o := &object{}
	if p.tok().kind == tLBrack {
		p.next()
		if p.tok().kind != tRBrack {
			for {
				t, e := p.expect(tIdent, "parameter name")
				if e != nil {
					return nil, e
				}
				for _, q := range p.params {
					if q == t.text {
						return nil, p.fail(t.pos, "parameter %q listed twice", t.text)
					}
				}
				p.params = append(p.params, t.text)
				if p.tok().kind != tComma {
					break
				}
				p.next()
			}
		}
		if _, e := p.expect(tRBrack, "',' or ']'"); e != nil {
			return nil, e
		}
		if _, e := p.expect(tArrow, "'->'"); e != nil {
			return nil, e
		}
	}
	o.params = p.params
	if _, e := p.expect(tLBrace, "'{'"); e != nil {
		return nil, e
	}
	o.firstPos = p.tok().pos
	kind := 0 // 0 unknown, 1 set, 2 map, 3 parameter set
	if p.tok().kind != tRBrace {
		for {
			start := p.tok().pos
			k, bs, bm, e := p.piece()
			if e != nil {
				return nil, e
			}
			if kind != 0 && k != kind {
				names := map[int]string{1: "a set piece", 2: "a map piece", 3: "a parameter piece"}
				return nil, p.fail(start, "expected %s, found %s", names[kind], names[k])
			}
			kind = k
			o.npieces++
			o.sets = append(o.sets, bs...)
			o.maps = append(o.maps, bm...)
			if p.tok().kind != tSemi {
				break
			}
			p.next()
			if p.tok().kind == tRBrace { // tolerate a trailing ';'
				break
			}
		}
	}
	if _, e := p.expect(tRBrace, "';' or '}'"); e != nil {
		return nil, e
	}
	if p.tok().kind != tEOF {
		return nil, p.expected("end of input")
	}
	o.isMap = kind == 2
	o.paramSet = kind == 3
	return o, nil
}

// piece parses one piece; kind is 1 (set), 2 (map) or 3 (parameter set).
func (p *parser) piece() (kind int, bs []BasicSet, bm []BasicMap, e *perr) {
	p.vars = p.vars[:0]
	p.scope = p.scope[:0]
	p.defs = nil
	p.tupEq = nil
	p.divs = map[string]int{}
	for _, q := range p.params {
		p.scope = append(p.scope, scopeEntry{q, p.newVar(vParam, q)})
	}
	var in, out Tuple
	switch t := p.tok(); {
	case t.kind == tColon:
		kind = 3
	case t.kind == tLBrack || (t.kind == tIdent && p.peek(1).kind == tLBrack):
		kind = 1
		if in, e = p.tuple(vIn); e != nil {
			return
		}
		if p.tok().kind == tArrow {
			p.next()
			kind = 2
			if p.tok().kind != tLBrack && !(p.tok().kind == tIdent && p.peek(1).kind == tLBrack) {
				return 0, nil, nil, p.expected("tuple")
			}
			if out, e = p.tuple(vOut); e != nil {
				return
			}
		}
	default:
		return 0, nil, nil, p.expected("tuple or ':'")
	}
	form := dnf{nil} // true
	if p.tok().kind == tColon {
		p.next()
		if k := p.tok().kind; k != tSemi && k != tRBrace {
			n, e := p.parseOr()
			if e != nil {
				return 0, nil, nil, e
			}
			form, _, e = p.evalBool(n)
			if e != nil {
				return 0, nil, nil, e
			}
		}
	}
	if kind == 3 && len(in.Dims) == 0 {
		in = Tuple{}
	}
	for _, d := range form {
		c := p.conj(d)
		if kind == 2 {
			bm = append(bm, BasicMap{In: in, Out: out, C: c})
		} else {
			bs = append(bs, BasicSet{Tuple: in, C: c})
		}
	}
	return kind, bs, bm, nil
}

func (p *parser) newVar(k varKind, name string) int {
	p.vars = append(p.vars, pvar{kind: k, name: name})
	return len(p.vars) - 1
}

func (p *parser) lookup(name string) (int, bool) {
	for i := len(p.scope) - 1; i >= 0; i-- {
		if p.scope[i].name == name {
			return p.scope[i].id, true
		}
	}
	return 0, false
}

// tuple parses [name] '[' entries ']' whose dimensions get kind k.
func (p *parser) tuple(k varKind) (Tuple, *perr) {
	var t Tuple
	if p.tok().kind == tIdent {
		t.Name = p.next().text
	}
	if _, e := p.expect(tLBrack, "'['"); e != nil {
		return t, e
	}
	t.Dims = []string{}
	if p.tok().kind == tRBrack {
		p.next()
		return t, nil
	}
	for {
		tk := p.tok()
		if tk.kind == tLBrack || (tk.kind == tIdent && p.peek(1).kind == tLBrack) {
			return t, p.fail(tk.pos, "nested (wrapped) tuples are not supported")
		}
		nx := p.peek(1).kind
		if tk.kind == tIdent && nx == tEq { // isl prints S[i, j = i + 1]
			p.next()
			p.next()
			n, e := p.parseAdditive()
			if e != nil {
				return t, e
			}
			a, e := p.evalAff(n)
			if e != nil {
				return t, e
			}
			id := p.newVar(k, tk.text)
			p.scope = append(p.scope, scopeEntry{tk.text, id})
			t.Dims = append(t.Dims, tk.text)
			p.tupEq = append(p.tupEq, lcons{eq: true, row: a.sub(affVar(id)).intRow()})
		} else if _, bound := p.lookup(tk.text); tk.kind == tIdent && !bound && (nx == tComma || nx == tRBrack) {
			p.next()
			id := p.newVar(k, tk.text)
			p.scope = append(p.scope, scopeEntry{tk.text, id})
			t.Dims = append(t.Dims, tk.text)
		} else {
			n, e := p.parseAdditive()
			if e != nil {
				return t, e
			}
			a, e := p.evalAff(n)
			if e != nil {
				return t, e
			}
			id := p.newVar(k, "")
			t.Dims = append(t.Dims, "")
			a = a.sub(affVar(id))
			p.tupEq = append(p.tupEq, lcons{eq: true, row: a.intRow()})
		}
		if p.tok().kind == tComma {
			p.next()
			continue
		}
		if _, e := p.expect(tRBrack, "',' or ']'"); e != nil {
			return t, e
		}
		return t, nil
	}
}

// conj builds the Conj of one disjunct: columns are the constant, the
// parameters, the input dimensions, the output dimensions, then the
// existentials in the order they were created.
func (p *parser) conj(d []lcons) *Conj {
	col := make([]int, len(p.vars))
	nvis := 0
	for _, k := range []varKind{vParam, vIn, vOut} {
		for i, v := range p.vars {
			if v.kind == k {
				nvis++
				col[i] = nvis
			}
		}
	}
	nex := 0
	for i, v := range p.vars {
		if v.kind == vExist {
			nex++
			col[i] = nvis + nex
		}
	}
	c := NewConj(nvis, nex)
	add := func(l lcons) {
		row := make([]Int, c.Width())
		row[0] = l.row[0]
		for j := 1; j < len(l.row); j++ {
			row[col[j-1]] = l.row[j]
		}
		if l.eq {
			c.Eq = append(c.Eq, row)
		} else {
			c.Ineq = append(c.Ineq, row)
		}
	}
	for _, l := range p.tupEq {
		add(l)
	}
	for _, l := range p.defs {
		add(l)
	}
	for _, l := range d {
		add(l)
	}
	return tidy(c)
}

// ---- expressions ----

func (p *parser) enter() *perr {
	p.depth++
	if p.depth > maxDepth {
		return p.fail(p.tok().pos, "expression nested too deeply")
	}
	return nil
}

func (p *parser) parseOr() (*node, *perr) {
	if e := p.enter(); e != nil {
		return nil, e
	}
	defer func() { p.depth-- }()
	l, e := p.parseAnd()
	if e != nil {
		return nil, e
	}
	for {
		switch t := p.tok(); t.kind {
		case tOr:
			p.next()
			r, e := p.parseAnd()
			if e != nil {
				return nil, e
			}
			l = &node{k: nOr, pos: t.pos, a: l, b: r}
		case tImplies:
			p.next()
			r, e := p.parseAnd()
			if e != nil {
				return nil, e
			}
			l = &node{k: nImplies, pos: t.pos, a: l, b: r}
		default:
			return l, nil
		}
	}
}

func (p *parser) parseAnd() (*node, *perr) {
	l, e := p.parseNot()
	if e != nil {
		return nil, e
	}
	for p.tok().kind == tAnd {
		t := p.next()
		r, e := p.parseNot()
		if e != nil {
			return nil, e
		}
		l = &node{k: nAnd, pos: t.pos, a: l, b: r}
	}
	return l, nil
}

func (p *parser) parseNot() (*node, *perr) {
	if p.tok().kind == tNot {
		if e := p.enter(); e != nil {
			return nil, e
		}
		defer func() { p.depth-- }()
		t := p.next()
		a, e := p.parseNot()
		if e != nil {
			return nil, e
		}
		return &node{k: nNot, pos: t.pos, a: a}, nil
	}
	return p.parseCmp()
}

func isCmp(k tokKind) bool {
	switch k {
	case tEq, tNe, tLt, tLe, tGt, tGe:
		return true
	}
	return false
}

func (p *parser) parseCmp() (*node, *perr) {
	start := p.tok().pos
	first, e := p.parseList()
	if e != nil {
		return nil, e
	}
	if !isCmp(p.tok().kind) {
		if len(first) > 1 {
			return nil, p.expected("comparison operator")
		}
		return first[0], nil
	}
	n := &node{k: nCmp, pos: start, groups: [][]*node{first}}
	for isCmp(p.tok().kind) {
		n.ops = append(n.ops, p.next().kind)
		g, e := p.parseList()
		if e != nil {
			return nil, e
		}
		n.groups = append(n.groups, g)
	}
	return n, nil
}

func (p *parser) parseList() ([]*node, *perr) {
	a, e := p.parseAdditive()
	if e != nil {
		return nil, e
	}
	l := []*node{a}
	for p.tok().kind == tComma {
		p.next()
		b, e := p.parseAdditive()
		if e != nil {
			return nil, e
		}
		l = append(l, b)
	}
	return l, nil
}

func (p *parser) parseAdditive() (*node, *perr) {
	l, e := p.parseMul()
	if e != nil {
		return nil, e
	}
	for {
		t := p.tok()
		var k nkind
		switch t.kind {
		case tPlus:
			k = nAdd
		case tMinus:
			k = nSub
		default:
			return l, nil
		}
		p.next()
		r, e := p.parseMul()
		if e != nil {
			return nil, e
		}
		l = &node{k: k, pos: t.pos, a: l, b: r}
	}
}

func (p *parser) parseMul() (*node, *perr) {
	l, e := p.parseUnary()
	if e != nil {
		return nil, e
	}
	for {
		t := p.tok()
		var k nkind
		switch t.kind {
		case tStar:
			k = nMul
		case tSlash:
			k = nDiv
		default:
			return l, nil
		}
		p.next()
		r, e := p.parseUnary()
		if e != nil {
			return nil, e
		}
		l = &node{k: k, pos: t.pos, a: l, b: r}
	}
}

func (p *parser) parseUnary() (*node, *perr) {
	if p.tok().kind == tMinus {
		if e := p.enter(); e != nil {
			return nil, e
		}
		defer func() { p.depth-- }()
		t := p.next()
		a, e := p.parseUnary()
		if e != nil {
			return nil, e
		}
		return &node{k: nNeg, pos: t.pos, a: a}, nil
	}
	return p.parseModExpr()
}

// parseModExpr parses primary {(mod | %) primary}: as in isl, mod binds
// tighter than multiplication and negation (-i mod 5 is -(i mod 5), 3i mod 5
// is 3(i mod 5)).
func (p *parser) parseModExpr() (*node, *perr) {
	l, e := p.parsePrimary()
	if e != nil {
		return nil, e
	}
	for p.tok().kind == tMod || p.tok().kind == tPercent {
		t := p.next()
		r, e := p.parsePrimary()
		if e != nil {
			return nil, e
		}
		l = &node{k: nMod, pos: t.pos, a: l, b: r}
	}
	return l, nil
}

// startsPrimary reports whether k can start an operand of an implicit
// multiplication such as 2i or 3(i + 1).
func startsPrimary(k tokKind) bool {
	switch k {
	case tIdent, tLParen, tFloor, tCeil:
		return true
	}
	return false
}

func (p *parser) parsePrimary() (*node, *perr) {
	if e := p.enter(); e != nil {
		return nil, e
	}
	defer func() { p.depth-- }()
	t := p.tok()
	switch t.kind {
	case tInt:
		p.next()
		v, ok := ParseInt(t.text)
		if !ok {
			return nil, p.fail(t.pos, "bad integer %q", t.text)
		}
		n := &node{k: nInt, pos: t.pos, val: v}
		if startsPrimary(p.tok().kind) {
			r, e := p.parseModExpr()
			if e != nil {
				return nil, e
			}
			return &node{k: nMul, pos: t.pos, a: n, b: r}, nil
		}
		return n, nil
	case tIdent:
		p.next()
		return &node{k: nVar, pos: t.pos, name: t.text}, nil
	case tTrue, tFalse:
		p.next()
		if t.kind == tTrue {
			return &node{k: nTrue, pos: t.pos}, nil
		}
		return &node{k: nFalse, pos: t.pos}, nil
	case tLParen:
		p.next()
		n, e := p.parseOr()
		if e != nil {
			return nil, e
		}
		if _, e := p.expect(tRParen, "')'"); e != nil {
			return nil, e
		}
		return n, nil
	case tFloor, tCeil:
		p.next()
		if _, e := p.expect(tLParen, "'('"); e != nil {
			return nil, e
		}
		a, e := p.parseAdditive()
		if e != nil {
			return nil, e
		}
		if _, e := p.expect(tRParen, "')'"); e != nil {
			return nil, e
		}
		k := nFloor
		if t.kind == tCeil {
			k = nCeil
		}
		return &node{k: k, pos: t.pos, a: a}, nil
	case tExists:
		return p.parseExists()
	case tMin, tMax:
		return nil, p.fail(t.pos, "%s is not supported", t.text)
	}
	return nil, p.expected("expression")
}

func (p *parser) parseExists() (*node, *perr) {
	t := p.next()
	n := &node{k: nExists, pos: t.pos}
	paren := p.tok().kind == tLParen
	if paren {
		p.next()
	}
	for {
		v, e := p.expect(tIdent, "variable name")
		if e != nil {
			return nil, e
		}
		n.evars = append(n.evars, v)
		var def *node
		if p.tok().kind == tEq {
			p.next()
			if def, e = p.parseAdditive(); e != nil {
				return nil, e
			}
		}
		n.edefs = append(n.edefs, def)
		if p.tok().kind != tComma {
			break
		}
		p.next()
	}
	if _, e := p.expect(tColon, "',' or ':'"); e != nil {
		return nil, e
	}
	body, e := p.parseOr()
	if e != nil {
		return nil, e
	}
	n.a = body
	if paren {
		if _, e := p.expect(tRParen, "')'"); e != nil {
			return nil, e
		}
	}
	return n, nil
}

// ---- evaluation to affine expressions and DNF ----

// aff is a rational affine expression over the piece's variables.
type aff struct {
	c  *big.Rat
	co map[int]*big.Rat
}

func affConst(v *big.Rat) aff { return aff{c: new(big.Rat).Set(v), co: map[int]*big.Rat{}} }
func affVar(id int) aff {
	return aff{c: new(big.Rat), co: map[int]*big.Rat{id: big.NewRat(1, 1)}}
}

func (a aff) isConst() bool { return len(a.co) == 0 }

func (a aff) add(b aff) aff {
	r := aff{c: new(big.Rat).Add(a.c, b.c), co: map[int]*big.Rat{}}
	for k, v := range a.co {
		r.co[k] = new(big.Rat).Set(v)
	}
	for k, v := range b.co {
		if x, ok := r.co[k]; ok {
			x.Add(x, v)
			if x.Sign() == 0 {
				delete(r.co, k)
			}
		} else {
			r.co[k] = new(big.Rat).Set(v)
		}
	}
	return r
}

func (a aff) scale(f *big.Rat) aff {
	r := aff{c: new(big.Rat).Mul(a.c, f), co: map[int]*big.Rat{}}
	if f.Sign() == 0 {
		return r
	}
	for k, v := range a.co {
		r.co[k] = new(big.Rat).Mul(v, f)
	}
	return r
}

func (a aff) neg() aff      { return a.scale(big.NewRat(-1, 1)) }
func (a aff) sub(b aff) aff { return a.add(b.neg()) }

// denom returns the lcm of the denominators of a's coefficients.
func (a aff) denom() *big.Int {
	l := new(big.Int).Set(a.c.Denom())
	for _, v := range a.co {
		d := v.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, d)
		l.Quo(l, g)
	}
	return l
}

// intRow returns a scaled by the lcm of its denominators as an integer row.
func (a aff) intRow() []Int {
	l := a.denom()
	maxID := -1
	for k := range a.co {
		maxID = max(maxID, k)
	}
	row := make([]Int, maxID+2)
	num := func(v *big.Rat) Int {
		x := new(big.Int).Mul(v.Num(), l)
		x.Quo(x, v.Denom())
		return BigInt(x)
	}
	row[0] = num(a.c)
	for k, v := range a.co {
		row[1+k] = num(v)
	}
	return row
}

func (a aff) key() string {
	r := a.intRow()
	var b strings.Builder
	b.WriteString(a.denom().String())
	for _, x := range r {
		b.WriteByte(',')
		b.WriteString(x.String())
	}
	return b.String()
}

func (p *parser) evalAff(n *node) (aff, *perr) {
	switch n.k {
	case nInt:
		return affConst(new(big.Rat).SetInt(n.val.big())), nil
	case nVar:
		id, ok := p.lookup(n.name)
		if !ok {
			return aff{}, p.fail(n.pos, "unknown identifier %q", n.name)
		}
		return affVar(id), nil
	case nNeg:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		return a.neg(), nil
	case nAdd, nSub:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		b, e := p.evalAff(n.b)
		if e != nil {
			return aff{}, e
		}
		if n.k == nAdd {
			return a.add(b), nil
		}
		return a.sub(b), nil
	case nMul:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		b, e := p.evalAff(n.b)
		if e != nil {
			return aff{}, e
		}
		switch {
		case a.isConst():
			return b.scale(a.c), nil
		case b.isConst():
			return a.scale(b.c), nil
		}
		return aff{}, p.fail(n.pos, "non-affine product: one factor must be a constant")
	case nDiv:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		b, e := p.evalAff(n.b)
		if e != nil {
			return aff{}, e
		}
		if !b.isConst() {
			return aff{}, p.fail(n.b.pos, "expected a constant divisor")
		}
		if b.c.Sign() == 0 {
			return aff{}, p.fail(n.b.pos, "division by zero")
		}
		return a.scale(new(big.Rat).Inv(b.c)), nil
	case nFloor, nCeil:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		if n.k == nCeil {
			return p.floor(a.neg()).neg(), nil
		}
		return p.floor(a), nil
	case nMod:
		a, e := p.evalAff(n.a)
		if e != nil {
			return aff{}, e
		}
		b, e := p.evalAff(n.b)
		if e != nil {
			return aff{}, e
		}
		if !b.isConst() || !b.c.IsInt() || b.c.Sign() <= 0 {
			return aff{}, p.fail(n.b.pos, "expected a positive integer modulus")
		}
		q := p.floor(a.scale(new(big.Rat).Inv(b.c)))
		return a.sub(q.scale(b.c)), nil
	}
	return aff{}, p.fail(n.start(), "expected an affine expression, found a condition")
}

// floor returns floor(a) as an affine expression, creating (or reusing) an
// existential q with L·q <= L·a <= L·q + L - 1 when a is not integral.
func (p *parser) floor(a aff) aff {
	l := a.denom()
	if l.Cmp(big.NewInt(1)) == 0 {
		return a
	}
	k := a.key()
	if id, ok := p.divs[k]; ok {
		return affVar(id)
	}
	id := p.newVar(vExist, "")
	p.divs[k] = id
	L := new(big.Rat).SetInt(l)
	num := a.scale(L)                  // integer-valued
	lq := affVar(id).scale(L)          // L·q
	lo := num.sub(lq)                  // n - L q >= 0
	hi := lq.sub(num).add(affConst(L)) // L q + L - n >= 1
	hi = hi.sub(affConst(big.NewRat(1, 1)))
	p.defs = append(p.defs, lcons{row: lo.intRow()}, lcons{row: hi.intRow()})
	return affVar(id)
}

// cmpCons returns the DNF of "a op b".
func cmpCons(a aff, op tokKind, b aff) dnf {
	var d aff
	switch op {
	case tLe, tLt, tEq, tNe:
		d = b.sub(a) // b - a
	default: // >=, >
		d = a.sub(b)
	}
	row := d.intRow()
	switch op {
	case tEq:
		return dnf{{{eq: true, row: row}}}
	case tNe:
		return negCons(lcons{eq: true, row: row})
	case tLt, tGt:
		row[0] = row[0].Sub(I(1))
	}
	return dnf{{{row: row}}}
}

// negCons returns the DNF of the negation of one integer constraint.
func negCons(c lcons) dnf {
	neg := make([]Int, len(c.row))
	for i, x := range c.row {
		neg[i] = x.Neg()
	}
	neg[0] = neg[0].Sub(I(1)) // -row - 1 >= 0
	if !c.eq {
		return dnf{{{row: neg}}}
	}
	pos := append([]Int(nil), c.row...)
	pos[0] = pos[0].Sub(I(1)) // row - 1 >= 0
	return dnf{{{row: pos}}, {{row: neg}}}
}

func (p *parser) and(a, b dnf, pos int) (dnf, *perr) {
	if len(a)*len(b) > maxDisjuncts {
		return nil, p.fail(pos, "formula too large (more than %d disjuncts)", maxDisjuncts)
	}
	out := make(dnf, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			p.work += len(x) + len(y) + 1
			if p.work > maxWork {
				return nil, p.fail(pos, "formula too large (its normal form exceeds %d constraints)", maxWork)
			}
			z := make([]lcons, 0, len(x)+len(y))
			z = append(append(z, x...), y...)
			out = append(out, z)
		}
	}
	return out, nil
}

func (p *parser) or(a, b dnf, pos int) (dnf, *perr) {
	if len(a)+len(b) > maxDisjuncts {
		return nil, p.fail(pos, "formula too large (more than %d disjuncts)", maxDisjuncts)
	}
	return append(append(dnf{}, a...), b...), nil
}

func (p *parser) not(a dnf, pos int) (dnf, *perr) {
	out := dnf{nil}
	for _, conj := range a {
		var nc dnf
		for _, c := range conj {
			var e *perr
			if nc, e = p.or(nc, negCons(c), pos); e != nil {
				return nil, e
			}
		}
		var e *perr
		if out, e = p.and(out, nc, pos); e != nil {
			return nil, e
		}
	}
	return out, nil
}

// evalBool returns the DNF of a formula and whether it has an explicit
// existential quantifier.
func (p *parser) evalBool(n *node) (dnf, bool, *perr) {
	switch n.k {
	case nTrue:
		return dnf{nil}, false, nil
	case nFalse:
		return dnf{}, false, nil
	case nAnd, nOr, nImplies:
		a, ea, e := p.evalBool(n.a)
		if e != nil {
			return nil, false, e
		}
		b, eb, e := p.evalBool(n.b)
		if e != nil {
			return nil, false, e
		}
		var r dnf
		switch n.k {
		case nAnd:
			r, e = p.and(a, b, n.pos)
		case nOr:
			r, e = p.or(a, b, n.pos)
		default:
			if ea {
				return nil, false, p.fail(n.pos, "'implies' after a formula with 'exists' is not supported")
			}
			if a, e = p.not(a, n.pos); e == nil {
				r, e = p.or(a, b, n.pos)
			}
		}
		return r, ea || eb, e
	case nNot:
		a, ex, e := p.evalBool(n.a)
		if e != nil {
			return nil, false, e
		}
		if ex {
			return nil, false, p.fail(n.pos, "'not' of a formula with 'exists' is not supported")
		}
		r, e := p.not(a, n.pos)
		return r, false, e
	case nCmp:
		vals := make([][]aff, len(n.groups))
		for i, g := range n.groups {
			for _, x := range g {
				a, e := p.evalAff(x)
				if e != nil {
					return nil, false, e
				}
				vals[i] = append(vals[i], a)
			}
		}
		// Plain constraints go into one conjunction; each != is a
		// disjunction and multiplies out.
		var plain []lcons
		r := dnf{nil}
		for i, op := range n.ops {
			for _, a := range vals[i] {
				for _, b := range vals[i+1] {
					c := cmpCons(a, op, b)
					if len(c) == 1 {
						plain = append(plain, c[0]...)
						p.work++
						if p.work > maxWork {
							return nil, false, p.fail(n.pos, "formula too large (its normal form exceeds %d constraints)", maxWork)
						}
						continue
					}
					var e *perr
					if r, e = p.and(r, c, n.pos); e != nil {
						return nil, false, e
					}
				}
			}
		}
		r, e := p.and(dnf{plain}, r, n.pos)
		return r, false, e
	case nExists:
		mark := len(p.scope)
		defer func() { p.scope = p.scope[:mark] }()
		var defs dnf = dnf{nil}
		for i, v := range n.evars {
			id := p.newVar(vExist, v.text)
			if d := n.edefs[i]; d != nil {
				a, e := p.evalAff(d)
				if e != nil {
					return nil, false, e
				}
				var e2 *perr
				if defs, e2 = p.and(defs, cmpCons(affVar(id), tEq, a), d.pos); e2 != nil {
					return nil, false, e2
				}
			}
			p.scope = append(p.scope, scopeEntry{v.text, id})
		}
		body, _, e := p.evalBool(n.a)
		if e != nil {
			return nil, false, e
		}
		r, e := p.and(defs, body, n.pos)
		return r, true, e
	}
	return nil, false, p.fail(n.start(), "expected a condition, found an affine expression")
}

// tidy applies exact, cheap clean-ups to a parsed conjunction so that what
// floor and mod introduced does not clutter it: an existential with a unit
// coefficient in an equality is substituted away, an inequality implied by a
// single equality (row = k·eq + c with c >= 0) is dropped, as are duplicate
// rows and existentials that no row uses.
func tidy(c *Conj) *Conj {
	c = c.Clone()
	c.Eq = dedupRows(c.Eq)
	c.Ineq = dedupRows(c.Ineq)
	for changed := true; changed; {
		changed = false
		// Equalities divided by the gcd of their entries.
		for i, q := range c.Eq {
			g := I(0)
			for _, x := range q {
				g = Gcd(g, x)
			}
			if g.IsZero() {
				continue
			}
			if lastNonZero(q) > 0 && q[lastNonZero(q)].Sign() < 0 {
				g = g.Neg()
			}
			n := make([]Int, len(q))
			for j, x := range q {
				n[j] = x.ExactDiv(g)
			}
			c.Eq[i] = n
		}
		for i, q := range c.Eq {
			col := 0
			for j := 1 + c.NVar; j < c.Width(); j++ {
				if q[j].IsOne() || q[j].Eq(I(-1)) {
					col = j
					break
				}
			}
			if col == 0 {
				continue
			}
			// q: s·e + rest = 0 with s = ±1, so e = -s·rest.
			s := q[col]
			sub := func(r []Int) {
				a := r[col]
				if a.IsZero() {
					return
				}
				// r - a·s·q removes e (s·s = 1).
				f := a.Mul(s)
				for j := range r {
					r[j] = r[j].Sub(f.Mul(q[j]))
				}
			}
			c.Eq = append(c.Eq[:i:i], c.Eq[i+1:]...)
			for _, r := range c.Eq {
				sub(r)
			}
			for _, r := range c.Ineq {
				sub(r)
			}
			changed = true
			break
		}
	}
	// Inequalities implied by one equality.
	var ineq [][]Int
	for _, r := range c.Ineq {
		implied := false
		for _, q := range c.Eq {
			if impliedBy(r, q) {
				implied = true
				break
			}
		}
		if !implied {
			ineq = append(ineq, r)
		}
	}
	c.Ineq = dedupRows(ineq)
	c.Eq = dedupRows(c.Eq)
	// Drop unused existentials.
	var keep []int
	for j := 0; j < c.Width(); j++ {
		if j <= c.NVar {
			keep = append(keep, j)
			continue
		}
		used := false
		for _, r := range c.Eq {
			used = used || !r[j].IsZero()
		}
		for _, r := range c.Ineq {
			used = used || !r[j].IsZero()
		}
		if used {
			keep = append(keep, j)
		}
	}
	if len(keep) < c.Width() {
		d := NewConj(c.NVar, len(keep)-1-c.NVar)
		pick := func(r []Int) []Int {
			n := make([]Int, len(keep))
			for k, j := range keep {
				n[k] = r[j]
			}
			return n
		}
		for _, r := range c.Eq {
			d.Eq = append(d.Eq, pick(r))
		}
		for _, r := range c.Ineq {
			d.Ineq = append(d.Ineq, pick(r))
		}
		c = d
	}
	return c
}

// impliedBy reports whether r >= 0 follows from q = 0 alone: r = k·q + c0
// for an integer k and a constant c0 >= 0.
func impliedBy(r, q []Int) bool {
	piv := 0
	for j := 1; j < len(q); j++ {
		if !q[j].IsZero() {
			piv = j
			break
		}
	}
	if piv == 0 || !q[piv].Divides(r[piv]) {
		return false
	}
	k := r[piv].ExactDiv(q[piv])
	for j := 1; j < len(r); j++ {
		if !r[j].Eq(k.Mul(q[j])) {
			return false
		}
	}
	return r[0].Sub(k.Mul(q[0])).Sign() >= 0
}

func dedupRows(rows [][]Int) [][]Int {
	var out [][]Int
	seen := map[string]bool{}
	for _, r := range rows {
		var b strings.Builder
		for _, x := range r {
			b.WriteString(x.String())
			b.WriteByte(',')
		}
		if k := b.String(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}
