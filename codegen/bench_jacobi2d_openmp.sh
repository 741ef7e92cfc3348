#!/bin/sh
# Benchmark of issue 5: 2-D Jacobi (testdata/jacobi2d_mod2.c) at N x N for T
# steps, the original loop nest (sequential, as written) against the hybrid
# tiled OpenMP code, measured in one run of the verification harness (which
# also checks that both results are bit-identical).
#
#   sh codegen/bench_jacobi2d_openmp.sh [SIZES [N [T]]]     (defaults: scheduler's sizes, 4000, 100)
#
# Needs go (to generate the harness) and cc with OpenMP. HARNESS=file.c skips
# the generation step and builds that harness instead (for machines without go).
#
# Measured 2026-11-22 on the 16-core host of the H100 device (gcc 13.3, -O2
# -fopenmp, 16 threads), N=4000, T=100, float, bit-identical results:
#   hybrid, default sizes 3,7,32: original 1.588 s, tiled 0.174 s, ratio 9.1
#   hybrid, sizes 7,15,128:       original 1.937 s, tiled 0.200 s, ratio 9.7
#   classical, default sizes:     original 1.566 s, tiled 0.399 s, ratio 3.9
# On the 2-core development machine (gcc 12.2, 2 threads), N=4000, T=100:
#   hybrid, default sizes: original 1.404 s, tiled 0.565 s, ratio 2.49
# (at 1000^2 x 20 steps on the same machine under heavy load the ratio fell
# below 1: the problem is too small to pay for the threads).
set -e
cd "$(dirname "$0")/.."
SIZES=${1:-}
N=${2:-4000}
T=${3:-100}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
if [ -n "$HARNESS" ]; then
  cp "$HARNESS" "$DIR/h.c"
else
  go run ./cmd/hextile compile testdata/jacobi2d_mod2.c --tile=hybrid ${SIZES:+--sizes=$SIZES} \
    --harness -D N="$N" -D T="$T" -o "$DIR/h.c"
fi
cc -O2 -fopenmp -std=gnu99 "$DIR/h.c" -o "$DIR/h" -lm
echo "machine: $(nproc) cores, $(cc --version | head -1)"
"$DIR/h" | tee "$DIR/out"
awk '/^time-original/ {o = $2} /^time-tiled/ {t = $2} /^updates:/ {u = $2}
     END { printf "ratio original/tiled: %.2f\nupdates/s: original %.3g, tiled %.3g\n", o / t, u / o, u / t }' "$DIR/out"
grep -q '^verify: ok' "$DIR/out"
