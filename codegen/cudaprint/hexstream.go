package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// The streaming hybrid kernel (--tile=hybrid --stream): printed from
// gpuplan.HexStreamPlan (see its doc for the design and the argument that
// the in-place writes are safe). A launch runs the hexagons of one phase
// of one time tile; each block takes its hexagons (cyclically over the
// grid), computes its thread's column flags once per hexagon and sweeps
// s1 (jacobi2d_mod2, sizes 1,2,4: Lag 2, 4 rows, 5 threads, NB 3):
//
//	for (hx_z = hx_lo1; hx_z <= hx_hi1 + 6; hx_z++) {
//	  { /* row 1: t = hx_t0 + 1, s1 = hx_z - 2 */
//	    if (hx_t in the time loop && hx_s1 in [lo1, hi1])    // uniform
//	      if (hx_cf1) {                                      // column in row 1 and the domain
//	        const float hx_v = 0.2f * ((hx_t > hx_tlo && hx_pf1_0 ? hx_c0_1 : A[...])   // own column: register
//	            + (hx_t > hx_tlo && hx_pf1_1 ? hx_sb[(0 + slot) * 5 + hx_tx + -1] : A[...]) ...);
//	        if (hx_t + 1 >= hx_thi || hx_sf1) A[...] = hx_v;  // in place, where others read it
//	        hx_sb[(3 + slot) * 5 + hx_tx] = hx_v;            // for row 2's s0 neighbours
//	        hx_c1_n = hx_v;                                  // for row 2's own column
//	      } }
//	  ... rows 0..3 ...
//	  hx_c0_2 = hx_c0_1; hx_c0_1 = hx_c0_0; hx_c0_0 = hx_c0_n; ...  // registers one step older
//	  __syncthreads();
//	  hx_q = hx_q == 2 ? 0 : hx_q + 1;                       // the slot of plane hx_z
//	}
//
// With row groups (--stream-groups) a row's work runs in the threads with
// hx_ty == a mod G only. The emulator prints the same code with the
// thread work inside loops over the block's threads, the flags as their
// conditions and the registers as arrays indexed by the thread.

// hexStreamGen prints the streaming hybrid kernel of one scop.
type hexStreamGen struct {
	*kernelGen
	hp *gpuplan.HexStreamPlan
}

// hexStreamArgs lists the kernel's arguments (decl: with types): the
// parameters, the arrays (written ones in place), the time tile hx_T, the
// phase hx_ph, the first hexagon hx_S0lo and the number of hexagons hx_nS.
func hexStreamArgs(cs *gpuplan.Scop, decl bool) []string {
	out := streamKernelArgs(cs, decl, func(a *frontend.Array) []string {
		if decl {
			return []string{fmt.Sprintf("%s *HX_RESTRICT %s", a.Elem, a.Name)}
		}
		return []string{"hx_d_" + a.Name}
	})
	for _, v := range []string{"hx_T", "hx_ph", "hx_S0lo", "hx_nS"} {
		if decl {
			v = cs.IntType + " " + v
		}
		out = append(out, v)
	}
	return out
}

// printHexStreamKernel returns the kernel's definition (and in emulation
// its launcher).
func printHexStreamKernel(cs *gpuplan.Scop, kn *gpuplan.Kernel, emu bool) string {
	hp := cs.HexStream
	g := &hexStreamGen{kernelGenFor(cs, kn, emu), hp}
	nsb := int64(0)
	if hp.Buffered {
		nsb = int64(hp.Rows()-1) * hp.NB * hp.Threads
	}
	g.frame(hp.Elem, nsb, "streaming hybrid row buffers", g.body)
	return g.b.String()
}

