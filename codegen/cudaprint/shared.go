package cudaprint

import (
	"fmt"
	"strings"

	"hextile/codegen/ast"
	"hextile/codegen/cexpr"
	"hextile/codegen/gpuplan"
	"hextile/frontend"
)

// Shared-memory staging of a time tile (section 4.2 of the paper).
//
// The footprint of a tile is taken from the full-tile code, whose point
// loops carry no domain guard: its points are the tile shape itself, a
// translate of one shape for every tile of a phase. Interpreting that code
// for a tile gives, per array and dimension, the smallest and largest index
// the tile's accesses touch; the extent (largest - smallest + 1) must be
// the same for every tile, and the smallest index an affine function of the
// tile coordinates (checked on random tiles, else the kernel stays in
// global memory). A partial tile is the full shape intersected with the
// domain, so its footprint lies in the same box.
//
// Per tile the kernel then: waits for the previous tile (barrier), copies
// the box in (the elements inside the array), waits, computes in shared
// memory and marks every element it writes, waits, and copies out exactly
// the marked elements (never an element another block may own). A full
// tile, whose written set relative to the box is the same for every tile,
// marks nothing and copies out the elements of that set instead, read from
// a per-row interval table (shared_written.go; const int hx_full holds the
// full-tile condition, tested once).

// stageable reports whether n is where a tile's staging goes: the full /
// partial tile split (or a full tile alone) around a point time loop.
func (g *kernelGen) stageable(n ast.Node) (full ast.Node, ok bool) {
	return gpuplan.StageableNode(g.cs, n, g.stage != nil || g.noStage)
}

// tidFlat is the linear thread index.
func (g *kernelGen) tidFlat() string {
	return fmt.Sprintf("(hx_tx + %d * (hx_ty + %d * hx_tz))", g.kn.Block[0], g.kn.Block[1])
}

