package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"hextile/compare"
)

// measureRows fills the measured column of the report's rows whose kind
// has a code generator for the device: each is run by `hextile run
// --device=gpu --backend=B` (the ghost-zone kinds through both back ends:
// their CUDA kernels and the same kernels in LLVM IR, codegen.GhostTargets)
// or `hextile run --device=cpu` (C/OpenMP: every kind with a C generator)
// with the row's tile and sizes (runTile: the stream row runs --tile=hybrid
// --stream, the n5d row --tile=sweep) and the command line's -D, --cpp and
// -I, and counts only when the run verified ("verify: ok"). Rows of other
// kinds keep "-" (the stream row, CUDA only, with a note why). A failed
// run is reported on stderr and leaves "-".
func measureRows(rep *compare.Report, file string, pass []string, device, backend string, reps int, stderr io.Writer) {
	target := "c"
	if device == "gpu" {
		target = map[string]string{"cuda": "cuda", "ptx": "llvm"}[backend]
	}
	for i := range rep.Rows {
		r := &rep.Rows[i]
		if r.Err != "" {
			continue
		}
		tile, extra := runTile(r.Kind)
		if why := streamMeasureRefusal(r.Kind, device, backend); why != "" {
			fmt.Fprintf(stderr, "hextile: note: compare: %s %s not measured: %s\n", r.Kind, joinInts(r.Sizes), why)
			continue
		}
		if noCodegen(tile, target) {
			continue
		}
		args := []string{"run", file, "--device=cpu", "--tile=" + tile, "--sizes=" + joinInts(r.Sizes)}
		if device == "gpu" {
			args = []string{"run", file, "--device=gpu", "--backend=" + backend, "--tile=" + tile, "--sizes=" + joinInts(r.Sizes), "--reps=" + strconv.Itoa(reps)}
		}
		args = append(append(args, extra...), pass...)
		var out, errb bytes.Buffer
		code := runDispatch(args, &out, &errb, strings.NewReader(""))
		parse := parseRun
		if device == "cpu" {
			parse = parseRunCPU
		}
		m, err := parse(out.String())
		if code != 0 || err != nil {
			fmt.Fprintf(stderr, "hextile: note: compare: %s %s not measured: exit %d: %v %s\n", r.Kind, joinInts(r.Sizes), code, err, strings.TrimSpace(errb.String()))
			continue
		}
		r.Measured = m
	}
}

// runDispatch runs a hextile command for measureRows (tests replace it
// with a fake device).
var runDispatch = dispatch

// runTile is the --tile (and the further flags) of hextile run for a
// row's kind: the stream row is the hybrid schedule's streaming kernel
// (--tile=hybrid --stream), the n5d row the sweep kernel.
func runTile(kind string) (tile string, extra []string) {
	switch compare.Canonical(kind) {
	case compare.Stream:
		return "hybrid", []string{"--stream"}
	case compare.N5D:
		return "sweep", nil
	}
	return kind, nil
}

// streamMeasureRefusal says why the stream row cannot be measured on
// device with backend ("" when it can): the streaming hybrid kernel is
// printed in CUDA C only (no LLVM IR for --backend=ptx, no C for
// --device=cpu).
func streamMeasureRefusal(kind, device, backend string) string {
	if compare.Canonical(kind) != compare.Stream || device == "gpu" && backend == "cuda" {
		return ""
	}
	if device == "gpu" {
		return "the streaming hybrid kernel is CUDA C only (no PTX generator): measure it with --backend=cuda"
	}
	return "the streaming hybrid kernel is CUDA C only (no C/OpenMP code): measure it with --device=gpu --backend=cuda"
}

// parseRun reads the kernel time and GCells/s of a verified GPU run.
func parseRun(out string) (*compare.Measured, error) {
	var m compare.Measured
	verified := false
	for _, l := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		switch k {
		case "verify":
			verified = v == "ok"
		case "time-gpu-kernel":
			f, err := strconv.ParseFloat(strings.Fields(v)[0], 64)
			if err != nil {
				return nil, fmt.Errorf("bad time-gpu-kernel line %q", l)
			}
			m.Seconds = f
		case "gcells-kernel":
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, fmt.Errorf("bad gcells-kernel line %q", l)
			}
			m.GCellsPerS = f
		}
	}
	if !verified {
		return nil, fmt.Errorf("the run did not verify")
	}
	if m.Seconds <= 0 {
		return nil, fmt.Errorf("no kernel time in the run's output")
	}
	return &m, nil
}

// parseRunCPU reads the tiled code's time and rate of a verified CPU run
// (hextile run --device=cpu: "time-tiled: S s", "updates: N").
func parseRunCPU(out string) (*compare.Measured, error) {
	var m compare.Measured
	var updates float64
	verified := false
	for _, l := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		switch k {
		case "verify":
			verified = v == "ok"
		case "time-tiled", "updates":
			if len(f) == 0 {
				return nil, fmt.Errorf("bad %s line %q", k, l)
			}
			x, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return nil, fmt.Errorf("bad %s line %q", k, l)
			}
			if k == "updates" {
				updates = x
			} else {
				m.Seconds = x
			}
		}
	}
	if !verified {
		return nil, fmt.Errorf("the run did not verify")
	}
	if m.Seconds <= 0 || updates <= 0 {
		return nil, fmt.Errorf("no time-tiled or updates line in the run's output")
	}
	m.GCellsPerS = updates / m.Seconds / 1e9
	return &m, nil
}

// passThrough picks the front-end flags (-D, --define, --cpp, -I,
// --include) of a command line for the runs.
func passThrough(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-D" || a == "--define" || a == "-I" || a == "--include":
			if i+1 < len(args) {
				out = append(out, a, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "--define=") || strings.HasPrefix(a, "-I") || strings.HasPrefix(a, "--include=") || a == "--cpp":
			out = append(out, a)
		}
	}
	return out
}
