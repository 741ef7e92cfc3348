package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"hextile/poly/calc"
)

func init() {
	register(command{
		name:    "calc",
		summary: "iscc-style calculator over integer sets and maps (isl notation)",
		usage:   "hextile calc [-e SCRIPT]... [FILE]",
		run:     runCalc,
	})
}

// runCalc runs a calculator script from -e (repeatable, joined by newlines),
// from FILE, or from standard input. Script errors print
// "<stdin>:line:col: ..." (or the file name) and exit 1; usage errors exit 2.
func runCalc(args []string, stdout, stderr io.Writer, stdin io.Reader) int {
	fs := pflag.NewFlagSet("calc", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var scripts []string
	fs.StringArrayVarP(&scripts, "expr", "e", nil, "run SCRIPT (repeatable; the scripts run in order, as lines of one script)")
	help := fs.BoolP("help", "h", false, "show this help")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: hextile calc [-e SCRIPT]... [FILE]")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Statements: NAME := EXPR;  assigns;  EXPR;  prints the value in isl notation.")
		fmt.Fprintln(w, "Operators (one precedence, left to right, as in iscc): + union, * intersection,")
		fmt.Fprintln(w, "- difference, . join (set . map is the image), % gist, <= < >= > = comparisons;")
		fmt.Fprintln(w, "postfix ^-1 reverse; prefix dom, ran, lexmin, lexmax, deltas, coalesce, sample, params.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Flags:")
		fmt.Fprint(w, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			usage(stdout)
			return 0
		}
		return usageFail(stderr, "calc", err)
	}
	if *help {
		usage(stdout)
		return 0
	}
	var name, src string
	switch {
	case len(scripts) > 0 && fs.NArg() > 0:
		return usageFail(stderr, "calc", usagef("give either -e scripts or a FILE, not both"))
	case fs.NArg() > 1:
		return usageFail(stderr, "calc", usagef("at most one FILE, got %d: %s", fs.NArg(), strings.Join(fs.Args(), " ")))
	case len(scripts) > 0:
		name, src = "<stdin>", strings.Join(scripts, "\n")
	case fs.NArg() == 1 && fs.Arg(0) != "-":
		name = fs.Arg(0)
		b, err := os.ReadFile(name)
		if err != nil {
			return toolFail(stderr, "%v", err)
		}
		src = string(b)
	default:
		b, err := io.ReadAll(stdin)
		if err != nil {
			return toolFail(stderr, "reading standard input: %v", err)
		}
		name, src = "<stdin>", string(b)
	}
	if err := calc.Run(name, src, stdout); err != nil {
		return inputFail(stderr, "calc", err, "")
	}
	return 0
}