// domainBounds prints the bounds hx_tlo, hx_thi, hx_lo0.., hx_hi0.. of
// the statement's domain (kernel and host share the text).
func hexStreamBounds(hp *gpuplan.HexStreamPlan, it string) []string {
	st := hp.Stmt
	out := []string{fmt.Sprintf("const %s hx_tlo = %s, hx_thi = %s;", it, ast.BoundString(hp.Form.TLo, true), ast.BoundString(hp.Form.THi, false))}
	for i := 0; i < 2; i++ {
		out = append(out, fmt.Sprintf("const %s hx_lo%d = %s, hx_hi%d = %s;", it, i, ast.BoundString(st.Lo[i], true), i, ast.BoundString(st.Hi[i], false)))
	}
	return out
}

// origin prints the tile origin's expressions for time tile T, phase ph
// and hexagon S (schedule.HexGeometry.Origin).
func hexOrigin(hp *gpuplan.HexStreamPlan, T, ph, S string) (t0, s00 string) {
	g := hp.Geo
	t0 = fmt.Sprintf("%d * %s - (%s == 0 ? %d : 0)", g.H, T, ph, g.Hp+1)
	s00 = fmt.Sprintf("%d * %s - %s * %d - (%s == 0 ? %d : 0) - %d", g.W, S, T, g.F1-g.F0, ph, g.W0+1+g.F0, g.Off0)
	return t0, s00
}

func (g *hexStreamGen) body() {
	hp, it := g.hp, g.cs.IntType
	for _, l := range hexStreamBounds(hp, it) {
		g.line(1, l)
	}
	g.line(1, "(void)hx_lo0; (void)hx_hi0; (void)hx_tlo; (void)hx_thi;")
	g.regDecls()
	g.line(1, fmt.Sprintf("for (%s hx_B = (%s)blockIdx.x; hx_B < hx_nS; hx_B += (%s)gridDim.x) {", it, it, it))
	t0, s00 := hexOrigin(hp, "hx_T", "hx_ph", "(hx_S0lo + hx_B)")
	g.line(2, fmt.Sprintf("const %s hx_t0 = %s, hx_o = %s;", it, t0, s00))
	if !g.emu {
		g.line(2, fmt.Sprintf("const %s hx_s0 = hx_o + %d + hx_tx;", it, hp.BMin))
		for a := 0; a < hp.Rows(); a++ {
			g.line(2, fmt.Sprintf("const bool hx_cf%d = %s;", a, g.colCond(a, 0)))
			if a < hp.Rows()-1 && !hp.StoreAll {
				g.line(2, fmt.Sprintf("const bool hx_sf%d = %s;", a, g.edgeCond(a)))
			}
			for m, di := range hp.DIs {
				if a > 0 {
					g.line(2, fmt.Sprintf("const bool hx_pf%d_%d = %s;", a, m, g.colCond(a-1, di)))
				}
			}
		}
	}
	g.line(2, fmt.Sprintf("int hx_q = 0; /* (hx_z - hx_lo1) mod %d: the buffer slot of plane hx_z */", hp.NB))
	rows := hp.Rows()
	g.line(2, fmt.Sprintf("for (%s hx_z = hx_lo1; hx_z <= hx_hi1 + %d; hx_z++) {", it, hp.Lag*int64(rows-1)))
	for a := 0; a < rows; a++ {
		g.row(a, 3)
	}
	g.shiftRegs(3)
	g.line(3, "__syncthreads(); /* the rows of a step read only planes of earlier steps */")
	g.line(3, fmt.Sprintf("hx_q = hx_q == %d ? 0 : hx_q + 1;", hp.NB-1))
	g.line(2, "}")
	g.line(1, "}")
}

// colCond is the condition that column hx_s0 + di is a cell of row a in
// the domain.
func (g *hexStreamGen) colCond(a int, di int64) string {
	r := g.hp.Geo.Rows[a]
	c := shifted("hx_s0", di)
	return fmt.Sprintf("%s >= hx_o + %d && %s <= hx_o + %d && %s >= hx_lo0 && %s <= hx_hi0", c, r[0], c, r[1], c, c)
}

