package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The chunked streaming hybrid kernel (--tile=hybrid --stream
// --stream-chunk=C) and its fixup kernel, printed from gpuplan.HexChunk
// (see its doc for the ghost zones, the mirror copy and the prefetch). A
// block takes (hexagon hx_B, chunk hx_K) pairs over the grid (x: hexagons,
// y: chunks) and sweeps the chunk's steps; jacobi2d_mod2 with sizes 1,2,_
// and chunks of 4 (Lag 2, rows -1..3, 5 threads, R0 = 1, Cols 7, NB 3):
//
//	for (hx_z = hx_c0 - 3; hx_z <= hx_c1 + 6; hx_z++) {
//	  { /* row -1: t = hx_t0 - 1, s1 = hx_z + 2 (loaded only) */
//	    hx_sb[(0*3 + slot) * 7 + hx_tx + 1] = hx_p0;          // prefetched at the last step
//	    if (hx_tx < 2) hx_sb[(0*3 + slot) * 7 + pad] = hx_pp0;
//	    hx_c0_n = hx_p0; }
//	  { /* row 1: t = hx_t0 + 1, s1 = hx_z - 2 */
//	    hx_v = hx_in && hx_cf1 ? 0.2f * (hx_c1_1 + hx_sb[(1*3 + ..) * 7 + hx_tx + 1 - 1] + ...) : hx_p2;
//	    if (hx_in && hx_cf1 && own && (hx_t + 1 >= hx_thi || hx_sf1)) A[...] = hx_v;
//	    hx_sb[(2*3 + slot) * 7 + hx_tx + 1] = hx_v; hx_c2_n = hx_v; ... }
//	  ... rows 0..3 ...
//	  registers one step older;
//	  hx_p0 = (loads of row -1 needed at step hx_z + 1) ? hx_m_A[...] : 0; ...   // the prefetch
//	  __syncthreads();
//	  hx_q = hx_q == 2 ? 0 : hx_q + 1;
//	}
//
// The fixup kernel runs the same grid and copies every cell that the
// chunk stored (same conditions, own planes only) from A to hx_m_A.

// hexChunkArgs lists the chunked kernels' arguments (decl: with types):
// the parameters, the arrays (a written array X as the copy the kernel
// stores to and its mirror hx_m_X, which the main kernel reads and the
// fixup writes), and the host arguments hx_T, hx_ph, hx_S0lo, hx_nS and
// the chunk size hx_C.
func hexChunkArgs(cs *gpuplan.Scop, kn *gpuplan.Kernel, decl bool) []string {
	fix := kn != nil && kn == cs.Kernels[len(cs.Kernels)-1]
	out := streamKernelArgs(cs, decl, func(a *frontend.Array) []string {
		if !decl {
			return []string{"hx_d_" + a.Name, "hx_d2_" + a.Name}
		}
		x, m := "", "const "
		if fix {
			x, m = "const ", ""
		}
		return []string{fmt.Sprintf("%s%s *HX_RESTRICT %s", x, a.Elem, a.Name), fmt.Sprintf("%s%s *HX_RESTRICT hx_m_%s", m, a.Elem, a.Name)}
	})
	for _, v := range []string{"hx_T", "hx_ph", "hx_S0lo", "hx_nS", "hx_C"} {
		if decl {
			v = cs.IntType + " " + v
		}
		out = append(out, v)
	}
	return out
}

// hexChunkGen prints the chunked kernels of one scop.
type hexChunkGen struct {
	*hexStreamGen
	hc *gpuplan.HexChunk
}

// printHexChunkKernel returns the definition of kernel kn (the chunked
// kernel or its fixup; in emulation with its launcher).
func printHexChunkKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) string {
	hp := cs.HexStream
	g := &hexChunkGen{&hexStreamGen{kernelGenFor(cs, kn, emu), hp}, hp.Chunk}
	if kn == cs.Kernels[len(cs.Kernels)-1] {
		g.frame(hp.Elem, 0, "", g.fixBody)
		return g.b.String()
	}
	nsb := int64(0)
	if hp.Buffered {
		nsb = int64(hp.Rows()) * hp.NB * g.hc.Cols
	}
	g.frame(hp.Elem, nsb, "chunked streaming hybrid row buffers", g.body)
	return g.b.String()
}

