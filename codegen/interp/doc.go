// Package interp is the reference interpreter: it executes a scop's
// original schedule (ast.ScopCode.Orig) in Go on host arrays, with C's
// arithmetic (int, wide int, float and double as the program declares
// them), and is the reference of the GPU runs (hextile run --device=gpu)
// where no C compiler builds one. RunScop executes and counts, CountScop
// only counts statement instances and flops (an innermost loop around one
// statement adds its trip count), NewHostArrays allocates the arrays (the
// bytes the GPU runner transfers) and CheckAccessBounds refuses sizes that
// make the program index past its arrays. It sits beside the code
// generator, not inside it: it imports ast, cexpr and frontend only.
//
// # Example
//
// RunScop on jacobi1d_mod2 with T = 8, N = 64 performs 8 * 62 = 496
// statement instances and 496 * 3 = 1488 flops, leaving in A what the
// compiled C program leaves.
package interp
