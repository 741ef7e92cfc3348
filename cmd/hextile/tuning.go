package main

// The tuning file: what hextile tune found, read back by compile and run
// with --tuning=FILE.
//
// It is JSON (format "hextile-tuning/1"):
//
//	format       "hextile-tuning/1"
//	hextile      the hextile version that wrote it
//	date         when the search ended (RFC 3339, UTC)
//	source       {"file": the C file as given, "sha256": hex digest of its bytes}
//	             (compile/run refuse the file for any other source: the digest must match;
//	             #include'd files are not hashed)
//	defines      the -D values the candidates were timed at ({"N": "2048", ...})
//	verify_defines  the -D values each candidate was verified at, bit for bit
//	device       {"name", "arch" (sm_NN), "mode": gpu or emu, "ptx": llc or the --candidates directory}
//	budget_s, elapsed_s, reps   the time budget, the time spent, the timed runs per candidate (medians)
//	not_tried    candidates left when the budget was spent
//	winner       the fastest verified candidate (null when none verified); a result:
//	ranked       every verified candidate, fastest first; results:
//	               tile, sizes (null: the scheduler's), block (null: the code generator's),
//	               shared, reuse, persistent (absent: false): the configuration, as the flags of the same names;
//	               knobs (absent: the defaults): the sweep kernel's flags tune varies (tune_knobs.go),
//	               flag name -> value: {"min-blocks": "4", "sweep-stage-input": "on", "steady-ramp": "false"};
//	               flags: the same as a command line; gcells: updates per second of the kernels / 1e9
//	               (median kernel time); kernel_s: that median; runs: the timed runs behind
//	               it (1: screened out below --screen x the best so far); verify: "ok"
//	             model_gcells: the cost model's prediction for it (absent where the model does not apply)
//	rejected     the others: the configuration, verify ("FAILED", "refused" or "error") and reason
//	model        the cost model's choice, the first candidate tried: {"arch", "gpu", "flags", "gcells"}
//	             (absent where the model does not apply)
//	fast_math    true when the candidates were built and measured with --fast-math (verified within
//	             --rtol/--atol; the model's predictions assume it); absent otherwise
//
// compile/run --tuning take tile, sizes, block, shared, reuse,
// persistent and the knobs' flags from winner, except where the command
// line gives the flag itself (it wins, with a note where it differs; with
// another --tile the file's sizes and knobs are not used); a file tuned
// with --fast-math gives a note when --fast-math is not given (the
// default build stays bit-exact: the flag is the user's to give). A file
// without knobs (written before them) builds with the flags' defaults.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
)

const tuningFormat = "hextile-tuning/1"

// tuneConfig is one candidate configuration.
type tuneConfig struct {
	Tile   string  `json:"tile"`
	Sizes  []int64 `json:"sizes"`
	Block  []int   `json:"block"`
	Shared bool    `json:"shared"`
	Reuse  bool    `json:"reuse"`
	// Persistent: tune --persistent (every candidate a persistent kernel).
	Persistent bool `json:"persistent,omitempty"`
	// Knobs are the sweep kernel's flags the candidate sets (tune_knobs.go:
	// flag name -> value, {"min-blocks": "4"}); absent (a file written
	// before them included): every flag its default.
	Knobs map[string]string `json:"knobs,omitempty"`
}

// flags is the configuration as hextile's flags (the key of a candidate).
func (c tuneConfig) flags() string {
	s := "--tile=" + c.Tile
	if len(c.Sizes) > 0 {
		s += " --sizes=" + joinInts(c.Sizes)
	}
	if len(c.Block) > 0 {
		s += " --block=" + joinIntSlice(c.Block)
	}
	if c.Shared {
		s += " --shared"
	}
	if !c.Reuse {
		s += " --reuse=false"
	}
	if c.Persistent {
		s += " --persistent"
	}
	return s + knobFlags(c.Knobs)
}

// tuneResult is one candidate's outcome.
type tuneResult struct {
	tuneConfig
	Flags   string  `json:"flags"`
	GCells  float64 `json:"gcells,omitempty"`
	KernelS float64 `json:"kernel_s,omitempty"`
	Runs    int     `json:"runs,omitempty"`         // timed runs behind the figure (1: screened out)
	Verify  string  `json:"verify"`                 // ok, FAILED, refused or error
	Reason  string  `json:"reason,omitempty"`       // why not ok
	Model   float64 `json:"model_gcells,omitempty"` // the cost model's prediction
}

