package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
)

// version is the hextile release; overridden with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// command is one subcommand: run gets the arguments after its name and
// returns the process exit status.
type command struct {
	name    string
	summary string
	usage   string // one line: "hextile NAME [flags] ARGS"
	run     func(args []string, stdout, stderr io.Writer, stdin io.Reader) int
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func init() {
	register(command{name: "help", summary: "show help for hextile or a subcommand", usage: "hextile help [COMMAND]", run: runHelp})
	register(command{name: "version", summary: "print the hextile version", usage: "hextile version", run: runVersion})
}

func main() {
	os.Exit(profiled(os.Getenv("HEXTILE_CPUPROFILE"), func() int { return dispatch(os.Args[1:], os.Stdout, os.Stderr, os.Stdin) }))
}

// profiled runs f, with a Go CPU profile written to file when file is not
// empty (HEXTILE_CPUPROFILE=FILE hextile compile ...; read it with go tool
// pprof): where the compiler spends its time on one input.
func profiled(file string, f func() int) int {
	if file == "" {
		return f()
	}
	out, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hextile: error: HEXTILE_CPUPROFILE: %v\n", err)
		return exitUsage
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintf(os.Stderr, "hextile: error: HEXTILE_CPUPROFILE: %v\n", err)
		return exitUsage
	}
	defer pprof.StopCPUProfile()
	return f()
}

// dispatch runs the subcommand named by args[0] and returns its exit status.
func dispatch(args []string, stdout, stderr io.Writer, stdin io.Reader) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "hextile: error: no command")
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help":
		usage(stdout)
		return 0
	case "-v", "--version":
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "hextile: error: unknown command %q\n", name)
		printUsageLine(stderr, "")
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr, stdin)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "hextile: a polyhedral compiler for stencil codes (hybrid hexagonal/classical tiling)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: hextile COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'hextile help COMMAND' for a command's flags.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 ok, 1 input rejected (FILE:LINE:COL: error: ...) or verification failed, 2 usage error (hextile: error: ...).")
}

func runHelp(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	if len(args) > 1 {
		return usageFail(stderr, "help", usagef("help takes one command name, got %s", strings.Join(args, " ")))
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "hextile: error: help: unknown command %q\n", args[0])
		printUsageLine(stderr, "")
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n\n%s\n", c.usage, c.summary)
	// Commands print their flag defaults on --help.
	if c.name != "help" && c.name != "version" {
		fmt.Fprintln(stdout)
		c.run([]string{"--help"}, stdout, stderr, strings.NewReader(""))
	}
	return 0
}

func runVersion(args []string, stdout, stderr io.Writer, _ io.Reader) int {
	if len(args) > 0 && args[0] != "--help" && args[0] != "-h" {
		return usageFail(stderr, "version", usagef("version takes no arguments, got %s", strings.Join(args, " ")))
	}
	fmt.Fprintf(stdout, "hextile %s\n", version)
	return 0
}
