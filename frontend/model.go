package frontend

import (
	"math/big"

	"hextile/poly"
)

// Pos is a position in a source file (line and column count from 1).
type Pos struct {
	File   string
	Offset int // byte offset
	Line   int
	Col    int
}

// Program is a parsed C file with its static control parts.
type Program struct {
	File   string
	Source []byte
	Scops  []*Scop
}

// Scop is one static control part: a #pragma scop region (or a function body
// that forms one) turned into the polyhedral model.
type Scop struct {
	// Start and End are the byte offsets of the region in Program.Source that
	// code generation replaces (from the #pragma scop line to the end of the
	// #pragma endscop line).
	Start, End int
	Pos        Pos    // where the region starts
	Func       string // the enclosing function

	// Params are the model's parameters (symbolic sizes: #define constants
	// kept symbolic, function parameters, VLA extents), in a fixed order.
	Params []string
	// Defines gives the value of every #define constant and of every
	// parameter that has a default value in the source (a #define used as a
	// parameter). Code generation and runs take sizes from here unless
	// overridden with -D.
	Defines map[string]int64
	// Context is the parameter set the model assumes, e.g. [N, T] -> { : N >= 3 and T >= 1 }.
	Context poly.Set

	Arrays []*Array
	Stmts  []*Stmt
	// Private are the function-local scalars that the region assigns once
	// before its loops and only reads after (adi's coefficients): the model
	// forward-substitutes them (privatize.go), so they are no arrays of it;
	// a copy of the region's original text must declare them.
	Private []*Array
}

// Type is a C scalar type of the subset.
type Type string

const (
	Float  Type = "float"
	Double Type = "double"
	IntT   Type = "int"
)

// Array is an array the scop accesses.
type Array struct {
	Name    string
	Elem    Type
	Extents []Expr // one per dimension: affine in parameters (C expressions as written)
	// Outer, for an array whose first extent is unknown (Extents[0] == nil:
	// a pointer to an array, T (*A)[N][M]), is an extent that holds every
	// element the scop accesses in that dimension (a constant such as 2 for
	// A[t % 2], or a parameter plus a constant), proved for all parameter
	// values in the context; copies of the array (harnesses, references,
	// device buffers) are allocated with it. Nil when not derivable.
	Outer  Expr
	Pos    Pos
	Global bool // declared at file scope (not a function parameter)
	// Local marks a scalar declared inside the scop region (code that
	// replaces the region must declare it). Scalars are arrays without
	// extents.
	Local bool
}

// Stmt is one statement of the scop: an assignment in a loop nest.
type Stmt struct {
	Name  string   // S0, S1, ... in textual order
	Iters []string // the enclosing loop counters, outermost first
	// Down marks, per entry of Iters, a loop that counts down (i--, i -= c):
	// its entry in Schedule is -i, so that the schedule increases.
	Down []bool
	// Domain is the iteration domain, e.g. [N, T] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }.
	Domain poly.Set
	// Schedule is the original (textual) schedule as a 2d+1 map
	// S0[t, i] -> [c0, t, c1, i, c2] (-i for a loop that counts down); all statements of a scop have ranges of
	// the same length, so lexicographic order of the ranges is execution order.
	Schedule poly.Map
	// Beta are the constant entries of the 2d+1 schedule (the textual
	// positions): Schedule is [Beta[0], i1, Beta[1], ..., id, Beta[d]],
	// padded with zeros to the scop's common length.
	Beta   []int64
	Reads  []*Access
	Writes []*Access
	Body   *Assign
	Pos    Pos
}

// Access is one array access of a statement.
type Access struct {
	Array string
	// Rel maps statement instances to array elements:
	// [N] -> { S0[t, i] -> A[t + 1, i - 1] }. Scalars are zero-dimensional arrays.
	Rel   poly.Map
	Ref   *ArrayRef // the reference in the body
	Write bool
}

// Assign is a statement body: LHS op= RHS, where Op is "=", "+=", "-=", "*=" or "/=".
type Assign struct {
	LHS Expr // *ArrayRef or *VarRef (a scalar)
	Op  string
	RHS Expr
	Pos Pos
}

