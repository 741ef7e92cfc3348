package codegen

import (
	"fmt"

	"github.com/llir/llvm/ir"

	"hextile/codegen/ast"
	"hextile/codegen/cprint"
	"hextile/codegen/cudaprint"
	"hextile/codegen/emu"
	"hextile/codegen/gpuplan"
	"hextile/codegen/harness"
	"hextile/codegen/interp"
	"hextile/codegen/llvmprint"
	"hextile/frontend"
)

// The entry points that callers of the pipeline (cmd/hextile, distribute)
// use, forwarded to the stage packages that implement them.

// Options are the AST generator's options (ast.Options), kept here for the
// callers of the pipeline.
type Options = ast.Options

// ScopCode is one scop with its generated AST (ast.ScopCode).
type ScopCode = ast.ScopCode

// RunReference executes scop k of c in its original order on arrays (the
// reference interpreter, interp.RunScop) and returns the number of
// statement instances and of floating-point operations.
func RunReference(c *Compilation, k int, params map[string]int64, arrays map[string]*HostArray) (updates, flops int64, err error) {
	return interp.RunScop(c.Scops[k].Code, params, arrays)
}

// CountReference returns what RunReference returns as counts without
// executing anything (interp.CountScop).
func CountReference(c *Compilation, k int, params map[string]int64) (updates, flops int64, err error) {
	return interp.CountScop(c.Scops[k].Code, params)
}

// HostArray is an array's host copy (interp.HostArray).
type HostArray = interp.HostArray

// NewHostArrays allocates the host copies of s's arrays (interp.NewHostArrays).
func NewHostArrays(s *frontend.Scop, params map[string]int64) (map[string]*HostArray, error) {
	return interp.NewHostArrays(s, params)
}

// ElemSize is the size in bytes of an element of type t (interp.ElemSize).
func ElemSize(t frontend.Type) int { return interp.ElemSize(t) }

// CheckAccessBounds checks that every access of every scop stays inside its
// array for the parameter values params (interp.CheckAccessBounds).
func CheckAccessBounds(scops []*frontend.Scop, params map[string]int64) error {
	return interp.CheckAccessBounds(scops, params)
}

// Harness returns the C target's self-checking program for the scops of
// prog (harness.C over the C printer's code of each scop). params gives
// every parameter's value.
func Harness(prog *frontend.Program, codes []*ast.ScopCode, params map[string]int64) (string, error) {
	tiled := make([]string, len(codes))
	for k, sc := range codes {
		tiled[k] = cprint.CCode(sc, 2, "  ")
	}
	return harness.Program(prog, codes, tiled, params)
}

// RefProgram is the compiled-C reference of hextile run --device=gpu
// --backend=ptx (harness.RefProgram).
func RefProgram(c *Compilation, params map[string]int64) (string, error) {
	var scops []*frontend.Scop
	for _, s := range c.Scops {
		scops = append(scops, s.Scop)
	}
	return harness.RefProgram(c.Prog, scops, params)
}

// EmitC returns the C/OpenMP program: prog's source with each scop replaced
// by its generated code (cprint.EmitC).
func EmitC(prog *frontend.Program, codes []*ast.ScopCode) string { return cprint.EmitC(prog, codes) }

// GPUScops builds the GPU form of every scop of c (the kernels of
// EmitLLVM, in the same order).
func GPUScops(c *Compilation, opt gpuplan.CUDAOptions) ([]*gpuplan.GPUScop, error) {
	css, err := cudaScops(c, opt)
	if err != nil {
		return nil, err
	}
	return gpuplan.GPUScops(css), nil
}

// CUDAOptions choose the GPU targets' thread blocks, staging, reuse and
// launches (gpuplan.CUDAOptions).
type CUDAOptions = gpuplan.CUDAOptions

// GPUScop is a scop's kernels and host schedule for the GPU runner
// (gpuplan.GPUScop); GPULaunch and GPUKernel are its launches and kernels.
type (
	GPUScop   = gpuplan.GPUScop
	GPULaunch = gpuplan.GPULaunch
	GPUKernel = gpuplan.GPUKernel
)

// EmitCUDA returns the CUDA files for c; params gives every parameter's
// value (used by the harness's defaults).
func EmitCUDA(c *Compilation, params map[string]int64, harness bool, opt CUDAOptions) (*cudaprint.CUDAResult, error) {
	if opt.Params == nil {
		opt.Params = params
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		return nil, err
	}
	return cudaprint.Emit(c.Prog, css, params, harness, opt)
}

