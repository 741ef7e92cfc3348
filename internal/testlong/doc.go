// Package testlong is the one switch between the default test run and the
// long campaigns (random differential testing, fuzz corpora, full size and
// stencil matrices). `go test ./...` runs a fast representative subset of
// every campaign; HEXTILE_LONG=1 runs all of it, as CI does (.ci/run).
// -short trims the default run further and wins over HEXTILE_LONG.
//
// Only _test.go files import this package.
package testlong
