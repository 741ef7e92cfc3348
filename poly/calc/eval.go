package calc

import (
	"fmt"
	"io"
	"strings"

	"hextile/poly"
)

type kind int

const (
	kEmpty kind = iota // the literal "{ }": an empty set or an empty map
	kSet
	kMap
	kBool
)

func (k kind) String() string {
	return [...]string{"an empty literal", "a set", "a map", "a boolean"}[k]
}

type value struct {
	k kind
	s poly.Set
	m poly.Map
	b bool
}

// String prints v in isl notation, tidied (existentials that project out
// exactly are eliminated, pieces coalesced) so that results read like isl's.
func (v value) String() string {
	switch v.k {
	case kMap:
		return v.m.Tidy().String()
	case kBool:
		return fmt.Sprint(v.b)
	}
	return v.s.Tidy().String()
}

// asSet and asMap resolve the empty literal to the kind an operator needs.
func (v value) asSet() poly.Set { return v.s }
func (v value) asMap() poly.Map {
	if v.k == kEmpty {
		return poly.Map{Params: v.s.Params}
	}
	return v.m
}

// resultKind returns the kind of "a op b" or an error message.
func binaryKind(op string, a, b kind) (kind, string) {
	if a == kBool || b == kBool {
		return 0, fmt.Sprintf("operator %s does not apply to a boolean", op)
	}
	// The empty literal takes the kind of the other operand.
	if a == kEmpty && b == kEmpty {
		a, b = kSet, kSet
	} else if a == kEmpty {
		a = b
	} else if b == kEmpty {
		b = a
	}
	switch op {
	case "+":
		if a == b {
			return a, ""
		}
	case "*", "-":
		if a == b || (a == kMap && b == kSet) {
			return a, ""
		}
	case ".":
		if b == kMap {
			return a, ""
		}
	case "%":
		if a == b {
			return a, ""
		}
	case "<=", "<", ">=", ">", "=":
		if a == b {
			return kBool, ""
		}
	}
	return 0, fmt.Sprintf("operator %s does not apply to %s and %s", op, a, b)
}

func prefixKind(op string, a kind) (kind, string) {
	if a == kEmpty {
		switch op {
		case "dom", "ran", "deltas":
			a = kMap
		default:
			a = kSet
		}
	}
	switch op {
	case "dom", "ran", "deltas":
		if a == kMap {
			return kSet, ""
		}
	case "lexmin", "lexmax", "coalesce", "sample":
		if a == kSet || a == kMap {
			return a, ""
		}
	case "params":
		if a == kSet {
			return kSet, ""
		}
	}
	return 0, fmt.Sprintf("%s does not apply to %s", op, a)
}

func (s *Script) errAt(pos int, format string, args ...any) *Error {
	l, c := lineCol(s.src, pos)
	return &Error{File: s.file, Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}
}

// Check verifies statically that every variable is assigned before it is
// used and that every operator gets operands it applies to.
func (s *Script) Check() error {
	env := map[string]kind{}
	for _, st := range s.stmts {
		k, err := s.check(st.e, env)
		if err != nil {
			return err
		}
		if st.assign != "" {
			env[st.assign] = k
		}
	}
	return nil
}

func (s *Script) check(e *expr, env map[string]kind) (kind, error) {
	switch e.k {
	case eLit:
		return e.lit.k, nil
	case eVar:
		k, ok := env[e.name]
		if !ok {
			return 0, s.errAt(e.pos, "undefined variable %q", e.name)
		}
		return k, nil
	case eReverse:
		a, err := s.check(e.a, env)
		if err != nil {
			return 0, err
		}
		if a != kMap && a != kEmpty {
			return 0, s.errAt(e.pos, "^-1 does not apply to %s", a)
		}
		return kMap, nil
	case eApply:
		m, err := s.check(e.a, env)
		if err != nil {
			return 0, err
		}
		x, err := s.check(e.b, env)
		if err != nil {
			return 0, err
		}
		if (m != kMap && m != kEmpty) || (x != kSet && x != kEmpty) {
			return 0, s.errAt(e.pos, "application M(S) needs a map and a set, found %s and %s", m, x)
		}
		return kSet, nil
	case ePrefix:
		a, err := s.check(e.a, env)
		if err != nil {
			return 0, err
		}
		k, msg := prefixKind(e.op, a)
		if msg != "" {
			return 0, s.errAt(e.pos, "%s", msg)
		}
		return k, nil
	case eBinary:
		a, err := s.check(e.a, env)
		if err != nil {
			return 0, err
		}
		b, err := s.check(e.b, env)
		if err != nil {
			return 0, err
		}
		k, msg := binaryKind(e.op, a, b)
		if msg != "" {
			return 0, s.errAt(e.pos, "%s", msg)
		}
		return k, nil
	}
	return 0, s.errAt(e.pos, "bad expression")
}

