package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"hextile/codegen"
	"hextile/frontend"
	"hextile/runtime"
)

// cRef is the compiled-C reference of hextile run --device=gpu
// --backend=ptx (codegen.RefProgram): the user's file with its scops as
// written, built by the C compiler with -O2 -fopenmp (no contraction of
// a*b+c, like llc), run on the bytes the GPU gets.
type cRef struct {
	exe, dir string
}

// buildCRef builds the reference; a nil result and nil error mean that no
// C compiler was found (the caller falls back to the Go interpreter).
func buildCRef(c *codegen.Compilation, vals map[string]int64, cc string) (*cRef, error) {
	comp := runtime.CC{Command: cc, Opt: "-O2", OpenMP: true, Flags: []string{"-ffp-contract=off", "-I", srcDir(c.Prog.File)}}
	if !comp.Available() {
		return nil, nil
	}
	src, err := codegen.RefProgram(c, vals)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "hextile-ref-")
	if err != nil {
		return nil, err
	}
	exe, _, err := comp.Compile(src, dir, codegen.BaseName(c.Prog.File)+"_ref")
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("building the reference: %v", err)
	}
	return &cRef{exe: exe, dir: dir}, nil
}

func (r *cRef) close() {
	if r != nil {
		os.RemoveAll(r.dir)
	}
}

// run runs scop k of the reference on arrs (every array of s, in
// s.Arrays order) and replaces their contents with the results.
func (r *cRef) run(k int, s *frontend.Scop, arrs map[string]*codegen.HostArray, stderr io.Writer) error {
	cmd := exec.Command(r.exe, strconv.Itoa(k))
	var ins []io.Reader
	for _, a := range s.Arrays {
		ins = append(ins, bytes.NewReader(arrs[a.Name].Data))
	}
	cmd.Stdin = io.MultiReader(ins...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stop := startProgress(stderr, "reference: compiled C")
	if err := cmd.Start(); err != nil {
		stop(false)
		return err
	}
	var rerr error
	for _, a := range s.Arrays {
		if _, rerr = io.ReadFull(out, arrs[a.Name].Data); rerr != nil {
			break
		}
	}
	io.Copy(io.Discard, out)
	werr := cmd.Wait()
	stop(werr == nil && rerr == nil)
	if werr != nil {
		return fmt.Errorf("the reference (%s) failed: %v: %s", r.exe, werr, strings.TrimSpace(errb.String()))
	}
	if rerr != nil {
		return fmt.Errorf("the reference (%s) wrote too little: %v", r.exe, rerr)
	}
	return nil
}

// srcDir is the directory of the input file (the reference, which holds
// the file, finds its #include "..." files there).
func srcDir(file string) string {
	if abs, err := filepath.Abs(file); err == nil {
		return filepath.Dir(abs)
	}
	return filepath.Dir(file)
}
