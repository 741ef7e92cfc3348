package poly

import (
	"strings"
	"testing"
)

// TestIslReadsOurPrint hands every printed table case to isl (when the isl
// oracle of isl_oracle_test.go is available) and asks it whether the printed
// text and the source mean the same set.
func TestIslReadsOurPrint(t *testing.T) {
	o := getOracle(t)
	for _, tc := range setCases {
		if tc.ext {
			continue
		}
		s := MustParseSet(tc.src)
		if eq := o.ask("set_is_equal", s.String(), tc.src); eq != "true" {
			t.Errorf("isl: %s vs %s: %s", s, tc.src, eq)
		}
	}
	for _, tc := range mapCases {
		m := MustParseMap(tc.src)
		if eq := o.ask("map_is_equal", m.String(), tc.src); eq != "true" {
			t.Errorf("isl: %s vs %s: %s", m, tc.src, eq)
		}
	}
}

// TestWeReadIslPrint parses isl's own printing of the table cases.
func TestWeReadIslPrint(t *testing.T) {
	o := getOracle(t)
	for _, tc := range setCases {
		if tc.ext {
			continue
		}
		txt := o.ask("set", tc.src)
		if strings.HasPrefix(txt, "ERROR") {
			t.Errorf("isl cannot read %s: %s", tc.src, txt)
			continue
		}
		s, err := ParseSet(txt)
		if err != nil {
			t.Errorf("ParseSet(isl's %q): %v", txt, err)
			continue
		}
		if eq := o.ask("set_is_equal", s.String(), tc.src); eq != "true" {
			t.Errorf("reading isl's %s gave %s (isl: %s)", txt, s, eq)
		}
	}
	for _, tc := range mapCases {
		txt := o.ask("map", tc.src)
		m, err := ParseMap(txt)
		if err != nil {
			t.Errorf("ParseMap(isl's %q): %v", txt, err)
			continue
		}
		if eq := o.ask("map_is_equal", m.String(), tc.src); eq != "true" {
			t.Errorf("reading isl's %s gave %s (isl: %s)", txt, m, eq)
		}
	}
}
