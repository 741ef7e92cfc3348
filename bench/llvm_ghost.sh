#!/bin/sh
# The ghost-zone kernels (--tile=sweep, --tile=overlapped) through the LLVM
# path on the GPU: hextile run --device=gpu with the PTX of llvmprint's
# sweep.go / overlap.go (compiled here by llc), launched from Go by the
# band host schedule (gpuplan band_host.go: ping-pong copies), beside the
# same kernels in CUDA (--backend=cuda, nvcc -fmad=false). Each
# configuration is verified bit for bit at a small size (odd, dividing no
# box) and timed at the paper's size (--verify=false; medians of REPS).
#
#   here:  sh bench/llvm_ghost.sh prepare   # needs go, llc (opt); writes devbuild/llghost/
#   there: sh bench/llvm_ghost.sh run       # repo root; needs libcuda, nvcc, cc; no go, no llvm
#
# run writes devbuild/llghost/out/table.txt (one line per configuration and
# backend: verify, kernel time, GCells/s) and logs/.
set -u
cd "$(dirname "$0")/.." || exit 2
D=${HXLLG:-devbuild/llghost}
OUT=${OUT:-$D/out}
REPS=${REPS:-5}
SM=${SM:-sm_80}
# BENCH KIND SIZES (- for the kernel's defaults)
CONFIGS=${CONFIGS:-"heat2d sweep -
laplacian2d sweep -
j2d5pt sweep 7,128,242
laplacian3d sweep -
heat2d overlapped -
laplacian3d overlapped -"}
full() { case $1 in *3d) echo "-D N=256 -D T=128" ;; j2d5pt) echo "-D dimsize=16384 -D timestep=1000" ;; *) echo "-D N=2048 -D T=512" ;; esac; }
small() { case $1 in *3d) echo "-D N=61 -D T=11" ;; j2d5pt) echo "-D dimsize=387 -D timestep=29" ;; *) echo "-D N=387 -D T=29" ;; esac; }
src() { case $1 in j2d5pt) echo "testdata/real/an5d_j2d5pt.c" ;; *) echo "bench/inputs/$1.c" ;; esac; }

case ${1:-} in
prepare)
  mkdir -p "$D" || exit 1
  rm -f "$D"/*.ptx "$D/list"
  CGO_ENABLED=0 go build -o "$D/hextile" ./cmd/hextile || exit 1
  echo "$CONFIGS" | while read -r b k s; do
    [ -n "$b" ] || continue
    S=; [ "$s" = - ] || S="--sizes=$s"
    t=${b}_${k}_$(echo "${s}" | tr , x)
    for z in small full; do
      # shellcheck disable=SC2046
      if ! "$D/hextile" compile "$(src "$b")" --tile="$k" $S --target=ptx --arch=$SM $($z "$b") -o "$D/${t}_$z.ptx" 2>"$D/$t.err"; then
        echo "skip $t ($z): $(head -c 300 "$D/$t.err")"
        continue 2
      fi
    done
    echo "$b $k $s $t" >> "$D/list"
    echo "$t: $(grep -c '\.entry' "$D/${t}_full.ptx") kernel, $(grep -c 'ld\.shared\|st\.shared' "$D/${t}_full.ptx") shared-memory accesses in the PTX"
  done
  echo "now carry $D to the GPU machine and run: sh bench/llvm_ghost.sh run"
  ;;
run)
  [ -x "$D/hextile" ] && [ -f "$D/list" ] || { echo "no $D/list: run 'sh bench/llvm_ghost.sh prepare' where go and llc are, and carry $D" >&2; exit 2; }
  H=$D/hextile
  L=$OUT/logs
  mkdir -p "$L"
  : > "$OUT/table.txt"
  while read -r b k s t; do
    S=; [ "$s" = - ] || S="--sizes=$s"
    for be in ptx cuda; do
      P=; [ $be = ptx ] && P="--ptx=$D/${t}_small.ptx"
      # shellcheck disable=SC2046
      "$H" run "$(src "$b")" --tile="$k" $S --device=gpu --backend=$be $P --reps=0 $(small "$b") > "$L/${t}_${be}_verify.txt" 2>&1
      v=$(grep -o '^verify: [a-zA-Z]*' "$L/${t}_${be}_verify.txt" | head -n 1)
      P=; [ $be = ptx ] && P="--ptx=$D/${t}_full.ptx"
      # shellcheck disable=SC2046
      "$H" run "$(src "$b")" --tile="$k" $S --device=gpu --backend=$be $P --verify=false --reps="$REPS" $(full "$b") > "$L/${t}_${be}_time.txt" 2>&1
      kt=$(sed -n 's/^time-gpu-kernel: //p' "$L/${t}_${be}_time.txt" | head -n 1)
      gc=$(sed -n 's/^gcells-kernel: //p' "$L/${t}_${be}_time.txt" | head -n 1)
      echo "$t $be ${v:-verify: ERROR (see $L/${t}_${be}_verify.txt)} | kernel ${kt:-? (see $L/${t}_${be}_time.txt)} | GCells/s ${gc:-?}" | tee -a "$OUT/table.txt"
    done
  done < "$D/list"
  ;;
*)
  echo "usage: sh bench/llvm_ghost.sh prepare|run" >&2
  exit 2
  ;;
esac
