package cexpr

import (
	"strings"

	"hextile/codegen/ast"
)

// PreludeOffset is the start of the first line after the leading comments,
// blank lines and preprocessor lines, and never after the first scop.
func PreludeOffset(src string, codes []*ast.ScopCode) int {
	off := 0
	inComment := false
	for off < len(src) {
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
		case strings.HasPrefix(line, "/*"):
			if !strings.Contains(line, "*/") {
				inComment = true
			}
		default:
			goto done
		}
		off += end + 1
	}
done:
	if off > len(src) {
		off = len(src)
	}
	if len(codes) > 0 && off > codes[0].Scop.Start {
		off = strings.LastIndexByte(src[:codes[0].Scop.Start], '\n') + 1
	}
	return off
}
