package cudaprint

import (
	"fmt"
	"strconv"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// userCUDA prints a statement instance with flat array accesses; in the
// tile staged by stage, its writes go to shared memory, with their written
// flags unless noFlags (the full tile of a tile with a written table).
func userCUDA(cs *gpuplan.Scop, u *ast.User, emu bool, stage *gpuplan.StagePlan, noFlags bool) string {
	return userCUDAWins(cs, u, emu, stage, noFlags, nil)
}

// userCUDAWins is userCUDA with the reads in wins (of the right-hand side)
// replaced by their registers (streaming, stream.go).
func userCUDAWins(cs *gpuplan.Scop, u *ast.User, emu bool, stage *gpuplan.StagePlan, noFlags bool, wins map[*frontend.ArrayRef]string) string {
	subst := map[string]string{}
	for i, it := range u.Stmt.Iters {
		if i < len(u.Args) {
			s := ast.ExprString(u.Args[i])
			if _, ok := u.Args[i].(*ast.Aff); ok && !cexpr.IsIdent(s) {
				s = "(" + s + ")"
			}
			subst[it] = s
		}
	}
	if u.Stmt.Body == nil {
		return "/* " + u.Stmt.Name + ": no body */;"
	}
	p := &flatPrinter{subst: subst, emu: emu, arrays: map[string]*frontend.Array{}, stage: stage, wins: wins, divs: cs.Divs}
	for _, a := range cs.Code.Scop.Arrays {
		p.arrays[a.Name] = a
	}
	a := u.Stmt.Body
	rhs := p.expr(a.RHS, false, false)
	if r, ok := a.LHS.(*frontend.ArrayRef); ok && stage != nil && stage.ByName[r.Name] != nil && len(r.Index) > 0 {
		// A staged write: the element and its written flag.
		sa := stage.ByName[r.Name]
		var ix []string
		for _, x := range r.Index {
			s, _ := cexpr.ExprPrec(x, subst)
			ix = append(ix, s)
		}
		mode := 1
		if a.Op != "=" {
			mode = 2
		}
		sv, fv := "hx_x", "hx_x"
		if emu {
			sv = fmt.Sprintf("hx_chk(hx_s_%s, hx_x, %d)", r.Name, mode)
			fv = fmt.Sprintf("hx_chk(hx_w_%s, hx_x, 1)", r.Name)
		}
		if noFlags {
			// A full tile with a written-set table (shared_written.go): no flag.
			return fmt.Sprintf("{ const int hx_x = %s; hx_s_%s[%s] %s %s; }", p.sharedRef(sa, ix), r.Name, sv, a.Op, rhs)
		}
		return fmt.Sprintf("{ const int hx_x = %s; hx_s_%s[%s] %s %s; hx_w_%s[%s] = 1; }", p.sharedRef(sa, ix), r.Name, sv, a.Op, rhs, r.Name, fv)
	}
	lhs := p.expr(a.LHS, a.Op != "=", true)
	return lhs + " " + a.Op + " " + rhs + ";"
}

// flatPrinter prints statement expressions with array elements addressed
// through the flat index macros HX_IDX_<array>; in emulation each element
// access goes through the checker hx_chk.
type flatPrinter struct {
	subst  map[string]string
	emu    bool
	arrays map[string]*frontend.Array
	stage  *gpuplan.StagePlan
	// Register reuse (reuse.go): env holds the statement iterators'
	// values, subscripts print in a canonical affine form where they can,
	// and reads of array elements go to the temporaries of regs.
	env  map[string]ast.Expr
	regs *regSet
	// wins are the reads printed as window registers (stream.go).
	wins map[*frontend.ArrayRef]string
	// divs are the divisions printed as hx_divc (gpuplan's divconst.go).
	divs map[*frontend.Binary]gpuplan.DivConst
}

func (p *flatPrinter) expr(e frontend.Expr, readToo, write bool) string {
	s, _ := p.exprPrec(e, readToo, write)
	return s
}

func (p *flatPrinter) exprPrec(e frontend.Expr, readToo, write bool) (string, int) {
	switch e := e.(type) {
	case *frontend.ArrayRef:
		if r, ok := p.wins[e]; ok && !write {
			return r, cexpr.PrecPostfix
		}
		var ix []string
		for _, x := range e.Index {
			ix = append(ix, p.index(x))
		}
		idx := fmt.Sprintf("HX_IDX_%s(%s)", e.Name, strings.Join(ix, ", "))
		if len(ix) == 0 {
			return e.Name, cexpr.PrecPostfix
		}
		if p.stage != nil && p.stage.ByName[e.Name] != nil {
			sidx := p.sharedRef(p.stage.ByName[e.Name], ix)
			if p.emu {
				mode := 0
				if write {
					mode = 1
					if readToo {
						mode = 2
					}
				}
				sidx = fmt.Sprintf("hx_chk(hx_s_%s, %s, %d)", e.Name, sidx, mode)
			}
			return "hx_s_" + e.Name + "[" + sidx + "]", cexpr.PrecPostfix
		}
		key := e.Name + "[" + idx + "]"
		if p.emu {
			mode := 0
			if write {
				mode = 1
				if readToo {
					mode = 2
				}
			}
			idx = fmt.Sprintf("hx_chk(%s, %s, %d)", e.Name, idx, mode)
		}
		if p.regs != nil && !write {
			return p.regs.load(key, p.arrays[e.Name], e.Name+"["+idx+"]"), cexpr.PrecPostfix
		}
		return e.Name + "[" + idx + "]", cexpr.PrecPostfix
	case *frontend.Binary:
		if dc, ok := p.divs[e]; ok {
			l, _ := p.exprPrec(e.X, false, false)
			return fmt.Sprintf("hx_divc(%s, %s, %s)", l, floatLit(dc.R), floatLit(dc.C)), cexpr.PrecPostfix
		}
		pr := cexpr.Prec(e.Op)
		l, lp := p.exprPrec(e.X, false, false)
		r, rp := p.exprPrec(e.Y, false, false)
		if lp < pr {
			l = "(" + l + ")"
		}
		if rp <= pr {
			r = "(" + r + ")"
		}
		return l + " " + e.Op + " " + r, pr
	case *frontend.Unary:
		x, xp := p.exprPrec(e.X, false, false)
		if xp < cexpr.PrecUnary || strings.HasPrefix(x, e.Op) {
			x = "(" + x + ")"
		}
		return e.Op + x, cexpr.PrecUnary
	case *frontend.Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i], _ = p.exprPrec(a, false, false)
			if cexpr.CDoubleMath(e.Fun) {
				// C's sqrt(x) computes in double; C++ would pick sqrt(float).
				args[i] = "(double)(" + args[i] + ")"
			}
		}
		return e.Fun + "(" + strings.Join(args, ", ") + ")", cexpr.PrecPostfix
	case *frontend.Cast:
		x, xp := p.exprPrec(e.X, false, false)
		if xp < cexpr.PrecUnary {
			x = "(" + x + ")"
		}
		return "(" + string(e.To) + ")" + x, cexpr.PrecUnary
	}
	return cexpr.ExprPrec(e, p.subst)
}

// IdxMacros defines the flat index macro of every array.
//
// In 64-bit code the first subscript is converted to long long, so the
// whole index is computed in 64 bits.
func IdxMacros(s *frontend.Scop, wide bool) string {
	var b strings.Builder
	for _, a := range s.Arrays {
		n := len(a.Extents)
		if n == 0 {
			continue
		}
		var ps []string
		for i := 0; i < n; i++ {
			ps = append(ps, fmt.Sprintf("i%d", i))
		}
		e := "(i0)"
		if wide {
			e = "((long long)(i0))"
		}
		for i := 1; i < n; i++ {
			e = fmt.Sprintf("(%s * (%s) + (i%d))", e, cexpr.CExpr(a.Extents[i], nil), i)
		}
		fmt.Fprintf(&b, "#define HX_IDX_%s(%s) (%s)\n", a.Name, strings.Join(ps, ", "), e)
	}
	return b.String()
}

// floatLit is a float constant as a C float literal that reads back the
// same value (nine significant digits).
func floatLit(v float32) string {
	s := strconv.FormatFloat(float64(v), 'g', 9, 32)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s + "f"
}
