package main

// Checks of the command line against the program: -D values against the
// scops' contexts, --sizes against the stencils' dimensions, --block
// against CUDA's launch limits.

import (
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/poly"
	"hextile/schedule"
)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// define is one -D NAME=VALUE of the command line.
type define struct {
	name, val string
	int       bool  // val is an integer
	v         int64 // its value
}

// parseDefines checks the -D flags: NAME is a C identifier and, without
// --cpp, VALUE a number (an integer written as 3e9 counts as one and is
// passed on as 3000000000). An empty VALUE is 1 (without --cpp).
func parseDefines(defs []string, cpp bool) ([]define, error) {
	var out []define
	for _, d := range defs {
		name, val, _ := strings.Cut(d, "=")
		if name == "" || !identRE.MatchString(name) {
			return nil, usagef("bad -D %q: want NAME=VALUE with NAME an identifier", d)
		}
		if !cpp && val == "" {
			val = "1"
		}
		df := define{name: name, val: val}
		if v, err := strconv.ParseInt(val, 0, 64); err == nil {
			df.int, df.v = true, v
		} else if r, ok := new(big.Rat).SetString(val); ok && !strings.ContainsAny(val, "/") {
			if r.IsInt() {
				if !r.Num().IsInt64() {
					return nil, usagef("-D %s=%s: the value does not fit in 64 bits", name, val)
				}
				df.int, df.v = true, r.Num().Int64()
				df.val = strconv.FormatInt(df.v, 10)
			}
			// A non-integer number (a float #define such as ALPHA) is passed on.
		} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, usagef("-D %s=%s: the value does not fit in 64 bits", name, val)
		} else if !cpp {
			return nil, usagef("-D %s=%s: the value is not a number (without --cpp a -D value is an integer or floating-point number)", name, val)
		}
		out = append(out, df)
	}
	return out, nil
}

// defineMaps are the -D values for the frontend (text) and as integers.
func defineMaps(ds []define) (map[string]string, map[string]int64) {
	text, ints := map[string]string{}, map[string]int64{}
	for _, d := range ds {
		text[d.name] = d.val
		delete(ints, d.name)
		if d.int {
			ints[d.name] = d.v
		}
	}
	return text, ints
}