// stageTile prints the staged tile n.
func (g *kernelGen) stageTile(n, full ast.Node, depth int) (bool, bool, error) {
	plan, err := g.cs.PlanShared(full, g.vars, g.lets)
	if err != nil {
		return false, false, err
	}
	// The full / partial split; with a table of the full tile's written
	// set, the full tile runs without flags.
	ifn, _ := n.(*ast.If)
	tab := plan.Tab
	tabName := ""
	if tab != nil {
		// The table goes before the kernel: g.b holds this kernel's text
		// only (kernelGenFor starts every kernel afresh).
		tabName = fmt.Sprintf("hx_wt_%s_%d", g.kn.Name, strings.Count(g.b.String(), "hx_wt_"+g.kn.Name+"_"))
		text := g.b.String()
		g.b.Reset()
		g.b.WriteString(tableText(tab, tabName, g.emu))
		g.b.WriteString(text)
	}
	g.line(depth, "{ /* tile staged in shared memory */")
	d := depth + 1
	for _, sa := range plan.Arrs {
		for k, o := range sa.Orig {
			g.line(d, fmt.Sprintf("const %s hx_o_%s_%d = %s;", g.cs.IntType, sa.Arr.Name, k, ast.ExprString(o)))
		}
		g.line(d, fmt.Sprintf("%s *hx_s_%s = (%s *)(hx_smem + %d);", sa.Arr.Elem, sa.Arr.Name, sa.Arr.Elem, sa.Off))
		g.line(d, fmt.Sprintf("unsigned char *hx_w_%s = (unsigned char *)(hx_smem + %d);", sa.Arr.Name, sa.FlagOff))
		if g.emu {
			g.line(d, fmt.Sprintf("hx_emu_shared(hx_s_%s, \"shared %s\", sizeof(%s), %d);", sa.Arr.Name, sa.Arr.Name, sa.Arr.Elem, sa.Size))
			g.line(d, fmt.Sprintf("hx_emu_shared(hx_w_%s, \"flags of %s\", 1, %d);", sa.Arr.Name, sa.Arr.Name, sa.Size))
		}
	}
	check := g.emu && SharedTableCheck != 0
	if tab != nil {
		if g.emu {
			g.line(d, fmt.Sprintf("hx_emu_shared((void *)%s, \"written table\", sizeof(short), %d);", tabName, len(tab.Vals)))
		}
		c := "1"
		if ifn != nil {
			c = ast.CondString(ifn.Cond)
		}
		g.line(d, fmt.Sprintf("const int hx_full = (%s);", c))
		if check {
			g.line(d, "if (hx_full && hx_emu_full_tiles++ == 0) atexit(hx_emu_full_report);")
		}
	}
	g.barrier(d)
	nt := g.kn.Block[0] * g.kn.Block[1] * g.kn.Block[2]
	chk := func(arr, idx string, mode int) string {
		if g.emu {
			return fmt.Sprintf("hx_chk(%s, %s, %d)", arr, idx, mode)
		}
		return idx
	}
	copyLoop := func(in bool) {
		g.threadsRaw(d, func(dd int) {
			for _, sa := range plan.Arrs {
				a := sa.Arr
				if !in && !g.cs.Written[a.Name] {
					// Read-only (a const kernel argument): nothing to copy out.
					continue
				}
				g.line(dd, fmt.Sprintf("for (int hx_i = %s; hx_i < %d; hx_i += %d) {", g.tidFlat(), sa.Size, nt))
				g.line(dd+1, "int hx_r = hx_i;")
				nd := len(sa.Ext)
				var gs, conds []string
				for k := nd - 1; k >= 0; k-- {
					if tab != nil && !in && k == nd-1 {
						// The row and column of the table test.
						g.line(dd+1, fmt.Sprintf("const int hx_c = hx_r %% %d; hx_r /= %d;", sa.Ext[k], sa.Ext[k]))
						g.line(dd+1, "const int hx_row = hx_r;")
						g.line(dd+1, fmt.Sprintf("const %s hx_g%d = hx_o_%s_%d + hx_c;", g.cs.IntType, k, a.Name, k))
						continue
					}
					g.line(dd+1, fmt.Sprintf("const %s hx_g%d = hx_o_%s_%d + hx_r %% %d; hx_r /= %d;", g.cs.IntType, k, a.Name, k, sa.Ext[k], sa.Ext[k]))
				}
				for k := 0; k < nd; k++ {
					gs = append(gs, fmt.Sprintf("hx_g%d", k))
					conds = append(conds, fmt.Sprintf("hx_g%d >= 0 && hx_g%d < (%s)", k, k, cexpr.CExpr(stageExtent(a, k), nil)))
				}
				gidx := fmt.Sprintf("HX_IDX_%s(%s)", a.Name, strings.Join(gs, ", "))
				flag := fmt.Sprintf("hx_w_%s[%s]", a.Name, chk("hx_w_"+a.Name, "hx_i", 0))
				switch {
				case in:
					g.line(dd+1, fmt.Sprintf("if (%s) hx_s_%s[%s] = %s[%s];", strings.Join(conds, " && "), a.Name, chk("hx_s_"+a.Name, "hx_i", 1), a.Name, gidx))
					// Cleared in full tiles too: under "if (!hx_full)"
					// nvcc 12 spilled and lost the uniform shared-memory
					// base in the point loops (H100, laplacian2d 7,15,128:
					// 477 GCells/s against 493 with the plain clear).
					g.line(dd+1, fmt.Sprintf("hx_w_%s[%s] = 0;", a.Name, chk("hx_w_"+a.Name, "hx_i", 1)))
				case tab != nil:
					off := tab.Off[a.Name]
					lo := fmt.Sprintf("%s[%s]", tabName, chk(tabName, fmt.Sprintf("%d + 2 * hx_row", off), 0))
					hi := fmt.Sprintf("%s[%s]", tabName, chk(tabName, fmt.Sprintf("%d + 2 * hx_row", off+1), 0))
					test := fmt.Sprintf("(hx_c >= %s && hx_c <= %s)", lo, hi)
					if check {
						g.line(dd+1, fmt.Sprintf("if (hx_full && %s != (%s != 0)) hx_emu_err(\"written table and flags disagree\", NULL, hx_i);", test, flag))
					}
					g.line(dd+1, fmt.Sprintf("if (hx_full ? %s : %s) %s[%s] = hx_s_%s[%s];", test, flag, a.Name, chk(a.Name, gidx, 1), a.Name, chk("hx_s_"+a.Name, "hx_i", 0)))
				default:
					g.line(dd+1, fmt.Sprintf("if (%s) %s[%s] = hx_s_%s[%s];", flag, a.Name, chk(a.Name, gidx, 1), a.Name, chk("hx_s_"+a.Name, "hx_i", 0)))
				}
				g.line(dd, "}")
			}
		})
	}
	copyLoop(true)
	g.barrier(d)
	g.stage = plan
	var tb bool
	if tab == nil {
		_, tb = g.uniform(n, d)
	} else {
		// What uniform prints for the split, with the condition computed
		// once (hx_full) and the full tile's writes without flags.
		var body ast.Node = n
		if ifn != nil {
			g.line(d, "if (hx_full) {")
			d++
			body = ifn.Then
		}
		g.noFlags = !check
		_, t1 := g.uniform(body, d)
		g.noFlags = false
		t2 := true
		if ifn != nil {
			d--
			if ifn.Else != nil && gpuplan.HasWork(ifn.Else) {
				g.line(d, "} else {")
				_, t2 = g.uniform(ifn.Else, d+1)
			}
			g.line(d, "}")
		}
		tb = t1 && t2
	}
	g.stage = nil
	if !tb {
		g.barrier(d)
	}
	copyLoop(false)
	g.line(depth, "}")
	return true, false, nil
}

// threadsRaw prints per-thread code produced by body (in emulation inside
// the loops over the block's threads).
func (g *kernelGen) threadsRaw(depth int, body func(int)) {
	if g.emu {
		bx, by, bz := g.kn.Block[0], g.kn.Block[1], g.kn.Block[2]
		g.line(depth, fmt.Sprintf("for (hx_tz = 0; hx_tz < %d; hx_tz++) for (hx_ty = 0; hx_ty < %d; hx_ty++) for (hx_tx = 0; hx_tx < %d; hx_tx++) {", bz, by, bx))
		g.line(depth+1, "hx_emu_thread(hx_tx, hx_ty, hx_tz);")
		body(depth + 1)
		g.line(depth, "}")
		return
	}
	body(depth)
}

// sharedRef prints an access of a staged array.
func (p *flatPrinter) sharedRef(sa *gpuplan.SharedArr, ix []string) string {
	e := ""
	for k := range ix {
		t := fmt.Sprintf("((%s) - hx_o_%s_%d)", ix[k], sa.Arr.Name, k)
		if k == 0 {
			e = t
		} else {
			e = fmt.Sprintf("(%s * %d + %s)", e, sa.Ext[k], t)
		}
	}
	return e
}

// stageExtent is the extent of dimension k of a that bounds the elements a
// staged tile copies in: the declared extent, or for the first dimension of
// a pointer to an array (T (*A)[N][M], Extents[0] == nil) its Outer extent,
// which holds every row the scop accesses and is what the device buffer is
// allocated with (A[t % 2][i][j]: 2). Printing the nil extent gave
// "(/* unsupported <nil> */)", CUDA that did not build.
func stageExtent(a *frontend.Array, k int) frontend.Expr {
	if a.Extents[k] == nil {
		return a.Outer
	}
	return a.Extents[k]
}
