package runtime

import (
	"errors"
	"strings"
	"testing"
)

// TestOpenGPUWithoutDriver: on a machine without libcuda.so.1 (CI, this
// build machine) OpenGPU fails with one line naming the missing driver; on
// a GPU machine it opens a context, which must report a device and an
// sm_NN architecture.
func TestOpenGPUWithoutDriver(t *testing.T) {
	c, err := OpenGPU()
	if err == nil {
		defer c.Close()
		if c.Device == "" || !strings.HasPrefix(c.SM, "sm_") {
			t.Fatalf("context without device name or architecture: %q %q", c.Device, c.SM)
		}
		t.Skipf("a GPU is present (%s, %s): the no-driver path is not testable here", c.Device, c.SM)
	}
	msg := err.Error()
	t.Logf("OpenGPU: %s", msg)
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	if !strings.Contains(msg, "libcuda.so.1") && !strings.Contains(msg, "no usable GPU") {
		t.Errorf("error names neither the driver nor the device: %q", msg)
	}
	// A second call gives the same answer (the driver is opened once).
	if _, err2 := OpenGPU(); err2 == nil || err2.Error() != msg {
		t.Errorf("second OpenGPU: %v, want %q", err2, msg)
	}
}

// TestCUDAErrorNamesCall: a failed call's error names the call, the
// CUresult name and the JIT log.
func TestCUDAErrorNamesCall(t *testing.T) {
	var err error = &CUDAError{Call: "cuModuleLoadDataEx", Code: 218, Name: "CUDA_ERROR_INVALID_PTX", Log: "ptxas fatal: bad"}
	var ce *CUDAError
	if !errors.As(err, &ce) || err.Error() != "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (218): ptxas fatal: bad" {
		t.Errorf("got %q", err)
	}
}
