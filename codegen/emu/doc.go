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
// it. Under --persistent (gpuplan.PersistPlan) the cooperative launch of
// the persistent kernel is hx_emu_coop_hx_persistK (cudaprint's
// PersistEmuLauncher): one launch in which the host sequence runs on the
// CPU and each launch site runs the persistent blocks in turn over the
// site's virtual blocks, each grid barrier (hx_emu_grid_sync) starting a
// new race-check epoch as a launch boundary does; the emulated device has
// HX_EMU_SMS x HX_EMU_PER_SM resident blocks, HX_EMU_NO_COOP=1 in the
// environment takes its cooperative launch away and HX_EMU_COOP_REFUSE=1
// makes the launch fail (both: the per-step fallback).
package emu