// directiveRE matches a preprocessor line that can use a -D name.
var directiveRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*(?:define|undef|ifdef|ifndef|if|elif)\b[^\n]*`)

var identAnyRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// checkDefines checks the -D values against the program read with them:
// without --cpp each NAME is a #define of the file or a parameter of a
// scop, and at every scop the parameter values (the file's #defines and
// -D) lie in the scop's context (the values for which every statement runs
// and every array extent is positive). A violation that involves a -D is a
// usage error; one of the file's own values an input error at the scop.
func checkDefines(prog *frontend.Program, ds []define, cpp bool) error {
	given := map[string]string{}
	for _, d := range ds {
		given[d.name] = d.val
	}
	if !cpp {
		known := map[string]bool{}
		for _, line := range directiveRE.FindAll(prog.Source, -1) {
			for _, id := range identAnyRE.FindAll(line, -1) {
				known[string(id)] = true
			}
		}
		for _, sc := range prog.Scops {
			for _, p := range sc.Params {
				known[p] = true
			}
		}
		for _, d := range ds {
			if !known[d.name] {
				return usagef("-D %s=%s: %s has no #define %s, no #if that uses it and no scop with a parameter %s", d.name, d.val, prog.File, d.name, d.name)
			}
		}
	}
	for _, sc := range prog.Scops {
		if err := checkContext(sc, given); err != nil {
			return err
		}
	}
	return nil
}

// checkContext checks one scop's parameter values against its context.
func checkContext(sc *frontend.Scop, given map[string]string) error {
	vals := map[string]int64{}
	ctx := sc.Context
	for _, p := range sc.Params {
		if v, ok := sc.Defines[p]; ok {
			vals[p] = v
			ctx = ctx.FixParam(p, v)
		}
	}
	if len(vals) == 0 || !ctx.IsEmpty() {
		return nil
	}
	// Name the constraints the values break.
	var broken []string
	involved := map[string]bool{}
	for _, b := range sc.Context.Basics {
		for _, row := range b.C.Ineq {
			if ok, names := rowHolds(sc.Context.Params, b.C, row, vals, false); !ok {
				broken = append(broken, constraintString(sc.Context.Params, b.C, row, false))
				for _, n := range names {
					involved[n] = true
				}
			}
		}
		for _, row := range b.C.Eq {
			if ok, names := rowHolds(sc.Context.Params, b.C, row, vals, true); !ok {
				broken = append(broken, constraintString(sc.Context.Params, b.C, row, true))
				for _, n := range names {
					involved[n] = true
				}
			}
		}
		if len(sc.Context.Basics) > 1 {
			broken = nil // a union: no single constraint to blame
			involved = map[string]bool{}
			break
		}
	}
	if len(involved) == 0 {
		for p := range vals {
			involved[p] = true
		}
	}
	var names []string
	for n := range involved {
		names = append(names, n)
	}
	sort.Strings(names)
	var fromD, fromFile []string
	for _, n := range names {
		if v, ok := given[n]; ok {
			fromD = append(fromD, fmt.Sprintf("-D %s=%s", n, v))
		} else {
			fromFile = append(fromFile, fmt.Sprintf("%s=%d", n, vals[n]))
		}
	}
	need := "its context " + sc.Context.String()
	if len(broken) > 0 {
		need = strings.Join(broken, " and ")
	}
	if len(fromD) > 0 {
		msg := strings.Join(fromD, ", ")
		if len(fromFile) > 0 {
			msg += " (with " + strings.Join(fromFile, ", ") + " of the file)"
		}
		return usagef("%s: the scop at %s needs %s (its statements run and its arrays have elements only then)", msg, sc.Pos, need).
			withNote("%s: the scop's context is %s", sc.Pos, sc.Context)
	}
	return fmt.Errorf("%s: error: the values %s of the #defines break the scop's context: it needs %s", sc.Pos, strings.Join(fromFile, ", "), need)
}

// rowHolds evaluates a constraint row at vals; a row with an existential
// or a parameter without a value holds (cannot be decided alone). names
// are the parameters the row uses.
func rowHolds(params []string, c *poly.Conj, row []poly.Int, vals map[string]int64, eq bool) (bool, []string) {
	for j := 1 + c.NVar; j < len(row); j++ {
		if !row[j].IsZero() {
			return true, nil
		}
	}
	sum := new(big.Int).Set(row[0].Big())
	var names []string
	for i := 0; i < c.NVar && i < len(params); i++ {
		if row[1+i].IsZero() {
			continue
		}
		v, ok := vals[params[i]]
		if !ok {
			return true, nil
		}
		names = append(names, params[i])
		sum.Add(sum, new(big.Int).Mul(row[1+i].Big(), big.NewInt(v)))
	}
	if eq {
		return sum.Sign() == 0, names
	}
	return sum.Sign() >= 0, names
}

// constraintString prints one row as isl notation ("N >= 3").
func constraintString(params []string, c *poly.Conj, row []poly.Int, eq bool) string {
	one := poly.NewConj(c.NVar, c.NExist)
	if eq {
		one.AddEq(row)
	} else {
		one.AddIneq(row)
	}
	s := poly.Set{Params: params, Basics: []poly.BasicSet{{C: one}}}.String()
	if i := strings.Index(s, "{ : "); i >= 0 {
		s = strings.TrimSuffix(strings.TrimSpace(s[i+4:]), "}")
	}
	return strings.TrimSpace(s)
}

// spaceDims is the number of space dimensions of the scop's canonical
// schedule (the loops inside the time loop; schedule.Compute's count).
func spaceDims(sc *frontend.Scop) int {
	ns := 0
	for _, s := range sc.Stmts {
		ns = max(ns, len(s.Iters)-1)
	}
	return ns
}

// checkSizes checks --sizes against the tiling and every scop: h (tiles
// are h+1 time steps high) is at least 0, so is the hexagon's width
// parameter w0 of hybrid and hexagonal tiling, every other width is at
// least 1, and there is one height and one width per space dimension
// (hexagonal tiling: the height and one or more widths).
func checkSizes(sizes []int64, kind string, scops []*frontend.Scop) error {
	if len(sizes) == 0 {
		return nil
	}
	hex := schedule.Kind(kind) == schedule.Hybrid || schedule.Kind(kind) == schedule.Hexagonal
	for i, v := range sizes {
		switch {
		case i == 0 && v < 0:
			return usagef("--sizes=%s: the tile height parameter h is %d; it must be at least 0 (tiles are h+1 time steps high)", joinInts(sizes), v)
		case i == 1 && hex && v < 0:
			return usagef("--sizes=%s: the hexagon width parameter w0 is %d; it must be at least 0", joinInts(sizes), v)
		case i >= 1 && !(i == 1 && hex) && v < 1:
			return usagef("--sizes=%s: the tile width w%d is %d; it must be at least 1", joinInts(sizes), i-1, v)
		}
	}
	for _, sc := range scops {
		ns := spaceDims(sc)
		lo, hi := ns+1, ns+1
		if schedule.Kind(kind) == schedule.Hexagonal {
			lo = min(ns, 1) + 1
		}
		if len(sizes) < lo || len(sizes) > hi {
			want := fmt.Sprintf("%d", hi)
			if lo != hi {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			names := []string{"h"}
			for j := 0; j < ns; j++ {
				names = append(names, fmt.Sprintf("w%d", j))
			}
			return usagef("--sizes=%s gives %d sizes; %s tiling of the scop at %s (%d space dimensions) takes %s: %s",
				joinInts(sizes), len(sizes), kind, sc.Pos, ns, want, strings.Join(names, ","))
		}
	}
	return nil
}

// CUDA's launch limits (every compute capability hextile targets).
const (
	maxThreadsPerBlock = 1024
	maxBlockX          = 1024
	maxBlockY          = 1024
	maxBlockZ          = 64
	maxGridX           = 1<<31 - 1
	maxGridYZ          = 65535
)

// checkBlock checks --block=x,y,z against CUDA's limits.
func checkBlock(block []int) error {
	if len(block) == 0 {
		return nil
	}
	if len(block) > 3 {
		return usagef("--block=%s has %d entries; a CUDA block has at most 3 dimensions (x,y,z)", joinIntSlice(block), len(block))
	}
	limits := []int{maxBlockX, maxBlockY, maxBlockZ}
	prod := int64(1)
	for i, b := range block {
		axis := "xyz"[i : i+1]
		if b <= 0 {
			return usagef("--block=%s: %s = %d; threads per block dimension must be at least 1", joinIntSlice(block), axis, b)
		}
		if b > limits[i] {
			return usagef("--block=%s: %s = %d exceeds CUDA's limit of %d threads in %s", joinIntSlice(block), axis, b, limits[i], axis)
		}
		prod *= int64(b)
	}
	if prod > maxThreadsPerBlock {
		return usagef("--block=%s is %d threads per block; CUDA allows at most %d", joinIntSlice(block), prod, maxThreadsPerBlock)
	}
	return nil
}

// checkGrid checks a launch's grid against CUDA's limits.
func checkGrid(kernel string, grid [3]int64) error {
	limits := [3]int64{maxGridX, maxGridYZ, maxGridYZ}
	for i, g := range grid {
		if g > limits[i] {
			return fmt.Errorf("kernel %s launches a grid of %d blocks in %c; CUDA allows at most %d: use larger tiles (--sizes) or fewer threads", kernel, g, "xyz"[i], limits[i])
		}
	}
	return nil
}

func joinIntSlice(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// applyDefines rewrites the value of every object-like #define of text
// that a -D names, so that emitted code computes with the -D value (the
// generated loops use the names; the #defines give their values). It
// returns the text and the -D names that had no #define in it.
func applyDefines(text string, ds []define) (string, []string) {
	var missing []string
	for _, d := range ds {
		re := regexp.MustCompile(`(?m)^([ \t]*#[ \t]*define[ \t]+` + regexp.QuoteMeta(d.name) + `)([ \t]+[^\n]*)?$`)
		found := false
		text = re.ReplaceAllStringFunc(text, func(line string) string {
			found = true
			m := re.FindStringSubmatch(line)
			return m[1] + " " + d.val
		})
		if !found {
			missing = append(missing, d.name)
		}
	}
	return text, missing
}

