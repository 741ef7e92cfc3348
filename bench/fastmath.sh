#!/usr/bin/env bash
# --fast-math on the GPU: verification within the tolerance (both back ends) and the speed of j2d5pt
# 16384^2 x 1000 with and without fast math (hybrid 11,23,128 --shared and none 3,32,64), side by side.
#   bash bench/fastmath.sh prepare   # here: devbuild/hextile and the PTX files (llc)
#   bash bench/fastmath.sh run       # on the GPU machine, carrying devbuild/
set -uo pipefail
cd "$(dirname "$0")/.."
HX=${HEXTILE:-./devbuild/hextile}
J2D=testdata/real/an5d_j2d5pt.c
BIG="-D dimsize=16386 -D timestep=1000"
SMALL="-D dimsize=1026 -D timestep=64"
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  for f in gradient2d heat2d; do
    $HX compile testdata/$f.c --target=ptx --arch=sm_90 --fast-math -o devbuild/${f}_fast.ptx || exit 1
  done
  for v in "" --fast-math; do
    $HX compile $J2D --target=ptx --arch=sm_90 --tile=hybrid --sizes=11,23,128 --shared $BIG $v -o devbuild/j2d5pt_hyb${v:+_fast}.ptx || exit 1
    $HX compile $J2D --target=ptx --arch=sm_90 --tile=none --sizes=3,32,64 $BIG $v -o devbuild/j2d5pt_none${v:+_fast}.ptx || exit 1
  done
  exit 0
fi
line() { grep -m1 -E "$1" "$2" || echo "(none)"; }
for f in gradient2d heat2d; do
  $HX run testdata/$f.c --device=gpu --fast-math --ptx devbuild/${f}_fast.ptx --reps=1 > /tmp/fm_$f.log 2>&1
  echo "$f ptx --fast-math: rc=$? $(line '^verify:' /tmp/fm_$f.log)"
  $HX run testdata/$f.c --device=gpu --backend=cuda --fast-math --reps=1 > /tmp/fmc_$f.log 2>&1
  echo "$f cuda --fast-math: rc=$? $(line '^verify:' /tmp/fmc_$f.log)"
  $HX run testdata/$f.c --device=gpu --fast-math --rtol=0 --atol=0 --ptx devbuild/${f}_fast.ptx --reps=1 > /tmp/fm0_$f.log 2>&1
  echo "$f ptx --fast-math --rtol=0 --atol=0: rc=$? $(line '^verify:' /tmp/fm0_$f.log)"
done
for cfg in "hyb:--tile=hybrid --sizes=11,23,128 --shared" "none:--tile=none --sizes=3,32,64"; do
  tag=${cfg%%:*}; flags=${cfg#*:}
  for v in "" --fast-math; do
    ptx=devbuild/j2d5pt_${tag}${v:+_fast}.ptx
    $HX run $J2D --device=gpu $flags $SMALL $v --ptx $ptx --reps=1 > /tmp/j_s.log 2>&1
    vs=$(line '^verify:' /tmp/j_s.log)
    $HX run $J2D --device=gpu $flags $BIG $v --ptx $ptx --reps=3 --verify=false > /tmp/j_b.log 2>&1
    echo "j2d5pt 16384^2x1000 $flags ${v:-(IEEE)}: small-size $vs | $(grep -E '^(time-gpu-kernel|updates/s)' /tmp/j_b.log | tr '\n' ' ')"
  done
done
