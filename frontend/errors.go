package frontend

import (
	"fmt"
	"sort"
	"strings"
)

// String formats p as file:line:col.
func (p Pos) String() string {
	f := p.File
	if f == "" {
		f = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// Error is one diagnostic at a source position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": error: " + e.Msg }

// MaxErrors is how many diagnostics a list reports: more end with one
// "too many errors" line (as gcc -fmax-errors and the Go compiler), and
// the lexer stops at that point, so garbage input costs neither time nor
// memory in proportion to its errors.
const MaxErrors = 20

// MaxTokens bounds the tokens of one file, so that a huge input is refused
// before it costs gigabytes (the parser keeps a few hundred bytes per
// token); stencil programs, even preprocessed with system headers, have a
// few ten thousand.
const MaxTokens = 1 << 19

// ErrorList is a list of diagnostics, sorted by position when reported (as
// go/scanner.ErrorList).
type ErrorList []*Error

func (l *ErrorList) add(p Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by file, then offset, and removes exact duplicates.
func (l ErrorList) Sort() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := l[:0]
	for i, e := range l {
		if i > 0 && e.Pos == l[i-1].Pos && e.Msg == l[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Error prints every diagnostic on its own line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// full reports whether the list has more than MaxErrors diagnostics.
func (l ErrorList) full() bool { return len(l) > MaxErrors }

// Err returns the list as an error, or nil if it is empty: sorted, and cut
// after MaxErrors diagnostics with a "too many errors" line at the next
// one's position.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l = l.Sort()
	if len(l) > MaxErrors {
		more := &Error{Pos: l[MaxErrors].Pos, Msg: "too many errors"}
		l = append(l[:MaxErrors:MaxErrors], more)
	}
	return l
}
