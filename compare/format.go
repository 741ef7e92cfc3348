package compare

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

func sizesString(s []int64) string {
	var p []string
	for _, x := range s {
		p = append(p, fmt.Sprint(x))
	}
	return strings.Join(p, ",")
}

func secs(p *Prediction) string {
	if p == nil {
		return "-"
	}
	return fmtTime(p.Seconds)
}

func fmtTime(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g us", s*1e6)
	}
}

// WriteTable prints the report as a terminal table.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "# %s at %s; models for %s (%d SMs, %.3g TB/s copy, %.3g TFLOP/s FP32)\n", r.Scop, paramString(r.Params), r.GPU.Name, r.GPU.SMs, r.GPU.CopyBW/1e12, r.GPU.FP32/1e12)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "schedule\tscheme\tsizes\ttiles\tphases\ttiles/phase min/mean/max\tupdates\tredundant\tloads/upd\tstores/upd\tshared/upd\tbytes/upd\tbarriers\tlaunches\thextile model\tSL model\tGCells/s (model)\tmeasured\t")
	var notes []string
	for _, x := range r.Rows {
		if x.Err != "" {
			notes = append(notes, fmt.Sprintf("# %s: %s", strings.TrimSpace(x.Kind+" "+sizesString(x.Sizes)), oneLine(x.Err)))
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", x.Kind, x.Scheme.Name, sizesString(x.Sizes), strings.Repeat("-\t", 15))
			continue
		}
		c := x.Counts
		meas := "-"
		if x.Measured != nil {
			meas = fmt.Sprintf("%s (%.3g GCells/s)", fmtTime(x.Measured.Seconds), x.Measured.GCellsPerS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d/%.1f/%d\t%d\t%d (%.1f%%)\t%.3f\t%.3f\t%.2f\t%.2f\t%d\t%d\t%s\t%s\t%.3g\t%s\t\n",
			x.Kind, x.Scheme.Name, sizesString(x.Sizes), c.Tiles, c.Phases, c.TilesPerPhase.Min, c.TilesPerPhase.Mean, c.TilesPerPhase.Max,
			c.Useful, c.Redundant, 100*c.RedundantRatio, c.LoadsPerUpd, c.StoresPerUpd, c.SharedPerUpd, c.BytesPerUpd,
			c.Barriers, c.Launches, secs(x.Hextile), secs(x.SL), x.Hextile.GCellsPerS, meas)
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	for _, n := range r.kernelNotes() {
		fmt.Fprintln(w, "# "+n)
	}
	if r.SLChoice != nil {
		fmt.Fprintf(w, "# SL's pyramid height for overlapped tiling with widths %s: h = %d (%s predicted, %s-bound)\n", sizesString(r.SLChoice.Widths), r.SLChoice.H, fmtTime(r.SLChoice.Prediction.Seconds), r.SLChoice.Prediction.Bound)
	}
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// bar is one bar of a chart.
type bar struct {
	label string
	value float64
	class string
	kind  string
}

// kindColor is the fill of a schedule's bars.
func kindColor(kind string) string {
	switch kind {
	case "hybrid":
		return "#4a7bd0"
	case "hexagonal":
		return "#5fa8d3"
	case "classical":
		return "#3a9e6a"
	case "overlapped":
		return "#e0833a"
	case "sweep":
		return "#c25c8a"
	case "stream":
		return "#2f4f9e"
	case "n5d":
		return "#8e3563"
	}
	return "#777777"
}

// barChart writes an inline SVG bar chart (horizontal bars, one per row).
func barChart(w io.Writer, title, unit string, bars []bar) {
	const width, left, rowH, top = 720, 220, 22, 30
	h := top + rowH*len(bars) + 30
	mx := 0.0
	for _, b := range bars {
		if !math.IsInf(b.value, 0) && !math.IsNaN(b.value) {
			mx = math.Max(mx, b.value)
		}
	}
	if mx == 0 {
		mx = 1
	}
	fmt.Fprintf(w, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\">\n", width, h, width, h)
	fmt.Fprintf(w, "<title>%s</title>\n", html.EscapeString(title))
	fmt.Fprintf(w, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", left, html.EscapeString(title))
	span := float64(width - left - 110)
	for i, b := range bars {
		y := top + i*rowH
		bw := b.value / mx * span
		if math.IsNaN(bw) || bw < 0 {
			bw = 0
		}
		fmt.Fprintf(w, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%s</text>\n", left-6, y+14, html.EscapeString(b.label))
		fmt.Fprintf(w, "<rect class=\"bar %s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %.4g %s</title></rect>\n", b.class, left, y+2, bw, rowH-6, kindColor(b.kind), html.EscapeString(b.label), b.value, html.EscapeString(unit))
		fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%.4g %s</text>\n", float64(left)+bw+4, y+14, b.value, html.EscapeString(unit))
	}
	// axis
	ay := top + rowH*len(bars) + 4
	fmt.Fprintf(w, "<line x1=\"%d\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"#333\"/>\n", left, ay, float64(left)+span, ay)
	for q := 0; q <= 4; q++ {
		x := float64(left) + span*float64(q)/4
		fmt.Fprintf(w, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%.3g</text>\n", x, ay, x, ay+4, x, ay+16, mx*float64(q)/4)
	}
	fmt.Fprintln(w, "</svg>")
}

// WriteHTML writes a self-contained HTML page: the table and SVG bar charts
// of instances, bytes per update and predicted time per schedule.
func (r *Report) WriteHTML(w io.Writer) {
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>hextile compare: %s</title>\n", html.EscapeString(r.Scop))
	fmt.Fprint(w, `<style>
body{font-family:sans-serif;margin:2em;max-width:1400px}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #bbb;padding:3px 6px;text-align:right}
th{background:#eee} td.l{text-align:left}
.bar.useful{fill:#4a7bd0}.bar.redundant{fill:#e0833a}.bar.bytes{fill:#3a9e6a}.bar.time{fill:#8a5cc2}.bar.sl{fill:#c25c8a}
code{background:#f4f4f4;padding:1px 3px}
</style></head><body>
`)
	fmt.Fprintf(w, "<h1>Schedules of %s</h1>\n", html.EscapeString(r.Scop))
	if r.Command != "" {
		fmt.Fprintf(w, "<p>Command: <code>%s</code></p>\n", html.EscapeString(r.Command))
	}
	fmt.Fprintf(w, "<p>Parameters: %s. Models for %s: %d SMs, %.3g TB/s copy bandwidth, %.3g TFLOP/s FP32, %d KB shared memory per SM.</p>\n",
		html.EscapeString(paramString(r.Params)), html.EscapeString(r.GPU.Name), r.GPU.SMs, r.GPU.CopyBW/1e12, r.GPU.FP32/1e12, r.GPU.SmemPerSM>>10)
	fmt.Fprintln(w, "<table><tr><th>schedule</th><th>scheme</th><th>sizes</th><th>tiles</th><th>phases</th><th>tiles/phase min/mean/max</th><th>updates</th><th>redundant</th><th>loads/upd</th><th>stores/upd</th><th>shared/upd</th><th>bytes/upd</th><th>barriers</th><th>launches</th><th>hextile model</th><th>SL model</th><th>GCells/s (model)</th><th>measured</th></tr>")
	var useful, redundant, bytes, tm, sl []bar
	for _, x := range r.Rows {
		label := x.Kind + " " + sizesString(x.Sizes)
		if x.Err != "" {
			fmt.Fprintf(w, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s</td><td class=\"l\" colspan=\"15\">refused: %s</td></tr>\n", x.Kind, html.EscapeString(x.Scheme.Name), sizesString(x.Sizes), html.EscapeString(oneLine(x.Err)))
			continue
		}
		c := x.Counts
		meas := "-"
		if x.Measured != nil {
			meas = fmt.Sprintf("%s (%.3g GCells/s)", fmtTime(x.Measured.Seconds), x.Measured.GCellsPerS)
		}
		fmt.Fprintf(w, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d/%.1f/%d</td><td>%d</td><td>%d (%.1f%%)</td><td>%.3f</td><td>%.3f</td><td>%.2f</td><td>%.2f</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%.3g</td><td>%s</td></tr>\n",
			x.Kind, html.EscapeString(x.Scheme.Name), sizesString(x.Sizes), c.Tiles, c.Phases, c.TilesPerPhase.Min, c.TilesPerPhase.Mean, c.TilesPerPhase.Max,
			c.Useful, c.Redundant, 100*c.RedundantRatio, c.LoadsPerUpd, c.StoresPerUpd, c.SharedPerUpd, c.BytesPerUpd,
			c.Barriers, c.Launches, secs(x.Hextile), secs(x.SL), x.Hextile.GCellsPerS, html.EscapeString(meas))
		useful = append(useful, bar{label, float64(c.Computed), "computed", x.Kind})
		redundant = append(redundant, bar{label, float64(c.Redundant), "redundant", x.Kind})
		bytes = append(bytes, bar{label, c.BytesPerUpd, "bytes", x.Kind})
		tm = append(tm, bar{label, x.Hextile.Seconds * 1e6, "time", x.Kind})
		if x.SL != nil {
			sl = append(sl, bar{label, x.SL.Seconds * 1e6, "sl", x.Kind})
		}
	}
	fmt.Fprintln(w, "</table>")
	for _, n := range r.kernelNotes() {
		fmt.Fprintf(w, "<p>%s</p>\n", html.EscapeString(n))
	}
	if r.SLChoice != nil {
		fmt.Fprintf(w, "<p>SL's pyramid height for overlapped tiling with widths %s: <b>h = %d</b> (%s predicted, %s-bound).</p>\n", sizesString(r.SLChoice.Widths), r.SLChoice.H, fmtTime(r.SLChoice.Prediction.Seconds), r.SLChoice.Prediction.Bound)
	}
	fmt.Fprintln(w, "<h2>Plots</h2>")
	barChart(w, "instances computed (updates and redundant)", "", useful)
	barChart(w, "redundant instances (ghost zones)", "", redundant)
	barChart(w, "global bytes per update", "B", bytes)
	barChart(w, "predicted time, hextile model", "us", tm)
	if len(sl) > 0 {
		barChart(w, "predicted time, SL model", "us", sl)
	}
	if r.SLChoice != nil {
		var bs []bar
		for h, p := range r.SLChoice.ByH {
			bs = append(bs, bar{fmt.Sprintf("h = %d", h), p.Seconds * 1e6, "sl", "overlapped"})
		}
		barChart(w, "SL model by pyramid height (overlapped)", "us", bs)
	}
	fmt.Fprintln(w, "<h2>Schemes</h2>\n<ul>")
	seen := map[string]bool{}
	for _, x := range r.Rows {
		if !seen[x.Scheme.Name] {
			seen[x.Scheme.Name] = true
			fmt.Fprintf(w, "<li><b>%s</b> (%s): %s</li>\n", html.EscapeString(x.Kind), html.EscapeString(x.Scheme.Name), html.EscapeString(x.Scheme.Papers))
		}
	}
	fmt.Fprintln(w, "</ul>")
	fmt.Fprint(w, `<h2>Definitions</h2>
<ul>
<li>An update is one useful statement instance; redundant instances are those computed again in ghost zones.</li>
<li>Loads: each tile loads once every element it reads before writing it itself; stores: every element written by an instance the tile owns (once, the last value).</li>
<li>Shared accesses: the reads and writes of every computed instance plus one per load and per store (staging).</li>
<li>Barriers: one per value of a tile's point time (t, or the sweep plane z); launches: one per phase.</li>
<li>Schedules in the original loop structure (classical, one band per loop nest; none, original loop order): the sequential loops before the first parallel one make the phases, the parallel loops that follow the tiles, and the rest runs inside a tile (a barrier per value of its sequential dimensions down to the point time t).</li>
<li>stream (the streaming hybrid kernel): tiles are the blocks the host launches (one per hexagon, a launch per time tile and phase), each sweeping s1 with one barrier per step; loads and stores are the distinct elements a block reads from or writes to global memory (the reads of the previous time row come from its shared buffers or column registers), shared accesses the buffer reads and writes; the note under the table gives the accesses the kernel executes.</li>
<li>n5d: the sweep kernel at its GPU default sizes (deep temporal blocking), counted like sweep; the discarded cells its steady state computes on interior boxes are not counted.</li>
<li>hextile model: per phase, launch + max(bytes/copy bandwidth, flops/(FP32 x min(1, tiles/SMs))) + waves x barriers x barrier cost. SL model: Meng and Skadron's ghost-zone trade-off from the tile shape alone.</li>
</ul>
</body></html>
`)
}

// kernelNotes are the lines under the table for the kernel rows: the
// streaming hybrid kernel's block and the accesses it executes per update
// (its loads and stores columns count distinct elements per block), and
// what the n5d row is.
func (r *Report) kernelNotes() []string {
	var out []string
	for _, x := range r.Rows {
		if x.Err != "" || x.Counts == nil {
			continue
		}
		label := x.Kind + " " + sizesString(x.Sizes)
		switch {
		case x.Counts.Stream != nil:
			sc, u := x.Counts.Stream, float64(max(1, x.Counts.Useful))
			regs := "column registers"
			if !sc.Regs {
				regs = "no column registers"
			}
			out = append(out, fmt.Sprintf("%s: blocks of %dx%d threads, %d rows lagging %d planes, %d-plane buffers (%d B shared), %s, %d steps per block (%.1f%% of the slots compute); per update %.3f global load and %.3f store accesses, %.3f shared reads, %.3f shared writes, %.3f register reads (loads/upd and stores/upd: distinct elements per block)",
				label, sc.Threads, sc.Groups, sc.Rows, sc.Lag, sc.Planes, sc.Smem, regs, sc.Steps, 100*sc.SlotUse,
				float64(sc.GlobalLoadAccesses)/u, float64(sc.GlobalStoreAccesses)/u, float64(sc.SharedReads)/u, float64(sc.SharedWrites)/u, float64(sc.RegisterReads)/u))
		case x.Kind == string(N5D):
			out = append(out, fmt.Sprintf("%s: the N.5-D sweep kernel, h+1 = %d steps per sweep (the GPU kernel's default sizes unless given), counted as the sweep schedule; its steady state's discarded cells outside each level's region are not counted", label, x.Sizes[0]+1))
		}
	}
	return out
}
