// Package compare puts tile schedules side by side: exact counts of what a
// schedule does at concrete sizes (tiles, phases, instances computed,
// global and shared-memory traffic, barriers, launches), two performance
// models that predict a time from the counts or the tile shape (hextile's
// roofline-with-phases model and SL's ghost-zone model after Meng and
// Skadron), and the report of `hextile compare` (terminal table, JSON,
// HTML with SVG plots).
//
// Every count is exact: the instances are enumerated by the integer-set
// engine at the given parameter values and each is placed by the
// schedule's own formulas (schedule.Schedule.Vectors); the tests compare
// the counts with an independent brute force that reads the schedule and
// the accesses from the engine's relations instead. Each row of a report
// names the published scheme of its kind (schemes.go: sweep is the N.5-D
// blocking of AN5D and Schafer and Fey's pipelined wavefront); the JSON of
// Stats is documented field by field in docs/compare/stats_json.md.
//
// Two rows name kernels rather than schedule kinds (kernel_rows.go):
// stream, the streaming hybrid kernel (--tile=hybrid --stream), counted
// as it runs by CountStream (stream.go) from the kernel's own plan
// (gpuplan.HexStreamPlan) and checked against a simulation of the kernel;
// and n5d, the sweep kernel at its GPU kernel's default sizes (the
// deep-temporal N.5-D blocking), counted as the sweep schedule.
package compare
