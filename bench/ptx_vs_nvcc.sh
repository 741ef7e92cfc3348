#!/bin/sh
# Issue 7 acceptance: the seven paper benchmarks through both GPU paths of
# hextile run --device=gpu, side by side:
#   ptx   LLVM IR -> opt -O3 -> llc -nvptx-short-ptr -disable-lsr (PTX) -> driver JIT, launched from Go
#   cuda  the CUDA C of compile --target=cuda --harness -> nvcc -O3
# Both time one warm-up and REPS runs (medians): kernel = events around all
# launches, total = allocation + copies in + kernels + copies back + frees.
# Both generate the same kernels and launches: the main comparison is both
# defaults (programmatic dependent launch on sm_90+, register reuse in full
# tiles; the PTX is llc's for its newest architecture, retargeted to sm_90
# by hextile when llc is older than LLVM 16, and every kernel starts with
# griddepcontrol.wait), the second row both with the features off (PTX
# compiled with --pdl=false --reuse=false, CUDA run with the same flags).
# Contraction: llc fuses no a*b+c by default (mul.rn/add.rn in the PTX) and
# nvcc runs with -fmad=false, so both paths compute bit-exactly what C does
# and are verified so. FMA=1 (default) also times a fused pair: llc
# -fp-contract=fast against nvcc -fmad=true (not bit-exact: unverified).
#
#   here:  sh bench/ptx_vs_nvcc.sh prepare   # needs go, llc, opt; writes .hxcmp/
#   there: sh bench/ptx_vs_nvcc.sh run       # repo root; needs libcuda, nvcc, cc,
#                                            # ptxas/cuobjdump (dump); no go, no llvm
#
# Carry .hxcmp to the GPU machine (an sm_90+ GPU: the default PTX uses
# griddepcontrol). run writes $OUT (default .hxcmp/out): table.txt (two
# lines per benchmark x schedule: on = defaults, off = features off),
# logs/, dump/ (gradient2d hybrid: llc PTX, nvcc PTX, SASS of both through
# ptxas -arch=$SM, ptxas -v resources, instruction counts per kernel; the
# features-off builds too). Sizes: the paper's (2-D 2048^2
# x 512, fdtd2d 2048x2048 x 512, 3-D 256^3 x 128) for timing, without the
# reference (--verify=false: the Go reference would take minutes); every
# configuration is verified bit for bit at a reduced size (odd, dividing no
# tile) through both paths first, in parallel.
set -u
cd "$(dirname "$0")/.." || exit 2
D=${HXCMP:-.hxcmp}
OUT=${OUT:-$D/out}
REPS=${REPS:-5}
FMA=${FMA:-1}
SM=${SM:-sm_90}
PLAIN="--pdl=false --reuse=false"
BENCHES=${BENCHES:-laplacian2d heat2d gradient2d fdtd2d laplacian3d heat3d gradient3d}
SCHEDS=${SCHEDS:-hybrid none}
# Extra configurations BENCH:SCHED:SIZES:BLOCK, where register reuse applies
# (the default tile sizes and blocks of the list above give it no full-tile
# loop it can block); EXTRA= for none.
EXTRA=${EXTRA-"gradient2d:none:3,64,64:64,8 laplacian2d:none:3,32,64:64,8"}
# configs: one line per configuration: BENCH SCHED TAG OPTIONS (- for none).
configs() {
  for b in $BENCHES; do for k in $SCHEDS; do echo "$b $k ${b}_$k -"; done; done
  for e in $EXTRA; do
    echo "$e" | { IFS=: read -r b k s bl; echo "$b $k ${b}_${k}_s$(echo "$s" | tr , x)_b$(echo "$bl" | tr , x) --sizes=$s --block=$bl"; }
  done
}
full() { case $1 in *3d) echo "-D N=256 -D T=128" ;; fdtd2d) echo "-D NX=2048 -D NY=2048 -D T=512" ;; *) echo "-D N=2048 -D T=512" ;; esac; }
small() { case $1 in *3d) echo "-D N=61 -D T=11" ;; fdtd2d) echo "-D NX=301 -D NY=257 -D T=23" ;; *) echo "-D N=387 -D T=29" ;; esac; }
# count RE FILE: lines of FILE matching RE, or - without FILE.
count() { if [ -f "$2" ]; then awk "/$1/ { n++ } END { print n + 0 }" "$2"; else echo -; fi; }
# field NAME FILE: the value of "NAME: value" (first word) in FILE, or -.
field() { v=$(sed -n "s/^$1: \([^ ]*\).*/\1/p" "$2" 2>/dev/null | head -n 1); echo "${v:--}"; }

