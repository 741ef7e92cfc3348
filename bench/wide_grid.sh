#!/usr/bin/env bash
# Grids past 2^31 elements on the GPU: heat2d (two float N x N buffers) with N = 33000 (2.18e9 elements,
# 64-bit flat indices, 32-bit loops) and N = 46341 (N^2 > 2^31: one buffer alone needs 64-bit indices),
# untiled (--tile=none), T = 2, through both GPU back ends, each verified bit for bit against the
# original program run on the CPU. One line per run: back end, N, exit status, verify line, kernel time.
#
#   bash bench/wide_grid.sh prepare     # here (go, llc): devbuild/hextile (static) and one PTX per size
#   bash bench/wide_grid.sh run         # on the GPU machine (no Go, no llc needed), carrying devbuild/
#
# The GPU machine has no llc: prepare compiles the PTX of each size here (--arch=sm_90, programmatic
# dependent launch) and run passes it with --ptx. --backend=cuda needs nvcc and cc there. Memory: about 9 GB (N = 33000) and 17 GB (N = 46341) per copy of the array on the GPU,
# three to four copies on the host (inputs, reference, result). Logs go to $OUT (default /tmp/hxwide).
set -uo pipefail
cd "$(dirname "$0")/.."
HX=${HEXTILE:-./devbuild/hextile}
OUT=${OUT:-/tmp/hxwide}
SIZES=${SIZES:-33000 46341}
BACKENDS=${BACKENDS:-ptx cuda}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  for n in $SIZES; do
    devbuild/hextile compile testdata/heat2d.c --target=ptx --arch="$ARCH" --tile=none -D N="$n" -D T=2 \
      -o devbuild/heat2d_N${n}.ptx || exit 1
  done
  ls -l devbuild
  exit 0
fi
if [ ! -x "$HX" ]; then
  echo "wide_grid: no hextile binary at $HX (set HEXTILE=path)" >&2
  exit 2
fi
fail=0
for n in $SIZES; do
  for be in $BACKENDS; do
    log=$OUT/heat2d_N${n}_${be}.log
    ptx=
    if [ "$be" = ptx ] && [ -f "devbuild/heat2d_N${n}.ptx" ]; then ptx="--ptx devbuild/heat2d_N${n}.ptx"; fi
    t0=$(date +%s)
    "$HX" run testdata/heat2d.c --device=gpu --backend="$be" --tile=none -D N="$n" -D T=2 --reps=1 $ptx > "$log" 2>&1
    rc=$?
    t1=$(date +%s)
    v=$(grep -m1 '^verify:' "$log" || echo "verify: (none)")
    k=$(grep -m1 -E '^(time-gpu-kernel|time-tiled):' "$log" || echo "time: (none)")
    echo "heat2d N=$n T=2 backend=$be rc=$rc $v | $k | wall $((t1 - t0)) s | log $log"
    if [ "$rc" -ne 0 ] || [[ "$v" != "verify: ok" ]]; then
      fail=1
      tail -5 "$log" | sed 's/^/    /'
    fi
  done
done
exit $fail
