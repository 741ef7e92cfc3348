// Package isloracle runs isl itself (libisl, through the small C program
// isloracle.c.in) as the judge of poly's differential tests: one request a
// line, OP<TAB>ARG1[<TAB>ARG2], one reply a line (isl notation, true/false,
// or "ERROR message"). Tests of several packages share the one process.
package isloracle
