// Package codegen is the code generator's driver: the compilation pipeline
// as one list of stages (Stages), each a function over one data structure
// and each printable with hextile compile --dump=NAME, in the spirit of the
// Go compiler's pass list:
//
//	stage     package            takes                      gives                          --dump
//	scop      frontend           the C file                 the polyhedral model (Scop)    scop
//	deps      frontend           the Scop                   dependences (Deps)             deps
//	schedule  schedule           Scop, Deps                 a tiled Schedule               schedule
//	ast       codegen/ast        Scop, Schedule             the loop AST (ast.ScopCode)    ast
//	plan      codegen/gpuplan    AST, Schedule, Deps        the GPU mapping (gpuplan.Scop) plan
//
// and then one printer per target, reading only the AST and the plan:
// codegen/cprint (C/OpenMP), codegen/cudaprint (CUDA C) and
// codegen/llvmprint (LLVM IR for NVPTX); no printer imports another. Beside
// them: codegen/cexpr (C expression semantics and printing shared by the
// printers, not a printer), codegen/width (the integer width of the
// printed code), codegen/harness (the self-checking programs and the
// reference unit), codegen/emu (the CUDA emulation program) and
// codegen/interp (the reference interpreter of the original program).
//
// Run runs the stages for a Request; the entry points of compat.go
// (EmitC, Harness, EmitCUDA, EmuProgram, EmitLLVM, GPUScops, RunReference,
// ...) build the plan a target needs and call its printer, so the command
// line and other callers see one package.
//
// # Example
//
//	c, err := codegen.Run(codegen.Request{File: "stencil.c", Tile: schedule.Hybrid,
//		Gen: codegen.Options{SeparateFullTiles: true}}, nil, nil)
//	if err != nil { ... }
//	text := codegen.EmitC(c.Prog, c.Codes())               // C/OpenMP
//	res, err := codegen.EmitCUDA(c, params, false, codegen.CUDAOptions{Shared: true}) // CUDA files
package codegen
