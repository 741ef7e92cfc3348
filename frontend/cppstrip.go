package frontend

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The text of "cc -E -dD" holds, besides the user's file and its local
// headers, every system header it includes, expanded, and the compiler's
// predefined macros (<built-in>) and -D definitions (<command-line>).
// Back ends, harnesses and references compile that text again after their
// own #include <stdio.h> ...: expanded system declarations would then be
// declared twice (redefinition of struct _IO_FILE, __STDC__ redefined). So
// the frontend keeps only the user's text: stripSystemHeaders replaces each
// outermost inclusion of a system header by its #include line (the include
// guards make a second inclusion harmless) and drops the compiler's
// predefined macros (<built-in>). The -D definitions (<command-line>) stay:
// they give the model its sizes (#ifndef M / #define M 8 with -D M=16). Line markers of the kept text stay, so positions
// still name the user's file and line.

// lineMarkerLine matches a line marker of preprocessed C: # 12 "file" 1 3.
var lineMarkerLine = regexp.MustCompile(`^#\s*(?:line\s+)?(\d+)\s+("(?:[^"\\]|\\.)*")((?:\s+\d+)*)\s*$`)

// includeLine matches an #include directive: the spelled name, with its
// delimiters.
var includeLine = regexp.MustCompile(`^\s*#\s*include(?:_next)?\s*(<[^>]+>|"[^"]+")`)

type cppFrame struct {
	file    string
	sys     bool // a system header (flag 3)
	builtin bool // <built-in>: the compiler's predefined macros
	line    int  // the line number of the next line of text
}

type spelledInclude struct {
	line int
	text string // <stdio.h> or "x.h"
	name string
	used bool
}

// stripSystemHeaders returns the text of cc -E output src without the
// content of system headers and the predefined macros (see above), and the text of the system headers it dropped (their
// declarations, for the typedef names they define).
func stripSystemHeaders(src []byte) (out, sysText []byte) {
	var o, st bytes.Buffer
	o.Grow(len(src) / 4)
	stack := []cppFrame{{}}
	includes := map[string][]spelledInclude{}
	kept := func() bool {
		for _, f := range stack {
			if f.sys {
				return false
			}
		}
		return !stack[len(stack)-1].builtin
	}
	lastMarker, markerLen := -1, 0
	lines := bytes.SplitAfter(src, []byte("\n"))
	for _, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		m := lineMarkerLine.FindSubmatch(bytes.TrimRight(ln, "\r\n"))
		if m == nil {
			if kept() {
				o.Write(ln)
				stack[len(stack)-1].line++
			} else if top := stack[len(stack)-1]; !top.builtin {
				st.Write(ln)
			}
			continue
		}
		num, err := strconv.Atoi(string(m[1]))
		file, err2 := strconv.Unquote(string(m[2]))
		if err != nil || err2 != nil {
			if kept() {
				o.Write(ln)
			}
			continue
		}
		flags := map[string]bool{}
		for _, f := range strings.Fields(string(m[3])) {
			flags[f] = true
		}
		wasKept := kept()
		fr := cppFrame{file: file, sys: flags["3"], builtin: file == "<built-in>", line: num}
		switch {
		case flags["1"]:
			parent := stack[len(stack)-1]
			stack = append(stack, fr)
			if wasKept && !kept() && fr.sys && !strings.HasPrefix(parent.file, "<") {
				o.WriteString("#include " + spelling(includes, parent, file) + "\n")
			}
		case flags["2"]:
			// Back in the includer: it stays what its entry made it.
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			top := &stack[len(stack)-1]
			top.file, top.line = file, num
		default:
			top := &stack[len(stack)-1]
			if top.file == file {
				// A new line of the same file; flag 3 here marks the
				// expansion of a system macro in it, which stays.
				top.line = num
			} else {
				*top = fr
			}
		}
		if kept() {
			if lastMarker >= 0 && lastMarker+markerLen == o.Len() {
				o.Truncate(lastMarker) // no text since: this marker supersedes it
			}
			// Without the flags: the entries they would pair with are gone.
			mk := "# " + strconv.Itoa(num) + " " + string(m[2]) + "\n" // the name as cc spelled it
			lastMarker, markerLen = o.Len(), len(mk)
			o.WriteString(mk)
		}
	}
	return o.Bytes(), st.Bytes()
}

// spelling is how parent (a user's file, at its current line) wrote the
// #include that entered the system header at path: its next unused
// #include directive from that line on whose name path ends with, if it
// is written <...>. Otherwise (a computed include, or "..." which the
// harness, compiling elsewhere, may not find) the absolute path.
func spelling(cache map[string][]spelledInclude, parent cppFrame, path string) string {
	incs, ok := cache[parent.file]
	if !ok {
		if data, err := os.ReadFile(parent.file); err == nil {
			for i, l := range strings.Split(string(data), "\n") {
				if m := includeLine.FindStringSubmatch(l); m != nil {
					incs = append(incs, spelledInclude{line: i + 1, text: m[1], name: m[1][1 : len(m[1])-1]})
				}
			}
		}
		cache[parent.file] = incs
	}
	matches := func(name string) bool {
		return path == name || strings.HasSuffix(path, "/"+strings.TrimPrefix(name, "./"))
	}
	byPath := func() string {
		if abs, err := filepath.Abs(path); err == nil {
			return `"` + abs + `"` // no escapes in #include names
		}
		return `"` + path + `"`
	}
	for pass := 0; pass < 2; pass++ {
		for i := range incs {
			in := &incs[i]
			if in.used || (pass == 0 && in.line < parent.line) || !matches(in.name) {
				continue
			}
			in.used = true
			if in.text[0] == '"' {
				// Found in no directory the harness searches, perhaps
				// (a header marked as a system one): by its path.
				return byPath()
			}
			return in.text
		}
	}
	return byPath()
}

// systemTypedefs returns the scalar typedef names (size_t, int64_t, FILE)
// the dropped system header text declares, for the parser of the kept text.
func systemTypedefs(sysText []byte) map[string]cType {
	out := map[string]cType{}
	if len(sysText) == 0 {
		return out
	}
	toks, defs, _ := lex("<system>", sysText, nil)
	func() {
		defer func() { _ = recover() }() // what we cannot scan declares nothing we know of
		p := &parser{file: "<system>", toks: toks, defs: map[string]*define{}, typedefs: out}
		for i := range defs {
			p.defs[defs[i].Name] = &defs[i]
		}
		p.parseFile()
	}()
	return out
}
