// Package codegen turns a scheduled polyhedral model into code: a loop AST
// generated from the schedule (with full/partial tile separation and
// unrolling), then back ends that print C/OpenMP, CUDA and LLVM IR for NVPTX.
package codegen
