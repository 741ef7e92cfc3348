// Package frontend reads the C subset hextile accepts (#pragma scop regions of
// affine loops over arrays) and builds the polyhedral model: statements with
// iteration domains, access relations, the original schedule and statement
// bodies. Dependence analysis (value-based flow, memory-based anti and output
// dependences, and the slopes of the dependence cone) is computed here on poly.
package frontend
