// Package harness builds the verification programs: the reference unit
// (BuildRefUnit: the user's file with each scop run as written over the
// enclosing function's declarations, hx_orig_K, and with the tiled code,
// hx_tiled_K), the C target's self-checking program (Program: both on
// copies of pseudo-randomly initialised arrays, compared bit for bit,
// exit status 1 on a mismatch), the C reference of the GPU runs
// (RefProgram), and the array sizes and element indices the CUDA harness
// shares (ArraySize, ElemIndex, RuntimeC). It takes the program, the scops
// and, for Program, the tiled code as printed text, so it imports no
// printer.
//
// # Example
//
// hextile compile testdata/jacobi1d_mod2.c --harness prints a program whose
// run prints "verify: OK" when the tiled code gives the original's bits
// for every element of A, and accepts NAME=VALUE arguments to check other
// problem sizes with the same build.
package harness
