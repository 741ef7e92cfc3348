package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"hextile/internal/testlong"
)

// The HTML report and the SVG pictures opened in a real headless browser
// (chromium --headless --dump-dom) when one is installed: the page loads
// without script or XML errors and every SVG element is rendered with a
// size and its shapes. Without a browser the tests skip (the XML checks of
// compare_test.go still run); HEXTILE_REQUIRE_CHROMIUM=1 (set by .ci/run
// once chromium is installed) turns the skip into a failure, and
// HEXTILE_CHROMIUM names the binary.

// browserResult is what browser_probe.js reports.
type browserResult struct {
	Errors      []string `json:"errors"`
	ParserError int      `json:"parsererror"`
	Tables      int      `json:"tables"`
	SVGs        []struct {
		W        float64 `json:"w"`
		H        float64 `json:"h"`
		Polygons int     `json:"polygons"`
		Rects    int     `json:"rects"`
	} `json:"svgs"`
}

// browserFlags start chromium headless in a container: no sandbox (CI runs
// as root, where the sandbox refuses to start), no GPU, /tmp instead of a
// small /dev/shm.
var browserFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"}

var (
	browserOnce sync.Once
	browserBin  string
	browserErr  error
)

// chromium returns the headless browser's binary once it has loaded a
// blank page, or skips the test (fails it under HEXTILE_REQUIRE_CHROMIUM).
func chromium(t *testing.T) string {
	t.Helper()
	browserOnce.Do(func() {
		browserBin = os.Getenv("HEXTILE_CHROMIUM")
		for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if browserBin != "" {
				break
			}
			browserBin, _ = exec.LookPath(n)
		}
		if browserBin == "" {
			browserErr = fmt.Errorf("no chromium on PATH")
			return
		}
		dir, err := os.MkdirTemp("", "hextile-chromium")
		if err != nil {
			browserErr = err
			return
		}
		defer os.RemoveAll(dir)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, browserBin, append(browserFlags, "--user-data-dir="+dir, "--dump-dom", "about:blank")...).CombinedOutput()
		if err != nil {
			browserErr = fmt.Errorf("%s does not start: %v\n%s", browserBin, err, tail(string(out), 1000))
		}
	})
	if browserErr != nil {
		if os.Getenv("HEXTILE_REQUIRE_CHROMIUM") != "" {
			t.Fatalf("HEXTILE_REQUIRE_CHROMIUM is set: %v", browserErr)
		}
		t.Skipf("%v: the HTML and SVG are checked as XML only", browserErr)
	}
	return browserBin
}

var probeRE = regexp.MustCompile(`(?s)<desc id="hextile-check">(.*?)</desc>`)

