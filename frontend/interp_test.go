package frontend

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An end-to-end check of model extraction: a small interpreter runs the
// parsed C (loops, conditions and subscripts with C's semantics: division
// and remainder truncate toward zero, a for loop runs while its condition
// holds) and records every executed statement instance with the array
// elements it reads and writes. The model, enumerated at the same parameter
// values and ordered by its original schedule, must give the same trace.

type event struct {
	Stmt   string
	Iters  []int64
	Reads  []string
	Writes []string
}

func (e event) String() string {
	return fmt.Sprintf("%s%v r%v w%v", e.Stmt, e.Iters, e.Reads, e.Writes)
}

type interp struct {
	t      *testing.T
	vals   map[string]int64
	iters  []string
	names  map[any]string // statement node -> S<k>
	trace  []event
	budget int
	// priv are the scalars the model privatizes by forward substitution
	// (privatize.go): their definitions make no event, and a read of one
	// reads the elements its initializer read.
	priv     map[string]bool
	privRefs map[string][]string
}

// numberStmts assigns S0, S1, ... in the builder's (textual) order.
func numberStmts(list []cStmt, names map[any]string, priv map[string]bool) {
	var walk func(s cStmt)
	walk = func(s cStmt) {
		switch s := s.(type) {
		case *cBlock:
			for _, x := range s.List {
				walk(x)
			}
		case *cFor:
			walk(s.Body)
		case *cIf:
			walk(s.Then)
			if s.Else != nil {
				walk(s.Else)
			}
		case *cExprStmt:
			if a, ok := s.X.(*cAssign); ok {
				if id, ok := stripParen(a.L).(*cIdent); ok && priv[id.Name] {
					return
				}
			}
			names[s] = fmt.Sprintf("S%d", len(names))
		case *cDecl:
			for _, d := range s.Decls {
				if d.Init != nil && !priv[d.Name] {
					names[d] = fmt.Sprintf("S%d", len(names))
				}
			}
		}
	}
	for _, s := range list {
		walk(s)
	}
}