// Exec runs the script, printing the value of every printing statement on
// out, one line each. It checks the script first.
func (s *Script) Exec(out io.Writer) error {
	if err := s.Check(); err != nil {
		return err
	}
	env := map[string]value{}
	for _, st := range s.stmts {
		v, err := s.eval(st.e, env)
		if err != nil {
			return err
		}
		if st.assign != "" {
			env[st.assign] = v
			continue
		}
		if _, err := fmt.Fprintln(out, v); err != nil {
			return err
		}
	}
	return nil
}

// Run parses, checks and runs a script.
func Run(file, src string, out io.Writer) error {
	s, err := Parse(file, src)
	if err != nil {
		return err
	}
	return s.Exec(out)
}

func (s *Script) eval(e *expr, env map[string]value) (value, error) {
	switch e.k {
	case eLit:
		return e.lit, nil
	case eVar:
		v, ok := env[e.name]
		if !ok {
			return value{}, s.errAt(e.pos, "undefined variable %q", e.name)
		}
		return v, nil
	case eReverse:
		a, err := s.eval(e.a, env)
		if err != nil {
			return value{}, err
		}
		return value{k: kMap, m: a.asMap().Reverse()}, nil
	case eApply:
		m, err := s.eval(e.a, env)
		if err != nil {
			return value{}, err
		}
		x, err := s.eval(e.b, env)
		if err != nil {
			return value{}, err
		}
		return setv(x.asSet().Apply(m.asMap())), nil
	case ePrefix:
		a, err := s.eval(e.a, env)
		if err != nil {
			return value{}, err
		}
		return s.prefix(e, a)
	case eBinary:
		a, err := s.eval(e.a, env)
		if err != nil {
			return value{}, err
		}
		b, err := s.eval(e.b, env)
		if err != nil {
			return value{}, err
		}
		return s.binary(e, a, b)
	}
	return value{}, s.errAt(e.pos, "bad expression")
}

func setv(x poly.Set) value  { return value{k: kSet, s: x} }
func mapv(x poly.Map) value  { return value{k: kMap, m: x} }
func boolv(x bool) value     { return value{k: kBool, b: x} }
func isMapKind(k kind) bool  { return k == kMap }
func kindOf(a, b value) kind { k, _ := binaryKind("+", a.k, b.k); return k }

func (s *Script) prefix(e *expr, a value) (value, error) {
	k, msg := prefixKind(e.op, a.k)
	if msg != "" {
		return value{}, s.errAt(e.pos, "%s", msg)
	}
	if a.k == kEmpty && k == kSet && e.op != "params" && e.op != "dom" && e.op != "ran" && e.op != "deltas" {
		return setv(a.asSet()), nil
	}
	switch e.op {
	case "dom":
		return setv(a.asMap().Domain()), nil
	case "ran":
		return setv(a.asMap().Range()), nil
	case "deltas":
		return setv(a.asMap().Deltas()), nil
	case "params":
		return setv(a.asSet().ParamSet()), nil
	}
	if a.k == kMap {
		m := a.m
		switch e.op {
		case "lexmin":
			return mapv(m.Lexmin()), nil
		case "lexmax":
			return mapv(m.Lexmax()), nil
		case "coalesce":
			return mapv(m.Coalesce()), nil
		case "sample":
			return mapv(m.Sample()), nil
		}
	}
	x := a.asSet()
	switch e.op {
	case "lexmin":
		return setv(x.Lexmin()), nil
	case "lexmax":
		return setv(x.Lexmax()), nil
	case "coalesce":
		return setv(x.Coalesce()), nil
	case "sample":
		return setv(x.Sample()), nil
	}
	return value{}, s.errAt(e.pos, "unknown operator %s", e.op)
}

