#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on hextile's newer GPU kernels at small sizes: the sweep kernel
# (steady state, ramp, prefetch, staged input, boundary boxes outlined and inline, resident-block floors, dynamic
# shared memory beyond 48 KB; 2-D and 3-D, sizes that
# do not divide the grid) and the chunked streaming hybrid kernel (--tile=hybrid --stream --stream-chunk:
# several hexagons, several chunks per hexagon, chunks smaller than the ghost zone). Two machines:
#
#   bash bench/sanitize.sh prepare   # here (Go): devbuild/hextile, the --harness CUDA programs in
#                                    # devbuild/sanitize/<name>/
#   bash bench/sanitize.sh run       # on the GPU machine (nvcc, gcc, compute-sanitizer), carrying
#                                    # devbuild/sanitize
#
# Each program is built with nvcc -O3 -arch=sm_90 -fmad=false (bit-exact with the C reference) and run
# under both tools; a line per (configuration, tool): exit status, the tool's summary and the harness's
# verify line. Expected: rc=0, "0 errors" / "0 hazards", "verify: ok". Logs in $OUT (default /tmp/hxsan).
# MATCH (extended regexp on the name) selects configurations; JOBS (default 4) runs that many at once.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hxsan}
MATCH=${MATCH:-.}
JOBS=${JOBS:-4}
ARCH=${ARCH:-sm_90}
D=devbuild/sanitize
J=testdata/real/an5d_j2d5pt.c
B2=testdata/real/an5d_box2d1r.c
S3=bench/inputs/an5d_star3d1r.c
# name | file | compile options | size (-D at generation, harness arguments at run)
CONFIGS=(
  "sweep_j2d5pt|$J|--tile=sweep --sizes=7,32,114|dimsize=301 timestep=23"
  "sweep_j2d5pt_fast|$J|--tile=sweep --sizes=7,32,114 --fast-math|dimsize=301 timestep=23"
  "sweep_j2d5pt_default|$J|--tile=sweep|dimsize=301 timestep=23"
  "sweep_j2d5pt_noramp|$J|--tile=sweep --sizes=7,32,114 --steady-ramp=false|dimsize=301 timestep=23"
  "sweep_j2d5pt_stage|$J|--tile=sweep --sizes=7,32,114 --sweep-stage-input=on|dimsize=301 timestep=23"
  "sweep_j2d5pt_m1|$J|--tile=sweep --sizes=7,32,114 --min-blocks=1|dimsize=301 timestep=23"
  "sweep_box2d1r|$B2|--tile=sweep --sizes=5,24,100|dimsize=203 timestep=17"
  "sweep_star3d1r|$S3|--tile=sweep --sizes=3,16,10,26|dimsize=61 timestep=9"
  "sweep_star3d1r_nostage|$S3|--tile=sweep --sizes=3,16,10,26 --sweep-stage-input=off|dimsize=61 timestep=9"
  "sweep_star3d1r_default|$S3|--tile=sweep|dimsize=45 timestep=9"
  "sweep_j2d5pt_nooutline|$J|--tile=sweep --sizes=7,32,114 --sweep-outline=false|dimsize=301 timestep=23"
  "sweep_j2d5pt_deep_dynamic|$J|--tile=sweep --sizes=15,64,482 --min-blocks=1|dimsize=1100 timestep=37"
  "sweep_lap2d_edge_mid|bench/inputs/laplacian2d.c|--tile=sweep --sizes=7,32,242 --sweep-edge=on|N=601 T=23"
  "sweep_j2d5pt_edge_mid_fast|$J|--tile=sweep --sizes=7,32,114 --sweep-edge=on --fast-math|dimsize=301 timestep=23"
  "sweep_star3d1r_edge_mid|$S3|--tile=sweep --sizes=3,16,10,26 --sweep-edge=on|dimsize=61 timestep=9"
  "sweep_star3d1r_s0edge|$S3|--tile=sweep --sizes=3,16,10,26 --sweep-edge=off|dimsize=61 timestep=9"
  "sweep_star3d2r_s0edge|testdata/real/an5d_star3d2r.c|--cpp -I testdata/real --tile=sweep --sizes=1,20,8,8 --sweep-edge=off|dimsize=47 timestep=9"
  "sweep_j2d5pt_s0edge_fast|$J|--tile=sweep --sizes=7,32,114 --sweep-edge=off --fast-math|dimsize=301 timestep=23"
  "sweep_box3d27_partial|testdata/partial/box3d27.c|--tile=sweep --sizes=1,16,10,26|N=61 T=9"
  "sweep_box3d27_partial_h3|testdata/partial/box3d27.c|--tile=sweep --sizes=3,16,10,26 --sweep-edge=off|N=61 T=9"
  "sweep_box2d1r_partial|$B2|--tile=sweep --sizes=5,24,100 --sweep-partial=on|dimsize=203 timestep=17"
  "sweep_wave2d_mod3_kill|testdata/kill/wave2d_mod3.c|--tile=sweep --sizes=3,8,16|N=60 T=13"
  "overlap_j2d5pt_kill|$J|--tile=overlapped|dimsize=101 timestep=19"
  "none_decay2d_divc|testdata/div/decay2d.c|--tile=none|N=60 T=60"
  "sweep_decay2d_divc|testdata/div/decay2d.c|--tile=sweep --sizes=3,8,16|N=60 T=60"
  "chunk_j2d5pt_c16_h3_w25|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=16 --sizes=3,25,64|dimsize=101 timestep=19"
  "chunk_j2d5pt_c40_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=40 --sizes=7,49,64|dimsize=203 timestep=21"
  "chunk_j2d5pt_c5_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=5 --sizes=7,49,64|dimsize=131 timestep=17"
  "chunk_j2d5pt_auto_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=auto --sizes=7,49,64|dimsize=301 timestep=19"
  "chunk_j2d5pt_c40_noregs|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=40 --reuse=false --sizes=7,49,64|dimsize=203 timestep=21"
  "chunk_laplacian2d_c32_h3_w25|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=32 --sizes=3,25,64|N=131 T=13"
)
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf "$D"
  mkdir -p "$D"
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name file opts size <<< "$c"
    [[ $name =~ $MATCH ]] || continue
    defs=$(for a in $size; do printf -- '-D %s ' "$a"; done)
    # shellcheck disable=SC2086
    devbuild/hextile compile "$file" --target=cuda --harness $opts $defs -o "$D/$name" 2> "$D/$name.gen.log" ||
      { echo "prepare: $name failed:"; cat "$D/$name.gen.log"; exit 1; }
    echo "$size" > "$D/$name/args"
  done
  du -sh "$D"
  exit 0
