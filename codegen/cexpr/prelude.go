package cexpr

import (
	"strings"

	"hextile/codegen/ast"
)

// PreludeOffset is the start of the first line after the leading comments,
// blank lines and preprocessor lines, and never after the first scop.
func PreludeOffset(src string, codes []*ast.ScopCode) int {
	limit := len(src)
	if len(codes) > 0 {
		limit = strings.LastIndexByte(src[:codes[0].Scop.Start], '\n') + 1
	}
	return PreludeOffsetBefore(src, limit)
}

// PreludeOffsetBefore is the start of the first line after the leading
// comments, blank lines and preprocessor lines (a directive continued with
// a backslash counts whole), and never after limit: where code of our own
// can go before the file's first declaration, after its #includes and
// #defines.
func PreludeOffsetBefore(src string, limit int) int {
	off := 0
	inComment := false
	for off < len(src) && off < limit {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := strings.TrimSpace(src[off : off+end])
		switch {
		case inComment:
			if strings.Contains(line, "*/") {
				inComment = false
			}
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//"):
			// A directive continued on the next line.
			for strings.HasSuffix(strings.TrimRight(src[off:off+end], " \t\r"), "\\") && off+end+1 < len(src) {
				off += end + 1
				end = strings.IndexByte(src[off:], '\n')
				if end < 0 {
					end = len(src) - off
				}
			}
		case strings.HasPrefix(line, "/*"):
			if !strings.Contains(line, "*/") {
				inComment = true
			}
		default:
			return off
		}
		off += end + 1
	}
	return min(off, limit, len(src))
}