// tuningModel is the cost model's choice in a tuning file.
type tuningModel struct {
	Arch   string  `json:"arch"`
	GPU    string  `json:"gpu"`
	Flags  string  `json:"flags"`
	GCells float64 `json:"gcells"`
}

type tuningSource struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

type tuningDevice struct {
	Name string `json:"name"`
	Arch string `json:"arch"`
	Mode string `json:"mode"`
	PTX  string `json:"ptx,omitempty"`
}

// tuningFile is the JSON document (see the top of this file).
type tuningFile struct {
	Format        string            `json:"format"`
	Hextile       string            `json:"hextile"`
	Date          string            `json:"date"`
	Source        tuningSource      `json:"source"`
	Defines       map[string]string `json:"defines"`
	VerifyDefines map[string]string `json:"verify_defines"`
	Device        tuningDevice      `json:"device"`
	BudgetS       float64           `json:"budget_s"`
	ElapsedS      float64           `json:"elapsed_s"`
	Reps          int               `json:"reps"`
	NotTried      int               `json:"not_tried"`
	Winner        *tuneResult       `json:"winner"`
	Ranked        []tuneResult      `json:"ranked"`
	Rejected      []tuneResult      `json:"rejected"`
	Model         *tuningModel      `json:"model,omitempty"`
	FastMath      bool              `json:"fast_math,omitempty"`
}

// fileSHA256 is the hex SHA-256 digest of the file's bytes.
func fileSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// decodeJSONFile decodes the JSON file at path into v (unknown fields
// refused); a syntax or type error carries the file's LINE:COL.
func decodeJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			off := dec.InputOffset()
			l, c := lineCol(b, off)
			return fmt.Errorf("%s:%d:%d: malformed JSON: data after the document", path, l, c)
		}
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		l, c := lineCol(b, se.Offset-1) // Offset is past the bad byte
		return fmt.Errorf("%s:%d:%d: malformed JSON: %v", path, l, c, se)
	case errors.As(err, &te):
		l, c := lineCol(b, te.Offset)
		return fmt.Errorf("%s:%d:%d: malformed JSON: field %s: %v", path, l, c, te.Field, te)
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		l, c := lineCol(b, int64(len(b)))
		return fmt.Errorf("%s:%d:%d: malformed JSON: unexpected end of file", path, l, c)
	}
	return fmt.Errorf("%s:1:1: malformed JSON: %v", path, err)
}

