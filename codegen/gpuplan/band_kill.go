package gpuplan

import "fmt"

// Dead band stores. A band's last writer of a field stores its owned cells
// into the band's output copy so that the next band can read them (its
// band-start state) and so that the final state is in memory. A field
// that the next band does not read from global memory but overwrites
// (every cell of the statement's domain, at one of its levels) before
// anything reads it is dead at the end of a band that has a next band with
// that level: its stores serve only the final band (or a band whose next
// band is too short to write the field again).
//
// Example: AN5D's j2d9pt, A[(t+1)%2][i][j] = f(A[t%2][..]), four levels
// per band (t = tb .. tb+3): levels 0 and 2 write A[(tb+1)%2], levels 1
// and 3 write A[tb%2]. The next band (tb+4) reads A[(tb+4)%2] = A[tb%2]
// from global memory: level 3's stores are live. Its level 0 writes
// A[(tb+5)%2] = A[(tb+1)%2] over the whole domain and no level of it
// reads that field from global memory first: level 2's stores are dead
// unless the band is the last one, Kill[2] = 0. A band then writes one
// field instead of two: one read and one write of the grid per band
// instead of one read and two writes (counted; the measured gains are in
// the README). The same holds for PolyBench's jacobi-2d (B = f(A); A = f(B)):
// the next band reads only A, and its level 0 overwrites B.
//
// The argument, band k storing a field F only when the next band k+1 has
// fewer than Kill+1 levels: every global read of F by band k+1 sees band
// k's stores (F read from global memory by band k+1 has Kill = -1, stored
// always), and the final state of F is stored by the last band that
// writes F (the final band stores every last writer; a band k whose next
// band does not write F stores it). Cells outside the statement's domain
// are never stored (the ping-pong copies hold them from the start), and
// the field copies (FieldCopy) copy only fields a band does not write,
// which its previous band stored.

// planKill sets bp.Kill: for every level a, the lowest level of the next
// band (time steps shifted by (H+1)/K) that writes a's field, when that
// level runs a's statement and no level of the next band reads the field
// from global memory (the band-start state); -1 otherwise (a's stores are
// live in every band where a is its field's last writer).
func (bp *BandPlan) planKill() {
	steps := bp.Steps()
	bp.Kill = make([]int, len(bp.Levels))
	for a, lv := range bp.Levels {
		bp.Kill[a] = -1
		w := lv.Stmt.Write
		read := false
		for _, lb := range bp.Levels {
			for k, rd := range lb.Reads {
				if rd.From < 0 && fieldRelation(w, lv.TOff, lb.Stmt.Reads[k], lb.TOff+steps) != -1 {
					read = true
				}
			}
		}
		if read {
			continue
		}
		for b, lb := range bp.Levels {
			rel := fieldRelation(w, lv.TOff, lb.Stmt.Write, lb.TOff+steps)
			if rel == -1 {
				continue
			}
			if rel == 1 && lb.Stmt == lv.Stmt {
				bp.Kill[a] = b
			}
			break
		}
	}
}

// storeAll keeps every last writer's stores in every band
// (--band-store-all).
func (bp *BandPlan) storeAll() {
	for a := range bp.Kill {
		bp.Kill[a] = -1
	}
}

// Steps is the number of time steps of a full band.
func (bp *BandPlan) Steps() int64 { return int64(len(bp.Levels) / bp.K) }

// RestMax is, for a level a with dead stores (Kill[a] >= 0), the largest
// thi - tb (the time steps after a band's first, thi the last) of a band
// where a's stores are live: the next band, of (thi - tb + 1 - Steps) * K
// levels, has at most Kill[a] of them (written without the product, which
// could overflow).
func (bp *BandPlan) RestMax(a int) int64 {
	return bp.Steps() - 1 + int64(bp.Kill[a]/bp.K)
}

// LastCond is the C condition that level a stores its owned cells into
// the band's output copy in a band starting at time step hx_tb of a run
// whose last time step is thi (C text), with hx_nlev levels: a is its
// field's last writer in the band (Next) and its stores are not dead
// (Kill). E.g. j2d9pt's level 2 of four (Kill 0): "(thi) - hx_tb <= 3",
// true in the last band only; level 0: "hx_nlev <= 2 && (thi) - hx_tb <=
// 3".
func (bp *BandPlan) LastCond(a int, thi string) string {
	var c string
	if nx := bp.Next[a]; nx >= 0 {
		c = fmt.Sprintf("hx_nlev <= %d", nx)
	}
	if k := bp.Kill[a]; k >= 0 {
		if c != "" {
			c += " && "
		}
		c += fmt.Sprintf("(%s) - hx_tb <= %d", thi, bp.RestMax(a))
	}
	if c == "" {
		return "1"
	}
	return c
}

// killNote is the dump's note on level a's dead stores ("" when none).
func (bp *BandPlan) killNote(a int) string {
	if bp.Kill == nil || bp.Kill[a] < 0 || bp.Next[a] >= 0 {
		return "" // a short band is the last one: it stores
	}
	if bp.Kill[a] == 0 {
		return ", stored in the last band only (the next band's level 0 overwrites the field unread)"
	}
	return fmt.Sprintf(", stored only where the next band has at most %d levels (its level %d overwrites the field unread)", bp.Kill[a], bp.Kill[a])
}