func (s *Script) binary(e *expr, a, b value) (value, error) {
	if _, msg := binaryKind(e.op, a.k, b.k); msg != "" {
		return value{}, s.errAt(e.pos, "%s", msg)
	}
	// map op set: * intersects and - subtracts the domain (a parameter set
	// restricts the parameters).
	if a.k == kMap && b.k == kSet {
		m, x := a.m, b.s
		switch e.op {
		case "*":
			if x.IsParamSet() {
				return mapv(m.IntersectParams(x)), nil
			}
			return mapv(m.IntersectDomain(x)), nil
		case "-":
			if x.IsParamSet() {
				return mapv(m.Subtract(m.IntersectParams(x))), nil
			}
			return mapv(m.Subtract(m.IntersectDomain(x))), nil
		}
	}
	if e.op == "." {
		if a.k == kSet || (a.k == kEmpty && b.k == kEmpty) {
			return setv(a.asSet().Apply(b.asMap())), nil
		}
		if a.k == kEmpty && b.k == kMap {
			return setv(a.asSet().Apply(b.m)), nil
		}
		return mapv(a.asMap().ApplyRange(b.asMap())), nil
	}
	if isMapKind(kindOf(a, b)) {
		if r, isBool, ok := binop(e.op, a.asMap(), b.asMap()); ok {
			if isBool {
				return boolv(r.b), nil
			}
			return mapv(r.v), nil
		}
	} else if r, isBool, ok := binop(e.op, a.asSet(), b.asSet()); ok {
		if isBool {
			return boolv(r.b), nil
		}
		return setv(r.v), nil
	}
	return value{}, s.errAt(e.pos, "unknown operator %s", e.op)
}

// String returns the statements of the script, one per line, with explicit
// parentheses (for tests and debugging).
func (s *Script) String() string {
	var b strings.Builder
	for _, st := range s.stmts {
		if st.assign != "" {
			b.WriteString(st.assign + " := ")
		}
		b.WriteString(exprString(st.e))
		b.WriteString(";\n")
	}
	return b.String()
}

func exprString(e *expr) string {
	switch e.k {
	case eLit:
		return e.lit.String()
	case eVar:
		return e.name
	case eReverse:
		return "(" + exprString(e.a) + ")^-1"
	case eApply:
		return "(" + exprString(e.a) + ")(" + exprString(e.b) + ")"
	case ePrefix:
		return e.op + " (" + exprString(e.a) + ")"
	case eBinary:
		return "(" + exprString(e.a) + " " + e.op + " " + exprString(e.b) + ")"
	}
	return "?"
}

// relation is what sets and maps share for the binary operators.
type relation[T any] interface {
	Union(T) T
	Intersect(T) T
	Subtract(T) T
	Gist(T) T
	IsSubset(T) bool
	IsEqual(T) bool
}

// binResult is the value of a binary operator: a relation or a truth value.
type binResult[T any] struct {
	v T
	b bool
}

// binop applies a set-or-map binary operator; isBool says whether the
// result is a comparison, ok whether op is one of them.
func binop[T relation[T]](op string, x, y T) (r binResult[T], isBool, ok bool) {
	switch op {
	case "+":
		return binResult[T]{v: x.Union(y)}, false, true
	case "*":
		return binResult[T]{v: x.Intersect(y)}, false, true
	case "-":
		return binResult[T]{v: x.Subtract(y)}, false, true
	case "%":
		return binResult[T]{v: x.Gist(y)}, false, true
	case "<=":
		return binResult[T]{b: x.IsSubset(y)}, true, true
	case ">=":
		return binResult[T]{b: y.IsSubset(x)}, true, true
	case "<":
		return binResult[T]{b: x.IsSubset(y) && !x.IsEqual(y)}, true, true
	case ">":
		return binResult[T]{b: y.IsSubset(x) && !x.IsEqual(y)}, true, true
	case "=":
		return binResult[T]{b: x.IsEqual(y)}, true, true
	}
	return r, false, false
}
