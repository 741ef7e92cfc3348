#!/usr/bin/env bash
# The persistent kernel (--persistent: one cooperative launch runs every time step, a grid barrier between
# steps) against the per-step launches of --tile=none on the H100, for grids whose buffers fit in L2
# (issue 15), two machines:
#
#   bash bench/persistent.sh prepare    # here (Go): devbuild/hextile, then the --harness CUDA programs of every
#                                       # configuration below in devbuild/persistent/<name>/ (and <name>.v/)
#   bash bench/persistent.sh run        # on the GPU machine (nvcc, gcc; no Go), carrying devbuild/persistent
#   ONLY=j2d5pt bash bench/persistent.sh run   # the configurations whose name starts with j2d5pt
#
# As bench/sweep.sh: each configuration is generated for the full size and for a small verification size
# (NAME.v), built with nvcc -O3 -arch=sm_90 -fmad=false (bit-exact with the C reference, gcc -O2); run
# verifies NAME.v first (the reference on the CPU), then times the full size (HX_VERIFY=0, median of REPS
# runs after a warm-up; kernel time from CUDA events) and prints GCells/s. The mode column says how the
# _persist rows ran: "persistent G" (G blocks in the cooperative launch, HX_PERSIST_VERBOSE=1), or
# "FELL BACK" when the device refused the cooperative launch (the per-step launches ran: the row then
# measures --tile=none). regs: the registers of the persistent kernel (_persist) or of the first kernel.
# PTX=1 (default) also prepares the PTX path: devbuild/hextile (a static Go binary) and each configuration's
# PTX (compile --target=ptx --arch=sm_90, llc here) at both sizes; run then adds a _ptx row per configuration
# through hextile run --device=gpu --backend=ptx --ptx=... (cuLaunchCooperativeKernel from Go for the
# _persist rows), verified bit for bit at the small size, timed at the full size without the reference.
# HX_PERSIST_BLOCKS=N in the environment of run caps the persistent grid at N blocks (default: every block
# the occupancy API says is resident, at most the largest launch's blocks): the barrier's cost against
# the parallelism, without generating again.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/hxpersist}
REPS=${REPS:-5}
ARCH=${ARCH:-sm_90}
ONLY=${ONLY:-}
D=devbuild/persistent
# name | file | compile options | full size (-D) | verification size (harness arguments)
CONFIGS=(
  "laplacian2d_2048_none|bench/inputs/laplacian2d.c|--tile=none|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_2048_persist|bench/inputs/laplacian2d.c|--tile=none --persistent|-D N=2048 -D T=512|N=301 T=23"
  "j2d5pt_1026_none|testdata/real/an5d_j2d5pt.c|--tile=none|-D dimsize=1026 -D timestep=4000|dimsize=301 timestep=23"
  "j2d5pt_1026_persist|testdata/real/an5d_j2d5pt.c|--tile=none --persistent|-D dimsize=1026 -D timestep=4000|dimsize=301 timestep=23"
  "j2d5pt_2050_none|testdata/real/an5d_j2d5pt.c|--tile=none|-D dimsize=2050 -D timestep=4000|dimsize=301 timestep=23"
  "j2d5pt_2050_persist|testdata/real/an5d_j2d5pt.c|--tile=none --persistent|-D dimsize=2050 -D timestep=4000|dimsize=301 timestep=23"
  "star3d1r_130_none|bench/inputs/an5d_star3d1r.c|--tile=none|-D dimsize=130 -D timestep=1000|dimsize=45 timestep=9"
  "star3d1r_130_persist|bench/inputs/an5d_star3d1r.c|--tile=none --persistent|-D dimsize=130 -D timestep=1000|dimsize=45 timestep=9"
)
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf "$D"
  mkdir -p "$D"
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name file opts full vsize <<< "$c"
    [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]] && continue
    # shellcheck disable=SC2086
    devbuild/hextile compile "$file" --target=cuda --harness $opts $full -o "$D/$name" 2> "$D/$name.gen.log" ||
      { echo "prepare: $name failed:"; cat "$D/$name.gen.log"; exit 1; }
    echo "$vsize" > "$D/$name/verify.args"
    vdefs=$(for a in $vsize; do printf -- '-D %s ' "$a"; done)
    # shellcheck disable=SC2086
    devbuild/hextile compile "$file" --target=cuda --harness $opts $vdefs -o "$D/$name.v" 2>> "$D/$name.gen.log" ||
      { echo "prepare: $name (verification size) failed:"; cat "$D/$name.gen.log"; exit 1; }
    if [ "${PTX:-1}" = 1 ]; then
      # shellcheck disable=SC2086
      { devbuild/hextile compile "$file" --target=ptx --arch="$ARCH" $opts $full -o "$D/$name.ptx" &&
        devbuild/hextile compile "$file" --target=ptx --arch="$ARCH" $opts $vdefs -o "$D/$name.v.ptx"; } 2>> "$D/$name.gen.log" ||
        { echo "prepare: $name (PTX) failed:"; cat "$D/$name.gen.log"; exit 1; }
    fi
  done
  du -sh "$D"
  exit 0
