package schedule

// ChunkGhost returns the ghost zone (left, right) along space dimension i
// of a box of a stack of time rows 0..top (row a runs time step t0 + a)
// whose top row computes only its own cells: the cone's ghost zone
// (coneGhost, the ghost-zone schedules' GhostZone with h = top) at row a,
// floor(delta0_i*(top - a)) and floor(delta1_i*(top - a)). The streaming
// hybrid kernel's chunks (gpuplan's hexchunk.go) use it along s1 with the
// rows of a hexagon (top = 2h+1): a chunk of s1 is the overlapped box of
// the ghost-zone schedules laid over one hexagon. ok is false where the
// schedule has no cone (one-to-one schedules of other kinds than the
// tiled ones) or i or a is out of range.
func (s *Schedule) ChunkGhost(i int, top, a int64) (left, right int64, ok bool) {
	if s.cn == nil || i < 0 || i >= s.cn.ns || a < 0 || a > top || len(s.cn.lo) <= i || len(s.cn.hi) <= i {
		return 0, 0, false
	}
	left, right = coneGhost(s.cn.lo, s.cn.hi, i, top-a)
	return left, right, true
}
