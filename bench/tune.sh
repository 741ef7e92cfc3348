#!/usr/bin/env bash
# hextile tune on the GPU, two machines: prepare here (Go and llc), run on the GPU machine (no Go, no llc).
#
#   bash bench/tune.sh prepare     # here: devbuild/hextile (static, CGO_ENABLED=0) and every candidate's PTX
#                                  # (verification and timing sizes) in devbuild/tune/<stencil>/ with manifest.json
#   bash bench/tune.sh run         # on the GPU machine, carrying devbuild/: hextile tune --candidates for each
#                                  # stencil within BUDGET, then the top 5 of each
#
# Stencils: laplacian2d 2048^2 x 512 (testdata/laplacian2d.c) and j2d5pt 16384^2 x 1000
# (testdata/real/an5d_j2d5pt.c: AN5D's j2d5pt, ../shared/peers/an5d/stencils/j2d5pt.c, as a scop;
# dimsize = 16384 + 2 halo). Each candidate is verified bit for bit at the small VERIFY sizes (the reference:
# the original C program built by cc there, else the Go interpreter) and timed at the full size (median of
# REPS runs after a warm-up, kernel time). The tuning files and logs go to $OUT (default /tmp/hxtune-out);
# hextile compile FILE --tuning=$OUT/<stencil>.tuning.json -D ... gives the winner's code.
# The candidates include the ghost-zone kernels (--tile=sweep, overlapped: the sweep's default sizes come with the
# other defaults); TILE=sweep,none restricts the schedules (TILE=sweep ONLY=j2d5pt MAXC=12: the sweep's sizes
# alone), FAST=1 prepares and runs with --fast-math (verified within tolerance; give FAST=1 to both halves).
# The GPU machine also recompiles each candidate's schedule (pure Go) for its launches: that time counts in
# the budget. devbuild/ (binary about 10 MB, PTX 20-80 KB a file) fits the 64 MiB carry.
set -uo pipefail
cd "$(dirname "$0")/.."
HX=${HEXTILE:-./devbuild/hextile}
OUT=${OUT:-/tmp/hxtune-out}
MAXC=${MAXC:-20}         # candidates prepared per stencil
BUDGET=${BUDGET:-55s}    # per stencil: about 2 minutes in all (a candidate running at the budget finishes)
REPS=${REPS:-3}
ARCH=${ARCH:-sm_90}
# name | file | timing sizes | verification sizes
STENCILS=(
  "laplacian2d|testdata/laplacian2d.c|-D N=2048 -D T=512|--verify-size N=300 --verify-size T=48"
  "j2d5pt|testdata/real/an5d_j2d5pt.c|-D dimsize=16386 -D timestep=1000|--verify-size dimsize=300 --verify-size timestep=48"
)
ONLY=${ONLY:-}           # e.g. ONLY=j2d5pt
TILE=${TILE:-}           # e.g. TILE=sweep,none: only those schedules (tune --tile; default every one that applies)
FAST=${FAST:-}           # FAST=1: --fast-math (prepare and run both; the manifest must match)
EXTRA=()
[ -n "$TILE" ] && EXTRA+=("--tile=$TILE")
[ -n "$FAST" ] && EXTRA+=(--fast-math)
mkdir -p "$OUT"
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf devbuild/tune
  for s in "${STENCILS[@]}"; do
    IFS='|' read -r name file sizes vsizes <<< "$s"
    [ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && continue
    # shellcheck disable=SC2086
    devbuild/hextile tune "$file" --device=gpu --prepare="devbuild/tune/$name" --arch="$ARCH" --max-candidates="$MAXC" \
      "${EXTRA[@]}" $sizes $vsizes || exit 1
  done
  du -sh devbuild
  exit 0
fi
if [ ! -x "$HX" ]; then
  echo "tune.sh: no hextile binary at $HX (set HEXTILE=path; run 'bash bench/tune.sh prepare' here first)" >&2
  exit 2
fi
fail=0
for s in "${STENCILS[@]}"; do
  IFS='|' read -r name file sizes vsizes <<< "$s"
  [ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && continue
  dir=devbuild/tune/$name
  if [ ! -f "$dir/manifest.json" ]; then
    echo "tune.sh: $dir/manifest.json missing: run 'bash bench/tune.sh prepare' here and carry devbuild/" >&2
    fail=1
    continue
  fi
  t0=$(date +%s)
  [ -n "$FAST" ] && fastflag=(--fast-math) || fastflag=()
  "$HX" tune "$file" --device=gpu --candidates="$dir" --budget="$BUDGET" --reps="$REPS" "${fastflag[@]}" \
    -o "$OUT/$name.tuning.json" > "$OUT/$name.table" 2> "$OUT/$name.log"
  rc=$?
  t1=$(date +%s)
  echo "== $name ($sizes), rc=$rc, wall $((t1 - t0)) s, log $OUT/$name.log"
  grep -E '^tune: \[' "$OUT/$name.log" | sed 's/^/  /'
  grep -E '^tune: budget' "$OUT/$name.log" | sed 's/^/  /'
  echo "  top 5:"
  sed 's/^/  /' "$OUT/$name.table"
  if [ "$rc" -ne 0 ]; then
    fail=1
    tail -5 "$OUT/$name.log" | sed 's/^/    /'
  fi
done
exit $fail
