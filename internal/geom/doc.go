// Package geom holds small plane-geometry helpers shared by the packages
// that draw or describe tiles (schedule's hexagon vertices, compare's SVG
// outlines). It imports nothing of ours.
package geom
