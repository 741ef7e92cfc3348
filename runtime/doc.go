// Package runtime compiles generated programs, runs them on the CPU or a GPU,
// verifies them against the sequential original and times them.
package runtime
