package main

import (
	"encoding/json"
	"math"
	"os"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStatsJSONSchemaDocumented: the fields of tiles --stats --json are
// exactly those docs/compare/stats_json.md documents, with the documented
// JSON types, for a ghost-zone, a one-to-one and a banded schedule (the
// maps of parameter values are one field each).
func TestStatsJSONSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/compare/stats_json.md")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_.]+)` \\| ([^|]+?) \\|").FindAllStringSubmatch(string(doc), -1) {
		want[m[1]] = m[2]
	}
	if len(want) < 20 {
		t.Fatalf("found %d documented fields", len(want))
	}
	for _, args := range [][]string{
		{"tiles", "../../testdata/heat2d.c", "--stats", "--json", "--tile=overlapped", "--sizes=2,5,8", "-D", "N=12"},
		{"tiles", "../../testdata/heat2d.c", "--stats", "--json", "--tile=hybrid", "-D", "N=12"},
		{"tiles", "../../testdata/adi_pb.c", "--stats", "--json", "--tile=classical", "-D", "N=6", "-D", "TSTEPS=2"},
	} {
		out, errs, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errs)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		jsonFields("", v, got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%v: fields (-documented +printed):\n%s", args[1:], d)
		}
	}
}

// jsonFields records the documented type of every field of v under prefix:
// int, float, string, [int], [string], {string: int} or object. A number
// is a float when its field name says it is one (docs: mean, ratios, per
// update); JSON cannot tell 12 from 12.0.
func jsonFields(prefix string, v map[string]any, out map[string]string) {
	floats := regexp.MustCompile(`(mean|_per_update|_ratio)$`)
	for k, x := range v {
		name := prefix + k
		switch x := x.(type) {
		case string:
			out[name] = "string"
		case float64:
			switch {
			case floats.MatchString(k):
				out[name] = "float"
			case x == math.Trunc(x):
				out[name] = "int"
			default:
				out[name] = "a fraction in an int field"
			}
		case []any:
			out[name] = "[int]"
			if k == "slopes" {
				out[name] = "[string]"
			}
		case map[string]any:
			if k == "params" {
				out[name] = "{string: int}"
				continue
			}
			out[name] = "object"
			jsonFields(name+".", x, out)
		default:
			out[name] = "?"
		}
	}
}
