// Package width decides the integer width of the printed code. It takes a
// scop's loop AST (ast.ScopCode) and parameter values and gives a Width:
// whether the loop counters, tile coordinates and parameters fit 32-bit
// int (interval arithmetic over the AST, for the given values) and whether
// the flat array indices do (WideIndex); the printers print int or long
// long (i32 or i64) accordingly, with a run-time check that the parameters
// stay in the proven range (hx_narrow). A silent overflow at large sizes is
// a wrong answer, so everything unproven is 64-bit.
//
// # Example
//
// jacobi1d_mod2 (N = 64, T = 8 by its #defines) with the none tiling: the
// counters and indices stay far below 2^31 for |T|, |N| <= 512, so the
// code is 32-bit and starts with
//
//	hx_narrow(T, -512LL, 512LL, "T");
//	hx_narrow(N, -512LL, 512LL, "N");
package width
