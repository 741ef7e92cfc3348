#!/usr/bin/env bash
# Multi-GPU scaling of the distributed CUDA programs (hextile compile --target=cuda --distribute=P):
# AN5D's j2d5pt (16384^2) and star3d1r (1024^3), split along the outermost dimension over P GPUs, one
# process driving every GPU (ghost zones by cudaMemcpy3DPeerAsync once per band).
#
#   bash bench/multigpu.sh prepare   # here (go): devbuild/multigpu/ holds every generated program
#   bash bench/multigpu.sh run       # on the GPU machine (nvcc, cc; no Go needed), carrying devbuild/
#
# run, for every P up to the GPU count (nvidia-smi -L; at most 8):
#   1. verify: each P at a small size (j2d5pt 1024^2 x 16 steps, star3d1r 128^3 x 8), the GPUs'
#      result compared bit for bit with the original program on the CPU (nvcc -fmad=false, cc
#      -ffp-contract=off);
#   2. strong scaling: the full size over P GPUs;
#   3. weak scaling: the same block per GPU (j2d5pt 16384*sqrt(P) square, star3d1r 1024*cbrt(P) cube);
#   4. the single-GPU program of the same kernel (compile --target=cuda --harness, HX_VERIFY=0).
# and prints one table: GCells/s (interior cells x steps / wall time of the time loop), efficiency
# (strong: t1 / (P tP); weak: t1 / tP), and the halo-exchange time (the slowest band's exchange
# summed over bands, GPUs idle meanwhile) separately. Logs go to $OUT (default /tmp/hxmulti).
# Knobs (environment): STEPS2D (1000), STEPS3D (100), BAND2D (8), BAND3D (4), FLAGS ("--tile=hybrid"),
# PMAX (the GPU count), ARCH (sm_90), JOBS (parallel nvcc builds, 8), DIR (devbuild/multigpu: the programs;
# set it to keep two preparations, e.g. one per FLAGS, and run both in one device call).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hxmulti}
DIR=${DIR:-devbuild/multigpu}
STEPS2D=${STEPS2D:-1000}
STEPS3D=${STEPS3D:-100}
BAND2D=${BAND2D:-8}
BAND3D=${BAND3D:-4}
FLAGS=${FLAGS:---tile=hybrid}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-8}
J2D=testdata/real/an5d_j2d5pt.c
S3D=bench/inputs/an5d_star3d1r.c

# weak sizes: the interior edge n such that n^d / P is the 1-GPU block.
weak2d() { awk -v p="$1" 'BEGIN { printf "%d", 16384 * sqrt(p) + 0.5 }'; }
weak3d() { awk -v p="$1" 'BEGIN { printf "%d", 1024 * exp(log(p) / 3) + 0.5 }'; }

if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  HX=devbuild/hextile
  rm -rf "$DIR"
  mkdir -p "$DIR"
  gen() { # name file band dims n steps P [extra]
    local name=$1 file=$2 band=$3 n=$5 steps=$6 p=$7
    shift 7
    "$HX" compile "$file" --target=cuda --distribute="$p" --band="$band" $FLAGS "$@" \
      -D dimsize=$((n + 2)) -D timestep="$steps" -o "$DIR/$name" || { echo "multigpu: prepare $name failed" >&2; exit 1; }
  }
  for p in 1 2 4 8; do
    gen "j2d5pt_verify_P$p" $J2D "$BAND2D" 2 1024 16 "$p" --harness
    gen "star3d1r_verify_P$p" $S3D "$BAND3D" 3 128 8 "$p" --harness
    gen "j2d5pt_strong_P$p" $J2D "$BAND2D" 2 16384 "$STEPS2D" "$p"
    gen "star3d1r_strong_P$p" $S3D "$BAND3D" 3 1024 "$STEPS3D" "$p"
    if [ "$p" -gt 1 ]; then
      gen "j2d5pt_weak_P$p" $J2D "$BAND2D" 2 "$(weak2d "$p")" "$STEPS2D" "$p"
      gen "star3d1r_weak_P$p" $S3D "$BAND3D" 3 "$(weak3d "$p")" "$STEPS3D" "$p"
    fi
  done
  # the single-GPU hextile program of the same kernels
  "$HX" compile $J2D --target=cuda --harness $FLAGS -D dimsize=16386 -D timestep="$STEPS2D" -o "$DIR/j2d5pt_single" || exit 1
  "$HX" compile $S3D --target=cuda --harness $FLAGS -D dimsize=1026 -D timestep="$STEPS3D" -o "$DIR/star3d1r_single" || exit 1
  echo "multigpu: prepared $(ls "$DIR" | wc -l) programs in $DIR"
  exit 0
