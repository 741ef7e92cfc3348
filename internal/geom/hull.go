package geom

import "sort"

// Number is a coordinate type: exact integers or floats.
type Number interface{ ~int64 | ~float64 }

// ConvexHull returns the convex hull of pts by Andrew's monotone chain:
// counter-clockwise from the lowest x (then lowest y), without repeated or
// collinear points. pts is not changed. Fewer than three distinct points
// come back sorted.
//
// Example: the points (0,0), (2,0), (1,0), (2,2), (0,2), (1,1) give the
// square (0,0), (2,0), (2,2), (0,2): (1,0) lies on an edge, (1,1) inside.
func ConvexHull[T Number](pts [][2]T) [][2]T {
	p := append([][2]T(nil), pts...)
	sort.Slice(p, func(a, b int) bool {
		if p[a][0] != p[b][0] {
			return p[a][0] < p[b][0]
		}
		return p[a][1] < p[b][1]
	})
	u := p[:0]
	for _, q := range p {
		if len(u) > 0 && u[len(u)-1] == q {
			continue
		}
		u = append(u, q)
	}
	p = u
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b [2]T) T {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	var h [][2]T
	for _, q := range p {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lower := len(h) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(h) >= lower && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}
