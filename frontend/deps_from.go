package frontend

import (
	"fmt"

	"hextile/poly"
)

// DepsFrom returns the dependences of sc given as relations (flow, anti
// and output, e.g. the dependences of a larger scop restricted to the
// instances sc keeps), with the distances and cone slopes computed as
// ComputeDeps does. The caller vouches for the relations being exact for
// sc.
func DepsFrom(sc *Scop, flow, anti, output poly.Map) (deps *Deps, err error) {
	defer func() {
		if r := recover(); r != nil {
			deps, err = nil, fmt.Errorf("%s: error: internal error in dependence analysis: %v", sc.Pos, r)
		}
	}()
	d := &Deps{Flow: simplifyMap(flow), Anti: simplifyMap(anti), Output: simplifyMap(output)}
	if err := d.computeSlopes(sc); err != nil {
		return nil, err
	}
	return d, nil
}
