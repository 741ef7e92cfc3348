package main

// Progress on a terminal: a step that takes more than a second shows
// "hextile: analysing dependences... 1.3 s" on standard error, updated
// while it runs and finished with its time. Nothing is printed when
// standard error is not a terminal (tests, pipes, files).

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progressDelay is how long a step runs before its line appears.
var progressDelay = time.Second

// isTerminal reports whether w is a character device (a terminal).
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress reports steps on w when w is a terminal.
type progress struct {
	w  io.Writer
	on bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w, on: isTerminal(w)} }

// step runs f as the step what ("analysing dependences"); on a terminal,
// a step that takes more than progressDelay shows a line with its elapsed
// time.
func (p *progress) step(what string, f func() error) error {
	if p == nil || !p.on {
		return f()
	}
	stop := showProgress(p.w, what)
	err := f()
	stop(err == nil)
	return err
}

// startProgress shows "hextile: what... 3.2 s" on w, when w is a terminal,
// once the step has run for progressDelay; the returned stop ends the line
// with the time taken (and "failed" when ok is false). Nothing is printed
// when w is not a terminal or the step ends sooner.
func startProgress(w io.Writer, what string) (stop func(ok bool)) {
	if !isTerminal(w) {
		return func(bool) {}
	}
	return showProgress(w, what)
}

// showProgress is startProgress on w, terminal or not.
func showProgress(w io.Writer, what string) (stop func(ok bool)) {
	start := time.Now()
	done := make(chan struct{})
	exited := make(chan struct{})
	shown := false
	go func() {
		defer close(exited)
		t := time.NewTimer(progressDelay)
		defer t.Stop()
		select {
		case <-done:
			return
		case <-t.C:
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprintf(w, "\rhextile: %s... %.1f s", what, time.Since(start).Seconds())
			shown = true
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func(ok bool) {
		close(done)
		<-exited
		if shown {
			end := ""
			if !ok {
				end = " (failed)"
			}
			fmt.Fprintf(w, "\rhextile: %s... %.1f s%s\n", what, time.Since(start).Seconds(), end)
		}
	}
}