func (in *interp) eval(e cExpr) int64 {
	switch e := e.(type) {
	case *cParen:
		return in.eval(e.X)
	case *cNum:
		v, ok := parseCInt(e.Tok.Text)
		if !ok {
			in.t.Fatalf("interp: number %s", e.Tok.Text)
		}
		return v
	case *cIdent:
		v, ok := in.vals[e.Name]
		if !ok {
			in.t.Fatalf("interp: no value for %s", e.Name)
		}
		return v
	case *cCast:
		return in.eval(e.X)
	case *cUnary:
		x := in.eval(e.X)
		switch e.Op {
		case "-":
			return -x
		case "+":
			return x
		case "!":
			return b2i(x == 0)
		}
	case *cCall:
		id := e.Fun.(*cIdent)
		a, b := in.eval(e.Args[0]), in.eval(e.Args[1])
		switch strings.ToLower(id.Name) {
		case "min":
			return min(a, b)
		case "max":
			return max(a, b)
		}
	case *cCond:
		if in.eval(e.C) != 0 {
			return in.eval(e.X)
		}
		return in.eval(e.Y)
	case *cBin:
		if e.Op == "&&" {
			return b2i(in.eval(e.X) != 0 && in.eval(e.Y) != 0)
		}
		if e.Op == "||" {
			return b2i(in.eval(e.X) != 0 || in.eval(e.Y) != 0)
		}
		x, y := in.eval(e.X), in.eval(e.Y)
		switch e.Op {
		case "+":
			return x + y
		case "-":
			return x - y
		case "*":
			return x * y
		case "/":
			return x / y // Go truncates like C
		case "%":
			return x % y
		case "<":
			return b2i(x < y)
		case "<=":
			return b2i(x <= y)
		case ">":
			return b2i(x > y)
		case ">=":
			return b2i(x >= y)
		case "==":
			return b2i(x == y)
		case "!=":
			return b2i(x != y)
		}
	}
	in.t.Fatalf("interp: cannot evaluate %T", e)
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// refs lists the array elements read by a body expression, in the
// builder's order (left to right).
func (in *interp) refs(e cExpr, out *[]string) {
	switch e := e.(type) {
	case *cParen:
		in.refs(e.X, out)
	case *cIndex:
		*out = append(*out, in.element(e))
	case *cIdent:
		*out = append(*out, in.privRefs[e.Name]...)
	case *cBin:
		in.refs(e.X, out)
		in.refs(e.Y, out)
	case *cUnary:
		in.refs(e.X, out)
	case *cCast:
		in.refs(e.X, out)
	case *cCall:
		for _, a := range e.Args {
			in.refs(a, out)
		}
	}
}

func (in *interp) element(e *cIndex) string {
	var idx []string
	var x cExpr = e
	for {
		ix, ok := stripParen(x).(*cIndex)
		if !ok {
			break
		}
		idx = append([]string{fmt.Sprint(in.eval(ix.Index))}, idx...)
		x = ix.X
	}
	return stripParen(x).(*cIdent).Name + "[" + strings.Join(idx, ", ") + "]"
}

func (in *interp) assignTo(l cExpr, v int64) {
	in.vals[stripParen(l).(*cIdent).Name] = v
}

func (in *interp) stmt(s cStmt) {
	in.budget--
	if in.budget < 0 {
		in.t.Fatal("interp: too many steps")
	}
	switch s := s.(type) {
	case *cBlock:
		for _, x := range s.List {
			in.stmt(x)
		}
	case *cIf:
		if in.eval(s.Cond) != 0 {
			in.stmt(s.Then)
		} else if s.Else != nil {
			in.stmt(s.Else)
		}
	case *cFor:
		var name string
		switch init := s.Init.(type) {
		case *cDecl:
			name = init.Decls[0].Name
			in.vals[name] = in.eval(init.Decls[0].Init)
		case *cExprStmt:
			a := init.X.(*cAssign)
			name = stripParen(a.L).(*cIdent).Name
			in.vals[name] = in.eval(a.R)
		}
		in.iters = append(in.iters, name)
		for in.eval(s.Cond) != 0 {
			in.stmt(s.Body)
			switch p := s.Post.(type) {
			case *cPostfix:
				if p.Op == "--" {
					in.vals[name]--
				} else {
					in.vals[name]++
				}
			case *cUnary:
				if p.Op == "--" {
					in.vals[name]--
				} else {
					in.vals[name]++
				}
			case *cAssign:
				if p.Op == "+=" {
					in.vals[name] += in.eval(p.R)
				} else if p.Op == "-=" {
					in.vals[name] -= in.eval(p.R)
				} else {
					in.assignTo(p.L, in.eval(p.R))
				}
			}
			in.budget--
			if in.budget < 0 {
				in.t.Fatal("interp: too many steps")
			}
		}
		in.iters = in.iters[:len(in.iters)-1]
		delete(in.vals, name)
	case *cExprStmt:
		ev := event{Stmt: in.names[s]}
		for _, it := range in.iters {
			ev.Iters = append(ev.Iters, in.vals[it])
		}
		var lhs, rhs cExpr
		compound := false
		if a, ok := s.X.(*cAssign); ok {
			if id, ok := stripParen(a.L).(*cIdent); ok && in.priv[id.Name] {
				var refs []string
				in.refs(a.R, &refs)
				in.privRefs[id.Name] = refs
				return
			}
		}
		switch x := s.X.(type) {
		case *cAssign:
			lhs, rhs, compound = x.L, x.R, x.Op != "="
		case *cPostfix:
			lhs, compound = x.X, true
		case *cUnary:
			lhs, compound = x.X, true
		}
		if ix, ok := stripParen(lhs).(*cIndex); ok {
			el := in.element(ix)
			if compound {
				ev.Reads = append(ev.Reads, el)
			}
			if rhs != nil {
				in.refs(rhs, &ev.Reads)
			}
			ev.Writes = []string{el}
		} else if rhs != nil {
			in.refs(rhs, &ev.Reads)
		}
		in.trace = append(in.trace, ev)
	case *cDecl:
		for _, d := range s.Decls {
			if d.Init != nil && in.priv[d.Name] {
				var refs []string
				in.refs(d.Init, &refs)
				in.privRefs[d.Name] = refs
				continue
			}
			if d.Init != nil {
				ev := event{Stmt: in.names[d]}
				for _, it := range in.iters {
					ev.Iters = append(ev.Iters, in.vals[it])
				}
				in.refs(d.Init, &ev.Reads)
				in.trace = append(in.trace, ev)
			}
		}
	}
}

// modelTrace enumerates the model in schedule order.
func modelTrace(t *testing.T, sc *Scop, params map[string]int64) []event {
	type inst struct {
		ev    event
		sched []int64
	}
	var all []inst
	for _, st := range sc.Stmts {
		pairs, err := st.Schedule.Enumerate(params)
		if err != nil {
			t.Fatal(err)
		}
		var reads, writes []map[string]string
		for _, a := range st.Reads {
			if a.Ref != nil {
				reads = append(reads, elementsOf(t, a, params))
			}
		}
		for _, a := range st.Writes {
			if a.Ref != nil {
				writes = append(writes, elementsOf(t, a, params))
			}
		}
		for _, p := range pairs {
			k := pointKey(p.In)
			ev := event{Stmt: st.Name, Iters: p.In.Coords}
			for _, m := range reads {
				ev.Reads = append(ev.Reads, m[k])
			}
			for _, m := range writes {
				ev.Writes = append(ev.Writes, m[k])
			}
			all = append(all, inst{ev, p.Out.Coords})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i].sched, all[j].sched
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	var out []event
	for _, x := range all {
		out = append(out, x.ev)
	}
	return out
}

func checkTrace(t *testing.T, file string, src []byte, params map[string]int64) {
	t.Helper()
	opts := Options{Defines: map[string]string{}}
	for k, v := range params {
		opts.Defines[k] = fmt.Sprint(v)
	}
	prog, err := Parse(file, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	sc := prog.Scops[0]
	if params == nil {
		params = smallParams(t, sc)
	}
	// Re-parse to get the syntax tree of the region.
	toks, defList, _ := lex(file, src, nil)
	defs := map[string]*define{}
	for i := range defList {
		defs[defList[i].Name] = &defList[i]
	}
	p := &parser{file: file, toks: toks, defs: defs}
	p.parseFile()
	raws := p.scops
	if len(raws) == 0 {
		for _, fb := range p.funcs {
			if rs, _ := p.functionScop(fb); rs != nil {
				raws = append(raws, rs)
			}
		}
	}
	in := &interp{t: t, vals: map[string]int64{}, names: map[any]string{}, budget: 1 << 22,
		priv: privatized(raws[0].Body, sc), privRefs: map[string][]string{}}
	for k, v := range params {
		in.vals[k] = v
	}
	numberStmts(raws[0].Body, in.names, in.priv)
	for _, s := range raws[0].Body {
		in.stmt(s)
	}
	got := modelTrace(t, sc, params)
	if diff := cmp.Diff(fmt.Sprint(in.trace), fmt.Sprint(got)); diff != "" {
		t.Errorf("model trace differs from execution at %v (-exec +model):\n%s", params, diff)
	}
}

func TestModelMatchesExecution(t *testing.T) {
	for _, path := range testdataFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		t.Run(name, func(t *testing.T) {
			src := readFile(t, path)
			sc := parseTestdata(t, path).Scops[0]
			checkTrace(t, path, src, smallParams(t, sc))
		})
	}
	for _, tc := range constructCases {
		t.Run(tc.name, func(t *testing.T) {
			checkTrace(t, tc.name+".c", []byte(tc.src), nil)
		})
	}
}

// privatized returns the scalars of the region that the model substituted:
// declared or assigned in the region but no array of the model.
func privatized(list []cStmt, sc *Scop) map[string]bool {
	arr := map[string]bool{}
	for _, a := range sc.Arrays {
		arr[a.Name] = true
	}
	out := map[string]bool{}
	for _, a := range sc.Private {
		out[a.Name] = true
	}
	walkStmts(list, func(cExpr) {}, func(d *cDeclarator) {
		if d.Init != nil && len(d.Dims) == 0 && !arr[d.Name] {
			out[d.Name] = true
		}
	})
	return out
}
