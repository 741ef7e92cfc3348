package gpumodel

import (
	"fmt"
	"io"
	"math"
	"sort"

	"hextile/schedule"
)

// Choice is the model's ranking of the candidates for one stencil on one
// GPU: Ranked[0] is the default configuration.
type Choice struct {
	Features *Features
	GPU      *GPU
	Note     string     // about the GPU table lookup
	Ranked   []Estimate // fastest first
}

// Best is the chosen candidate.
func (c *Choice) Best() Estimate { return c.Ranked[0] }

// Tolerance is the model's resolution: candidates predicted within it of
// the fastest count as ties, and the tie goes to the earliest in the
// candidate order (the estimators' order, then their candidates' order,
// which lists the configurations measured fastest on the H100 first).
// Without it the choice among near-equal predictions would follow noise
// in the model rather than the measurements.
const Tolerance = 0.05

// Choose predicts every registered estimator's candidates for f on g and
// ranks them: first the earliest candidate within Tolerance of the
// fastest prediction, then the others by predicted time. allowed, when
// not nil, filters the candidates (those the scheduler accepts for the
// stencil).
func Choose(f *Features, g *GPU, allowed func(Candidate) bool) (*Choice, error) {
	ch := &Choice{Features: f, GPU: g}
	for _, e := range estimators {
		for _, c := range e.Candidates(f, g) {
			if allowed != nil && !allowed(c) {
				continue
			}
			if est, ok := e.Estimate(f, g, c); ok {
				ch.Ranked = append(ch.Ranked, est)
			}
		}
	}
	if len(ch.Ranked) == 0 {
		return nil, fmt.Errorf("no candidate configuration fits %s", g.Arch)
	}
	fastest := ch.Ranked[0].Seconds
	for _, e := range ch.Ranked {
		fastest = math.Min(fastest, e.Seconds)
	}
	pick := 0
	for i, e := range ch.Ranked {
		if e.Seconds <= fastest*(1+Tolerance) {
			pick = i
			break
		}
	}
	chosen := ch.Ranked[pick]
	rest := append(append([]Estimate(nil), ch.Ranked[:pick]...), ch.Ranked[pick+1:]...)
	sort.SliceStable(rest, func(a, b int) bool { return rest[a].Seconds < rest[b].Seconds })
	ch.Ranked = append([]Estimate{chosen}, rest...)
	return ch, nil
}

// Dump prints the model section of hextile compile --dump=plan: the
// features, the GPU, the choice and the runners-up (up to more of them,
// then the best of each kind not shown yet, with its rank).
func (c *Choice) Dump(w io.Writer, more int) {
	fmt.Fprintf(w, "model:\n")
	fmt.Fprintf(w, "  stencil: %s\n", c.Features)
	fmt.Fprintf(w, "  gpu: %s\n", c.GPU)
	fmt.Fprintf(w, "  arithmetic: %s\n", c.Features.Arithmetic())
	if c.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", c.Note)
	}
	best := c.Best()
	tie := ""
	for _, e := range c.Ranked[1:] {
		if e.Seconds < best.Seconds {
			tie = fmt.Sprintf(" [within %.0f%% of the fastest prediction: the earlier candidate, measured fastest on the H100]", 100*Tolerance)
			break
		}
	}
	fmt.Fprintf(w, "  chosen: %s%s\n", best, tie)
	shown := map[schedule.Kind]bool{best.Kind: true}
	for i, e := range c.Ranked[1:] {
		if i >= more {
			break
		}
		shown[e.Kind] = true
		fmt.Fprintf(w, "  runner-up %d: %s\n", i+1, e)
	}
	// Every other kind's best candidate, so that the dump says why it was
	// not chosen (e.g. the sweep kernel, predicted below the untiled one).
	for i, e := range c.Ranked[1:] {
		if !shown[e.Kind] {
			shown[e.Kind] = true
			fmt.Fprintf(w, "  runner-up %d: %s\n", i+1, e)
		}
	}
}
