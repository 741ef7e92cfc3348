package schedule

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/poly"
)

func ghostScop(t *testing.T, file string, defs map[string]string) (*frontend.Scop, *frontend.Deps) {
	t.Helper()
	src, err := os.ReadFile("../testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Parse(file, src, frontend.Options{Defines: defs})
	if err != nil {
		t.Fatal(err)
	}
	sc := p.Scops[0]
	d, err := frontend.ComputeDeps(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sc, d
}

type ghostCase struct {
	file  string
	kind  Kind
	sizes []int64
	defs  map[string]string
}

func ghostCases() []ghostCase {
	small2 := map[string]string{"N": "9", "T": "4"}
	small3 := map[string]string{"N": "7", "T": "4"}
	cs := []ghostCase{
		{"heat2d.c", Overlapped, []int64{2, 3, 4}, small2},
		{"heat2d.c", Sweep, []int64{1, 5, 4}, small2},
		{"heat2d.c", Sweep, []int64{0, 5, 4}, small2}, // cached plane sweep: one-to-one
		{"asymmetric1d.c", Overlapped, []int64{3, 4}, nil},
		{"jacobi1d_mod2.c", Overlapped, []int64{2, 5}, nil},
	}
	if testlong.Enabled() {
		cs = append(cs,
			ghostCase{"star2d_radius2.c", Overlapped, []int64{1, 4, 5}, map[string]string{"N": "14", "T": "4"}},
			ghostCase{"heat3d.c", Overlapped, []int64{1, 3, 3, 4}, small3},
			ghostCase{"heat3d.c", Sweep, []int64{1, 4, 3, 3}, small3},
			ghostCase{"fdtd2d.c", Overlapped, []int64{2, 3, 4}, map[string]string{"NX": "8", "NY": "9", "TMAX": "4"}},
			ghostCase{"gradient2d.c", Sweep, []int64{3, 4, 4}, small2},
		)
	}
	return cs
}

func params(sc *frontend.Scop) map[string]int64 {
	ps := map[string]int64{}
	for _, p := range sc.Params {
		ps[p] = sc.Defines[p]
	}
	return ps
}

// TestGhostOracle compares the engine's relations (Map, Owner) with the
// pointwise formulas (ghost.computing) on every instance, and checks
// pointwise that the tiles of a band are independent, on small sizes.
func TestGhostOracle(t *testing.T) {
	for _, c := range ghostCases() {
		t.Run(fmt.Sprintf("%s/%s/%v", c.file, c.kind, c.sizes), func(t *testing.T) {
			sc, deps := ghostScop(t, c.file, c.defs)
			s, err := Compute(sc, deps, Options{Kind: c.kind, Sizes: c.sizes})
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(sc, deps, s)
			if !rep.OK() {
				t.Fatalf("Check:\n%s", rep)
			}
			if s.Sizes[0] == 0 && !strings.Contains(rep.Results[2].Detail, "general checker of one-to-one schedules agrees") {
				t.Errorf("h = 0: the general checker was not run:\n%s", rep)
			}
			ps := params(sc)
			// the engine's pairs
			enum := func(m poly.Map) map[string]bool {
				pp, err := m.Enumerate(ps)
				if err != nil {
					t.Fatal(err)
				}
				out := map[string]bool{}
				for _, p := range pp {
					out[p.In.Tuple+fmt.Sprint(p.In.Coords, p.Out.Coords)] = true
				}
				return out
			}
			gotM, gotO := enum(s.Map), enum(s.Owner)
			wantM, wantO := map[string]bool{}, map[string]bool{}
			tilesOf := map[string]map[string]bool{} // instance -> tile keys
			bandOf := map[string]int64{}
			redundant := 0
			for i, st := range sc.Stmts {
				pts, err := st.Domain.Enumerate(ps)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pts {
					vs, err := s.Vectors(i, p.Coords)
					if err != nil {
						t.Fatal(err)
					}
					id := st.Name + fmt.Sprint(p.Coords)
					wantO[st.Name+fmt.Sprint(p.Coords, vs[0])] = true
					tilesOf[id] = map[string]bool{}
					bandOf[id] = vs[0][0]
					for _, v := range vs {
						wantM[st.Name+fmt.Sprint(p.Coords, v)] = true
						tilesOf[id][fmt.Sprint(v[:s.gh.nTile()])] = true
					}
					redundant += len(vs) - 1
				}
			}
			if d := diffKeys(gotM, wantM); d != "" {
				t.Errorf("Map differs from the formulas: %s", d)
			}
			if d := diffKeys(gotO, wantO); d != "" {
				t.Errorf("Owner differs from the formulas: %s", d)
			}
			if s.Sizes[0] > 0 && redundant == 0 {
				t.Errorf("h = %d but no redundant instance", s.Sizes[0])
			}
			if s.Sizes[0] == 0 && redundant != 0 {
				t.Errorf("h = 0 but %d redundant instances", redundant)
			}
			// pointwise independence
			for _, dm := range []poly.Map{deps.Flow, deps.Anti, deps.Output} {
				pp, err := dm.Enumerate(ps)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pp {
					x, y := p.In.Tuple+fmt.Sprint(p.In.Coords), p.Out.Tuple+fmt.Sprint(p.Out.Coords)
					if bandOf[x] > bandOf[y] {
						t.Fatalf("dependence %s -> %s goes back a band", x, y)
					}
					if bandOf[x] < bandOf[y] {
						continue
					}
					for tile := range tilesOf[y] {
						if !tilesOf[x][tile] {
							t.Fatalf("tile %s computes %s but not its source %s in the same band", tile, y, x)
						}
					}
				}
			}
		})
	}
}

func diffKeys(got, want map[string]bool) string {
	var extra, missing []string
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	if len(extra)+len(missing) == 0 {
		return ""
	}
	sort.Strings(extra)
	sort.Strings(missing)
	return fmt.Sprintf("%d extra (e.g. %v), %d missing (e.g. %v)", len(extra), first(extra), len(missing), first(missing))
}

func first(s []string) []string {
	if len(s) > 3 {
		return s[:3]
	}
	return s
}

// TestGhostCheckCatchesNarrowHalo: a ghost zone one cell too narrow on
// either side (or no ghost zone) leaves a tile without a source it needs,
// and Check says so in (c); an owner map with a gap fails (b).
func TestGhostCheckCatchesNarrowHalo(t *testing.T) {
	sc, deps := ghostScop(t, "heat2d.c", map[string]string{"N": "12", "T": "5"})
	for _, c := range []struct {
		name string
		mut  func(g *ghost)
		prop string
	}{
		{"no left halo s0", func(g *ghost) { g.lo = append([]slope{{0, 1}}, g.lo[1:]...) }, "(c)"},
		{"no right halo s1", func(g *ghost) { g.hi = []slope{g.hi[0], {0, 1}} }, "(c)"},
		{"half halo", func(g *ghost) { g.lo = []slope{{1, 2}, {1, 2}} }, "(c)"},
		{"owner gap", func(g *ghost) { g.w = []int64{g.w[0], g.w[1]} }, "(b)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Compute(sc, deps, Options{Kind: Overlapped, Sizes: []int64{2, 3, 4}})
			if err != nil {
				t.Fatal(err)
			}
			g := *s.gh
			c.mut(&g)
			if s.Map, err = g.relation(s.cn, false); err != nil {
				t.Fatal(err)
			}
			s.gh = &g
			if c.name == "owner gap" {
				// owners of widths w but boxes one cell apart: every (w+1)-th column unowned
				g2 := g
				g2.w = []int64{g.w[0] + 1, g.w[1]}
				own, err := g2.relation(s.cn, true)
				if err != nil {
					t.Fatal(err)
				}
				// shrink each box back to w cells: keep s0 - (w+1)*S0 <= w-1
				s.Owner = own.Intersect(s.Map)
			}
			rep := Check(sc, deps, s)
			var bad []string
			for _, r := range rep.Results {
				if !r.OK {
					bad = append(bad, r.Property[:3])
				}
			}
			if !strings.Contains(strings.Join(bad, " "), c.prop) {
				t.Fatalf("Check did not fail %s:\n%s", c.prop, rep)
			}
		})
	}
}

// TestGhostRefusals: the ghost kinds name what they cannot take.
func TestGhostRefusals(t *testing.T) {
	for _, c := range []struct {
		file string
		kind Kind
		want string
	}{
		{"jacobi1d_mod2.c", Sweep, "--tile=sweep needs at least two space dimensions"},
		{"gaussseidel2d.c", Overlapped, "--tile=overlapped needs"},
		{"timeloops2d.c", Sweep, "--tile=sweep needs"},
	} {
		t.Run(c.file+"/"+string(c.kind), func(t *testing.T) {
			sc, deps := ghostScop(t, c.file, nil)
			_, err := Compute(sc, deps, Options{Kind: c.kind})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "error:") {
				t.Fatalf("got %v, want a positioned refusal containing %q", err, c.want)
			}
		})
	}
}
