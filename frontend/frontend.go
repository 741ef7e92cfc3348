package frontend

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// Options control how a C file is read.
type Options struct {
	// Cpp runs the system preprocessor (cc -E -dD) first, with IncludeDirs
	// and Defines passed as -I and -D. Macros are then expanded, so sizes
	// written as macros become constants of the model rather than
	// parameters.
	Cpp         bool
	IncludeDirs []string
	// Defines are -D NAME=VALUE definitions. Without Cpp they override the
	// value of a #define of the same name (or define it).
	Defines map[string]string
	// CC is the preprocessor command (default "cc").
	CC string
}

// ParseFile reads and parses the C file at path.
func ParseFile(path string, opts Options) (*Program, error) {
	if opts.Cpp {
		src, tds, params, err := preprocessWithParams(path, opts)
		if err != nil {
			return nil, err
		}
		if params == nil {
			params = map[string]string{} // non-nil: preprocessed
		}
		return parseSourceTypedefs(path, src, opts, params, tds)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, opts)
}

// Parse parses C source (already read; Options.Cpp is ignored, use
// ParseFile for the preprocessor) and builds the model of each scop: the
// #pragma scop regions, or, in a file without them, every function body that
// forms a static control part. Errors are an ErrorList sorted by position.
func Parse(file string, src []byte, opts Options) (*Program, error) {
	return parseSource(file, src, opts, nil)
}

// preprocessWithParams runs the preprocessor for ParseFile. A -D NAME=INT
// whose NAME the program declares as a variable or function parameter and
// never #defines is the value of a scop parameter, not a macro: passed to
// cc it would be substituted into the declarations (int n becomes int 120,
// which is not C). Such definitions are kept from the preprocessor and
// returned; the others (macros, flags) go to it. The first run, without the
// integer definitions, only classifies them.
func preprocessWithParams(path string, opts Options) ([]byte, map[string]cType, map[string]string, error) {
	var cands []string
	macros := map[string]string{}
	for n, v := range opts.Defines {
		if _, isInt := parseCInt(strings.TrimPrefix(strings.TrimSpace(v), "-")); isInt && v != "" {
			cands = append(cands, n)
		} else {
			macros[n] = v
		}
	}
	if len(cands) == 0 {
		src, tds, err := preprocess(path, opts)
		return src, tds, nil, err
	}
	o1 := opts
	o1.Defines = macros
	first, tds, err := preprocess(path, o1)
	if err != nil {
		return nil, nil, nil, err
	}
	declared, defined := declaredNames(path, first, tds)
	params := map[string]string{}
	for _, n := range cands {
		if declared[n] && !defined[n] {
			params[n] = opts.Defines[n]
		} else {
			macros[n] = opts.Defines[n]
		}
	}
	if len(params) == 0 {
		src, tds, err := preprocess(path, opts)
		return src, tds, nil, err
	}
	o2 := opts
	o2.Defines = macros
	src, tds, err := preprocess(path, o2)
	return src, tds, params, err
}

// declaredNames returns the names preprocessed source declares as
// variables or function parameters, and the names it #defines.
func declaredNames(file string, src []byte, typedefs map[string]cType) (declared, defined map[string]bool) {
	declared, defined = map[string]bool{}, map[string]bool{}
	toks, defs, errs := lex(file, src, nil)
	for _, d := range defs {
		defined[d.Name] = true
	}
	if len(errs) > 0 {
		return declared, defined
	}
	func() {
		defer func() { _ = recover() }() // a file we cannot scan declares nothing we know of
		p := &parser{file: file, toks: toks, defs: map[string]*define{}, typedefs: copyTypedefs(typedefs)}
		for i := range defs {
			p.defs[defs[i].Name] = &defs[i]
		}
		p.parseFile()
		for n := range p.globals {
			declared[n] = true
		}
		for _, fb := range p.funcs {
			for n := range fb.Vars {
				declared[n] = true
			}
		}
		for _, rs := range p.scops {
			for n := range rs.Vars {
				declared[n] = true
			}
		}
	}()
	return declared, defined
}

// preprocess runs cc -E -dD on path and returns its text without the
// system headers and predefined macros (stripSystemHeaders), and the
// typedef names those headers declare.
func preprocess(path string, opts Options) ([]byte, map[string]cType, error) {
	cc := opts.CC
	if cc == "" {
		cc = "cc"
	}
	args := []string{"-E", "-dD", "-x", "c"}
	for _, d := range opts.IncludeDirs {
		args = append(args, "-I"+d)
	}
	names := make([]string, 0, len(opts.Defines))
	for n := range opts.Defines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v := opts.Defines[n]; v != "" {
			args = append(args, "-D"+n+"="+v)
		} else {
			args = append(args, "-D"+n)
		}
	}
	args = append(args, path)
	cmd := exec.Command(cc, args...)
	// Untranslated diagnostics: cppRedefined and the missing-header hint
	// read cc's English messages.
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		hint := ""
		if e := errb.String(); strings.Contains(e, "No such file or directory") && !strings.Contains(e, path+": No such file") {
			hint = " (a header was not found: give its directory with -I DIR)"
		}
		return nil, nil, fmt.Errorf("%s: error: preprocessor failed%s (%s %v): %v\n%s", path, hint, cc, args, err, errb.String())
	}
	if err := cppRedefined(errb.String(), opts.Defines); err != nil {
		return nil, nil, err
	}
	if err := cppUndefined(out.Bytes(), opts.Defines); err != nil {
		return nil, nil, err
	}
	src, sys := stripSystemHeaders(out.Bytes())
	return src, systemTypedefs(sys), nil
}

