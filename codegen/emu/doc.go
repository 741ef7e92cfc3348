// Package emu builds the CUDA emulation program: the kernels and host code
// of package cudaprint printed in emulation mode (plain C: a block runs its
// uniform code once and each piece of thread work every thread in turn,
// with shared memory, barriers and out-of-bounds accesses checked), with
// the verification harness around them. It takes the program and its GPU
// plan and gives one C file that a C compiler builds and runs without a
// GPU; its run prints "verify: OK" when the emulated kernels give the
// original program's bits.
//
// # Example
//
// EmuProgram (package codegen) on testdata/jacobi1d_mod2.c with the none
// tiling gives a program whose hx_emu_launch_hx_kernel0_0 runs the
// kernel's blocks one after the other, T times, as the host code launches
// it.
package emu
