// Package testsched holds the test fixtures that several code generator
// packages share: the tilings and tile-size choices of the end-to-end
// matrices, the problem sizes of their runs, and loading a scop from a file.
// It is imported by tests only.
package testsched
