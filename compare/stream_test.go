package compare

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"hextile/codegen/gpuplan"
	"hextile/frontend"
	"hextile/internal/testlong"
	"hextile/schedule"
)

// streamView is what the stream tests compare of two counts.
type streamView struct {
	Tiles, Phases, TMin, TMax, Useful, Computed  int64
	Loads, Stores, LoadBytes, StoreBytes, Shared int64
	Barriers, Launches, MaxTileShared            int64
	LoadAcc, StoreAcc, SharedR, SharedW, RegR    int64
	PhaseTiles, PhaseComputed                    []int64
}

func viewStream(c *Counts) streamView {
	v := streamView{c.Tiles, c.Phases, c.TilesPerPhase.Min, c.TilesPerPhase.Max, c.Useful, c.Computed,
		c.Loads, c.Stores, c.LoadBytes, c.StoreBytes, c.SharedAccesses, c.Barriers, c.Launches, c.MaxTileShared,
		c.Stream.GlobalLoadAccesses, c.Stream.GlobalStoreAccesses, c.Stream.SharedReads, c.Stream.SharedWrites, c.Stream.RegisterReads, nil, nil}
	for _, p := range c.PerPhase {
		v.PhaseTiles = append(v.PhaseTiles, p.Tiles)
		v.PhaseComputed = append(v.PhaseComputed, p.Computed)
	}
	return v
}

