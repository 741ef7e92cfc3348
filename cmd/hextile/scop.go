package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"hextile/frontend"
	"hextile/poly"
)

func init() {
	register(command{
		name:    "scop",
		summary: "print the polyhedral model of the #pragma scop regions of a C file",
		usage:   "hextile scop FILE.c [--json] [--cpp] [-I DIR] [-D NAME=VALUE]",
		run:     runScop,
	})
}

// frontendFlags are the flags of every command that reads C.
type frontendFlags struct {
	cpp      bool
	includes []string
	defines  []string
}

func (f *frontendFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.cpp, "cpp", false, "run the system preprocessor (cc -E) first")
	fs.StringArrayVarP(&f.includes, "include", "I", nil, "include directory for --cpp")
	fs.StringArrayVarP(&f.defines, "define", "D", nil, "define NAME=VALUE (overrides a #define of the file)")
}

// parseCommand parses the flags and the single FILE.c argument, runs check
// (the command's own flag checks, usage errors) and reads the program; the
// -D values are checked against it. It returns the exit status to use when
// prog is nil.
func parseCommand(name string, args []string, stdout, stderr io.Writer, extra func(*pflag.FlagSet), check func() error) (*frontend.Program, int) {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	var ff frontendFlags
	ff.register(fs)
	if extra != nil {
		extra(fs)
	}
	if ok, code := parseFlags(fs, name, args, stdout, stderr); !ok {
		return nil, code
	}
	if err := oneFile(fs); err != nil {
		return nil, usageFail(stderr, name, err)
	}
	ds, err := parseDefines(ff.defines, ff.cpp)
	if err != nil {
		return nil, usageFail(stderr, name, err)
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, usageFail(stderr, name, err)
		}
	}
	text, _ := defineMaps(ds)
	opts := frontend.Options{Cpp: ff.cpp, IncludeDirs: ff.includes, Defines: text}
	var prog *frontend.Program
	err = newProgress(stderr).step("reading "+fs.Arg(0), func() (err error) {
		prog, err = frontend.ParseFile(fs.Arg(0), opts)
		return err
	})
	if err != nil {
		return nil, inputFail(stderr, name, err, "")
	}
	if err := checkDefines(prog, ds, ff.cpp); err != nil {
		return nil, inputFail(stderr, name, err, "")
	}
	return prog, 0
}

// scopJSON is the --json form of one scop: isl-notation union sets and maps.
type scopJSON struct {
	Context  string `json:"context"`
	Domain   string `json:"domain"`
	Reads    string `json:"reads"`
	Writes   string `json:"writes"`
	Schedule string `json:"schedule"`
}

func scopToJSON(sc *frontend.Scop) scopJSON {
	dom := poly.Set{Params: sc.Params}
	reads := poly.Map{Params: sc.Params}
	writes := poly.Map{Params: sc.Params}
	sched := poly.Map{Params: sc.Params}
	for _, st := range sc.Stmts {
		dom = dom.Union(st.Domain)
		sched = sched.Union(st.Schedule)
		for _, a := range st.Reads {
			reads = reads.Union(a.Rel)
		}
		for _, a := range st.Writes {
			writes = writes.Union(a.Rel)
		}
	}
	return scopJSON{Context: sc.Context.String(), Domain: dom.String(), Reads: reads.String(),
		Writes: writes.String(), Schedule: sched.String()}
}

// writeJSON prints one object for a single scop, an array for several.
func writeJSON[T any](w io.Writer, items []T) {
	var v any = items
	if len(items) == 1 {
		v = items[0]
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func runScop(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	var asJSON bool
	prog, code := parseCommand("scop", args, stdout, stderr, func(fs *pflag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print one JSON object with the fields context, domain, reads, writes, schedule")
	}, nil)
	if prog == nil {
		return code
	}
	if asJSON {
		var out []scopJSON
		for _, sc := range prog.Scops {
			out = append(out, scopToJSON(sc))
		}
		writeJSON(stdout, out)
		return 0
	}
	for i, sc := range prog.Scops {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, sc)
	}
	return 0
}