// loops opens the loops over the block's (hexagon, chunk) pairs and
// prints the tile origin hx_t0, hx_o, the chunk's planes [hx_c0, hx_c1]
// and (in CUDA) the thread's column hx_s0; it returns the depth inside.
func (g *hexChunkGen) loops() int {
	hp, it := g.hp, g.cs.IntType
	for _, l := range hexStreamBounds(hp, it) {
		g.line(1, l)
	}
	g.line(1, "(void)hx_lo0; (void)hx_hi0; (void)hx_tlo; (void)hx_thi;")
	g.line(1, fmt.Sprintf("const %s hx_nC = (hx_hi1 - hx_lo1 + hx_C) / hx_C;", it))
	g.line(1, fmt.Sprintf("for (%s hx_B = (%s)blockIdx.x; hx_B < hx_nS; hx_B += (%s)gridDim.x)", it, it, it))
	g.line(1, fmt.Sprintf("for (%s hx_K = (%s)blockIdx.y; hx_K < hx_nC; hx_K += (%s)gridDim.y) {", it, it, it))
	t0, s00 := hexOrigin(hp, "hx_T", "hx_ph", "(hx_S0lo + hx_B)")
	g.line(2, fmt.Sprintf("const %s hx_t0 = %s, hx_o = %s;", it, t0, s00))
	g.line(2, fmt.Sprintf("const %s hx_c0 = hx_lo1 + hx_K * hx_C, hx_c1 = hx_c0 + hx_C - 1 < hx_hi1 ? hx_c0 + hx_C - 1 : hx_hi1;", it))
	if !g.emu {
		g.line(2, fmt.Sprintf("const %s hx_s0 = hx_o + %d + hx_tx; (void)hx_s0;", it, hp.BMin))
	}
	return 2
}

// storeCond is the condition that row a's computed cell is stored (the
// unchunked kernel's: the last row, the last two time steps, the cells
// other hexagons read), own planes only ("" for always); in the steady
// state the plane is the chunk's own.
func (g *hexChunkGen) storeCond(a int, steady bool) string {
	var c []string
	if !steady {
		c = append(c, "hx_s1 >= hx_c0 && hx_s1 <= hx_c1")
	}
	if a < g.hp.Rows()-1 && !g.hp.StoreAll {
		c = append(c, fmt.Sprintf("(hx_t + 1 >= hx_thi || %s)", g.flag(fmt.Sprintf("hx_sf%d", a), g.edgeCond(a))))
	}
	return strings.Join(c, " && ")
}

// padCol prints the pad column of thread hx_tx < 2*R0: the R0 columns
// left of the block, then the R0 right of it.
func (g *hexChunkGen) padCol() string {
	hp, hc := g.hp, g.hc
	return fmt.Sprintf("(hx_tx < %d ? hx_o + %d + hx_tx : hx_o + %d + hx_tx)", hc.R0, hp.BMin-hc.R0, hp.BMin+hp.Threads-hc.R0)
}

// readCol is the condition that row b + 1 reads column col of row b (a
// column of row b + 1 in the domain reads it at some offset di).
func (g *hexChunkGen) readCol(b int, col string) string {
	r := g.hp.Geo.Rows[b+1]
	var out []string
	for _, di := range g.hp.DIs {
		c := shifted(col, -di)
		out = append(out, fmt.Sprintf("(%s >= hx_o + %d && %s <= hx_o + %d && %s >= hx_lo0 && %s <= hx_hi0)", c, r[0], c, r[1], c, c))
	}
	return strings.Join(out, " || ")
}

