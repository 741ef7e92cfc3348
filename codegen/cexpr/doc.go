// Package cexpr holds the C semantics every printer, the harness and the
// reference interpreter share, and is not itself a printer: printing a
// statement's expression tree as C with exactly the parentheses it needs
// (CExpr, CAssign), the helper prelude of the printed code (CPrelude,
// PreludeOffset), C's usual arithmetic conversions (ArithType, TypeRank),
// the math functions the targets support (MathFuncs, CDoubleMath), float
// literals (FloatLiteral), flop counts (FlopCount), the refusal of arrays
// whose size cannot be known (CheckOpenArrays) and the loop counter prefix
// (CounterPrefix).
//
// # Example
//
// With subst {"i": "c2", "t": "c0"}, CExpr prints the right-hand side of
// jacobi1d_mod2's statement as
//
//	0.33333f * (A[c0 % 2][c2] + A[c0 % 2][c2 - 1] + A[c0 % 2][c2 + 1])
//
// and FlopCount of the statement is 3 (two additions and a multiplication).
package cexpr