func copyTypedefs(m map[string]cType) map[string]cType {
	out := make(map[string]cType, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// parseSource parses src; cppParams is nil for source that did not go
// through the preprocessor, else the -D values of scop parameters kept from
// it (see preprocessWithParams).
func parseSource(file string, src []byte, opts Options, cppParams map[string]string) (prog *Program, err error) {
	return parseSourceTypedefs(file, src, opts, cppParams, nil)
}

// parseSourceTypedefs is parseSource with the typedef names of the system
// headers preprocessed source included (their text is not in src).
func parseSourceTypedefs(file string, src []byte, opts Options, cppParams map[string]string, typedefs map[string]cType) (prog *Program, err error) {
	// Bad input never crashes the compiler: a panic here is a bug, reported
	// as an internal error (FuzzParseC fails on those).
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			err = ErrorList{{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("internal error: %v", r)}}
		}
	}()
	return parseSourceNoRecoverTypedefs(file, src, opts, cppParams, typedefs)
}

func parseSourceNoRecover(file string, src []byte, opts Options, cppParams map[string]string) (prog *Program, err error) {
	return parseSourceNoRecoverTypedefs(file, src, opts, cppParams, nil)
}

func parseSourceNoRecoverTypedefs(file string, src []byte, opts Options, cppParams map[string]string, typedefs map[string]cType) (prog *Program, err error) {
	cpp := cppParams != nil
	predef := opts.Defines
	if cpp {
		predef = cppParams
	}
	toks, defList, errs := lex(file, src, predef)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	defs := map[string]*define{}
	if localInclude(toks, src) {
		// Marker for hints: the file includes a local header.
		defs["#include"] = &define{Name: "#include", FuncLike: true}
	}
	if systemInclude(src) {
		// Marker for hints: the file includes a system header (M_PI).
		defs["#include<>"] = &define{Name: "#include<>", FuncLike: true}
	}
	for i := range defList {
		d := &defList[i]
		defs[d.Name] = d
	}
	// -D wins over the source.
	for name := range predef {
		for i := range defList {
			if defList[i].Name == name && defList[i].Pos.File == "<command line>" {
				defs[name] = &defList[i]
			}
		}
	}
	p := &parser{file: file, toks: toks, defs: defs, typedefs: copyTypedefs(typedefs)}
	p.parseFile()
	if len(p.errs) > 0 {
		return nil, p.errs.Err()
	}
	raws := p.scops
	var all ErrorList
	if !p.hasScops {
		var ferrs ErrorList
		for _, fb := range p.funcs {
			rs, e := p.functionScop(fb)
			if rs != nil {
				raws = append(raws, rs)
			} else {
				ferrs = append(ferrs, e...)
			}
		}
		if len(raws) == 0 {
			if len(ferrs) > 0 {
				return nil, ferrs.Err()
			}
			return nil, ErrorList{{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: "no #pragma scop region and no function body that forms a static control part"}}.Err()
		}
	}
	prog = &Program{File: file, Source: src}
	intDefs := map[string]int64{}
	for name, d := range defs {
		if d.FuncLike {
			continue
		}
		if cpp && (strings.HasPrefix(name, "__") || strings.HasPrefix(d.Pos.File, "<built-in>") ||
			strings.HasPrefix(d.Pos.File, "/usr/")) {
			continue // predefined and system macros
		}
		if v, ok := defineValue(d); ok {
			intDefs[name] = v
		}
	}
	for _, rs := range raws {
		var after []byte
		if rs.End >= 0 && rs.End <= len(src) {
			after = src[rs.End:]
		}
		sc, errs := buildScop(rs, defs, intDefs, cpp, after)
		all = append(all, errs...)
		if sc != nil {
			prog.Scops = append(prog.Scops, sc)
		}
	}
	if len(all) > 0 {
		return nil, all.Err()
	}
	return prog, nil
}

// buildScop turns one parsed region into the model.
func buildScop(rs *rawScop, defs map[string]*define, intDefs map[string]int64, cpp bool, after []byte) (*Scop, ErrorList) {
	b := &builder{rs: rs, cpp: cpp, defs: defs, isParam: map[string]bool{}, arrays: map[string]*Array{}, after: after,
		scalars: map[string]*varInfo{}, written: map[string]bool{}, counters: map[string]bool{},
		expand: map[string]bool{}, dom: dnf{conj{}}}
	collectWritten(rs.Body, b.written, b.counters)
	var ctr int64
	b.walkList(rs.Body, nil, &ctr)
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	sc := &Scop{Start: rs.Start, End: rs.End, Pos: rs.P, Func: rs.Func, Defines: map[string]int64{}}
	for k, v := range intDefs {
		sc.Defines[k] = v
	}
	b.finish(sc)
	sc.Private = b.private
	if len(b.errs) == 0 {
		sizeOpenArrays(sc)
	}
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	return sc, nil
}

// localInclude reports whether the source has an #include "..." line.
func localInclude(_ []token, src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "#") && strings.Contains(l, "include") && strings.Contains(l, "\"") {
			return true
		}
	}
	return false
}

// systemInclude reports whether the source has an #include <...> line.
func systemInclude(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "#") && strings.Contains(l, "include") && strings.Contains(l, "<") {
			return true
		}
	}
	return false
}
