// Command hextile is a polyhedral compiler for stencil codes: it reads C
// loops, computes exact dependences, builds hybrid hexagonal/classical tile
// schedules, checks them and generates C/OpenMP, CUDA and LLVM IR.
//
// Every subcommand lives in its own file and registers itself in commands
// (see register), so the command table reads as one list.
package main
