// Package gpuplan is the GPU mapping stage: it decides, from a scop's loop
// AST (ast.ScopCode), its schedule and its dependences, how the code runs
// on a GPU, before and apart from any printer:
//
//   - the kernels (Scop.Kernels): each parallel tile loop (with up to two
//     more nested in it) of the host code becomes a kernel whose iterations
//     are mapped to blockIdx.x (.y, .z), and every piece of work outside
//     them a one-block kernel; the host loops and guards around the
//     launches form the host sequence (Kernel.Host are the host counters a
//     kernel takes);
//   - the launch shapes: the block (Kernel.Block, threadShape) and the
//     point space dimensions on threadIdx.x/.y/.z (Kernel.Axis);
//   - the shared-memory staging of each full tile (StagePlan: the box of
//     every array, its copy-in and copy-out, the written table of full
//     tiles; Scop.PlanShared) and the dynamic shared memory of each kernel
//     (Kernel.Smem), refusing a footprint over MaxSharedBytes;
//   - register reuse (ReusePlan, Scop.ReusePlanFor) and streaming through
//     register windows (StreamPlan, Scop.StreamPlanFor) of thread loop
//     nests;
//   - the integer width of loops and flat indices (Scop.IntType,
//     Scop.WideIdx, from package width);
//   - the host schedule the GPU runner walks (GPUScop.Launches: kernel,
//     grid and host values of every launch, for given parameter values;
//     for the ghost-zone kernels the band loop with its ping-pong copies,
//     band_host.go).
//
// Build takes the scops (Input: AST, schedule, dependences) and
// CUDAOptions and gives one Scop per scop. The printers (cudaprint,
// llvmprint) read these types and print; the decisions are functions of
// the AST and their context, memoised in the Scop so that every printer
// asks for the same tile gets the same plan. Dump prints a plan (hextile
// compile --dump=plan).
//
// # Example
//
// testdata/jacobi1d_mod2.c with the none tiling (sizes 3,32), whose AST is
// a time loop c0 around the parallel tile loop c1 around the point loop
// c2 (see package ast), plans as
//
//	# GPU plan of scop 0 (testdata/jacobi1d_mod2.c:18:1): 1 kernel(s), blocks of 32x1x1 threads, int loops, 32-bit flat indices
//	# shared memory staging off, register reuse on, programmatic dependent launch on
//	# arrays written (copied back): A; read: A
//	host:
//	  for c0 = 0 .. T - 1
//	    launch hx_kernel0_0 (grid over c1; block 32x1x1)
//	kernel hx_kernel0_0:
//	  grid loop c1 on blockIdx.x: 0 .. hx_floord(N - 2, 32)
//	  block 32x1x1 threads; schedule dimension 2 on threadIdx.x
//	  host arguments: c0
//
// Under --tile=sweep a scop in stencil form (stencil_form.go) gets no
// kernels from its AST but one dedicated streaming kernel (SweepPlan,
// sweep.go: levels, read routing, plane buffers, column registers,
// ping-pong copies), which cudaprint prints and the emulator runs. Under
// --tile=overlapped it gets the overlapped kernel (OverlapPlan,
// overlap.go: one block per box, each level's region with its ghost zone
// in shared memory), the sweep's machinery without the plane sweep; the
// two share BandPlan (band.go: levels, ghost zones, read routing, fields).
//
// With CUDAOptions.Persistent the host sequence itself moves to the
// device: PersistPlan (persistent.go) runs every launch of a scop in one
// cooperative launch, a grid barrier where each launch ended.
//
// A new kernel strategy is a new decision here (a field of Kernel or a
// plan type beside StagePlan/StreamPlan) and its lowering in the printers.
package gpuplan
