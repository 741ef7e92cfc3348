package frontend

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInspect: every node in order, an array reference's subscripts
// skipped where f says so.
func TestInspect(t *testing.T) {
	a := &ArrayRef{Name: "A", Index: []Expr{&Binary{Op: "-", X: &VarRef{Name: "i"}, Y: &Number{Text: "1"}}}}
	e := &Binary{Op: "/", X: &Binary{Op: "+", X: &Unary{Op: "-", X: a}, Y: &Call{Fun: "sqrtf", Args: []Expr{&Cast{To: Float, X: &VarRef{Name: "x"}}}}}, Y: &Number{Text: "118"}}
	name := func(n Expr) string {
		switch n := n.(type) {
		case *Binary:
			return n.Op
		case *Unary:
			return "u" + n.Op
		case *ArrayRef:
			return n.Name
		case *VarRef:
			return n.Name
		case *Number:
			return n.Text
		case *Call:
			return n.Fun
		case *Cast:
			return "(" + string(n.To) + ")"
		}
		return "?"
	}
	for _, tc := range []struct {
		skipSubscripts bool
		want           []string
	}{
		{false, []string{"/", "+", "u-", "A", "-", "i", "1", "sqrtf", "(float)", "x", "118"}},
		{true, []string{"/", "+", "u-", "A", "sqrtf", "(float)", "x", "118"}},
	} {
		var got []string
		Inspect(e, func(n Expr) bool {
			got = append(got, name(n))
			_, ref := n.(*ArrayRef)
			return !(ref && tc.skipSubscripts)
		})
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("skip %v (-want +got):\n%s", tc.skipSubscripts, d)
		}
	}
}
