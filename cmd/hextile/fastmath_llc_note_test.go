package main

import (
	"strings"
	"testing"

	"hextile/codegen"
)

// TestFastMathNoteLLCFlags: the llc command line that heads compile
// --target=llvm --fast-math has the code generator options hextile's own
// --target=ptx uses (codegen.LLCFlags: 32-bit shared pointers, no loop
// strength reduction), so that llc run by hand makes the same PTX.
func TestFastMathNoteLLCFlags(t *testing.T) {
	for _, f := range append(append([]string{}, codegen.LLCFlags...), llcFastMathFlags...) {
		if !strings.Contains(llvmFastMathNote, " "+f) {
			t.Errorf("the --fast-math note lacks llc's %s: %q", f, llvmFastMathNote)
		}
	}
}