// openInBrowser loads a copy of file (HTML or SVG) with the probe appended
// in headless chromium and returns the probe's report.
func openInBrowser(t *testing.T, bin, file string) browserResult {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := os.ReadFile("testdata/browser_probe.js")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var page []byte
	name := filepath.Join(dir, filepath.Base(file))
	if strings.HasSuffix(file, ".svg") {
		i := bytes.LastIndex(src, []byte("</svg>"))
		if i < 0 {
			t.Fatalf("%s: no </svg>", file)
		}
		page = append(append(append([]byte{}, src[:i]...), []byte("<script><![CDATA[\n"+string(probe)+"\n]]></script>")...), src[i:]...)
	} else {
		i := bytes.LastIndex(src, []byte("</body>"))
		if i < 0 {
			t.Fatalf("%s: no </body>", file)
		}
		page = append(append(append([]byte{}, src[:i]...), []byte("<script>\n"+string(probe)+"\n</script>")...), src[i:]...)
	}
	if err := os.WriteFile(name, page, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(browserFlags,
		"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+name)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, tail(errb.String(), 2000))
	}
	ms := probeRE.FindAllSubmatch(out.Bytes(), -1)
	if len(ms) != 1 {
		t.Fatalf("%s: the page did not finish loading (no probe report in the DOM)\n%s", file, tail(errb.String(), 2000))
	}
	m := ms[0]
	var r browserResult
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &r); err != nil {
		t.Fatalf("%s: probe report %q: %v", file, m[1], err)
	}
	if strings.Contains(errb.String(), "Uncaught") {
		r.Errors = append(r.Errors, "console: "+tail(errb.String(), 500))
	}
	return r
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// checkRendered: no errors, and every SVG element of the source rendered
// with a size (shapes counted in the source by svgPolygons agree).
func checkRendered(t *testing.T, file string, r browserResult) {
	t.Helper()
	src, _ := os.ReadFile(file)
	if len(r.Errors) > 0 || r.ParserError > 0 {
		t.Errorf("%s: errors in the browser: %v, %d XML parse errors", file, r.Errors, r.ParserError)
	}
	if want := bytes.Count(src, []byte("<svg")); len(r.SVGs) != want {
		t.Errorf("%s: the browser rendered %d SVG elements, the file has %d", file, len(r.SVGs), want)
	}
	for i, s := range r.SVGs {
		if s.W <= 0 || s.H <= 0 || s.Polygons+s.Rects == 0 {
			t.Errorf("%s: SVG %d rendered empty: %+v", file, i, s)
		}
	}
}

// TestBrowserCompareHTML: a report like docs/compare's (every kind) loads
// in headless chromium with its table and charts.
func TestBrowserCompareHTML(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "jacobi2d.html")
	if _, errs, code := runCmd(t, "", "compare", "../../testdata/jacobi2d_mod2.c", "--tile=hybrid,stream,classical,overlapped,sweep,n5d,none", "-D", "N=24", "-D", "T=6", "--html", page); code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	r := openInBrowser(t, bin, page)
	checkRendered(t, page, r)
	if r.Tables != 1 || len(r.SVGs) < 5 {
		t.Errorf("report: %d tables, %d charts", r.Tables, len(r.SVGs))
	}
}

// TestBrowserTilesSVG: a tiles picture loads with as many polygons as its
// XML, and a broken one shows a parse error.
func TestBrowserTilesSVG(t *testing.T) {
	if !testlong.Enabled() {
		t.Skip("long: set HEXTILE_LONG=1")
	}
	bin := chromium(t)
	dir := t.TempDir()
	svg := filepath.Join(dir, "tiles.svg")
	if _, errs, code := runCmd(t, "", "tiles", "../../testdata/heat2d.c", "--tile=overlapped", "--sizes=2,4,5", "--svg", svg); code != 0 {
		t.Fatalf("tiles: exit %d %s", code, errs)
	}
	r := openInBrowser(t, bin, svg)
	checkRendered(t, svg, r)
	f, _ := os.Open(svg)
	n := svgPolygons(t, f)
	f.Close()
	if len(r.SVGs) != 1 || r.SVGs[0].Polygons != n["polygon"] {
		t.Errorf("tiles: the browser has %+v, the XML %d polygons", r.SVGs, n["polygon"])
	}
	// a broken file is caught
	bad := filepath.Join(dir, "bad.svg")
	b, _ := os.ReadFile(svg)
	os.WriteFile(bad, bytes.Replace(b, []byte("</g>"), nil, 1), 0o644)
	if r := openInBrowser(t, bin, bad); r.ParserError == 0 {
		t.Errorf("an SVG without a </g> loaded without a parse error")
	}
}

// TestBrowserDocs: the committed examples of docs/compare load.
func TestBrowserDocs(t *testing.T) {
	if !testlong.Enabled() {
		t.Skip("long: set HEXTILE_LONG=1")
	}
	bin := chromium(t)
	files, _ := filepath.Glob("../../docs/compare/*.html")
	svgs, _ := filepath.Glob("../../docs/compare/*.svg")
	if len(files) == 0 || len(svgs) == 0 {
		t.Fatal("no examples in docs/compare")
	}
	for _, f := range append(files, svgs...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			checkRendered(t, f, openInBrowser(t, bin, f))
		})
	}
}