// bruteStream simulates the streaming hybrid kernel as cudaprint prints
// it, independently of CountStream: the domain and the accessed elements
// from the engine's relations (enumerated), the blocks by testing every
// hexagon of a window around the domain (a block for every hexagon whose
// columns meet the domain's and whose rows meet its time steps; a launch
// per time tile and phase with any), and every block's sweep step by step,
// row by row and thread by thread with the kernel's conditions. It checks
// that every instance is computed exactly once.
func bruteStream(t *testing.T, sc *frontend.Scop, sched *schedule.Schedule, ps map[string]int64, opt gpuplan.CUDAOptions) streamView {
	t.Helper()
	cs, err := gpuplan.HexStreamOf(sc, sched, opt)
	if err != nil {
		t.Fatal(err)
	}
	hp, geo := cs.HexStream, cs.HexStream.Geo
	st := sc.Stmts[0]
	type key struct {
		ref  *frontend.ArrayRef
		inst [3]int64
	}
	elem := map[key]string{}
	domain := map[[3]int64]bool{}
	bytesOf := map[string]int64{}
	for _, a := range sc.Arrays {
		bytesOf[a.Name] = typeBytes(a.Elem)
	}
	for _, acc := range append(append([]*frontend.Access(nil), st.Reads...), st.Writes...) {
		pp, err := acc.Rel.IntersectDomain(st.Domain).Enumerate(ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pp {
			in := [3]int64{p.In.Coords[0], p.In.Coords[1], p.In.Coords[2]}
			elem[key{acc.Ref, in}] = p.Out.Tuple + fmt.Sprint(p.Out.Coords)
			if acc.Write {
				domain[in] = true
			}
		}
	}
	var box [6]int64 // tlo, thi, lo0, hi0, lo1, hi1
	first := true
	for in := range domain {
		for d := 0; d < 3; d++ {
			if first || in[d] < box[2*d] {
				box[2*d] = in[d]
			}
			if first || in[d] > box[2*d+1] {
				box[2*d+1] = in[d]
			}
		}
		first = false
	}
	tlo, thi, lo0, hi0, lo1, hi1 := box[0], box[1], box[2], box[3], box[4], box[5]
	rows := int64(len(geo.Rows))
	bmin, bmax := hp.BMin, hp.BMin+hp.Threads-1
	inRow := func(a, o, s0 int64) bool { return s0 >= o+geo.Rows[a][0] && s0 <= o+geo.Rows[a][1] }
	inDom := func(s0, s1 int64) bool { return s0 >= lo0 && s0 <= hi0 && s1 >= lo1 && s1 <= hi1 }
	arrBytes := func(e string) int64 {
		for n, b := range bytesOf {
			if len(e) > len(n) && e[:len(n)] == n && e[len(n)] == '[' {
				return b
			}
		}
		t.Fatalf("no array for %s", e)
		return 0
	}
	steps := hi1 - lo1 + 1 + hp.Lag*(rows-1)
	var v streamView
	computed := map[[3]int64]int{}
	for T := (tlo-2*rows)/geo.H - 2; T <= thi/geo.H+2; T++ {
		for ph := int64(0); ph < 2; ph++ {
			t0, o0 := geo.Origin(T, ph, 0)
			if t0+rows-1 < tlo || t0 > thi {
				continue
			}
			var blocks []int64
			for S0 := (lo0-bmax-o0)/geo.W - 3; S0 <= (hi0-bmin-o0)/geo.W+3; S0++ {
				if _, o := geo.Origin(T, ph, S0); o+bmax >= lo0 && o+bmin <= hi0 {
					blocks = append(blocks, S0)
				}
			}
			if len(blocks) == 0 {
				continue
			}
			v.PhaseTiles = append(v.PhaseTiles, int64(len(blocks)))
			var phComputed int64
			for _, S0 := range blocks {
				v.Tiles++
				v.Barriers += steps
				_, o := geo.Origin(T, ph, S0)
				loaded, stored := map[string]bool{}, map[string]bool{}
				for z := lo1; z <= hi1+hp.Lag*(rows-1); z++ {
					for a := int64(0); a < rows; a++ {
						tt, s1 := t0+a, z-hp.Lag*a
						if tt < tlo || tt > thi || s1 < lo1 || s1 > hi1 {
							continue
						}
						for tx := int64(0); tx < hp.Threads; tx++ {
							s0 := o + bmin + tx
							if !inRow(a, o, s0) || !inDom(s0, s1) {
								continue
							}
							in := [3]int64{tt, s0, s1}
							if !domain[in] {
								t.Fatalf("the kernel computes %v, not an instance", in)
							}
							computed[in]++
							phComputed++
							for k, r := range hp.Stmt.Reads {
								di, dj := hp.Rel[k][0], hp.Rel[k][1]
								if hp.Prev[k] && a > 0 && tt > tlo && inRow(a-1, o, s0+di) && inDom(s0+di, s1+dj) {
									if hp.Regs && di == 0 {
										v.RegR++
									} else {
										v.SharedR++
									}
									continue
								}
								v.LoadAcc++
								e, ok := elem[key{r.Ref, in}]
								if !ok {
									t.Fatalf("no element of read %d at %v", k, in)
								}
								loaded[e] = true
							}
							store := a == rows-1 || hp.StoreAll || tt+1 >= thi
							for _, di := range hp.DIs {
								if a < rows-1 && !inRow(a+1, o, s0-di) {
									store = true
								}
							}
							if store {
								v.StoreAcc++
								stored[elem[key{hp.Stmt.Write.Ref, in}]] = true
							}
							if a < rows-1 && hp.Buffered {
								v.SharedW++
							}
						}
					}
				}
				for e := range loaded {
					v.Loads++
					v.LoadBytes += arrBytes(e)
				}
				for e := range stored {
					v.Stores++
					v.StoreBytes += arrBytes(e)
				}
			}
			v.PhaseComputed = append(v.PhaseComputed, phComputed)
		}
	}
	for in := range domain {
		if computed[in] != 1 {
			t.Fatalf("instance %v computed %d times", in, computed[in])
		}
	}
	v.Useful, v.Computed = int64(len(domain)), int64(len(domain))
	v.Phases, v.Launches = int64(len(v.PhaseTiles)), int64(len(v.PhaseTiles))
	for i, n := range v.PhaseTiles {
		if i == 0 || n < v.TMin {
			v.TMin = n
		}
		v.TMax = max(v.TMax, n)
	}
	v.Shared = v.SharedR + v.SharedW
	v.MaxTileShared = hp.Smem
	return v
}

// TestStreamCountsBruteForce: CountStream agrees with a simulation of the
// kernel on small sizes, for 5-point stencils (one with repeated reads of
// a cell), a radius-2 star, and the kernel's options (no column
// registers, row groups, every cell stored).
func TestStreamCountsBruteForce(t *testing.T) {
	type tc struct {
		file  string
		sizes []int64
		defs  map[string]string
		opt   gpuplan.CUDAOptions
	}
	cases := []tc{
		{"jacobi2d_mod2.c", []int64{1, 2, 4}, map[string]string{"N": "11", "T": "5"}, gpuplan.CUDAOptions{}},
		{"heat2d.c", []int64{2, 2, 4}, map[string]string{"N": "9", "T": "5"}, gpuplan.CUDAOptions{HexStreamGroups: 2}},
		{"star2d_radius2.c", []int64{1, 3, 4}, map[string]string{"N": "12", "T": "4"}, gpuplan.CUDAOptions{}},
	}
	if testlong.Enabled() {
		j := map[string]string{"N": "13", "T": "5"}
		cases = append(cases,
			tc{"jacobi2d_mod2.c", []int64{2, 3, 4}, j, gpuplan.CUDAOptions{HexStreamStoreAll: true}},
			tc{"jacobi2d_mod2.c", []int64{2, 3, 4}, j, gpuplan.CUDAOptions{NoReuse: true}},
			tc{"jacobi2d_mod2.c", []int64{3, 7, 32}, map[string]string{"N": "28", "T": "12"}, gpuplan.CUDAOptions{}},
			tc{"laplacian2d.c", []int64{7, 49, 64}, map[string]string{"N": "30", "T": "16"}, gpuplan.CUDAOptions{}},
			tc{"gradient2d.c", []int64{2, 5, 8}, map[string]string{"N": "17", "T": "8"}, gpuplan.CUDAOptions{HexStreamGroups: 3}},
			tc{"star2d_radius2.c", []int64{2, 4, 4}, map[string]string{"N": "23", "T": "7"}, gpuplan.CUDAOptions{NoReuse: true}},
		)
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%v/regs=%v,groups=%d,all=%v", c.file, c.sizes, !c.opt.NoReuse, c.opt.HexStreamGroups, c.opt.HexStreamStoreAll), func(t *testing.T) {
			sc, deps := load(t, c.file, c.defs)
			s, err := schedule.Compute(sc, deps, schedule.Options{Kind: schedule.Hybrid, Sizes: c.sizes})
			if err != nil {
				t.Fatal(err)
			}
			ps := paramsOf(sc)
			got, err := CountStream(sc, s, ps, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteStream(t, sc, s, ps, c.opt)
			if d := cmp.Diff(want, viewStream(got)); d != "" {
				t.Errorf("counts differ from the simulation (-brute +CountStream):\n%s", d)
			}
			if got.Redundant != 0 || got.Loads == 0 || got.Stores == 0 || got.Stream.SharedReads+got.Stream.RegisterReads == 0 {
				t.Errorf("degenerate case: %+v", viewStream(got))
			}
		})
	}
}
