// Package calc is an iscc-style calculator over hextile's integer-set engine
// (package poly): it reads statements, evaluates set and map expressions and
// prints results in isl notation.
//
// A script is a sequence of statements, each ended by ';' (the last one may
// omit it):
//
//	NAME := EXPR;   assigns the value of EXPR to NAME
//	EXPR;           prints the value of EXPR (one line, isl notation)
//
// Expressions are set and map literals in isl notation ("{ S[i] : i >= 0 }",
// "[N] -> { A[i] -> B[i + 1] }"), variables and parentheses, combined with
//
//	A + B    union                  A * B    intersection (map * set: domain)
//	A - B    difference             A . B    join: B after A (set . map: image)
//	A % B    gist of A in context B A <= B   subset (also <, >=, >)
//	A = B    equality               M^-1     reverse of a map
//	M(S)     image of S under M (S . M)
//	dom M, ran M (also domain, range), lexmin X, lexmax X, deltas M,
//	coalesce X, sample X, params S
//
// As in iscc, all binary operators have the same precedence and associate
// to the left (A + B * C is (A + B) * C); prefix operators bind tighter than
// binary ones and apply to one operand with its postfix ^-1 (dom M^-1 is
// dom (M^-1)). Comparisons print true or false. '#' starts a comment that
// runs to the end of the line.
package calc
