#!/usr/bin/env bash
# The cost model's no-flag default against alternatives on the GPU (issue 15, item 2: the default within 10%
# of the best configuration, on every row of the benchmark table).
#
#   bash bench/model.sh prepare   # here (Go, llc): devbuild/hextile (static) and, per row, the PTX of the
#                                 # no-flag default (the model's choice), of the model's best candidate of each
#                                 # other kind and of fixed alternatives, at the timing size; the default's
#                                 # configuration also at a small size for a bit-exact check; devbuild/model/plan.txt
#   bash bench/model.sh run       # on the GPU machine (carry devbuild/): the small-size check of each default
#                                 # (verify: ok), then every PTX timed (hextile run --device=gpu --ptx, --verify=false,
#                                 # a warm-up and REPS runs, kernel GCells/s); a table to stdout and $OUT/model.tsv
#
# Rows (AN5D's stencils: codegen/gpumodel/testdata/an5d_*.c, j2d5pt and star3d1r from testdata/real and bench/inputs, dimsize = size + 2 radius):
#   laplacian2d, gradient2d 2048^2 x 512; laplacian3d 256^3 x 128; j2d5pt, j2d9pt, star2d2r, box2d1r 16384^2 x 1000;
#   star3d1r, star3d2r, box3d1r, j3d27pt 512^3 x 200; laplacian2d 1024^2 x 512; laplacian3d 128^3 x 128.
set -uo pipefail
cd "$(dirname "$0")/.."
HX=${HEXTILE:-./devbuild/hextile}
OUT=${OUT:-/tmp/hxmodel-out}
REPS=${REPS:-2}
ONLY=${ONLY:-.}          # run: a regular expression of the rows to measure (e.g. ONLY='j2d|star2d|box2d')
ARCH=sm_90
A=codegen/gpumodel/testdata
# name | file | timing sizes | small sizes (bit-exact check)
ROWS=(
  "laplacian2d_2048|testdata/laplacian2d.c|-D N=2048 -D T=512|-D N=301 -D T=23"
  "gradient2d_2048|testdata/gradient2d.c|-D N=2048 -D T=512|-D N=301 -D T=23"
  "laplacian3d_256|testdata/laplacian3d.c|-D N=256 -D T=128|-D N=45 -D T=9"
  "j2d5pt|testdata/real/an5d_j2d5pt.c|-D dimsize=16386 -D timestep=1000|-D dimsize=302 -D timestep=23"
  "j2d9pt|$A/an5d_j2d9pt.c|-D dimsize=16388 -D timestep=1000|-D dimsize=304 -D timestep=23"
  "star2d2r|$A/an5d_star2d2r.c|-D dimsize=16388 -D timestep=1000|-D dimsize=304 -D timestep=23"
  "box2d1r|testdata/real/an5d_box2d1r.c|-D dimsize=16386 -D timestep=1000|-D dimsize=302 -D timestep=23"
  "star3d1r|bench/inputs/an5d_star3d1r.c|-D dimsize=514 -D timestep=200|-D dimsize=47 -D timestep=9"
  "star3d2r|$A/an5d_star3d2r.c|-D dimsize=516 -D timestep=200|-D dimsize=49 -D timestep=9"
  "box3d1r|$A/an5d_box3d1r.c|-D dimsize=514 -D timestep=200|-D dimsize=47 -D timestep=9"
  "j3d27pt|$A/an5d_j3d27pt.c|-D dimsize=514 -D timestep=200|-D dimsize=47 -D timestep=9"
  "laplacian2d_1024|testdata/laplacian2d.c|-D N=1024 -D T=512|-D N=301 -D T=23"
  "laplacian3d_128|testdata/laplacian3d.c|-D N=128 -D T=128|-D N=45 -D T=9"
)
ALT2=("--tile=none --sizes=3,64,64 --block=64,8" "--tile=none --sizes=3,32,64 --block=64,8"
  "--tile=hybrid --sizes=11,23,128 --block=128,4 --shared" "--tile=hybrid --sizes=7,15,128 --block=128,4 --shared"
  "--tile=classical --sizes=11,16,128")
