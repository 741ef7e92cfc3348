package frontend

// Macro expansion inside the strictly parsed parts (scop regions,
// declarations). Integer and floating-point constants (#define N 64,
// #define ALPHA 0.5f) stay names: the integer ones are the model's
// parameters, a floating-point one becomes its literal where the model
// builder meets it in a statement body (build.go, value). Every other object-like macro, and every function-like macro
// followed by '(', is replaced by its body at the token level, as the C
// preprocessor does (arguments substituted textually, then rescanned), so an
// unparenthesized body keeps C's meaning. The # and ## operators are not
// supported (run with --cpp).

const (
	maxMacroDepth = 32
	maxExpansions = 20000 // per parser: bounds exponential macro growth
)

// literalDefine reports whether d is a constant kept by name.
func literalDefine(d *define) bool {
	if d.FuncLike || d.Err != nil {
		return false // a bad body is expanded, to report its error (expand)
	}
	if _, ok := defineValue(d); ok {
		return true
	}
	return len(d.Body) == 1 && d.Body[0].Kind == tFloat
}

// expandable reports whether the token at p.i+k starts a macro use to
// expand.
func (p *parser) expandable(k int) bool {
	t := p.peek(k)
	if t.Kind != tIdent {
		return false
	}
	d, ok := p.defs[t.Text]
	if !ok || literalDefine(d) {
		return false
	}
	if d.FuncLike {
		n := p.peek(k + 1)
		return n.Kind == tPunct && n.Text == "("
	}
	return true
}

// expandHere expands macro uses at p.i+k until the token there is not one.
func (p *parser) expandHere(k int) {
	for p.expandable(k) {
		p.expand(p.i + k)
	}
}

// expand replaces the macro use at token index at by its expansion.
func (p *parser) expand(at int) {
	call := p.toks[at]
	d := p.defs[call.Text]
	if d.Err != nil {
		p.fail(d.Err.Pos, "%s (in the #define of %s, used at line %d)", d.Err.Msg, d.Name, call.Pos.Line)
	}
	p.expansions++
	if call.Depth >= maxMacroDepth || p.expansions > maxExpansions {
		p.fail(call.Pos, "macro %s expands recursively", call.Text)
	}
	if d.BadParams {
		p.fail(call.Pos, "cannot read the parameter list of macro %s: run with --cpp", d.Name)
	}
	end := at + 1
	var args [][]token
	if d.FuncLike {
		depth := 0
		cur := []token{}
		k := at + 2
		for ; ; k++ {
			if k >= len(p.toks) || p.toks[k].Kind == tEOF || p.toks[k].Kind == tScop || p.toks[k].Kind == tEndscop {
				p.fail(call.Pos, "unterminated call of macro %s", d.Name)
			}
			t := p.toks[k]
			if t.Kind == tPunct && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
				depth++
			} else if t.Kind == tPunct && (t.Text == ")" || t.Text == "]" || t.Text == "}") {
				if depth == 0 && t.Text == ")" {
					break
				}
				depth--
			} else if depth == 0 && t.Kind == tPunct && t.Text == "," {
				args = append(args, cur)
				cur = []token{}
				continue
			}
			cur = append(cur, t)
		}
		if len(cur) > 0 || len(args) > 0 {
			args = append(args, cur)
		}
		end = k + 1
		if len(args) != len(d.Params) && !(len(d.Params) == 0 && len(args) == 0) {
			p.fail(call.Pos, "macro %s takes %d arguments, %d given", d.Name, len(d.Params), len(args))
		}
	}
	var out []token
	for _, b := range d.Body {
		if b.Kind == tPunct && (b.Text == "#" || b.Text == "##") {
			p.fail(call.Pos, "macro %s uses the %s operator: run with --cpp", d.Name, b.Text)
		}
		if b.Kind == tIdent {
			if idx := indexOf(d.Params, b.Text); idx >= 0 {
				for _, a := range args[idx] {
					a.Depth = max(a.Depth, call.Depth)
					out = append(out, a)
				}
				continue
			}
		}
		t := b
		t.Pos, t.End, t.Depth = call.Pos, call.End, call.Depth+1
		out = append(out, t)
	}
	toks := make([]token, 0, len(p.toks)-(end-at)+len(out))
	toks = append(toks, p.toks[:at]...)
	toks = append(toks, out...)
	toks = append(toks, p.toks[end:]...)
	p.toks = toks
	if len(out) == 0 && at >= len(p.toks)-1 {
		return
	}
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
