package schedule

import (
	"fmt"
	"strings"

	"hextile/frontend"
	"hextile/poly"
)

// canonFor returns the canonical form that tilings of kind use, or a
// refusal that names the construct (its line and column), the tiling that
// refuses it and the tiling that would take it.
//
// Hybrid and hexagonal tiling need the strict canonical schedule of section
// 3.2 (every dependence carried by the one outer time loop, bounded cone
// slopes). Classical tiling takes it too, and otherwise the relaxed, skewed
// form (skew.go: Gauss-Seidel), with loops that count down run upwards
// first and as written second. None needs nothing (Compute falls back to
// the original order).
func canonFor(scop *frontend.Scop, deps *frontend.Deps, kind Kind) (*canon, error) {
	cn, err := newCanon(scop, deps)
	if err == nil {
		return cn, nil
	}
	if kind == None {
		return nil, err
	}
	strict := err
	if kind == Classical {
		var errs []error
		for _, mode := range []canonMode{{relaxed: true}, {relaxed: true, useDown: true}} {
			if !mode.useDown || hasDown(scop) {
				c, err := newCanonMode(scop, deps, mode)
				if err == nil {
					return c, nil
				}
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			err = errs[len(errs)-1]
			if len(errs) > 1 && !strings.Contains(errs[1].Error(), "no skew") {
				err = errs[0]
			}
		}
		return nil, refusal(scop, kind, err, "--tile=none takes this program (and --tile=classical tiles its loop nests one band at a time)")
	}
	// hybrid, hexagonal: suggest classical when it takes the program as one band
	alt := "--tile=classical (one band of tiles per loop nest) and --tile=none take this program"
	if _, err := canonFor(scop, deps, Classical); err == nil {
		alt = "--tile=classical takes this program"
	}
	return nil, refusal(scop, kind, strict, alt)
}

func hasDown(scop *frontend.Scop) bool {
	for _, s := range scop.Stmts {
		for _, d := range s.Down {
			if d {
				return true
			}
		}
	}
	return false
}

// refusal words a refusal: the construct with its position (from err, or
// the scop's), why kind cannot take it, and the tiling that would.
func refusal(scop *frontend.Scop, kind Kind, err error, alt string) error {
	msg := err.Error()
	pos := posString(scop.Pos)
	if p := scop.Pos.File + ":"; scop.Pos.File != "" && strings.HasPrefix(msg, p) {
		// already positioned at the offending statement
		pos = ""
	}
	need := "every dependence carried by the outer time loop and a bounded dependence cone (section 3.2)"
	if kind == Classical {
		need = "every statement inside one outer time loop and dependences that go forward in the loop order and can be skewed to point forward in every dimension"
	}
	return fmt.Errorf("%s%s; --tile=%s needs %s; %s", pos, msg, kind, need, alt)
}

// untiled is the schedule of --tile=none for programs the canonical
// schedule cannot take (several time loops, statements outside the time
// loop, in-place updates, reductions): the original 2d+1 schedule (loops
// that count down run as written), with every loop dimension that carries
// no dependence marked parallel, proven exactly on the composed
// dependences. Parallel loops are tile space dimensions (the CUDA target
// maps them to blocks), the others host time dimensions.
func untiled(scop *frontend.Scop, deps *frontend.Deps) (*Schedule, error) {
	if scop == nil || len(scop.Stmts) == 0 {
		return nil, fmt.Errorf("the scop has no statements")
	}
	m, n := scop.TextualSchedule()
	if deps == nil {
		deps = &frontend.Deps{}
	}
	ctx := scop.Context
	M := m.IntersectParams(ctx)
	var all poly.Map
	have := false
	for _, d := range []poly.Map{deps.Flow, deps.Anti, deps.Output} {
		if len(d.Basics) == 0 {
			continue
		}
		dp := d.IntersectParams(ctx).ApplyDomain(M).ApplyRange(M)
		if !have {
			all, have = dp, true
		} else {
			all = all.Union(dp)
		}
	}
	dims := make([]Dim, n)
	for j := range dims {
		dims[j] = Dim{Name: fmt.Sprintf("o%d", j), Role: RoleTileTime}
		if j%2 == 0 {
			continue // a textual position
		}
		loop := false
		for _, st := range scop.Stmts {
			if j/2 < len(st.Iters) {
				loop = true
			}
		}
		if !loop {
			continue
		}
		if !have || all.Intersect(lexRel(scop.Params, n, j, "!=")).IsEmpty() {
			dims[j].Parallel = true
			dims[j].Role = RoleTileSpace
		}
	}
	return &Schedule{Kind: None, Map: m, Dims: dims, Untiled: true, orig: scop}, nil
}