case ${1:-} in
prepare)
  mkdir -p "$D" || exit 1
  rm -f "$D"/*.ptx "$D"/*.ll "$D"/list
  CGO_ENABLED=0 go build -o "$D/hextile" ./cmd/hextile || exit 1
  # The newest architecture this llc knows (sm_90 needs llc 16): the
  # features-off PTX and the fused pair's llc run for it; the default PTX is
  # for sm_90 (hextile compile --arch=sm_90 retargets llc's PTX when llc
  # does not know sm_90). The driver JIT-compiles the PTX for the GPU at hand.
  archs=$(llc -march=nvptx64 -mcpu=help 2>&1 | grep -o 'sm_[0-9]*' | sort -u)
  A=sm_80
  for a in sm_86 sm_87 sm_89 sm_90; do echo "$archs" | grep -qx "$a" && A=$a; done
  OPT=$(command -v opt || true)
  echo "llc: $(llc --version | grep -i version | head -n 1), -mcpu=$A"
  # retarget FILE: llc's PTX of an older architecture as sm_90 PTX (as
  # codegen.RetargetPTX does: .target sm_90, .version at least 7.8).
  retarget() {
    awk '/^\.version / { split($2, v, "."); if (v[1] + 0 < 7 || (v[1] + 0 == 7 && v[2] + 0 < 8)) $0 = ".version 7.8" }
      /^\.target sm_/ { sub(/sm_[0-9]+[a-z]?/, "sm_90") } { print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
  }
  configs > "$D/configs"
  while read -r b k t O; do
    [ "$O" = - ] && O=
    {
      # defaults: programmatic dependent launch and register reuse
      if ! "$D/hextile" compile "bench/inputs/$b.c" --tile=$k $O --target=ptx --arch=sm_90 -o "$D/$t.ptx" 2>"$D/$t.err"; then
        echo "skip $t: $(head -c 300 "$D/$t.err")"
        continue
      fi
      grep -q 'griddepcontrol\.wait' "$D/$t.ptx" && grep -q '^\.target sm_90' "$D/$t.ptx" || { echo "skip $t: $t.ptx has no programmatic dependent launch (griddepcontrol.wait, .target sm_90)"; continue; }
      # features off: the kernels and launches of the CUDA build with --pdl=false --reuse=false
      if ! "$D/hextile" compile "bench/inputs/$b.c" --tile=$k $O --target=ptx --arch=$A --pdl=false --reuse=false -o "$D/${t}_plain.ptx" 2>"$D/$t.err"; then
        echo "skip $t: $(head -c 300 "$D/$t.err")"
        continue
      fi
      if [ "$FMA" = 1 ]; then
        # The default module with contraction allowed (llc -fp-contract=fast).
        "$D/hextile" compile "bench/inputs/$b.c" --tile=$k $O --target=llvm --arch=sm_90 -o "$D/$t.ll" &&
          { if [ -n "$OPT" ]; then "$OPT" -O3 "$D/$t.ll" -o "$D/$t.bc"; else cp "$D/$t.ll" "$D/$t.bc"; fi; } &&
          llc -march=nvptx64 -mcpu=$A -O3 -nvptx-short-ptr -disable-lsr -fp-contract=fast "$D/$t.bc" -o "$D/${t}_fma.ptx" &&
          { [ "$A" = sm_90 ] || retarget "$D/${t}_fma.ptx"; } &&
          rm -f "$D/$t.bc" "$D/$t.ll" || echo "no FMA PTX for $t"
      fi
      echo "$b $k $t ${O:--}" >> "$D/list.new"
      echo "$t: $(count '\.entry' "$D/$t.ptx") kernel(s), $(count 'griddepcontrol\.wait' "$D/$t.ptx") wait(s), ld.global: $(count 'ld\.global' "$D/$t.ptx") (off: $(count 'ld\.global' "$D/${t}_plain.ptx")), fma.rn: $(count 'fma\.rn' "$D/$t.ptx") (fused PTX: $(count 'fma\.rn' "$D/${t}_fma.ptx"))"
    }
  done < "$D/configs"
  mv "$D/list.new" "$D/list" || exit 1
  echo "$A" > "$D/arch"
  du -sh "$D"
  echo "now carry $D to the GPU machine and run: sh bench/ptx_vs_nvcc.sh run"
  ;;
run)
  [ -x "$D/hextile" ] && [ -f "$D/list" ] || { echo "no $D/list: run 'sh bench/ptx_vs_nvcc.sh prepare' where go and llc are, and carry $D" >&2; exit 2; }
  command -v nvcc >/dev/null || { echo "nvcc not on PATH (add the CUDA toolkit's bin, e.g. export PATH=/usr/local/cuda/bin:\$PATH)" >&2; exit 2; }
  H=$D/hextile
  L=$OUT/logs
  B=$D/build
  mkdir -p "$L" "$B" "$OUT/dump"
  rm -f "$OUT/problems.txt" "$L"/*.one-by-one
  T0=$(date +%s)
  stamp() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
  { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1; nvcc --version | tail -n 2; echo "llc PTX: $(cat "$D/arch" 2>/dev/null)"; } > "$OUT/env.txt"
  cat "$OUT/env.txt"
  fail=0
  # vptx TAG PTX LOG: verify PTX at the reduced size; a failure of the
  # batched launches is retried with one launch per driver call, and the
  # configuration is then timed so (marker $L/TAG.one-by-one).
  vptx() {
    # shellcheck disable=SC2046
    "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=ptx --ptx "$2" $(small $b) --reps=0 > "$3" 2>&1 ||
      { mv "$3" "$3_batch"
        # shellcheck disable=SC2046
        "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=ptx --ptx "$2" $(small $b) --reps=0 --one-by-one > "$3" 2>&1 &&
          : > "$L/$1.one-by-one"; }
  }
  # tptx TAG PTX LOG: time PTX at the paper size.
  tptx() {
    P=; [ -f "$L/$1.one-by-one" ] && P=--one-by-one
    # shellcheck disable=SC2046,SC2086
    "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=ptx --ptx "$2" $(full $b) --verify=false --reps=$REPS $P > "$3" 2>&1
  }
  # 1. Verification at the reduced size, every configuration through both
  # paths, defaults and features off, in parallel (this also builds and
  # keeps every CUDA binary).
  stamp "verify (reduced size) and CUDA builds"
  while read -r b k t O; do
    [ "$O" = - ] && O=
    # shellcheck disable=SC2046
    { vptx "$t" "$D/$t.ptx" "$L/$t.verify.ptx"
      vptx "${t}_plain" "$D/${t}_plain.ptx" "$L/$t.verify.ptx_plain"
      "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM --keep "$B/$t" $(small $b) --reps=0 > "$L/$t.verify.cuda" 2>&1
      "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM $PLAIN --keep "$B/${t}_plain" $(small $b) --reps=0 > "$L/$t.verify.cuda_plain" 2>&1
      if [ "$FMA" = 1 ]; then
        "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM --fmad --keep "$B/${t}_fma" $(small $b) --reps=0 > "$L/$t.verify.cuda_fma" 2>&1
      fi; } &
  done < "$D/list"
  wait
  # 2. Timing at the paper size, one configuration at a time.
  stamp "timing (paper size, $REPS reps after a warm-up)"
  while read -r b k t O; do
    [ "$O" = - ] && O=
    tptx "$t" "$D/$t.ptx" "$L/$t.time.ptx"
    # shellcheck disable=SC2046
    "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM --keep "$B/$t" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda" 2>&1
    tptx "${t}_plain" "$D/${t}_plain.ptx" "$L/$t.time.ptx_plain"
    # shellcheck disable=SC2046
    "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM $PLAIN --keep "$B/${t}_plain" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda_plain" 2>&1
    if [ "$FMA" = 1 ] && [ -f "$D/${t}_fma.ptx" ]; then
      tptx "$t" "$D/${t}_fma.ptx" "$L/$t.time.ptx_fma"
      # shellcheck disable=SC2046
      "$H" run "bench/inputs/$b.c" --tile=$k $O --device=gpu --backend=cuda --arch=$SM --fmad --keep "$B/${t}_fma" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda_fma" 2>&1
    fi
    stamp "$t: on: ptx $(field time-gpu-kernel "$L/$t.time.ptx") s, cuda $(field time-gpu-kernel "$L/$t.time.cuda") s; off: ptx $(field time-gpu-kernel "$L/$t.time.ptx_plain") s, cuda $(field time-gpu-kernel "$L/$t.time.cuda_plain") s"
  done < "$D/list"
  # 3. The table: per configuration the defaults (on), then the features
  # off (off).
  {
    printf '%-32s %-6s %-4s %10s %10s %6s %8s %8s %10s %10s %-7s %-7s %-6s' config sched mode ptx_k_s cuda_k_s ratio ptx_GC/s cuda_GC/s ptx_tot_s cuda_tot_s vfy_ptx vfy_cuda ptxpdl
    [ "$FMA" = 1 ] && printf ' %10s %10s %6s %-8s' ptxfma_k_s cudafma_k_s ratio fma_diff
    echo
    while read -r b k t O; do
      for m in on off; do
        x=; [ $m = off ] && x=_plain
        pk=$(field time-gpu-kernel "$L/$t.time.ptx$x"); ck=$(field time-gpu-kernel "$L/$t.time.cuda$x")
        r=$(awk -v a="$pk" -v b="$ck" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
        vp=$(field verify "$L/$t.verify.ptx$x"); vc=$(field verify "$L/$t.verify.cuda$x")
        # whether the PTX run launched with programmatic dependent launch (its report)
        pp=no; grep -q '^device: .*; pdl,' "$L/$t.time.ptx$x" 2>/dev/null && pp=yes
        printf '%-32s %-6s %-4s %10s %10s %6s %8s %8s %10s %10s %-7s %-7s %-6s' "$t" "$k" "$m" "$pk" "$ck" "$r" \
          "$(field gcells-kernel "$L/$t.time.ptx$x")" "$(field gcells-kernel "$L/$t.time.cuda$x")" \
          "$(field time-gpu-total "$L/$t.time.ptx$x")" "$(field time-gpu-total "$L/$t.time.cuda$x")" "$vp" "$vc" "$pp"
        [ "$vp" = ok ] && [ "$vc" = ok ] || fail=1
        if [ "$FMA" = 1 ] && [ $m = on ]; then
          fk=$(field time-gpu-kernel "$L/$t.time.ptx_fma"); gk=$(field time-gpu-kernel "$L/$t.time.cuda_fma")
          fr=$(awk -v a="$fk" -v b="$gk" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
          printf ' %10s %10s %6s %-8s' "$fk" "$gk" "$fr" "$(field max-diff "$L/$t.verify.cuda_fma" 2>/dev/null)"
        fi
        echo
      done
    done < "$D/list"
    echo "ratio = ptx / cuda kernel time (medians of $REPS runs after a warm-up; < 1: PTX path faster)."
    echo "on: both defaults (programmatic dependent launch on sm_90+, register reuse in full tiles); off: --pdl=false --reuse=false (PTX compiled so). ptxpdl: the PTX run launched with programmatic stream serialization."
    for f in "$L"/*.one-by-one; do [ -f "$f" ] && echo "$(basename "$f" .one-by-one): batched launches failed (logs/*.verify.ptx*_batch), timed with --one-by-one"; done
    echo "vfy_*: bit-exact check against the original at the reduced size (llc default contraction vs nvcc -fmad=false)."
    [ "$FMA" = 1 ] && echo "*fma* (on rows): llc -fp-contract=fast vs nvcc -fmad=true, both defaults otherwise, unverified timing; fma_diff: max-diff of the fused CUDA build against the original at the reduced size."
  } > "$OUT/table.txt"
  # (the fused CUDA build is not bit-exact by design: its logs are not problems)
  for f in "$L"/*; do
    case $f in *.verify.cuda_fma | *.one-by-one) continue ;; esac
    grep -q "^verify: ok\|^verify: skipped" "$f" || { echo "== $(basename "$f")"; tail -n 3 "$f"; } >> "$OUT/problems.txt"
  done
  # 4. The disassembly of gradient2d hybrid for the PTX/CUDA comparison.
  stamp "dump"
  t=gradient2d_hybrid
  X=$OUT/dump
  if [ -f "$D/$t.ptx" ] && [ -d "$B/$t" ]; then
    cp "$D/$t.ptx" "$X/llc.ptx"
    cp "$D/${t}_plain.ptx" "$X/llc_plain.ptx"
    [ -f "$D/${t}_fma.ptx" ] && cp "$D/${t}_fma.ptx" "$X/llc_fma.ptx"
    for v in llc llc_plain; do
      ptxas -arch=$SM -O3 -v "$X/$v.ptx" -o "$X/$v.cubin" > "$X/$v.ptxas.txt" 2>&1
      cuobjdump -sass "$X/$v.cubin" > "$X/$v.sass" 2>&1
    done
    kf=$(ls "$B/$t"/*_kernel.cu | head -n 1)
    nvcc -O3 -arch=$SM -fmad=false -ptx "$kf" -o "$X/nvcc.ptx" > "$X/nvcc.ptx.log" 2>&1
    nvcc -O3 -arch=$SM -fmad=false -cubin -Xptxas -v "$kf" -o "$X/nvcc.cubin" > "$X/nvcc.ptxas.txt" 2>&1
    cuobjdump -sass "$X/nvcc.cubin" > "$X/nvcc.sass" 2>&1
    cp "$kf" "$X/"
    # the CUDA build with the features off, for reference
    kp=$(ls "$B/${t}_plain"/*_kernel.cu 2>/dev/null | head -n 1)
    if [ -n "$kp" ]; then
      nvcc -O3 -arch=$SM -fmad=false -cubin -Xptxas -v "$kp" -o "$X/nvcc_plain.cubin" > "$X/nvcc_plain.ptxas.txt" 2>&1
      cuobjdump -sass "$X/nvcc_plain.cubin" > "$X/nvcc_plain.sass" 2>&1
    fi
    # Instruction counts per kernel: PTX instructions (lines ending in ;
    # inside an .entry, declarations excluded) and SASS instructions with an
    # opcode histogram (modifiers stripped).
    for f in "$X/llc.ptx" "$X/nvcc.ptx" "$X/llc_plain.ptx"; do
      awk -v F="$(basename "$f")" '
        /\.entry/ { match($0, /\.entry[ \t]+[A-Za-z0-9_$]+/); k = substr($0, RSTART + 7, RLENGTH - 7); gsub(/[ \t]/, "", k); n[k] = 0; inside = 1 }
        inside && /;[ \t]*$/ && !/^[ \t]*\./ && !/^[ \t]*\/\// { n[k]++; op = $1; if (op ~ /^@/) op = $2; sub(/;$/, "", op); h[k "\t" op]++ }
        END { for (k in n) printf "%s %s: %d PTX instructions\n", F, k, n[k]; for (x in h) { split(x, p, "\t"); printf "%s %s   %-24s %d\n", F, p[1], p[2], h[x] } }' "$f" | sort
    done > "$X/counts.txt"
    for f in "$X/llc.sass" "$X/nvcc.sass" "$X/llc_plain.sass" "$X/nvcc_plain.sass"; do
      [ -f "$f" ] || continue
      awk -v F="$(basename "$f")" '
        /Function :/ { k = $NF; n[k] = 0 }
        /^[ \t]*\/\*[0-9a-f]+\*\// { line = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); split(line, w, /[ \t]+/); op = w[1]; if (op ~ /^@/) op = w[2]; sub(/;$/, "", op); split(op, q, "."); n[k]++; h[k "\t" q[1]]++ }
        END { for (k in n) printf "%s %s: %d SASS instructions\n", F, k, n[k]; for (x in h) { split(x, p, "\t"); printf "%s %s   %-10s %d\n", F, p[1], p[2], h[x] } }' "$f" | sort
    done >> "$X/counts.txt"
    grep -H "instructions\|registers" "$X/counts.txt" "$X/llc.ptxas.txt" "$X/nvcc.ptxas.txt" "$X/llc_plain.ptxas.txt" "$X/nvcc_plain.ptxas.txt" 2>/dev/null | sed "s#^$X/##"
  else
    echo "no gradient2d hybrid configuration: no dump"
  fi
  stamp "done"
  cat "$OUT/table.txt"
  [ -f "$OUT/problems.txt" ] && { echo "problems (last lines of each failing log):"; cat "$OUT/problems.txt"; }
  exit $fail
  ;;
*)
  echo "usage: sh bench/ptx_vs_nvcc.sh prepare|run" >&2
  exit 2
  ;;
esac