ALT3=("--tile=none --sizes=3,4,8,64 --block=64,4,2" "--tile=none --sizes=3,8,8,32 --block=32,4,4"
  "--tile=none --sizes=3,4,4,32 --block=32,4,4" "--tile=hybrid --sizes=3,7,8,32 --block=32,4,2 --shared")
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf devbuild/model && mkdir -p devbuild/model
  plan=devbuild/model/plan.txt
  : > "$plan"
  for r in "${ROWS[@]}"; do
    IFS='|' read -r name file sizes small <<< "$r"
    # shellcheck disable=SC2086
    dump=$(devbuild/hextile compile "$file" --dump=plan --arch=$ARCH $sizes) || exit 1
    chosen=$(printf '%s\n' "$dump" | sed -n 's/^  chosen: \(--[^:]*\): \([0-9.]*\) GCells.*/\1/p')
    echo "$name: model: $chosen"
    # The model's predictions, for the table: flags|GCells/s.
    printf '%s\n' "$dump" | sed -n 's/^  \(chosen\|runner-up [0-9]*\): \(--[^:]*\): \([0-9.]*\) GCells.*/\2|\3/p' > "devbuild/model/$name.pred"
    # The best runner-up of each kind the choice is not.
    others=$(printf '%s\n' "$dump" | sed -n 's/^  runner-up [0-9]*: \(--tile=[a-z]*\)\([^:]*\): .*/\1\2/p' | awk -v c="${chosen%% *}" '{k=$1} k!=c && !seen[k]++')
    if grep -q "dimsize=5\|N=256\|N=128" <<< "$sizes"; then alts=("${ALT3[@]}"); else alts=("${ALT2[@]}"); fi
    k=0
    declare -A done=()
    while IFS= read -r cfg; do
      [ -n "${done[$cfg]:-}" ] && continue
      done[$cfg]=1
      id="${name}_$k"
      # shellcheck disable=SC2086
      if [ "$k" = 0 ]; then
        devbuild/hextile compile "$file" --target=ptx --arch=$ARCH $sizes -o "devbuild/model/$id.ptx" || exit 1
        devbuild/hextile compile "$file" --target=ptx --arch=$ARCH $chosen $small -o "devbuild/model/${name}_check.ptx" || exit 1
        echo "$name|$file|$sizes|$small|$k|default|$chosen" >> "$plan"
      elif devbuild/hextile compile "$file" --target=ptx --arch=$ARCH $cfg $sizes -o "devbuild/model/$id.ptx" 2> "devbuild/model/$id.err"; then
        echo "$name|$file|$sizes|$small|$k|$cfg|$cfg" >> "$plan"
      else
        echo "  refused: $cfg: $(head -c 200 "devbuild/model/$id.err")"
        k=$((k - 1))
      fi
      k=$((k + 1))
    done < <(printf '%s\n' "$chosen" "$others" "${alts[@]}" | sed '/^$/d')
    unset done
  done
  du -sh devbuild
  exit 0
fi
[ -x "$HX" ] || { echo "model.sh: no $HX: run 'bash bench/model.sh prepare' here and carry devbuild/" >&2; exit 2; }
mkdir -p "$OUT"
tsv=$OUT/model.tsv
printf 'row\tconfig\tflags\tgcells_kernel\tpredicted\n' > "$tsv"
fail=0
while IFS='|' read -r name file sizes small k label flags; do
  grep -Eq "$ONLY" <<< "$name" || continue
  extra=$flags
  [ "$label" = default ] && extra=""
  if [ "$k" = 0 ]; then
    # shellcheck disable=SC2086
    chk=$("$HX" run "$file" --device=gpu --ptx="devbuild/model/${name}_check.ptx" --arch=$ARCH $flags $small --reps=0 2>&1)
    echo "$name check ($flags $small): $(grep -m1 '^verify' <<< "$chk")"
    grep -q '^verify: ok' <<< "$chk" || { fail=1; tail -3 <<< "$chk"; }
  fi
  # shellcheck disable=SC2086
  res=$("$HX" run "$file" --device=gpu --ptx="devbuild/model/${name}_$k.ptx" --arch=$ARCH $extra $sizes --verify=false --reps="$REPS" 2>&1)
  g=$(sed -n 's/^gcells-kernel: //p' <<< "$res")
  [ -z "$g" ] && { echo "$name $label: $(tail -2 <<< "$res")"; g=NA; }
  p=$(awk -F'|' -v f="$flags" '$1==f {print $2}' "devbuild/model/$name.pred")
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$flags" "$g" "${p:--}" | tee -a "$tsv"
done < devbuild/model/plan.txt
# Per row: the default against the best measured.
awk -F'\t' 'NR>1 && $4!="NA" { if ($2=="default") d[$1]=$4; if ($4>b[$1]) {b[$1]=$4; bf[$1]=$3}; if (!($1 in o)) {o[$1]=n++; r[n-1]=$1} }
  END { printf "\n| row | default GCells/s | best measured (flags) | default/best |\n|---|--:|---|--:|\n";
        for (i=0;i<n;i++) { x=r[i]; printf "| %s | %.1f | %.1f (%s) | %.2f |\n", x, d[x], b[x], bf[x], d[x]/b[x] } }' "$tsv"
exit $fail
