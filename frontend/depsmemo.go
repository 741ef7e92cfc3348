package frontend

import (
	"fmt"
	"strings"
	"sync"
)

// depsMemo remembers the dependences of the last scops analysed, keyed by
// depsKey: everything computeDeps reads of a scop (parameters, context, and
// per statement its name, iterators, loop directions, domain, schedule,
// textual positions and access relations), printed. Two scops with the same
// key have the same dependences, so a hit returns the stored result (and an
// error is stored too: the same model fails the same way). The memo holds at
// most depsMemoSize entries and forgets the oldest first.
var depsMemo = &depsCache{}

const depsMemoSize = 64

type depsCache struct {
	mu    sync.Mutex
	order []string
	m     map[string]depsEntry
}

type depsEntry struct {
	deps *Deps
	err  error
}

func (c *depsCache) get(sc *Scop, compute func() (*Deps, error)) (*Deps, error) {
	key := depsKey(sc)
	c.mu.Lock()
	if e, ok := c.m[key]; ok {
		c.mu.Unlock()
		return e.deps, e.err
	}
	c.mu.Unlock()
	d, err := compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]depsEntry{}
	}
	if _, ok := c.m[key]; !ok {
		c.m[key] = depsEntry{d, err}
		c.order = append(c.order, key)
		if len(c.order) > depsMemoSize {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
	}
	return d, err
}

// depsKey prints what the dependence analysis reads of sc.
func depsKey(sc *Scop) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%v|%s\n", sc.Pos, sc.Params, sc.Context.String())
	for _, st := range sc.Stmts {
		fmt.Fprintf(&b, "%s %v %v %v %s|%s|%s\n", st.Name, st.Iters, st.Down, st.Beta, st.Pos, st.Domain.String(), st.Schedule.String())
		for _, a := range st.Reads {
			fmt.Fprintf(&b, " R %s %s\n", a.Array, a.Rel.String())
		}
		for _, a := range st.Writes {
			fmt.Fprintf(&b, " W %s %s\n", a.Array, a.Rel.String())
		}
	}
	return b.String()
}
