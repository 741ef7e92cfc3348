/* Fake CUDA runtime declarations (the subset the distributed program uses, with the SDK's signatures): clang -x cuda -fsyntax-only -nocudainc type-checks the generated host and kernel code without the SDK (distribute/cuda_test.go). */
#include <stddef.h>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#include <__clang_cuda_builtin_vars.h>
struct dim3 { unsigned x, y, z; __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
typedef int cudaError_t; enum { cudaSuccess = 0 };
typedef struct CUstream_st *cudaStream_t; typedef struct CUevent_st *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum cudaDeviceAttr { cudaDevAttrComputeCapabilityMajor };
enum cudaLaunchAttributeID { cudaLaunchAttributeProgrammaticStreamSerialization };
struct cudaLaunchAttributeValue { int programmaticStreamSerializationAllowed; };
struct cudaLaunchAttribute { cudaLaunchAttributeID id; cudaLaunchAttributeValue val; };
struct cudaLaunchConfig_t { dim3 gridDim, blockDim; size_t dynamicSmemBytes; cudaStream_t stream; cudaLaunchAttribute *attrs; unsigned numAttrs; };
template <typename... A, typename... B> cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *, void (*)(A...), B...);
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaArray; typedef cudaArray *cudaArray_t;
struct cudaMemcpy3DParms { cudaArray_t srcArray; cudaPos srcPos; cudaPitchedPtr srcPtr; cudaArray_t dstArray; cudaPos dstPos; cudaPitchedPtr dstPtr; cudaExtent extent; cudaMemcpyKind kind; };
struct cudaMemcpy3DPeerParms { cudaArray_t srcArray; cudaPos srcPos; cudaPitchedPtr srcPtr; int srcDevice; cudaArray_t dstArray; cudaPos dstPos; cudaPitchedPtr dstPtr; int dstDevice; cudaExtent extent; };
cudaExtent make_cudaExtent(size_t, size_t, size_t); cudaPos make_cudaPos(size_t, size_t, size_t); cudaPitchedPtr make_cudaPitchedPtr(void *, size_t, size_t, size_t);
const char *cudaGetErrorString(cudaError_t); cudaError_t cudaGetLastError(void); cudaError_t cudaGetDevice(int *); cudaError_t cudaSetDevice(int);
cudaError_t cudaDeviceGetAttribute(int *, cudaDeviceAttr, int); cudaError_t cudaGetDeviceCount(int *); cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceCanAccessPeer(int *, int, int); cudaError_t cudaDeviceEnablePeerAccess(int, unsigned);
cudaError_t cudaMalloc(void **, size_t); template <class T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
cudaError_t cudaFree(void *); cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *); cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms *, cudaStream_t);
cudaError_t cudaEventCreate(cudaEvent_t *); cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t); cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t); cudaError_t cudaEventDestroy(cudaEvent_t);
template <class T> cudaError_t cudaFuncSetAttribute(T, int, int);
extern "C" int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
__device__ void cudaGridDependencySynchronize(void);
extern "C" { __device__ float sqrtf(float); __device__ double sqrt(double); __device__ float fabsf(float); __device__ double fabs(double); }
