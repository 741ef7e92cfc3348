package main

// Diagnostics: one format everywhere.
//
//	FILE:LINE:COL: error: what and why     a problem in the input (exit 1)
//	hextile: error: what and why           a usage error (exit 2), then the usage
//	note: ...                              context for the line before
//
// Exit statuses: 0 ok, 1 input rejected or verification failed, 2 usage.

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"hextile/frontend"
)

const (
	exitOK    = 0
	exitInput = 1 // input rejected, a tool failed or verification failed
	exitUsage = 2
)

// usageErr is a usage error: something wrong on the command line.
type usageErr struct {
	msg   string
	notes []string
}

func (e *usageErr) Error() string { return e.msg }

func usagef(format string, args ...any) *usageErr {
	return &usageErr{msg: fmt.Sprintf(format, args...)}
}

// withNote adds a note line.
func (e *usageErr) withNote(format string, args ...any) *usageErr {
	e.notes = append(e.notes, fmt.Sprintf(format, args...))
	return e
}

// usageFail prints a usage error of command name, then the command's usage
// line, and returns the usage exit status.
func usageFail(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "hextile: error: %s\n", oneLine(err.Error()))
	var ue *usageErr
	if errors.As(err, &ue) {
		for _, n := range ue.notes {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
	}
	printUsageLine(stderr, name)
	return exitUsage
}

// printUsageLine prints the command's usage line and where its flags are
// listed.
func printUsageLine(w io.Writer, name string) {
	if c, ok := commands[name]; ok {
		fmt.Fprintf(w, "usage: %s\n", c.usage)
		fmt.Fprintf(w, "run 'hextile help %s' for its flags\n", name)
		return
	}
	fmt.Fprintln(w, "usage: hextile COMMAND [flags] [args]")
	fmt.Fprintln(w, "run 'hextile help' for the commands")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// parseFlags handles --help (the flags on stdout, exit 0) and parses args;
// a flag the command does not have, or a bad value, is a usage error. ok
// is false when the command is done, with exit status code.
func parseFlags(fs *pflag.FlagSet, name string, args []string, stdout, stderr io.Writer) (ok bool, code int) {
	fs.SetOutput(io.Discard) // errors are printed here, once, in the usage format
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" {
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return false, exitOK
		}
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return false, exitOK
		}
		return false, usageFail(stderr, name, err)
	}
	return true, exitOK
}

// oneFile checks that exactly one FILE argument was given.
func oneFile(fs *pflag.FlagSet) error {
	switch fs.NArg() {
	case 0:
		return usagef("no input file: want exactly one C file")
	case 1:
		return nil
	}
	return usagef("want exactly one C file, got %d arguments: %s", fs.NArg(), strings.Join(fs.Args(), " "))
}

// checkEnum is the check of a flag whose value is one of valid.
func checkEnum(flag, val string, valid ...string) error {
	for _, v := range valid {
		if v == val {
			return nil
		}
	}
	return usagef("unknown --%s=%s (valid: %s)", flag, val, strings.Join(valid, ", "))
}

// tileKinds are the valid values of --tile.
var tileKinds = []string{"hybrid", "hexagonal", "classical", "overlapped", "sweep", "none"}

// posPrefix matches the position a diagnostic line starts with: a file
// name (which may hold a colon, as in dir:v2/x.c, but not a colon and a
// space: "cc: x.c:1:2: ..." is no position), line and column.
var posPrefix = regexp.MustCompile(`^([^\s:](?:[^:]|:\S)*?:\d+:\d+): (.*)$`)

// fileDiag matches a diagnostic about a whole file ("x.c: error: ...").
var fileDiag = regexp.MustCompile(`^[^\s:](?:[^:]|:\S)*: (error|warning|note|fatal error): `)

// diagText formats err in the input-error format: every line that starts
// with a position gets "error: " after it when it has no severity; a
// first line without a position gets fallback's (a "FILE:LINE:COL" or "")
// or, when that is empty, "hextile: error: ". Other continuation lines are
// kept as they are.
func diagText(err error, fallback string) string {
	lines := strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
	for i, l := range lines {
		if m := posPrefix.FindStringSubmatch(l); m != nil {
			rest := m[2]
			if !hasSeverity(rest) {
				rest = "error: " + rest
			}
			lines[i] = m[1] + ": " + rest
			continue
		}
		if i > 0 || fileDiag.MatchString(l) {
			continue
		}
		l = strings.TrimPrefix(l, "hextile: ")
		if fallback != "" {
			lines[i] = fallback + ": error: " + l
		} else {
			lines[i] = "hextile: error: " + l
		}
	}
	return strings.Join(lines, "\n")
}

func hasSeverity(s string) bool {
	return strings.HasPrefix(s, "error: ") || strings.HasPrefix(s, "warning: ") || strings.HasPrefix(s, "note: ") ||
		strings.HasPrefix(s, "fatal error: ")
}

// inputFail prints an error about the input (a usage error when err is a
// usageErr) and returns the exit status. fallback positions an error that
// has none (e.g. the scop's position).
func inputFail(stderr io.Writer, name string, err error, fallback string) int {
	var ue *usageErr
	if errors.As(err, &ue) {
		return usageFail(stderr, name, err)
	}
	fmt.Fprintln(stderr, diagText(err, fallback))
	return exitInput
}

// toolFail prints a failure that is neither the input's nor the command
// line's (a missing tool, a driver error) as "hextile: error: ...".
func toolFail(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "hextile: error: %s\n", oneLine(fmt.Sprintf(format, args...)))
	return exitInput
}

// posOf is a position as FILE:LINE:COL.
func posOf(p frontend.Pos) string { return p.String() }