// lineCol is the 1-based line and column of byte offset off of b.
func lineCol(b []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(b)))
	line, col := 1, 1
	for _, ch := range b[:off] {
		if ch == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// readTuning reads a tuning file for source file src: malformed JSON, an
// unknown format, a missing winner or a file made for another source is
// an error.
func readTuning(path, src string) (*tuningFile, error) {
	var t tuningFile
	if err := decodeJSONFile(path, &t); err != nil {
		return nil, err
	}
	if t.Format != tuningFormat {
		return nil, fmt.Errorf("%s:1:1: not a hextile tuning file: format %q, want %q", path, t.Format, tuningFormat)
	}
	if t.Winner == nil {
		return nil, fmt.Errorf("%s:1:1: the tuning file has no winner (no candidate verified when it was made): tune again", path)
	}
	// Any kind compile knows (a ghost-zone kind's targets are checked as
	// for --tile: codegenRefusal).
	if err := checkEnum("tile", t.Winner.Tile, tileKinds...); err != nil {
		return nil, fmt.Errorf("%s:1:1: the winner's tile %q is not a schedule compile generates code for", path, t.Winner.Tile)
	}
	if err := checkBlock(t.Winner.Block); err != nil {
		return nil, fmt.Errorf("%s:1:1: the winner's block: %v", path, err)
	}
	if _, err := defaultSteadyFlags().withKnobs(t.Winner.Knobs); err != nil {
		return nil, fmt.Errorf("%s:1:1: the winner's knobs: %v", path, err)
	}
	sum, err := fileSHA256(src)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(sum, t.Source.SHA256) {
		return nil, fmt.Errorf("%s was made for %s (sha256 %s), not for %s (sha256 %s): tune %s again, or drop --tuning",
			path, t.Source.File, short(t.Source.SHA256), src, short(sum), src)
	}
	return &t, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// applyTuning sets the pipeline flags (and reuse) from the tuning file's
// winner, except those given on the command line (fs.Changed), which win
// (a note says so). It returns the notes to print.
func applyTuning(fs *pflag.FlagSet, pf *pipelineFlags, reuse *bool, t *tuningFile, path string) []string {
	w := t.Winner
	var notes []string
	explicit := func(flag, given, tuned string) bool {
		if !fs.Changed(flag) {
			return false
		}
		if given != tuned {
			notes = append(notes, fmt.Sprintf("--%s=%s given: it overrides %s's %s", flag, given, path, tuned))
		}
		return true
	}
	otherKind := false
	if !explicit("tile", pf.tile, w.Tile) {
		pf.tile = w.Tile
	} else if pf.tile != w.Tile {
		otherKind = true
	}
	switch {
	case fs.Changed("sizes"):
		explicit("sizes", pf.sizes, joinInts(w.Sizes))
	case otherKind && len(w.Sizes) > 0:
		notes = append(notes, fmt.Sprintf("%s's --sizes=%s are for --tile=%s: not used with --tile=%s (the scheduler's sizes)", path, joinInts(w.Sizes), w.Tile, pf.tile))
	default:
		pf.sizes = joinInts(w.Sizes)
	}
	if !explicit("block", joinIntSlice(pf.block), joinIntSlice(w.Block)) {
		pf.block = append([]int(nil), w.Block...)
	}
	if !explicit("shared", fmt.Sprint(pf.shared), fmt.Sprint(w.Shared)) {
		pf.shared = w.Shared
	}
	if reuse != nil && !explicit("reuse", fmt.Sprint(*reuse), fmt.Sprint(w.Reuse)) {
		*reuse = w.Reuse
	}
	if !explicit("persistent", fmt.Sprint(pf.persistent), fmt.Sprint(w.Persistent)) {
		pf.persistent = w.Persistent
	}
	// The sweep's knobs, as the sizes: a flag given wins; with another
	// --tile they are dropped.
	switch {
	case len(w.Knobs) == 0:
	case otherKind:
		notes = append(notes, fmt.Sprintf("%s's%s are for --tile=%s: not used with --tile=%s", path, knobFlags(w.Knobs), w.Tile, pf.tile))
	default:
		for _, k := range knobOrder(w.Knobs) {
			fl := fs.Lookup(k)
			if fl == nil {
				notes = append(notes, fmt.Sprintf("%s's --%s=%s: not a flag of this command (not used)", path, k, w.Knobs[k]))
				continue
			}
			if !explicit(k, fl.Value.String(), w.Knobs[k]) {
				// readTuning checked the value.
				if err := fs.Set(k, w.Knobs[k]); err != nil {
					notes = append(notes, fmt.Sprintf("%s's --%s=%s: %v (not used)", path, k, w.Knobs[k], err))
				}
			}
		}
	}
	// Sizes differing from the tuned ones: the configuration is still
	// correct, maybe not the fastest.
	vals := defineMapsQuiet(pf.defines)
	for k, v := range t.Defines {
		if g, ok := vals[k]; ok && g != v {
			notes = append(notes, fmt.Sprintf("-D %s=%s: %s was tuned at %s=%s (the configuration is correct at any size; it may not be the fastest at this one)", k, g, path, k, v))
		}
	}
	return notes
}

// defineMapsQuiet is the -D list as NAME -> VALUE text (malformed entries
// skipped: pf.request reports them).
func defineMapsQuiet(defs []string) map[string]string {
	out := map[string]string{}
	for _, d := range defs {
		if k, v, ok := strings.Cut(d, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// loadTuning is compile's and run's --tuning: it reads path for the input
// file and applies it to the flags; false with the exit status on error.
func loadTuning(fs *pflag.FlagSet, pf *pipelineFlags, reuse *bool, path string, stderr io.Writer) (int, bool) {
	if path == "" {
		return 0, true
	}
	t, err := readTuning(path, fs.Arg(0))
	if err != nil {
		return inputFail(stderr, "", err, ""), false
	}
	fmt.Fprintf(stderr, "hextile: note: --tuning=%s: %s (%.3g GCells/s on %s)\n", path, t.Winner.tuneConfig.flags(), t.Winner.GCells, t.Device.Name)
	for _, n := range applyTuning(fs, pf, reuse, t, path) {
		fmt.Fprintf(stderr, "hextile: note: %s\n", n)
	}
	if fl := fs.Lookup("fast-math"); t.FastMath && fl != nil && fl.Value.String() != "true" {
		fmt.Fprintf(stderr, "hextile: note: %s was tuned with --fast-math: give --fast-math for the build it measured (without it the code is bit-exact, and may be slower)\n", path)
	}
	return 0, true
}

// writeJSONFile writes v as indented JSON to path ("-": w).
func writeJSONFile(path string, v any, w io.Writer) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = w.Write(b)
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