// maxCheckedLaunches bounds the launches checkLaunches walks (the host
// schedule of a long run has many; the first ones include the widest).
const maxCheckedLaunches = 200000

var errEnoughLaunches = fmt.Errorf("enough launches checked")

// checkLaunches checks the grids of the scops' kernel launches at the
// parameter values vals against CUDA's limits (the first
// maxCheckedLaunches launches of each scop). Scops with a parameter
// without a value are skipped: their launches are the caller's.
func checkLaunches(c *codegen.Compilation, opt codegen.CUDAOptions, vals map[string]int64) error {
	// --block has one entry per point space dimension mapped to threads
	// (the innermost three), not more: an extra entry would be ignored.
	for _, s := range c.Scops {
		if s.Sched == nil {
			continue
		}
		n := 0
		for _, d := range s.Sched.Dims {
			if d.Role == schedule.RolePointSpace {
				n++
			}
		}
		if n = min(n, 3); len(opt.Block) > n {
			return usagef("--block=%s has %d entries; the scop at %s maps %d space dimension(s) to threads (x, y, z from the innermost): give at most %d", joinIntSlice(opt.Block), len(opt.Block), s.Scop.Pos, n, n)
		}
	}
	gs, err := codegen.GPUScops(c, opt)
	if err != nil {
		return err
	}
	for _, g := range gs {
		params := map[string]int64{}
		known := true
		for _, p := range g.Scop.Params {
			v, ok := vals[p]
			known = known && ok
			params[p] = v
		}
		if !known {
			continue
		}
		n := 0
		err := g.Launches(params, func(l codegen.GPULaunch) error {
			if err := checkGrid(g.Kernels[l.Kernel].Name, l.Grid); err != nil {
				return fmt.Errorf("%s: error: %v (at %s)", g.Scop.Pos, err, paramList(g.Scop.Params, params))
			}
			if n++; n >= maxCheckedLaunches {
				return errEnoughLaunches
			}
			return nil
		})
		if err != nil && err != errEnoughLaunches {
			return err
		}
	}
	return nil
}

var smArchRE = regexp.MustCompile(`^sm_[0-9]{2,3}[a-z]?$`)
var nvccArchRE = regexp.MustCompile(`^(sm|compute)_[0-9]{2,3}[a-z]?$|^native$`)

// checkArch checks --arch: sm_NN (e.g. sm_80, sm_90a) for llc; nvcc also
// takes compute_NN and native.
func checkArch(arch string, nvcc bool) error {
	if nvcc {
		if !nvccArchRE.MatchString(arch) {
			return usagef("bad --arch=%s: want sm_NN (e.g. sm_90), compute_NN or native", arch)
		}
		return nil
	}
	if !smArchRE.MatchString(arch) {
		return usagef("bad --arch=%s: want sm_NN (e.g. sm_80, sm_90)", arch)
	}
	return nil
}