// edgeCond is the condition that another hexagon reads the thread's cell
// of row a < 2h+1: a reader s0 - di of the next time step (di an offset
// of the reads of the previous row) lies outside row a + 1.
func (g *hexStreamGen) edgeCond(a int) string {
	r := g.hp.Geo.Rows[a+1]
	var out []string
	for _, di := range g.hp.DIs {
		c := shifted("hx_s0", -di)
		out = append(out, fmt.Sprintf("%s < hx_o + %d || %s > hx_o + %d", c, r[0], c, r[1]))
	}
	if len(out) == 0 {
		return "0"
	}
	return strings.Join(out, " || ")
}

// flag is a column flag: in CUDA the variable computed once per hexagon,
// in emulation the condition itself.
func (g *hexStreamGen) flag(name, cond string) string {
	if g.emu {
		return "(" + cond + ")"
	}
	return name
}

// slot prints the shared-buffer index of row b's plane hx_s1 + dj read
// (or written, dj = 0, b = a) at row a, the thread's column moved by di.
func (g *hexStreamGen) slot(b, a int, dj, di int64) string {
	hp := g.hp
	k := ((dj-hp.Lag*int64(a))%hp.NB + hp.NB) % hp.NB
	q := "hx_q"
	if k != 0 {
		q = fmt.Sprintf("(hx_q + %d >= %d ? hx_q + %d : hx_q + %d)", k, hp.NB, k-hp.NB, k)
	}
	col := "hx_tx"
	if di != 0 {
		col = fmt.Sprintf("hx_tx + %d", di)
	}
	return fmt.Sprintf("(%d + %s) * %d + %s", int64(b)*hp.NB, q, hp.Threads, col)
}

// reg is column register j ("n": this step's value) of row b: a variable
// in CUDA, in emulation an array indexed by the thread.
func (g *hexStreamGen) reg(b int, j string) string {
	if g.emu {
		return fmt.Sprintf("hx_c%d_%s[hx_tx]", b, j)
	}
	return fmt.Sprintf("hx_c%d_%s", b, j)
}

func (g *hexStreamGen) regNames() []string {
	var names []string
	for j := int64(0); j < g.hp.NRegs; j++ {
		names = append(names, fmt.Sprint(j))
	}
	return append(names, "n")
}

// regDecls declares the column registers of rows 0..2h.
func (g *hexStreamGen) regDecls() {
	hp := g.hp
	if !hp.Regs {
		return
	}
	for b := 0; b < hp.Rows()-1; b++ {
		for _, j := range g.regNames() {
			if g.emu {
				g.line(1, fmt.Sprintf("static %s hx_c%d_%s[%d];", hp.Elem, b, j, hp.Threads))
			} else {
				g.line(1, fmt.Sprintf("%s hx_c%d_%s = 0;", hp.Elem, b, j))
			}
		}
	}
}

// shiftRegs prints the end of a sweep step for the column registers:
// every row's values move one step older, this step's value first.
func (g *hexStreamGen) shiftRegs(d int) {
	hp := g.hp
	if !hp.Regs {
		return
	}
	nrows := hp.Rows() - 1
	if hp.Chunk != nil {
		nrows++ // rows -1..2h (hexchunk.go)
	}
	g.threadsRaw(d, func(d int) {
		for b := 0; b < nrows; b++ {
			for j := hp.NRegs - 1; j >= 0; j-- {
				src := "n"
				if j > 0 {
					src = fmt.Sprint(j - 1)
				}
				g.line(d, fmt.Sprintf("%s = %s;", g.reg(b, fmt.Sprint(j)), g.reg(b, src)))
			}
		}
	})
}

