package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(args, &out, &errb, strings.NewReader(stdin))
	return out.String(), errb.String(), code
}

func TestVersion(t *testing.T) {
	out, _, code := runCmd(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "hextile ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUnknownCommand(t *testing.T) {
	_, errs, code := runCmd(t, "", "frobnicate")
	if code != 2 || !strings.Contains(errs, "unknown command") {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestHelpListsCommands(t *testing.T) {
	out, _, code := runCmd(t, "", "help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	for name := range commands {
		if !strings.Contains(out, name) {
			t.Errorf("help does not list %q", name)
		}
	}
}
