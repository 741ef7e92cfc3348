// Package cprint is the C/OpenMP printer. It takes the program and the
// loop AST of each scop (ast.ScopCode) and gives the input file with each
// scop replaced by its loops, everything else as written: "#pragma omp
// parallel for" on the outermost loop of each nest the schedule proves
// parallel, statement bodies printed from the expression trees (cexpr) with
// the literals as written, so the results are bit-identical; the integer
// width from package width (int with a run-time check of the parameters
// where 32 bits are proven enough, long long elsewhere). CCode prints one
// scop as a C block (the harness embeds it). A scop under --tile=sweep
// (ScopCode.Sweep) is printed from gpuplan's sweep plan instead: the
// plane sweep of sweep.go, boxes in parallel, plane buffers per box,
// ping-pong copies of the written arrays; one under --tile=overlapped from
// its overlapped plan (overlap.go: boxes in parallel, each box's levels in
// order over their regions in per-thread heap buffers), both with the
// pieces of band.go.
//
// # Example
//
// testdata/jacobi1d_mod2.c with the none tiling prints, in place of the
// scop,
//
//	/* hextile: none tiling with sizes 3,32 */
//	{
//	  hx_narrow(T, -512LL, 512LL, "T");
//	  hx_narrow(N, -512LL, 512LL, "N");
//	  for (int c0 = 0; c0 <= T - 1; c0++) {
//	    #pragma omp parallel for
//	    for (int c1 = 0; c1 <= hx_floord(N - 2, 32); c1++) {
//	      if (c1 >= 1 && N >= 32 * c1 + 33) {
//	        // full tile
//	        ...
package cprint
