// Package frontend reads the C subset hextile accepts (#pragma scop regions of
// affine loops over arrays) and builds the polyhedral model: statements with
// iteration domains, access relations, the original schedule and statement
// bodies. Dependence analysis (value-based flow, memory-based anti and output
// dependences, and the slopes of the dependence cone) is computed here on poly.
//
// # Reading C
//
// The lexer handles whole files: #include lines are ignored, object-like and
// function-like #define are recorded, #if/#ifdef/#ifndef/#elif/#else/#endif
// are evaluated over the known macros, line markers (# 12 "f.c", as cc -E
// writes them) are followed, and #pragma scop / #pragma endscop become tokens.
// File-scope declarations and function headers are parsed loosely (names,
// element types and array extents are all the model needs); code outside the
// scop regions is skipped; the regions themselves are parsed strictly. A file
// without pragmas makes a scop of every function body that forms one.
// Macros are expanded at the token level as C does (macro.go), except
// integer and floating-point constants, which stay names while parsing
// (integer ones are parameters; a floating-point one becomes its literal in
// a statement body, so that every back end sees the value); so PolyBench-style
// sources (DATA_TYPE, POLYBENCH_2D(...), SCALAR_VAL(x)) read without the
// system preprocessor unless they use # or ## or headers of their own.
// Options.Cpp runs "cc -E -dD" first (macros are then expanded, so sizes
// written as macros become constants; only the user's integer #defines are
// kept in Scop.Defines). Of its output, Program.Source keeps the user's file,
// its local headers and -D definitions, with their line markers; each
// outermost system header inclusion is its #include line again and the
// compiler's predefined macros are gone, so the text compiles after the
// #include lines of a harness (see cppstrip.go).
//
// # Parameters and context
//
// An identifier in a loop bound, condition, subscript or array extent is a
// parameter when it is an integer #define (the parameter is named as the
// macro, its value recorded in Scop.Defines and overridable with -D), an
// integer function parameter, or an integer variable declared outside the
// region and not assigned inside it. Params are listed in order of first
// use. The context is the set of parameter values for which every statement's
// loop nest executes at least once (if-conditions are not included) and
// every array extent is at least 1: for a Jacobi sweep over 1 <= i < N-1 and
// 0 <= t < T it is [T, N] -> { : T >= 1 and N >= 3 }.
//
// # The model
//
// Statements are S0, S1, ... in textual order; their tuples use the source's
// loop counters. Domains and access relations are built as poly conjunctions
// directly; C's / and % by a positive constant become floor division and
// modulo through existential variables, which is exact only for non-negative
// dividends, so the builder proves the dividend non-negative on the domain
// (under the context) and refuses the code otherwise. The original schedule
// is the 2d+1 form [Beta0, i1, Beta1, ..., id, Betad], padded with zeros to
// one common length; if statements are transparent (their branches continue
// the enclosing sequence). Scalars are zero-dimensional arrays ("s[]"); int
// variables that the region only reads are constants (parameters where used
// affinely), not accesses. Loops that count down (i--, i -= c) start at an
// upper bound and stop at lower bounds; Stmt.Down marks them and the
// original schedule runs them as -i. Scalar temporaries are privatized by
// forward substitution (privatize.go): a scalar declared with an
// initializer in the region (float c = ...;), or a function-local scalar
// assigned once before the loops and never observed after the region
// (adi's coefficients, listed in Scop.Private), is replaced at every use by
// its initializer cast to its type, when it is assigned nowhere else and
// nothing the initializer reads is assigned after it; otherwise it stays a
// zero-dimensional array. Array function parameters are assumed not to
// alias each other (as in pet and PPCG); pointers are refused, except
// pointers to arrays, T (*A)[N][M] (possibly initialised from a flat buffer
// as in AN5D: = (T (*)[N][M]) A1), which are the arrays A[][N][M]; two of
// them taken from one buffer, or one and the buffer itself, are refused.
//
// With Options.Cpp, a definition -D NAME=INT whose NAME the program
// declares as a variable or parameter and never #defines gives that
// parameter's value (Scop.Defines) instead of going to the preprocessor,
// which would substitute it into the declarations.
//
// # Refusals
//
// Everything outside the subset is refused with file:line:col and a reason:
// while/do/goto/break/continue/return/switch and labels, pointer dereference
// and arithmetic, accesses through pointers (which may alias), address-of,
// calls other than pure math functions, non-affine subscripts, bounds and
// conditions (products of variables, array values, floating-point values),
// division or modulo of possibly negative values or by non-constants,
// non-constant steps, loop conditions that are not bounds of the counter in
// the loop's direction, assignments to loop counters or to parameters,
// counters used outside their loop, nested or chained assignments,
// conditional expressions in statement bodies, partial subscripts, struct
// members, array declarations inside the region, and a region whose context
// is empty. Bad input never panics (FuzzParseC).
//
// # Dependences
//
// See deps.go (exact flow dependences by a parametric lexmax in schedule
// space, memory-based anti and output dependences; deps_group.go analyses
// reads that are translates of each other together, one relation per box
// of offsets, so that a 729-point box costs about what a 5-point star does) and slopes.go (the
// canonical schedule L_i[t, s...] -> [k*t + i, s...], distance vectors and
// the cone slopes by exact linear-fractional programming).
package frontend