// EmuProgram returns the C program that runs the CUDA code of c under the
// emulator with the verification harness.
func EmuProgram(c *Compilation, params map[string]int64, opt CUDAOptions) (string, error) {
	if opt.Params == nil {
		opt.Params = params
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		return "", err
	}
	return emu.Program(c.Prog, css, params, opt)
}

// EmitLLVM returns the LLVM IR module (text) with the kernels of every scop
// of c, as the GPU plan splits them with options opt.
func EmitLLVM(c *Compilation, opt CUDAOptions) (string, error) {
	m, err := LLVMModule(c, opt)
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// LLVMModule builds the module of EmitLLVM: without programmatic
// dependent launch, which needs PTX for sm_90 (EmitLLVMFor).
func LLVMModule(c *Compilation, opt CUDAOptions) (*ir.Module, error) {
	opt.LLVM = true
	css, err := cudaScops(c, opt)
	if err != nil {
		return nil, err
	}
	return llvmprint.ModuleFor(css, false)
}

// EmitLLVMFor is EmitLLVM for PTX meant for arch: with programmatic
// dependent launch (opt.NoPDL off) when arch is sm_90 or newer, every
// kernel first waits for the previous one (griddepcontrol.wait).
func EmitLLVMFor(c *Compilation, opt CUDAOptions, arch string) (string, error) {
	opt.LLVM = true
	css, err := cudaScops(c, opt)
	if err != nil {
		return "", err
	}
	m, err := llvmprint.ModuleFor(css, !opt.NoPDL && llvmprint.PDLArch(arch))
	if err != nil {
		return "", err
	}
	return m.String(), nil
}

// cudaScops builds the GPU plan of every scop of c.
func cudaScops(c *Compilation, opt gpuplan.CUDAOptions) ([]*gpuplan.Scop, error) {
	var in []gpuplan.Input
	for _, s := range c.Scops {
		in = append(in, gpuplan.Input{Code: s.Code, Sched: s.Sched, Deps: s.Deps})
	}
	return gpuplan.Build(in, opt)
}

// LLVMToPTX compiles LLVM IR to PTX for arch with llc (llvmprint.LLVMToPTX).
func LLVMToPTX(ll, llc, arch string) (string, error) { return llvmprint.LLVMToPTX(ll, llc, arch) }

// LLCFlags are the code generator options LLVMToPTX gives llc
// (llvmprint.LLCFlags).
var LLCFlags = llvmprint.LLCFlags

// LLVMToPTXFlags is LLVMToPTX with extra llc options (llvmprint.LLVMToPTXFlags).
func LLVMToPTXFlags(ll, llc, arch string, extra []string) (string, error) {
	return llvmprint.LLVMToPTXFlags(ll, llc, arch, extra)
}

// PDLArch reports whether arch (sm_NN) has programmatic dependent launch
// (llvmprint.PDLArch).
func PDLArch(arch string) bool { return llvmprint.PDLArch(arch) }

// PTXRetargeted names the architecture ptx was retargeted from, if any
// (llvmprint.PTXRetargeted).
func PTXRetargeted(ptx string) string { return llvmprint.PTXRetargeted(ptx) }

// PDLKernels lists the kernels of ptx that wait for the previous launch
// (llvmprint.PDLKernels).
func PDLKernels(ptx string) map[string]bool { return llvmprint.PDLKernels(ptx) }

// CUDAResult holds the generated CUDA files by name (cudaprint.CUDAResult).
type CUDAResult = cudaprint.CUDAResult

// WriteCUDA writes the files of res into dir (cudaprint.WriteCUDA).
func WriteCUDA(res *CUDAResult, dir string) error { return cudaprint.WriteCUDA(res, dir) }

// BaseName is the output name of a C file (its base name without .c).
func BaseName(file string) string { return cudaprint.BaseName(file) }

// ResidentCUDA is the CUDA code of a scop over caller-held device buffers
// (cudaprint.Resident).
type ResidentCUDA = cudaprint.Resident

// EmitResidentCUDA plans c's single scop and prints its kernels and a host
// function fn launching them over device buffers the caller holds (package
// distribute); emu prints them for the CPU emulator (the result is C).
func EmitResidentCUDA(c *Compilation, opt CUDAOptions, fn string, emuMode bool) (*ResidentCUDA, error) {
	if len(c.Scops) != 1 {
		return nil, fmt.Errorf("EmitResidentCUDA: %d scops, want 1", len(c.Scops))
	}
	css, err := cudaScops(c, opt)
	if err != nil {
		return nil, err
	}
	pre := ""
	if emuMode {
		pre = emu.Prelude
	}
	return cudaprint.EmitResident(c.Prog, css, opt, fn, pre)
}