fi
mkdir -p "$OUT"
# Build all in parallel.
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts full vsize <<< "$c"
  [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]] && continue
  d=$D/$name
  [ -d "$d" ] || { echo "run: $d missing: run 'bash bench/persistent.sh prepare' here and carry devbuild/persistent"; exit 2; }
  base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
  ( gcc -O2 -c "$d/${base}_ref.c" -o "$OUT/$name.ref.o" &&
    nvcc -O3 -arch="$ARCH" -fmad=false -Xptxas -v -o "$OUT/$name.bin" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$OUT/$name.ref.o" ) > "$OUT/$name.build.log" 2>&1 ||
    echo "BUILD FAILED $name (log $OUT/$name.build.log)" &
  ( gcc -O2 -c "$d.v/${base}_ref.c" -o "$OUT/$name.v.ref.o" &&
    nvcc -O3 -arch="$ARCH" -fmad=false -o "$OUT/$name.v.bin" "$d.v/${base}_host.cu" "$d.v/${base}_kernel.cu" "$OUT/$name.v.ref.o" ) > "$OUT/$name.v.build.log" 2>&1 ||
    echo "BUILD FAILED $name verification program (log $OUT/$name.v.build.log)" &
done
wait
fail=0
printf "%-24s %-26s %-8s %10s %10s %-16s %s\n" config options verify gcells-k gcells-tot mode regs
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts full vsize <<< "$c"
  [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]] && continue
  bin=$OUT/$name.bin
  if [ ! -x "$bin" ]; then
    printf "%-24s %-26s %s\n" "$name" "$opts" "BUILD FAILED"; fail=1
  else
    # shellcheck disable=SC2046
    timeout 300 "$OUT/$name.v.bin" $(cat "$D/$name/verify.args") HX_REPS=0 > "$OUT/$name.verify.log" 2>&1
    v=$(grep -m1 '^verify:' "$OUT/$name.verify.log" | cut -c9- || true)
    [ "$v" = " ok" ] || fail=1
    HX_PERSIST_VERBOSE=1 timeout 300 "$bin" HX_VERIFY=0 HX_REPS="$REPS" > "$OUT/$name.time.log" 2>&1
    gk=$(grep -m1 '^gcells-kernel:' "$OUT/$name.time.log" | cut -d' ' -f2)
    gt=$(grep -m1 '^gcells-total:' "$OUT/$name.time.log" | cut -d' ' -f2)
    mode=per-step
    rs=$(grep -m1 -E 'Used [0-9]+ registers' "$OUT/$name.build.log" | sed -E 's/.*Used ([0-9]+) registers.*/\1/')
    if [[ "$opts" == *--persistent* ]]; then
      if grep -q 'per-step launches instead' "$OUT/$name.time.log" "$OUT/$name.verify.log"; then
        mode="FELL BACK"; fail=1
      else
        mode="persistent $(grep -m1 -oE 'hx_persist0: [0-9]+ blocks' "$OUT/$name.time.log" | grep -oE '[0-9]+ blocks' | cut -d' ' -f1)"
      fi
      rs=$(grep -A4 "Compiling entry function '_Z[0-9]*hx_persist" "$OUT/$name.build.log" | grep -m1 -oE 'Used [0-9]+ registers' | cut -d' ' -f2)
    fi
    printf "%-24s %-26s %-8s %10s %10s %-16s %s\n" "$name" "$opts" "${v:-none}" "${gk:--}" "${gt:--}" "$mode" "${rs:--}"
  fi
  # The PTX path (devbuild/hextile run --device=gpu --backend=ptx), where prepared.
  if [ -f "$D/$name.ptx" ] && [ -x devbuild/hextile ]; then
    # shellcheck disable=SC2013
    vdefs=$(for a in $(cat "$D/$name/verify.args"); do printf -- '-D %s ' "$a"; done)
    # shellcheck disable=SC2086
    timeout 300 devbuild/hextile run "$file" --device=gpu --backend=ptx --ptx="$D/$name.v.ptx" $opts $vdefs --reps=0 > "$OUT/$name.ptx.verify.log" 2>&1
    pv=$(grep -m1 '^verify:' "$OUT/$name.ptx.verify.log" | cut -c9- || true)
    [ "$pv" = " ok" ] || fail=1
    # shellcheck disable=SC2086
    timeout 300 devbuild/hextile run "$file" --device=gpu --backend=ptx --ptx="$D/$name.ptx" $opts $full --verify=false --reps="$REPS" > "$OUT/$name.ptx.time.log" 2>&1
    pk=$(grep -m1 -oE 'kernel [0-9.]+ GCells/s|gcells-kernel: [0-9.]+' "$OUT/$name.ptx.time.log" | grep -oE '[0-9.]+' | head -1)
    pmode=per-step
    if [[ "$opts" == *--persistent* ]]; then
      if grep -q 'persistent kernel' "$OUT/$name.ptx.time.log"; then pmode=persistent; else pmode="FELL BACK"; fail=1; fi
    fi
    printf "%-24s %-26s %-8s %10s %10s %-16s %s\n" "${name}_ptx" "$opts" "${pv:-none}" "${pk:--}" "(log)" "$pmode" "-"
  fi
done
exit $fail