fi
mkdir -p "$OUT"
names=()
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts size <<< "$c"
  [[ $name =~ $MATCH ]] || continue
  d=$D/$name
  [ -d "$d" ] || { echo "run: $d missing: run 'bash bench/sanitize.sh prepare' here and carry $D"; exit 2; }
  names+=("$name")
  base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
  ( gcc -O2 -c "$d/${base}_ref.c" -o "$OUT/$name.ref.o" &&
    nvcc -O3 -arch="$ARCH" -fmad=false -lineinfo -o "$OUT/$name.bin" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$OUT/$name.ref.o" ) > "$OUT/$name.build.log" 2>&1 ||
    echo "BUILD FAILED $name (log $OUT/$name.build.log)" &
done
wait
# one configuration under one tool: its summary line into $OUT/NAME.TOOL.sum
san() {
  local name=$1 tool=$2 r rc
  # shellcheck disable=SC2046
  r=$(timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$OUT/$name.bin" $(cat "$D/$name/args") HX_REPS=0 2>&1); rc=$?
  echo "$r" > "$OUT/$name.$tool.log"
  echo "$name $tool rc=$rc $(echo "$r" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1) $(echo "$r" | grep -E '^verify' | head -1)" > "$OUT/$name.$tool.sum"
}
for name in "${names[@]}"; do
  [ -x "$OUT/$name.bin" ] || { echo "$name BUILD FAILED" > "$OUT/$name.memcheck.sum"; continue; }
  for tool in memcheck racecheck; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
    san "$name" "$tool" &
  done
done
wait
fail=0
for name in "${names[@]}"; do
  for tool in memcheck racecheck; do
    [ -f "$OUT/$name.$tool.sum" ] || continue
    cat "$OUT/$name.$tool.sum"
    grep -q 'rc=0 .*verify: ok' "$OUT/$name.$tool.sum" || fail=1
  done
done | tee "$OUT/sanitize.txt"
grep -qv 'rc=0 .*verify: ok' "$OUT/sanitize.txt" && fail=1
exit $fail
