package cudaprint

// CUDAShim is a header that lets clang's CUDA front end compile the
// generated kernels without the CUDA SDK:
//
//	clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
//	      -include hx_cuda_shim.h -S NAME_kernel.cu
//
// It defines the execution-space attributes (and __noinline__, for the
// outlined sweep box paths) and takes threadIdx, blockIdx,
// blockDim and gridDim from clang's own __clang_cuda_builtin_vars.h
// (__syncthreads is a clang builtin); the math functions a statement may
// call are declared as device functions, and for sm_90 and newer
// cudaGridDependencySynchronize (programmatic dependent launch; the kernels
// call it only there). dim3, __threadfence and the unsigned atomicAdd are
// the SDK's, for the persistent kernels (persistent.go).
const CUDAShim = `/* hextile: minimal CUDA declarations for compiling kernels with clang without the CUDA SDK */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __noinline__ __attribute__((noinline))
#include <__clang_cuda_builtin_vars.h>
#define HX_NO_CUDA_RUNTIME 1
extern "C" {
__device__ float sqrtf(float);
__device__ double sqrt(double);
__device__ float fabsf(float);
__device__ double fabs(double);
__device__ float expf(float);
__device__ double exp(double);
__device__ float logf(float);
__device__ double log(double);
__device__ float sinf(float);
__device__ double sin(double);
__device__ float cosf(float);
__device__ double cos(double);
__device__ float powf(float, float);
__device__ double pow(double, double);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ float fmaf(float, float, float);
__device__ float floorf(float);
__device__ double fma(double, double, double);
__device__ double fmin(double, double);
__device__ double fmax(double, double);
}
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
static __device__ inline void __threadfence(void) { __nvvm_membar_gl(); }
static __device__ inline unsigned int atomicAdd(unsigned int *p, unsigned int v) { return (unsigned int)__nvvm_atom_add_gen_i((int *)p, (int)v); }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/* programmatic dependent launch: wait for the previous kernel (the CUDA SDK's definition) */
static __device__ __attribute__((always_inline)) inline void cudaGridDependencySynchronize(void) { asm volatile("griddepcontrol.wait;" ::: "memory"); }
#endif
`