// row prints row a's work at sweep step hx_z.
func (g *hexStreamGen) row(a, d int) {
	hp, it := g.hp, g.cs.IntType
	fs := hp.Stmt
	g.line(d, fmt.Sprintf("{ /* row %d: t = hx_t0 + %d, s1 = hx_z - %d */", a, a, hp.Lag*int64(a)))
	g.line(d+1, fmt.Sprintf("const %s hx_t = hx_t0 + %d, hx_s1 = hx_z - %d;", it, a, hp.Lag*int64(a)))
	g.line(d+1, "if (hx_t >= hx_tlo && hx_t <= hx_thi && hx_s1 >= hx_lo1 && hx_s1 <= hx_hi1) {")
	g.threadsRaw(d+2, func(d int) {
		if g.emu {
			g.line(d, fmt.Sprintf("const %s hx_s0 = hx_o + %d + hx_tx;", it, hp.BMin))
		}
		grp := ""
		if hp.Groups > 1 {
			grp = fmt.Sprintf("hx_ty == %d && ", int64(a)%hp.Groups)
		}
		g.line(d, fmt.Sprintf("if (%s%s) {", grp, g.flag(fmt.Sprintf("hx_cf%d", a), g.colCond(a, 0))))
		st := fs.Stmt
		subst := map[string]string{st.Iters[0]: "hx_t", st.Iters[1]: "hx_s0", st.Iters[2]: "hx_s1"}
		wins := map[*frontend.ArrayRef]string{}
		for k, rd := range fs.Reads {
			if !hp.Prev[k] || a == 0 {
				continue
			}
			di, dj := hp.Rel[k][0], hp.Rel[k][1]
			m := 0
			for m < len(hp.DIs) && hp.DIs[m] != di {
				m++
			}
			conds := []string{"hx_t > hx_tlo", g.flag(fmt.Sprintf("hx_pf%d_%d", a, m), g.colCond(a-1, di))}
			if dj > 0 {
				conds = append(conds, fmt.Sprintf("hx_s1 + %d <= hx_hi1", dj))
			} else if dj < 0 {
				conds = append(conds, fmt.Sprintf("hx_s1 - %d >= hx_lo1", -dj))
			}
			src := g.sbRef(g.slot(a-1, a, dj, di), 0)
			if hp.Regs && di == 0 {
				src = g.reg(a-1, fmt.Sprint(hp.Lag-dj-1))
			}
			wins[rd.Ref] = fmt.Sprintf("(%s ? %s : %s)", strings.Join(conds, " && "), src, g.globalRef(rd.Ref.Name, elemIdx(rd.Ref, subst), 0))
		}
		p := &flatPrinter{subst: subst, emu: g.emu, arrays: map[string]*frontend.Array{}, wins: wins, divs: g.cs.Divs}
		for _, arr := range g.cs.Code.Scop.Arrays {
			p.arrays[arr.Name] = arr
		}
		g.line(d+1, fmt.Sprintf("const %s hx_v = %s;", fs.Write.Array.Elem, p.expr(st.Body.RHS, false, false)))
		store := fmt.Sprintf("%s = hx_v;", g.globalRef(fs.Write.Array.Name, elemIdx(fs.Write.Ref, subst), 1))
		if a < hp.Rows()-1 && !hp.StoreAll {
			store = fmt.Sprintf("if (hx_t + 1 >= hx_thi || %s) %s", g.flag(fmt.Sprintf("hx_sf%d", a), g.edgeCond(a)), store)
		}
		g.line(d+1, store)
		if a < hp.Rows()-1 {
			if hp.Buffered {
				g.line(d+1, fmt.Sprintf("%s = hx_v;", g.sbRef(g.slot(a, a, 0, 0), 1)))
			}
			if hp.Regs {
				g.line(d+1, fmt.Sprintf("%s = hx_v;", g.reg(a, "n")))
			}
		}
		g.line(d, "}")
	})
	g.line(d+1, "}")
	g.line(d, "}")
}

// shifted prints v + k.
func shifted(v string, k int64) string {
	switch {
	case k > 0:
		return fmt.Sprintf("(%s + %d)", v, k)
	case k < 0:
		return fmt.Sprintf("(%s - %d)", v, -k)
	}
	return v
}