// inRow is the block-uniform condition that row b computes plane hx_s1
// of time hx_t (in the time loop, the domain and the chunk's planes with
// row b's ghost zone).
func (g *hexChunkGen) inRow(b int) string {
	hc := g.hc
	return fmt.Sprintf("hx_t >= hx_tlo && hx_t <= hx_thi && hx_s1 >= hx_lo1 && hx_s1 <= hx_hi1 && hx_s1 >= hx_c0 - %d && hx_s1 <= hx_c1 + %d", hc.GL[b], hc.GR[b])
}

// bufRef is row b's buffer (b = -1..2h) at the plane of row a's hx_s1
// moved by dj, column col (local: 0 is the block's first column).
func (g *hexChunkGen) bufRef(b, a int, dj int64, col string, mode int) string {
	hp := g.hp
	k := ((dj-hp.Lag*int64(a))%hp.NB + hp.NB) % hp.NB
	q := "hx_q"
	if k != 0 {
		q = fmt.Sprintf("(hx_q + %d >= %d ? hx_q + %d : hx_q + %d)", k, hp.NB, k-hp.NB, k)
	}
	return g.sbRef(fmt.Sprintf("(%d + %s) * %d + %s + %d", int64(b+1)*hp.NB, q, g.hc.Cols, col, g.hc.R0), mode)
}

func (g *hexChunkGen) pf(b int, pad bool) string {
	n := fmt.Sprintf("hx_p%d", b+1)
	if pad {
		n = fmt.Sprintf("hx_pp%d", b+1)
	}
	if g.emu {
		return n + "[hx_tx]"
	}
	return n
}

