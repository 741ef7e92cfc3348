package frontend

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// redefinedLine matches the preprocessor's warning that a file #defines
// again a macro defined before it, as gcc prints it (`f.c:12: warning:
// "N" redefined`) and clang (`f.c:12:9: warning: 'N' macro redefined`).
var redefinedLine = regexp.MustCompile(`(?m)^(.+?):(\d+):(?:(\d+):)? warning: ["'‘]([A-Za-z_][A-Za-z0-9_]*)["'’] (?:macro )?redefined`)

// cppRedefined reports the first -D definition of defines that the
// preprocessed file (or a header it includes) #defines again, going by the
// preprocessor's warnings in stderr: cc -D N=1000 on a file with its own
// #define N 30 compiles with N = 30 (the later definition wins), so the
// user's -D would silently have no effect. Without --cpp hextile's own
// macro handling lets -D win; with it the error says where the file
// replaces the value and how to keep the -D (PolyBench guards its dataset
// sizes with #if !defined(N), so -D N=... works there).
func cppRedefined(stderr string, defines map[string]string) error {
	for _, m := range redefinedLine.FindAllStringSubmatch(stderr, -1) {
		name := m[4]
		v, ok := defines[name]
		if !ok {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		if col == 0 {
			col = defineColumn(m[1], line, name)
		}
		return ErrorList{{Pos: Pos{File: m[1], Line: line, Col: col}, Msg: fmt.Sprintf("%s has no effect: this #define of %s replaces it after the preprocessor's command line (the later definition wins), so %s would keep the file's value; guard the #define with #ifndef %s (as PolyBench's dataset sizes are), or leave out -D %s", dFlag(name, v), name, name, name, name)}}
	}
	return nil
}

// dFlag is the -D option that defines name as v (v empty: -D name).
func dFlag(name, v string) string {
	if v == "" {
		return "-D " + name
	}
	return "-D " + name + "=" + v
}

// defineColumn is the column of name after the #define on line of file
// (gcc's warning gives the line only): `#  define n 30` -> 11, not the n
// of "define"; 1 where the file cannot be read or the line #defines
// something else.
func defineColumn(file string, line int, name string) int {
	return directiveNameColumn(file, line, "define", name)
}

// directiveNameColumn is the column of name after #directive on line of
// file, or 1 where the file cannot be read or the line is not that.
func directiveNameColumn(file string, line int, directive, name string) int {
	b, err := os.ReadFile(file)
	if err != nil {
		return 1
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		return 1
	}
	re := regexp.MustCompile(`^\s*#\s*` + directive + `\s+(` + regexp.QuoteMeta(name) + `)\b`)
	if m := re.FindStringSubmatchIndex(lines[line-1]); m != nil {
		return m[2] + 1
	}
	return 1
}

// lineMarker matches cc -E's line markers: # LINE "FILE" [FLAGS].
var lineMarker = regexp.MustCompile(`^# (\d+) "((?:[^"\\]|\\.)*)"`)

// cppUndefined reports the first -D definition of defines that the
// preprocessed text out (cc -E -dD, which keeps #undef lines) #undefs in
// the file or a header: cc gives no warning for #undef N followed by
// #define N 30, and the -D would silently have no effect. The position
// comes from the line markers.
func cppUndefined(out []byte, defines map[string]string) error {
	file, line := "", 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		text := sc.Text()
		if m := lineMarker.FindStringSubmatch(text); m != nil {
			line, _ = strconv.Atoi(m[1])
			file = m[2]
			continue
		}
		if rest, ok := strings.CutPrefix(text, "#undef "); ok && !strings.HasPrefix(file, "<") {
			name := strings.TrimSpace(rest)
			if v, ok := defines[name]; ok {
				return ErrorList{{Pos: Pos{File: file, Line: line, Col: directiveNameColumn(file, line, "undef", name)}, Msg: fmt.Sprintf("%s has no effect: this #undef of %s removes it after the preprocessor's command line, so %s would be whatever the file defines next; guard the #undef and #define with #ifndef %s, or leave out -D %s", dFlag(name, v), name, name, name, name)}}
			}
		}
		line++
	}
	return nil
}