// Expr is an expression tree node of a statement body or a subscript.
type Expr interface {
	exprNode()
	Position() Pos
}

// Number is a numeric literal as written (Text keeps suffixes such as 0.5f).
type Number struct {
	Text  string
	Type  Type // Float for 'f' suffixed, Double for other floating literals, IntT for integers
	Float float64
	Int   int64
	P     Pos
}

// VarRef names a loop counter, a parameter, a #define constant or a scalar.
type VarRef struct {
	Name string
	P    Pos
}

// ArrayRef is an array element A[e1][e2]...
type ArrayRef struct {
	Name  string
	Index []Expr
	P     Pos
}

// Binary is X Op Y with Op one of + - * / %.
type Binary struct {
	Op   string
	X, Y Expr
	P    Pos
}

// Unary is Op X with Op "-" or "+".
type Unary struct {
	Op string
	X  Expr
	P  Pos
}

// Call is a pure math function call such as sqrtf(x).
type Call struct {
	Fun  string
	Args []Expr
	P    Pos
}

// Cast is (Type) X.
type Cast struct {
	To Type
	X  Expr
	P  Pos
}

func (*Number) exprNode()   {}
func (*VarRef) exprNode()   {}
func (*ArrayRef) exprNode() {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}
func (*Call) exprNode()     {}
func (*Cast) exprNode()     {}

func (e *Number) Position() Pos   { return e.P }
func (e *VarRef) Position() Pos   { return e.P }
func (e *ArrayRef) Position() Pos { return e.P }
func (e *Binary) Position() Pos   { return e.P }
func (e *Unary) Position() Pos    { return e.P }
func (e *Call) Position() Pos     { return e.P }
func (e *Cast) Position() Pos     { return e.P }

// Deps are the dependences of a scop, as union maps between statement
// instances, parametric in the scop's parameters.
type Deps struct {
	Flow   poly.Map // value-based (exact) read-after-write
	Anti   poly.Map // memory-based write-after-read
	Output poly.Map // memory-based write-after-write
	// Canonical is the canonical schedule the distances and slopes refer
	// to: L_i[t, s...] -> [k*t + i, s...] with slots i in textual order
	// (consecutive statements with disjoint instances share a slot when all
	// dependences still advance in k*t + i; statements with fewer space
	// dimensions are padded with leading zeros). Empty if the scop has no
	// such form (see SlopeNote).
	Canonical poly.Map
	// Distances is the set of dependence distance vectors (dt, ds0, ...) of
	// flow, anti and output dependences in the canonical schedule.
	Distances poly.Set
	// Slopes holds, for each space dimension s_k of the canonical schedule
	// (after the time dimension), the slopes of the dependence cone. A nil
	// Delta0 (Delta1) means no finite bound exists: some dependence is not
	// carried by the time dimension, or the distances are unbounded.
	Slopes []Slope
	// SlopeNote says why Slopes is empty or partly nil ("" if all finite).
	SlopeNote string
}

// Slope is the pair of cone slopes of one space dimension (section 3.3.2 of
// the hexagonal-tiling paper): every dependence distance (dt, ds) of the
// canonical schedule satisfies -Delta1*dt <= ds <= Delta0*dt, and both are
// the least such values (computed by exact LP). For A[t][i] = f(A[t-2][i-2],
// A[t-1][i+2]) the distances are (2, 2) and (1, -2): Delta0 = 1, Delta1 = 2.
type Slope struct {
	Delta0, Delta1 *big.Rat
}

// TextualSchedule is the union of the statements' 2d+1 schedules (the
// original execution order) and its range's arity.
func (s *Scop) TextualSchedule() (m poly.Map, arity int) {
	for i, st := range s.Stmts {
		if i == 0 {
			m = st.Schedule
		} else {
			m = m.Union(st.Schedule)
		}
		for _, b := range st.Schedule.Basics {
			arity = b.Out.Arity()
		}
	}
	return m, arity
}