fi

if [ ! -d "$DIR" ]; then
  echo "multigpu: no $DIR: run 'bash bench/multigpu.sh prepare' where Go is, and carry devbuild/" >&2
  exit 2
fi
command -v nvcc >/dev/null 2>&1 || { echo "multigpu: no nvcc" >&2; exit 2; }
CC=${CC:-cc}
G=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$G" -ge 1 ] || { echo "multigpu: no GPU (nvidia-smi -L)" >&2; exit 2; }
PMAX=${PMAX:-$G}
[ "$PMAX" -gt 8 ] && PMAX=8
mkdir -p "$OUT"
echo "multigpu: $G GPU(s): $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
PS=""
for p in 1 2 4 8; do [ "$p" -le "$PMAX" ] && PS="$PS $p"; done

# build every program (in parallel, JOBS at a time)
build() { # dir -> dir/prog
  local d=$1 base
  base=$(ls "$d"/*_ref.c 2>/dev/null | head -1)
  if [ -n "$base" ] && ls "$d"/*_dist.cu >/dev/null 2>&1; then
    $CC -O2 -std=gnu99 -ffp-contract=off -I "$DIR" -c "$base" -o "$d/ref.o" &&
      nvcc -O3 -arch="$ARCH" -fmad=false -Xcompiler -fopenmp -o "$d/prog" "$d"/*_dist.cu "$d/ref.o" -lgomp -lm
  else # the single-GPU harness
    $CC -O2 -std=gnu99 -ffp-contract=off -I "$DIR" -c "$d"/*_ref.c -o "$d/ref.o" &&
      nvcc -O3 -arch="$ARCH" -fmad=false -o "$d/prog" "$d"/*_kernel.cu "$d"/*_host.cu "$d/ref.o" -lm
  fi
}
t0=$(date +%s)
n=0
for d in "$DIR"/*/; do
  d=${d%/}
  p=${d##*_P}
  case "$d" in *_P*) [ "$p" -le "$PMAX" ] || continue ;; esac
  build "$d" > "$OUT/build_$(basename "$d").log" 2>&1 &
  n=$((n + 1))
  if [ $((n % JOBS)) -eq 0 ]; then wait; fi
done
wait
echo "multigpu: built in $(( $(date +%s) - t0 )) s"

fail=0
# 1. verification
for s in j2d5pt star3d1r; do
  for p in $PS; do
    d=$DIR/${s}_verify_P$p
    log=$OUT/${s}_verify_P$p.log
    if [ ! -x "$d/prog" ]; then echo "$s verify P=$p: build failed: $(tail -3 "$OUT/build_${s}_verify_P$p.log")"; fail=1; continue; fi
    "$d/prog" verify > "$log" 2>&1
    rc=$?
    v=$(grep -m1 '^verify:' "$log" || echo "verify: (none)")
    echo "$s verify P=$p: rc=$rc $v"
    if [ "$rc" -ne 0 ] || [ "$v" != "verify: ok" ]; then fail=1; tail -3 "$log" | sed 's/^/    /'; fi
  done
done

# 2-4. timings
field() { grep -m1 "^$2:" "$1" | awk '{print $2}'; }
row() { # stencil kind P n steps dims log
  local s=$1 kind=$2 p=$3 n=$4 steps=$5 dims=$6 log=$7 t h cells g
  t=$(field "$log" time-distributed)
  h=$(field "$log" time-halo)
  if [ -z "$t" ]; then echo "| $s | $kind | $p | $n | failed: $(tail -1 "$log") |"; fail=1; return; fi
  cells=$(awk -v n="$n" -v d="$dims" -v s="$steps" 'BEGIN { printf "%.6e", (n ^ d) * s }')
  g=$(awk -v c="$cells" -v t="$t" 'BEGIN { printf "%.1f", c / t * 1e-9 }')
  echo "$s $kind $p $n $t $h $g" >> "$OUT/rows.txt"
}
: > "$OUT/rows.txt"
for s in j2d5pt star3d1r; do
  if [ $s = j2d5pt ]; then n1=16384 steps=$STEPS2D dims=2; else n1=1024 steps=$STEPS3D dims=3; fi
  for p in $PS; do
    d=$DIR/${s}_strong_P$p
    [ -x "$d/prog" ] || { echo "$s strong P=$p: build failed"; fail=1; continue; }
    timeout 300 "$d/prog" noverify > "$OUT/${s}_strong_P$p.log" 2>&1
    row $s strong "$p" $n1 "$steps" $dims "$OUT/${s}_strong_P$p.log"
    if [ "$p" -gt 1 ]; then
      d=$DIR/${s}_weak_P$p
      if [ $s = j2d5pt ]; then n=$(weak2d "$p"); else n=$(weak3d "$p"); fi
      [ -x "$d/prog" ] || { echo "$s weak P=$p: build failed"; fail=1; continue; }
      timeout 300 "$d/prog" noverify > "$OUT/${s}_weak_P$p.log" 2>&1
      row $s weak "$p" "$n" "$steps" $dims "$OUT/${s}_weak_P$p.log"
    fi
  done
  d=$DIR/${s}_single
  if [ -x "$d/prog" ]; then
    timeout 300 "$d/prog" HX_VERIFY=0 HX_REPS=1 > "$OUT/${s}_single.log" 2>&1
    echo "$s single-GPU hextile program (compile --target=cuda --harness, $FLAGS): $(grep -m1 '^gcells-kernel:' "$OUT/${s}_single.log") $(grep -m1 '^time-gpu-kernel:' "$OUT/${s}_single.log")"
  else
    echo "$s single-GPU program: build failed: $(tail -2 "$OUT/build_${s}_single.log")"
  fi
done

echo
echo "| stencil | scaling | GPUs | interior edge | steps | time (s) | halo (s) | halo share | GCells/s | GCells/s per GPU | efficiency |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk -v s2="$STEPS2D" -v s3="$STEPS3D" '
  { s=$1; k=$2; p=$3; n=$4; t=$5; h=$6; g=$7
    if (p == 1) { t1[s] = t }
    steps = (s == "j2d5pt") ? s2 : s3
    key = s " " k " " p
    line[NR] = s; kind[NR] = k; P[NR] = p; N[NR] = n; T[NR] = t; H[NR] = h; Gc[NR] = g; St[NR] = steps }
  END {
    for (i = 1; i <= NR; i++) {
      s = line[i]; e = "-"
      if (t1[s] > 0) e = sprintf("%.1f%%", 100 * (kind[i] == "weak" ? t1[s] / T[i] : t1[s] / (P[i] * T[i])))
      printf "| %s | %s | %d | %d | %d | %.4f | %.4f | %.1f%% | %s | %.1f | %s |\n", s, kind[i], P[i], N[i], St[i], T[i], H[i], 100 * H[i] / T[i], Gc[i], Gc[i] / P[i], e
    }
  }' "$OUT/rows.txt"
echo
echo "(P=1 rows are both the strong and the weak baseline; efficiency compares with them.)"
exit $fail
