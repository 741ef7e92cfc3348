// Package distribute turns a time-iterated stencil scop into a distributed
// program: the outer space dimensions are split over an MPI Cartesian
// communicator, every rank holds its block plus ghost zones, and per time
// band of height h the ghost zones of every written array are exchanged
// once, after which the rank computes the band alone.
//
// # The scheme (overlapped, trapezoid bands)
//
// Every statement instance has a position on each distributed axis: the
// loop counter that indexes the axis's array dimension in every access of
// the statement (or a constant where the statement has no such loop). An
// access reads position + offset, a constant per access (refused
// otherwise). At step s = t - tb of the band that starts at time tb a rank
// executes the instances of statement S whose position lies in
//
//	[lo - cL_S - rL*(h-1-s), hi + cR_S + rR*(h-1-s))
//
// ([lo, hi) its block), intersected with the statement's domain, in an
// order the band's own dependences allow (any of hextile's tilings: the
// band is a scop of its own and goes through the normal pipeline). The
// radii r and the offsets c follow from the value-based flow dependences
// (exact, from frontend.Deps): for every flow from instance x' of S' to x of
// S with time distance dt < h and position distance d, the region of S'
// at its step must hold x' whenever the region of S at its step holds x,
// i.e. cL_S' >= cL_S + d - rL*dt and cR_S' >= cR_S - d - rR*dt; r is the
// least value for which this system of difference constraints has a
// solution (a dependence inside one time step along a distributed axis, a
// wavefront such as Gauss-Seidel, has none: refused), c the least
// solution. Every writer of a block element executes (the terminal
// condition), so owners hold the sequential values at the end of every
// band; every value a rank reads in the band is either computed by it in
// the band or was last written before the band, and then the ghost
// exchange at the band's start brought the owner's value. The ghost
// widths are the largest distances from the block an executed access
// reaches: gL = max(cL + rL*(h-1) - offset), gR = max(cR + rR*(h-1) + offset).
//
// The exchange goes axis by axis: along axis k the slabs span the ghost
// zones of the axes before k (so corners arrive through two hops) and the
// blocks of the axes after it. A block narrower than a ghost zone would
// need values from beyond the neighbour: refused with the numbers.
package distribute