func (g *hexChunkGen) body() {
	hp, hc, it := g.hp, g.hc, g.cs.IntType
	rows := hp.Rows()
	// Registers: column registers of rows -1..2h (index b + 1) and the
	// prefetch registers.
	for b := -1; b < rows-1; b++ {
		var names []string
		if hp.Regs {
			for _, j := range g.regNames() {
				names = append(names, fmt.Sprintf("hx_c%d_%s", b+1, j))
			}
		}
		names = append(names, fmt.Sprintf("hx_p%d", b+1))
		if g.padRow(b) {
			names = append(names, fmt.Sprintf("hx_pp%d", b+1))
		}
		for _, n := range names {
			if g.emu {
				g.line(1, fmt.Sprintf("static %s %s[%d];", hp.Elem, n, hp.Threads))
			} else {
				g.line(1, fmt.Sprintf("%s %s = 0;", hp.Elem, n))
			}
		}
	}
	d := g.loops()
	if !g.emu {
		for a := 0; a < rows; a++ {
			g.line(d, fmt.Sprintf("const bool hx_cf%d = %s;", a, g.colCond(a, 0)))
			if a < rows-1 && !hp.StoreAll {
				g.line(d, fmt.Sprintf("const bool hx_sf%d = %s;", a, g.edgeCond(a)))
			}
		}
		if g.anyPad() {
			g.line(d, fmt.Sprintf("const %s hx_px = %s;", it, g.padCol()))
		}
		for b := -1; b < rows-1; b++ {
			g.line(d, fmt.Sprintf("const bool hx_lf%d = %s;", b+1, g.readCol(b, "hx_s0")))
			if b >= 0 {
				g.line(d, fmt.Sprintf("const bool hx_lx%d = hx_lf%d && !hx_cf%d;", b+1, b+1, b))
			}
			if g.padRow(b) {
				g.line(d, fmt.Sprintf("const bool hx_plf%d = hx_tx < %d && (%s);", b+1, 2*hc.R0, g.readCol(b, "hx_px")))
			}
		}
	}
	g.line(d, fmt.Sprintf("const %s hx_zlo = hx_c0 - %d, hx_zhi = hx_c1 + %d;", it, -hc.ZLo, hc.ZHi))
	g.line(d, fmt.Sprintf("const %s hx_slo = hx_c0 + %d > hx_lo1 + %d ? hx_c0 + %d : hx_lo1 + %d;", it, hc.SLoC, hc.SLoL, hc.SLoC, hc.SLoL))
	g.line(d, fmt.Sprintf("const %s hx_shi = hx_c1 + %d < hx_hi1 + %d ? hx_c1 + %d : hx_hi1 + %d;", it, hc.SHiC, hc.SHiH, hc.SHiC, hc.SHiH))
	g.line(d, fmt.Sprintf("const int hx_steady = hx_t0 >= hx_tlo && hx_t0 + %d <= hx_thi; /* every row in the time loop */", rows-1))
	g.loads(d, "hx_zlo", false)
	g.line(d, fmt.Sprintf("int hx_q = 0; /* (hx_z - hx_zlo) mod %d: the buffer slot of plane hx_z */", hp.NB))
	g.line(d, fmt.Sprintf("for (%s hx_z = hx_zlo; hx_z <= hx_zhi; hx_z++) {", it))
	g.line(d+1, "if (hx_steady && hx_z >= hx_slo && hx_z <= hx_shi) { /* steady: no block-uniform guards */")
	if g.emu {
		g.line(d+2, "if (hx_z == hx_slo) hx_emu_steady_boxes++;")
		g.line(d+2, "hx_emu_steady_steps++;")
	}
	for b := -1; b < rows; b++ {
		g.row(b, d+2, true)
	}
	g.shiftRegs(d + 2)
	g.loads(d+2, "hx_z + 1", true)
	g.line(d+1, "} else {")
	for b := -1; b < rows; b++ {
		g.row(b, d+2, false)
	}
	g.shiftRegs(d + 2)
	g.line(d+2, "if (hx_z < hx_zhi) {")
	g.loads(d+3, "hx_z + 1", false)
	g.line(d+2, "}")
	g.line(d+1, "}")
	g.line(d+1, "__syncthreads(); /* the rows of a step read only planes of earlier steps */")
	g.line(d+1, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", hp.NB-1))
	g.line(d, "}")
	g.line(1, "}")
}

// cflag etc. are the thread's column flags: variables in CUDA, the
// conditions themselves in emulation.
func (g *hexChunkGen) cflag(a int) string { return g.flag(fmt.Sprintf("hx_cf%d", a), g.colCond(a, 0)) }

func (g *hexChunkGen) lflag(b int) string {
	return g.flag(fmt.Sprintf("hx_lf%d", b+1), g.readCol(b, "hx_s0"))
}

func (g *hexChunkGen) loflag(b int) string {
	if !g.emu {
		return fmt.Sprintf("hx_lx%d", b+1)
	}
	return fmt.Sprintf("(%s && !%s)", g.lflag(b), g.cflag(b))
}

func (g *hexChunkGen) plflag(b int) string {
	return g.flag(fmt.Sprintf("hx_plf%d", b+1), fmt.Sprintf("hx_tx < %d && (%s)", 2*g.hc.R0, g.readCol(b, "hx_px")))
}

// padRow reports whether row b's pad columns are loaded (a column of row
// b + 1 reads them: HexChunk.PadRows).
func (g *hexChunkGen) padRow(b int) bool { return g.hp.Buffered && g.hc.PadRows[b+1] }

func (g *hexChunkGen) anyPad() bool {
	for b := -1; b < g.hp.Rows()-1; b++ {
		if g.padRow(b) {
			return true
		}
	}
	return false
}

// threadVars prints, in emulation, the thread's column (and pad column)
// at the top of a piece of thread work.
func (g *hexChunkGen) threadVars(d int) {
	if !g.emu {
		return
	}
	it := g.cs.IntType
	g.line(d, fmt.Sprintf("const %s hx_s0 = hx_o + %d + hx_tx; (void)hx_s0;", it, g.hp.BMin))
	if g.anyPad() {
		g.line(d, fmt.Sprintf("const %s hx_px = %s; (void)hx_px;", it, g.padCol()))
	}
}

// loads prints the prefetch of step z's loads: for every row b =
// -1..2h-1... 2h, the value of (t0 + b, column, plane z - Lag*b) from the
// mirror where row b + 1 may read it and row b does not compute it, else
// 0, into hx_p (own column) and hx_pp (pad column).
func (g *hexChunkGen) loads(d int, z string, steady bool) {
	hp, hc, it := g.hp, g.hc, g.cs.IntType
	fs := hp.Stmt
	st := fs.Stmt
	wr := fs.Write
	for b := -1; b < hp.Rows()-1; b++ {
		g.line(d, fmt.Sprintf("{ /* loads of row %d for step %s */", b, z))
		g.line(d+1, fmt.Sprintf("const %s hx_t = hx_t0 + %d, hx_s1 = %s - %d;", it, b, z, hp.Lag*int64(b)))
		own, ld := g.lflag(b), "hx_ld && "
		switch {
		case steady:
			// hx_ld holds and row b computes the plane (planSteadyChunk).
			g.line(d+1, "(void)hx_t;")
			ld = ""
			if b >= 0 {
				own = g.loflag(b)
			}
		case b >= 0:
			g.line(d+1, fmt.Sprintf("const int hx_ld = hx_t + 1 >= hx_tlo && hx_t + 1 <= hx_thi && hx_s1 >= hx_lo1 + %d && hx_s1 <= hx_hi1 + %d;", hc.DJLo, hc.DJHi))
			g.line(d+1, fmt.Sprintf("const int hx_in = %s;", g.inRow(b)))
			own = fmt.Sprintf("(hx_in ? %s : %s)", g.loflag(b), g.lflag(b))
		default:
			g.line(d+1, fmt.Sprintf("const int hx_ld = hx_t + 1 >= hx_tlo && hx_t + 1 <= hx_thi && hx_s1 >= hx_lo1 + %d && hx_s1 <= hx_hi1 + %d;", hc.DJLo, hc.DJHi))
			g.line(d+1, "(void)hx_t;")
		}
		g.threadsRaw(d+1, func(d int) {
			g.threadVars(d)
			subst := map[string]string{st.Iters[0]: "hx_t", st.Iters[1]: "hx_s0", st.Iters[2]: "hx_s1"}
			g.line(d, fmt.Sprintf("%s = %s%s ? %s : 0;", g.pf(b, false), ld, own, g.globalRef("hx_m_"+wr.Array.Name, elemIdx(wr.Ref, subst), 0)))
			if g.padRow(b) {
				subst[st.Iters[1]] = "hx_px"
				g.line(d, fmt.Sprintf("if (hx_tx < %d) %s = %s%s ? %s : 0;", 2*hc.R0, g.pf(b, true), ld, g.plflag(b), g.globalRef("hx_m_"+wr.Array.Name, elemIdx(wr.Ref, subst), 0)))
			}
		})
		g.line(d, "}")
	}
}

// row prints row b's work at sweep step hx_z (b = -1: the loaded row
// below the hexagon).
func (g *hexChunkGen) row(b, d int, steady bool) {
	hp, hc, it := g.hp, g.hc, g.cs.IntType
	fs := hp.Stmt
	st := fs.Stmt
	rows := hp.Rows()
	g.line(d, fmt.Sprintf("{ /* row %d: t = hx_t0 + %d, s1 = hx_z - %d */", b, b, hp.Lag*int64(b)))
	g.line(d+1, fmt.Sprintf("const %s hx_t = hx_t0 + %d, hx_s1 = hx_z - %d;", it, b, hp.Lag*int64(b)))
	if b >= 0 && !steady {
		g.line(d+1, fmt.Sprintf("const int hx_in = %s;", g.inRow(b)))
	} else {
		g.line(d+1, "(void)hx_t; (void)hx_s1;")
	}
	g.threadsRaw(d+1, func(d int) {
		g.threadVars(d)
		v := g.pf(b, false)
		if b >= 0 {
			subst := map[string]string{st.Iters[0]: "hx_t", st.Iters[1]: "hx_s0", st.Iters[2]: "hx_s1"}
			wins := map[*frontend.ArrayRef]string{}
			for k, rd := range fs.Reads {
				if !hp.Prev[k] {
					continue
				}
				di, dj := hp.Rel[k][0], hp.Rel[k][1]
				src := g.bufRef(b-1, b, dj, shifted("hx_tx", di), 0)
				if hp.Regs && di == 0 {
					src = g.reg(b, fmt.Sprint(hp.Lag-dj-1))
				}
				wins[rd.Ref] = src
			}
			p := &flatPrinter{subst: subst, emu: g.emu, arrays: map[string]*frontend.Array{}, wins: wins, divs: g.cs.Divs}
			for _, arr := range g.cs.Code.Scop.Arrays {
				p.arrays[arr.Name] = arr
			}
			cond := "hx_in && " + g.cflag(b)
			if steady {
				cond = g.cflag(b)
			}
			if b == rows-1 {
				g.line(d, fmt.Sprintf("if (%s) {", cond))
			} else {
				g.line(d, fmt.Sprintf("%s hx_v = %s;", fs.Write.Array.Elem, v))
				g.line(d, fmt.Sprintf("if (%s) {", cond))
			}
			decl := ""
			if b == rows-1 {
				decl = string(fs.Write.Array.Elem) + " "
			}
			g.line(d+1, fmt.Sprintf("%shx_v = %s;", decl, p.expr(st.Body.RHS, false, false)))
			if sc := g.storeCond(b, steady); sc != "" {
				g.line(d+1, fmt.Sprintf("if (%s) %s = hx_v;", sc, g.globalRef(fs.Write.Array.Name, elemIdx(fs.Write.Ref, subst), 1)))
			} else {
				g.line(d+1, fmt.Sprintf("%s = hx_v;", g.globalRef(fs.Write.Array.Name, elemIdx(fs.Write.Ref, subst), 1)))
			}
			g.line(d, "}")
			v = "hx_v"
		}
		if b < rows-1 {
			if hp.Buffered {
				g.line(d, fmt.Sprintf("%s = %s;", g.bufRef(b, b, 0, "hx_tx", 1), v))
				if g.padRow(b) {
					g.line(d, fmt.Sprintf("if (hx_tx < %d) %s = %s;", 2*hc.R0, g.bufRef(b, b, 0, fmt.Sprintf("(hx_px - hx_o - %d)", hp.BMin), 1), g.pf(b, true)))
				}
			}
			if hp.Regs {
				g.line(d, fmt.Sprintf("%s = %s;", g.reg(b+1, "n"), v))
			}
		}
	})
	g.line(d, "}")
}

// fixBody prints the fixup kernel: every cell the chunk stored, copied
// from X to the mirror, the block's threads along s1 (coalesced): for
// every row a in the time loop, the columns that the chunked kernel
// stores (all of the row for the last row, with --stream-store-all and
// in the last two time steps; else the row's edge columns,
// HexStreamPlan.EdgeCols), each over the planes [hx_c0, hx_c1].
func (g *hexChunkGen) fixBody() {
	hp, it := g.hp, g.cs.IntType
	fs := hp.Stmt
	st := fs.Stmt
	wr := fs.Write
	d := g.loops()
	copyCol := func(d int, x string) {
		g.line(d, fmt.Sprintf("if (%s >= hx_lo0 && %s <= hx_hi0) {", x, x))
		g.threadsRaw(d+1, func(d int) {
			subst := map[string]string{st.Iters[0]: "hx_t", st.Iters[1]: x, st.Iters[2]: "hx_s1"}
			idx := elemIdx(wr.Ref, subst)
			g.line(d, fmt.Sprintf("for (%s hx_s1 = hx_c0 + hx_tx; hx_s1 <= hx_c1; hx_s1 += %d) %s = %s;", it, hp.Threads, g.globalRef("hx_m_"+wr.Array.Name, idx, 1), g.globalRef(wr.Array.Name, idx, 0)))
		})
		g.line(d, "}")
	}
	for a := 0; a < hp.Rows(); a++ {
		r := hp.Geo.Rows[a]
		g.line(d, fmt.Sprintf("{ /* row %d */", a))
		g.line(d+1, fmt.Sprintf("const %s hx_t = hx_t0 + %d;", it, a))
		g.line(d+1, "if (hx_t >= hx_tlo && hx_t <= hx_thi) {")
		all := "1"
		if a < hp.Rows()-1 && !hp.StoreAll {
			all = "hx_t + 1 >= hx_thi"
		}
		g.line(d+2, fmt.Sprintf("if (%s) {", all))
		g.line(d+3, fmt.Sprintf("for (%s hx_x = hx_o + %d; hx_x <= hx_o + %d; hx_x++) {", it, r[0], r[1]))
		copyCol(d+4, "hx_x")
		g.line(d+3, "}")
		if all != "1" {
			g.line(d+2, "} else {")
			for _, e := range hp.EdgeCols(a) {
				g.line(d+3, "{")
				g.line(d+4, fmt.Sprintf("const %s hx_x = hx_o + %d;", it, e))
				copyCol(d+4, "hx_x")
				g.line(d+3, "}")
			}
		}
		g.line(d+2, "}")
		g.line(d+1, "}")
		g.line(d, "}")
	}
	g.line(1, "}")
}

// hexChunkAutoC prints the host's chunk size for hx_nS hexagons
// (gpuplan.HexChunk.HexChunkAuto).
func hexChunkAutoC(hc *gpuplan.HexChunk, it string) string {
	if hc.C > 0 {
		return fmt.Sprintf("const %s hx_C = %d;", it, hc.C)
	}
	return fmt.Sprintf("%s hx_C = 1024; while (hx_C / 2 >= %d && hx_nS * ((hx_hi1 - hx_lo1 + hx_C) / hx_C) < %d) hx_C /= 2;", it, hc.CMin(), gpuplan.HexChunkBlocks)
}

// hexChunkHostFunc prints hx_gpu_K of the chunked kernel: two device
// copies of every written array (hx_d_X stored to, hx_d2_X the mirror),
// for every phase the chunked kernel then the fixup, hx_d_X copied back.
func hexChunkHostFunc(cs *gpuplan.Scop) string {
	var b strings.Builder
	s := cs.Code.Scop
	hp, it := cs.HexStream, cs.IntType
	main, fix := cs.Kernels[0], cs.Kernels[1]
	fmt.Fprintf(&b, "/* scop %d (%s): %s; the chunked streaming hybrid kernel and its fixup, blocks of %dx%dx%d threads */\n", cs.Index, ast.PosString(s.Pos), cs.Code.Note, main.Block[0], main.Block[1], main.Block[2])
	hostPrologue(&b, cs, func(b *strings.Builder, a *frontend.Array) { secondCopy(b, cs, a, "mirror") })
	hostEvents(&b)
	b.WriteString("  {\n")
	b.WriteString(hexPhaseLaunches(cs, func(b *strings.Builder, ind string) {
		fmt.Fprintf(b, "%sconst long hx_n1 = (long)(hx_hi1 - hx_lo1 + 1);\n", ind)
		fmt.Fprintf(b, "%s%s\n", ind, hexChunkAutoC(hp.Chunk, it))
		fmt.Fprintf(b, "%sconst long hx_gy = (hx_n1 + hx_C - 1) / hx_C > 65535L ? 65535L : (hx_n1 + hx_C - 1) / hx_C;\n", ind)
		for _, kn := range []*gpuplan.Kernel{main, fix} {
			fmt.Fprintf(b, "%sHX_LAUNCH(%s, hx_dim3(hx_g, hx_gy, 1), hx_dim3(%d, %d, 1), 0, %s);\n", ind, kn.Name, kn.Block[0], kn.Block[1], strings.Join(hexChunkArgs(cs, kn, false), ", "))
			fmt.Fprintf(b, "%sHX_CHECK(cudaGetLastError());\n", ind)
		}
	}))
	b.WriteString("  }\n")
	hostEpilogue(&b, cs, func(a *frontend.Array) string { return "hx_d_" + a.Name }, true)
	return b.String()
}