// sbRef and globalRef are shared-buffer and global accesses (checked in
// emulation; mode 0 read, 1 write).
func (g *hexStreamGen) sbRef(idx string, mode int) string {
	if g.emu {
		return fmt.Sprintf("hx_sb[hx_chk(hx_sb, %s, %d)]", idx, mode)
	}
	return "hx_sb[" + idx + "]"
}

func (g *hexStreamGen) globalRef(ptr, idx string, mode int) string {
	if g.emu {
		return fmt.Sprintf("%s[hx_chk(%s, %s, %d)]", ptr, ptr, idx, mode)
	}
	return ptr + "[" + idx + "]"
}

// hexStreamLaunches prints the host's launches: for every time tile T,
// phase 0 then 1, the hexagons that meet the domain (one block each).
func hexStreamLaunches(cs *gpuplan.Scop) string {
	kn := cs.Kernels[0]
	return hexPhaseLaunches(cs, func(b *strings.Builder, ind string) {
		fmt.Fprintf(b, "%sHX_LAUNCH(%s, hx_dim3(hx_g, 1, 1), hx_dim3(%d, %d, 1), 0, %s);\n", ind, kn.Name, kn.Block[0], kn.Block[1], strings.Join(hexStreamArgs(cs, false), ", "))
		fmt.Fprintf(b, "%sHX_CHECK(cudaGetLastError());\n", ind)
	})
}

// hexPhaseLaunches prints the host loops of the streaming hybrid kernels:
// for every time tile T, phase 0 then 1, the hexagons S0lo .. S0lo + nS -
// 1 that meet the domain (hx_g of them on the grid's x, clamped), with
// launch printing the launches of a phase (indented by ind).
func hexPhaseLaunches(cs *gpuplan.Scop, launch func(b *strings.Builder, ind string)) string {
	var b strings.Builder
	hp, it := cs.HexStream, cs.IntType
	geo := hp.Geo
	for _, l := range hexStreamBounds(hp, it) {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	bmax := hp.BMin + hp.Threads - 1
	b.WriteString("    if (hx_thi >= hx_tlo && hx_hi0 >= hx_lo0 && hx_hi1 >= hx_lo1) {\n")
	fmt.Fprintf(&b, "      for (%s hx_T = hx_floord(hx_tlo, %d); hx_T <= hx_floord(hx_thi + %d, %d); hx_T++)\n", it, geo.H, geo.Hp+1, geo.H)
	fmt.Fprintf(&b, "        for (%s hx_ph = 0; hx_ph < 2; hx_ph++) {\n", it)
	t0, _ := hexOrigin(hp, "hx_T", "hx_ph", "0")
	fmt.Fprintf(&b, "          const %s hx_t0 = %s;\n", it, t0)
	fmt.Fprintf(&b, "          if (hx_t0 + %d < hx_tlo || hx_t0 > hx_thi) continue;\n", 2*geo.Hp+1)
	fmt.Fprintf(&b, "          const %s hx_c = hx_T * %d + (hx_ph == 0 ? %d : 0) + %d;\n", it, geo.F1-geo.F0, geo.W0+1+geo.F0, geo.Off0)
	fmt.Fprintf(&b, "          const %s hx_S0lo = -hx_floord(-(hx_lo0 - %d + hx_c), %d), hx_S0hi = hx_floord(hx_hi0 - %d + hx_c, %d);\n", it, bmax, geo.W, hp.BMin, geo.W)
	b.WriteString("          if (hx_S0hi < hx_S0lo) continue;\n")
	fmt.Fprintf(&b, "          const %s hx_nS = hx_S0hi - hx_S0lo + 1;\n", it)
	b.WriteString("          const long hx_g = hx_nS > 2147483647L ? 2147483647L : (long)hx_nS;\n")
	launch(&b, "          ")
	b.WriteString("        }\n    }\n")
	return b.String()
}
