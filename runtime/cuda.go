package runtime

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// A CUDA driver binding in pure Go (github.com/ebitengine/purego, so
// CGO_ENABLED=0 builds work): libcuda.so.1 is opened at run time, never
// linked. Every driver call returns a CUresult; each one is checked and a
// failure becomes a *CUDAError naming the call. A CUDA context is bound to
// an OS thread, so a Context owns one goroutine locked to its thread and
// runs every driver call there.

// CUDAError is a failed driver call.
type CUDAError struct {
	Call string // the driver function, e.g. cuModuleLoadDataEx
	Code int32  // its CUresult
	Name string // the CUresult's name (cuGetErrorName), e.g. CUDA_ERROR_NO_DEVICE
	Log  string // the JIT error log (cuModuleLoadDataEx only)
}

func (e *CUDAError) Error() string {
	s := fmt.Sprintf("%s failed: %s (%d)", e.Call, e.Name, e.Code)
	if e.Log != "" {
		s += ": " + e.Log
	}
	return s
}

// cuda holds the driver's entry points.
type cuda struct {
	cuInit               func(flags uint32) int32
	cuGetErrorName       func(code int32, str *uintptr) int32
	cuDeviceGetCount     func(n *int32) int32
	cuDeviceGet          func(dev *int32, ordinal int32) int32
	cuDeviceGetName      func(name *byte, n int32, dev int32) int32
	cuCtxCreate          func(ctx *uintptr, flags uint32, dev int32) int32
	cuCtxDestroy         func(ctx uintptr) int32
	cuCtxSynchronize     func() int32
	cuModuleLoadDataEx   func(mod *uintptr, image unsafe.Pointer, n uint32, opts unsafe.Pointer, vals unsafe.Pointer) int32
	cuModuleUnload       func(mod uintptr) int32
	cuModuleGetFunction  func(f *uintptr, mod uintptr, name string) int32
	cuMemAlloc           func(p *uint64, size uint64) int32
	cuMemFree            func(p uint64) int32
	cuMemcpyHtoD         func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH         func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuLaunchKernel       func(f uintptr, gx, gy, gz, bx, by, bz, smem uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	cuFuncSetAttribute   func(f uintptr, attr int32, v int32) int32
	cuEventCreate        func(ev *uintptr, flags uint32) int32
	cuEventRecord        func(ev uintptr, stream uintptr) int32
	cuEventSynchronize   func(ev uintptr) int32
	cuEventElapsedTime   func(ms *float32, start, end uintptr) int32
	cuEventDestroy       func(ev uintptr) int32
	cuDriverGetVersion   func(v *int32) int32
	cuDeviceComputeCapab func(major, minor *int32, dev int32) int32
	// cuLaunchKernelEx is nil when the driver lacks it (cuda_pdl.go).
	cuLaunchKernelEx func(cfg unsafe.Pointer, f uintptr, params unsafe.Pointer, extra unsafe.Pointer) int32
	// coop: the cooperative launch entry points where the driver has them
	// (cuda_coop.go).
	coop cudaCoop
}

var (
	driverOnce sync.Once
	driver     *cuda
	driverErr  error
)

// loadDriver opens libcuda.so.1 and resolves every entry point.
func loadDriver() (*cuda, error) {
	driverOnce.Do(func() {
		h, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			driverErr = fmt.Errorf("no CUDA driver: cannot open libcuda.so.1 (%s)", oneLine(err.Error()))
			return
		}
		d := &cuda{}
		syms := []struct {
			fn   any
			name string
		}{
			{&d.cuInit, "cuInit"}, {&d.cuGetErrorName, "cuGetErrorName"},
			{&d.cuDeviceGetCount, "cuDeviceGetCount"}, {&d.cuDeviceGet, "cuDeviceGet"},
			{&d.cuDeviceGetName, "cuDeviceGetName"}, {&d.cuCtxCreate, "cuCtxCreate_v2"},
			{&d.cuCtxDestroy, "cuCtxDestroy_v2"}, {&d.cuCtxSynchronize, "cuCtxSynchronize"},
			{&d.cuModuleLoadDataEx, "cuModuleLoadDataEx"}, {&d.cuModuleUnload, "cuModuleUnload"},
			{&d.cuModuleGetFunction, "cuModuleGetFunction"}, {&d.cuMemAlloc, "cuMemAlloc_v2"},
			{&d.cuMemFree, "cuMemFree_v2"}, {&d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
			{&d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"}, {&d.cuLaunchKernel, "cuLaunchKernel"},
			{&d.cuFuncSetAttribute, "cuFuncSetAttribute"}, {&d.cuEventCreate, "cuEventCreate"},
			{&d.cuEventRecord, "cuEventRecord"}, {&d.cuEventSynchronize, "cuEventSynchronize"},
			{&d.cuEventElapsedTime, "cuEventElapsedTime"}, {&d.cuEventDestroy, "cuEventDestroy_v2"},
			{&d.cuDriverGetVersion, "cuDriverGetVersion"}, {&d.cuDeviceComputeCapab, "cuDeviceComputeCapability"},
		}
		for _, s := range syms {
			p, err := purego.Dlsym(h, s.name)
			if err != nil || p == 0 {
				driverErr = fmt.Errorf("libcuda.so.1 lacks %s (driver too old?)", s.name)
				return
			}
			purego.RegisterFunc(s.fn, p)
		}
		d.resolveLaunchEx(h)
		d.resolveCoop(h)
		driver = d
	})
	return driver, driverErr
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// check turns a CUresult into an error naming the call.
func (d *cuda) check(call string, r int32) error {
	if r == 0 {
		return nil
	}
	name := "CUresult"
	var p uintptr
	if d.cuGetErrorName(r, &p) == 0 && p != 0 {
		name = cString(p)
	}
	return &CUDAError{Call: call, Code: r, Name: name}
}

// cString copies a NUL-terminated C string owned by the driver.
func cString(p uintptr) string {
	var b []byte
	for i := uintptr(0); i < 4096; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(nil), p+i)) //nolint:govet // driver-owned static string
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}

// Context is a CUDA context on device 0, bound to one locked OS thread:
// every method runs its driver calls on that thread.
type Context struct {
	d      *cuda
	ctx    uintptr
	dev    int32  // the device (cuDeviceGet of ordinal 0)
	Device string // the device's name
	SM     string // its architecture, e.g. sm_90
	calls  chan func()
	done   chan struct{}
}

// OpenGPU initialises the driver and creates a context on device 0. Without
// a driver or a device the error is one line.
func OpenGPU() (*Context, error) {
	d, err := loadDriver()
	if err != nil {
		return nil, err
	}
	c := &Context{d: d, calls: make(chan func()), done: make(chan struct{})}
	ready := make(chan error)
	go func() {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		if err := c.init(); err != nil {
			ready <- err
			return
		}
		ready <- nil
		for f := range c.calls {
			f()
		}
		d.cuCtxDestroy(c.ctx)
		close(c.done)
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Context) init() error {
	d := c.d
	if err := d.check("cuInit", d.cuInit(0)); err != nil {
		return fmt.Errorf("no usable GPU: %v", err)
	}
	var n int32
	if err := d.check("cuDeviceGetCount", d.cuDeviceGetCount(&n)); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no usable GPU: the CUDA driver reports no device")
	}
	var dev int32
	if err := d.check("cuDeviceGet", d.cuDeviceGet(&dev, 0)); err != nil {
		return err
	}
	c.dev = dev
	name := make([]byte, 256)
	if err := d.check("cuDeviceGetName", d.cuDeviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return err
	}
	c.Device = strings.TrimRight(string(name), "\x00")
	var major, minor int32
	if err := d.check("cuDeviceComputeCapability", d.cuDeviceComputeCapab(&major, &minor, dev)); err != nil {
		return err
	}
	c.SM = fmt.Sprintf("sm_%d%d", major, minor)
	return d.check("cuCtxCreate_v2", d.cuCtxCreate(&c.ctx, 0, dev))
}

// do runs f on the context's thread.
func (c *Context) do(f func() error) error {
	var err error
	fin := make(chan struct{})
	c.calls <- func() { err = f(); close(fin) }
	<-fin
	return err
}

// Close destroys the context and ends its thread.
func (c *Context) Close() {
	close(c.calls)
	<-c.done
}

// Synchronize waits for all work of the context.
func (c *Context) Synchronize() error {
	return c.do(func() error { return c.d.check("cuCtxSynchronize", c.d.cuCtxSynchronize()) })
}

// Module is a loaded PTX module.
type Module struct {
	c   *Context
	mod uintptr
}

// JIT options of cuModuleLoadDataEx (cuda.h, CUjit_option).
const (
	cuJitInfoLogBuffer       = 3
	cuJitInfoLogBufferBytes  = 4
	cuJitErrorLogBuffer      = 5
	cuJitErrorLogBufferBytes = 6
)

// LoadPTX JIT-compiles ptx; on failure the error carries the JIT error log.
func (c *Context) LoadPTX(ptx string) (*Module, error) {
	m := &Module{c: c}
	err := c.do(func() error {
		image := append([]byte(ptx), 0)
		errLog := make([]byte, 16384)
		infoLog := make([]byte, 16384)
		opts := []int32{cuJitErrorLogBuffer, cuJitErrorLogBufferBytes, cuJitInfoLogBuffer, cuJitInfoLogBufferBytes}
		var pin goruntime.Pinner
		defer pin.Unpin()
		pin.Pin(&image[0])
		pin.Pin(&errLog[0])
		pin.Pin(&infoLog[0])
		pin.Pin(&opts[0])
		// The size options pass their value in the pointer slot.
		vals := []uintptr{uintptr(unsafe.Pointer(&errLog[0])), uintptr(len(errLog)), uintptr(unsafe.Pointer(&infoLog[0])), uintptr(len(infoLog))}
		pin.Pin(&vals[0])
		r := c.d.cuModuleLoadDataEx(&m.mod, unsafe.Pointer(&image[0]), uint32(len(opts)), unsafe.Pointer(&opts[0]), unsafe.Pointer(&vals[0]))
		if err := c.d.check("cuModuleLoadDataEx", r); err != nil {
			e := err.(*CUDAError)
			e.Log = oneLine(strings.TrimRight(string(errLog), "\x00"))
			return e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Unload releases the module.
func (m *Module) Unload() error {
	return m.c.do(func() error { return m.c.d.check("cuModuleUnload", m.c.d.cuModuleUnload(m.mod)) })
}

// Function is a kernel of a module.
type Function struct {
	m    *Module
	f    uintptr
	Name string
}

// Function looks a kernel up by name.
func (m *Module) Function(name string) (*Function, error) {
	fn := &Function{m: m, Name: name}
	err := m.c.do(func() error {
		return m.c.d.check("cuModuleGetFunction("+name+")", m.c.d.cuModuleGetFunction(&fn.f, m.mod, name))
	})
	if err != nil {
		return nil, err
	}
	return fn, nil
}

// DevPtr is a device address (CUdeviceptr).
type DevPtr uint64

// Alloc allocates n bytes of device memory.
func (c *Context) Alloc(n uint64) (DevPtr, error) {
	var p uint64
	err := c.do(func() error { return c.d.check("cuMemAlloc_v2", c.d.cuMemAlloc(&p, n)) })
	return DevPtr(p), err
}

// Free releases device memory.
func (c *Context) Free(p DevPtr) error {
	return c.do(func() error { return c.d.check("cuMemFree_v2", c.d.cuMemFree(uint64(p))) })
}

// CopyToDevice copies the bytes of src (a slice's backing array) to dst.
func (c *Context) CopyToDevice(dst DevPtr, src unsafe.Pointer, n uint64) error {
	return c.do(func() error { return c.d.check("cuMemcpyHtoD_v2", c.d.cuMemcpyHtoD(uint64(dst), src, n)) })
}

// CopyFromDevice copies n bytes from src to dst.
func (c *Context) CopyFromDevice(dst unsafe.Pointer, src DevPtr, n uint64) error {
	return c.do(func() error { return c.d.check("cuMemcpyDtoH_v2", c.d.cuMemcpyDtoH(dst, uint64(src), n)) })
}

// Launch runs f on a grid of blocks; args are int32, int64 (a kernel's
// i64 parameters), float32, float64 or DevPtr values in the kernel's parameter order. The parameter array and
// every value it points to are pinned for the call.
func (f *Function) Launch(grid, block [3]uint32, smem uint32, args ...any) error {
	return f.launch(grid, block, smem, false, args)
}

// LaunchPDL is Launch with programmatic dependent launch (cuda_pdl.go):
// only for kernels that start with griddepcontrol.wait. Without
// cuLaunchKernelEx in the driver it is a plain launch.
func (f *Function) LaunchPDL(grid, block [3]uint32, smem uint32, args ...any) error {
	return f.launch(grid, block, smem, true, args)
}

// LaunchCooperative is Launch as a cooperative launch (cuda_coop.go): the
// blocks are all resident or the launch is refused.
func (f *Function) LaunchCooperative(grid, block [3]uint32, smem uint32, args ...any) error {
	return f.launchMode(grid, block, smem, false, true, args)
}

func (f *Function) launch(grid, block [3]uint32, smem uint32, pdl bool, args []any) error {
	return f.launchMode(grid, block, smem, pdl, false, args)
}

func (f *Function) launchMode(grid, block [3]uint32, smem uint32, pdl, coop bool, args []any) error {
	c := f.m.c
	return c.do(func() error {
		var pin goruntime.Pinner
		defer pin.Unpin()
		ptrs := make([]unsafe.Pointer, len(args)+1)
		for i, a := range args {
			var p unsafe.Pointer
			switch v := a.(type) {
			case int32:
				p = unsafe.Pointer(&v)
			case int64:
				p = unsafe.Pointer(&v)
			case float32:
				p = unsafe.Pointer(&v)
			case float64:
				p = unsafe.Pointer(&v)
			case DevPtr:
				p = unsafe.Pointer(&v)
			default:
				return fmt.Errorf("cuLaunchKernel(%s): argument %d has unsupported type %T", f.Name, i, a)
			}
			pin.Pin(p)
			ptrs[i] = p
		}
		pin.Pin(&ptrs[0])
		if smem > 48*1024 {
			// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
			if err := c.d.check("cuFuncSetAttribute("+f.Name+")", c.d.cuFuncSetAttribute(f.f, 8, int32(smem))); err != nil {
				return err
			}
		}
		var cfg *cuLaunchConfig
		if pdl {
			attr := pdlAttribute()
			pin.Pin(&attr)
			cfg = new(cuLaunchConfig)
			*cfg = pdlConfig(grid, block, smem, &attr)
			pin.Pin(cfg)
		}
		if coop {
			return c.d.launchCoop(f.f, f.Name, grid, block, smem, unsafe.Pointer(&ptrs[0]))
		}
		return c.d.launch(f.f, f.Name, grid, block, smem, unsafe.Pointer(&ptrs[0]), pdl, cfg)
	})
}

// Event is a CUDA event for timing.
type Event struct {
	c  *Context
	ev uintptr
}

// NewEvent creates an event.
func (c *Context) NewEvent() (*Event, error) {
	e := &Event{c: c}
	err := c.do(func() error { return c.d.check("cuEventCreate", c.d.cuEventCreate(&e.ev, 0)) })
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record records the event on the default stream.
func (e *Event) Record() error {
	return e.c.do(func() error { return e.c.d.check("cuEventRecord", e.c.d.cuEventRecord(e.ev, 0)) })
}

// Elapsed waits for end and returns the milliseconds from e to end.
func (e *Event) Elapsed(end *Event) (float32, error) {
	var ms float32
	err := e.c.do(func() error {
		if err := e.c.d.check("cuEventSynchronize", e.c.d.cuEventSynchronize(end.ev)); err != nil {
			return err
		}
		return e.c.d.check("cuEventElapsedTime", e.c.d.cuEventElapsedTime(&ms, e.ev, end.ev))
	})
	return ms, err
}

// Destroy releases the event.
func (e *Event) Destroy() error {
	return e.c.do(func() error { return e.c.d.check("cuEventDestroy_v2", e.c.d.cuEventDestroy(e.ev)) })
}
