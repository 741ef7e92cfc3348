#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck on the chunked streaming hybrid kernel (--tile=hybrid --stream
# --stream-chunk; gpuplan's hexchunk.go) at small sizes with several hexagons, several chunks per hexagon,
# steady steps and chunks smaller than the ghost zone, two machines:
#
#   bash bench/hexchunk_sanitize.sh prepare   # here (Go): devbuild/hextile, the --harness CUDA programs in
#                                             # devbuild/hexchunk_san/<name>/
#   bash bench/hexchunk_sanitize.sh run       # on the GPU machine (nvcc, gcc, compute-sanitizer), carrying
#                                             # devbuild/hexchunk_san
#
# Each program is built with nvcc -O3 -arch=sm_90 -fmad=false (bit-exact with the C reference) and run
# under both tools; a line per (configuration, tool): exit status, the tool's summary and the harness's
# verify line. Expected: rc=0, "0 errors" / "0 hazards", "verify: ok". Logs in $OUT (default /tmp/hxchunksan).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hxchunksan}
ARCH=${ARCH:-sm_90}
D=devbuild/hexchunk_san
# name | file | compile options | size (-D at generation, harness arguments at run)
CONFIGS=(
  "j2d5pt_c16_h3_w25|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=16 --sizes=3,25,64|dimsize=101 timestep=19"
  "j2d5pt_c40_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=40 --sizes=7,49,64|dimsize=203 timestep=21"
  "j2d5pt_c5_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=5 --sizes=7,49,64|dimsize=131 timestep=17"
  "j2d5pt_auto_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=auto --sizes=7,49,64|dimsize=301 timestep=19"
  "j2d5pt_c40_noregs|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=40 --reuse=false --sizes=7,49,64|dimsize=203 timestep=21"
  "laplacian2d_c32_h3_w25|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=32 --sizes=3,25,64|N=131 T=13"
)
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf "$D"
  mkdir -p "$D"
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name file opts size <<< "$c"
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
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts size <<< "$c"
  d=$D/$name
  [ -d "$d" ] || { echo "run: $d missing: run 'bash bench/hexchunk_sanitize.sh prepare' here and carry $D"; exit 2; }
  base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
  ( gcc -O2 -c "$d/${base}_ref.c" -o "$OUT/$name.ref.o" &&
    nvcc -O3 -arch="$ARCH" -fmad=false -lineinfo -o "$OUT/$name.bin" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$OUT/$name.ref.o" ) > "$OUT/$name.build.log" 2>&1 ||
    echo "BUILD FAILED $name (log $OUT/$name.build.log)" &
done
wait
fail=0
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts size <<< "$c"
  [ -x "$OUT/$name.bin" ] || { echo "$name BUILD FAILED"; fail=1; continue; }
  for tool in memcheck racecheck; do
    # shellcheck disable=SC2046
    r=$(timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$OUT/$name.bin" $(cat "$D/$name/args") HX_REPS=0 2>&1); rc=$?
    echo "$r" > "$OUT/$name.$tool.log"
    echo "$name $tool rc=$rc $(echo "$r" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1) $(echo "$r" | grep -E '^verify' | head -1)"
    [ $rc = 0 ] || fail=1
  done
done
exit $fail
