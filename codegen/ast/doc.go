// Package ast is the first code generation stage: polyhedral AST
// generation. It takes a scop (frontend.Scop) and its schedule
// (schedule.Schedule) and gives the loop AST that every printer prints
// (AST: Block, For, If, Let, Mark, User over integer expressions Expr),
// with full/partial tile separation, unrolling and the Fourier-Motzkin
// bound elimination; Printer prints it as C-like code (--dump=ast). It
// depends on poly, frontend and schedule only.
//
// # Example
//
// Generate on testdata/jacobi1d_mod2.c (one statement S0 over t, i) with
// the none tiling of sizes 3,32, whose schedule is
//
//	[T, N] -> { S0[t, i] -> [t, S0, i] : 0 <= t < T and 0 < i <= N - 2 and i - 31 <= 32S0 <= i }
//
// gives (Printer{Comments: true}, abridged)
//
//	for (c0 = 0; c0 <= T - 1; c0++) { // t
//	  // parallel
//	  for (c1 = 0; c1 <= hx_floord(N - 2, 32); c1++) { // S0
//	    if (c1 >= 1 && N >= 32 * c1 + 33) {
//	      // full tile
//	      for (c2 = 32 * c1; c2 <= 32 * c1 + 31; c2++) { // s0
//	        S0(c0, c2);
//	      }
//	    } else {
//	      // partial tile
//	      for (c2 = hx_max(32 * c1, 1); c2 <= hx_min(32 * c1 + 31, N - 2); c2++) { // s0
//	        S0(c0, c2);
//	      }
//	    }
//	  }
//	}
//
// # How (gen.go, scan.go, leaves.go, residue.go, piece.go, fm.go)
//
// Generate scans the scheduled domain in the spirit of CLooG
// (Quilleré-Rajopadhye-Wilde) and isl's AST generator. For every statement,
// every basic map of the schedule, basic set of the domain and the context
// are combined into pieces over the columns (parameters, schedule dimensions
// c0..c(m-1)); the statement's iterators are solved from the equalities
// (the schedule is injective, so they are affine functions of the schedule
// dimensions, divided by a constant when a congruence says so), existential
// variables are identified with schedule dimensions when the constraints
// force it, or kept as integer divisions floor(f/d) bound by a Let.
//
// Loop bounds at depth d are read off the projection of each piece onto
// the parameters and c0..cd (Fourier-Motzkin, integer-tightened, with the
// Chernikov redundancy criterion), after dropping the bounds the enclosing
// loops and guards imply. A dimension every piece fixes becomes a Let
// (constant ones, such as the phase p, one block per value in increasing
// order); pieces fixing a dimension modulo k (the canonical schedule k*t + i
// of k statements) share one loop of stride k with a Let per residue; other
// dimensions become a For over the union of the pieces' ranges, each piece
// guarded where its own bounds are tighter. A guard is printed only where
// the enclosing code does not imply it (implication = emptiness of the
// negation, by FM), so rational projection never costs correctness: the
// innermost level checks whatever outer levels did not.
//
// Full/partial tile separation (section 4.4.1 of the hybrid-tiling paper):
// below the tile loops, for each domain constraint g of a piece, the tiles
// that contain a point of the tile shape violating g are the projection of
// shape ∧ g < 0 onto the tile coordinates; one of its constraints, negated,
// gives a sufficient condition for "no point of the tile violates g". The
// conjunction of these is the full-tile condition: under it the generator
// scans the tile shape alone (no domain constraint, so no min/max with the
// domain and no guard in the point loops), and the generic code handles the
// other tiles. Point loops of full tiles with a constant trip count up to
// Options.Unroll are unrolled on the constraints (4.4.2): each copy is
// generated with the dimension fixed, so its conditions are specialised.
//
// # The AST (ast.go, print.go)
//
// Nodes: Block, For (Iter, Lower = max of, Upper = min of, Stride, Parallel,
// Level and Dim of the schedule dimension it scans), If (a conjunction of
// Conds: >= 0, == 0, divisible by), Let (Var = Value for Body; used for
// fixed dimensions, residues and divisions), Mark ("full tile" / "partial
// tile") and User (a statement instance, Args = its original iterators).
// Integer expressions use +, constant *, floord, ceild, mod, min and max.
// Printer prints the AST as C-like code (--dump=ast) and, with a User
// callback and Pragmas, as C/OpenMP.
package ast
