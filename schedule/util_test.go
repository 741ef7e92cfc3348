package schedule

import (
	"testing"

	"hextile/poly"
)

func mustMap(t *testing.T, s string) poly.Map {
	t.Helper()
	m, err := poly.ParseMap(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}
