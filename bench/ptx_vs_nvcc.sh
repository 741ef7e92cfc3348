#!/bin/sh
# Issue 7 acceptance: the seven paper benchmarks through both GPU paths of
# hextile run --device=gpu, side by side:
#   ptx   LLVM IR -> opt -O3 -> llc (PTX) -> driver JIT, launched from Go
#   cuda  the CUDA C of compile --target=cuda --harness -> nvcc -O3
# Both time one warm-up and REPS runs (medians): kernel = events around all
# launches, total = allocation + copies in + kernels + copies back + frees.
# Same code: the CUDA build runs with --pdl=false --reuse=false (the LLVM
# kernels have no register reuse and are launched without programmatic
# dependent launch); the table also times the CUDA default (pdl, reuse).
# Contraction: llc fuses no a*b+c by default (mul.rn/add.rn in the PTX) and
# nvcc runs with -fmad=false, so both paths compute bit-exactly what C does
# and are verified so. FMA=1 (default) also times a fused pair: llc
# -fp-contract=fast against nvcc -fmad=true (not bit-exact: unverified).
#
#   here:  sh bench/ptx_vs_nvcc.sh prepare   # needs go, llc, opt; writes .hxcmp/
#   there: sh bench/ptx_vs_nvcc.sh run       # repo root; needs libcuda, nvcc, cc,
#                                            # ptxas/cuobjdump (dump); no go, no llvm
#
# Carry .hxcmp to the GPU machine. run writes $OUT (default .hxcmp/out):
# table.txt (one line per benchmark x schedule), logs/, dump/ (gradient2d
# hybrid: llc PTX, nvcc PTX, SASS of both through ptxas -arch=$SM, ptxas -v
# resources, instruction counts per kernel). Sizes: the paper's (2-D 2048^2
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
  # The newest architecture this llc knows (sm_90 needs llc 16); the
  # driver JIT-compiles the PTX for the GPU at hand.
  archs=$(llc -march=nvptx64 -mcpu=help 2>&1 | grep -o 'sm_[0-9]*' | sort -u)
  A=sm_80
  for a in sm_86 sm_87 sm_89 sm_90; do echo "$archs" | grep -qx "$a" && A=$a; done
  OPT=$(command -v opt || true)
  echo "llc: $(llc --version | grep -i version | head -n 1), -mcpu=$A"
  for b in $BENCHES; do
    for k in $SCHEDS; do
      t=${b}_$k
      if ! "$D/hextile" compile "bench/inputs/$b.c" --tile=$k --target=ptx --arch=$A -o "$D/$t.ptx" 2>"$D/$t.err"; then
        echo "skip $t: $(head -c 300 "$D/$t.err")"
        continue
      fi
      if [ "$FMA" = 1 ]; then
        # The same module with contraction allowed (llc -fp-contract=fast).
        "$D/hextile" compile "bench/inputs/$b.c" --tile=$k --target=llvm -o "$D/$t.ll" &&
          { if [ -n "$OPT" ]; then "$OPT" -O3 "$D/$t.ll" -o "$D/$t.bc"; else cp "$D/$t.ll" "$D/$t.bc"; fi; } &&
          llc -march=nvptx64 -mcpu=$A -O3 -fp-contract=fast "$D/$t.bc" -o "$D/${t}_fma.ptx" &&
          rm -f "$D/$t.bc" "$D/$t.ll" || echo "no FMA PTX for $t"
      fi
      echo "$b $k" >> "$D/list.new"
      echo "$t: $(count '\.entry' "$D/$t.ptx") kernel(s), fma.rn: $(count 'fma\.rn' "$D/$t.ptx") (fused PTX: $(count 'fma\.rn' "$D/${t}_fma.ptx"))"
    done
  done
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
  # 1. Verification at the reduced size, every configuration through both
  # paths, in parallel (this also builds and keeps every CUDA binary).
  stamp "verify (reduced size) and CUDA builds"
  while read -r b k; do
    t=${b}_$k
    # shellcheck disable=SC2046
    { "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=ptx --ptx "$D/$t.ptx" $(small $b) --reps=0 > "$L/$t.verify.ptx" 2>&1 ||
        { # a failure of the batched launches: try one launch per driver call, and time so if that passes
          mv "$L/$t.verify.ptx" "$L/$t.verify.ptx_batch"
          "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=ptx --ptx "$D/$t.ptx" $(small $b) --reps=0 --one-by-one > "$L/$t.verify.ptx" 2>&1 &&
            : > "$L/$t.one-by-one"; }
      "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM $PLAIN --keep "$B/$t" $(small $b) --reps=0 > "$L/$t.verify.cuda" 2>&1
      "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM --keep "$B/${t}_dflt" $(small $b) --reps=0 > "$L/$t.verify.cuda_dflt" 2>&1
      if [ "$FMA" = 1 ]; then
        "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM $PLAIN --fmad --keep "$B/${t}_fma" $(small $b) --reps=0 > "$L/$t.verify.cuda_fma" 2>&1
      fi; } &
  done < "$D/list"
  wait
  # 2. Timing at the paper size, one configuration at a time.
  stamp "timing (paper size, $REPS reps after a warm-up)"
  while read -r b k; do
    t=${b}_$k
    # shellcheck disable=SC2046
    P=; [ -f "$L/$t.one-by-one" ] && P=--one-by-one
    # shellcheck disable=SC2086
    "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=ptx --ptx "$D/$t.ptx" $(full $b) --verify=false --reps=$REPS $P > "$L/$t.time.ptx" 2>&1
    # shellcheck disable=SC2046
    "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM $PLAIN --keep "$B/$t" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda" 2>&1
    # shellcheck disable=SC2046
    "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM --keep "$B/${t}_dflt" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda_dflt" 2>&1
    if [ "$FMA" = 1 ] && [ -f "$D/${t}_fma.ptx" ]; then
      # shellcheck disable=SC2046
      "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=ptx --ptx "$D/${t}_fma.ptx" $(full $b) --verify=false --reps=$REPS $P > "$L/$t.time.ptx_fma" 2>&1
      # shellcheck disable=SC2046
      "$H" run "bench/inputs/$b.c" --tile=$k --device=gpu --backend=cuda --arch=$SM $PLAIN --fmad --keep "$B/${t}_fma" $(full $b) --verify=false --reps=$REPS > "$L/$t.time.cuda_fma" 2>&1
    fi
    stamp "$t: ptx $(field time-gpu-kernel "$L/$t.time.ptx") s, cuda $(field time-gpu-kernel "$L/$t.time.cuda") s"
  done < "$D/list"
  # 3. The table.
  {
    printf '%-12s %-6s %10s %10s %6s %8s %8s %10s %10s %-7s %-7s %10s %-7s' bench sched ptx_k_s cuda_k_s ratio ptx_GC/s cuda_GC/s ptx_tot_s cuda_tot_s vfy_ptx vfy_cuda dflt_k_s vfy_dflt
    [ "$FMA" = 1 ] && printf ' %10s %10s %6s %-8s' ptxfma_k_s cudafma_k_s ratio fma_diff
    echo
    while read -r b k; do
      t=${b}_$k
      pk=$(field time-gpu-kernel "$L/$t.time.ptx"); ck=$(field time-gpu-kernel "$L/$t.time.cuda")
      r=$(awk -v a="$pk" -v b="$ck" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
      vp=$(field verify "$L/$t.verify.ptx"); vc=$(field verify "$L/$t.verify.cuda")
      printf '%-12s %-6s %10s %10s %6s %8s %8s %10s %10s %-7s %-7s' "$b" "$k" "$pk" "$ck" "$r" \
        "$(field gcells-kernel "$L/$t.time.ptx")" "$(field gcells-kernel "$L/$t.time.cuda")" \
        "$(field time-gpu-total "$L/$t.time.ptx")" "$(field time-gpu-total "$L/$t.time.cuda")" "$vp" "$vc"
      vd=$(field verify "$L/$t.verify.cuda_dflt")
      printf ' %10s %-7s' "$(field time-gpu-kernel "$L/$t.time.cuda_dflt")" "$vd"
      [ "$vp" = ok ] && [ "$vc" = ok ] && [ "$vd" = ok ] || fail=1
      if [ "$FMA" = 1 ]; then
        fk=$(field time-gpu-kernel "$L/$t.time.ptx_fma"); gk=$(field time-gpu-kernel "$L/$t.time.cuda_fma")
        fr=$(awk -v a="$fk" -v b="$gk" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
        printf ' %10s %10s %6s %-8s' "$fk" "$gk" "$fr" "$(field max-diff "$L/$t.verify.cuda_fma" 2>/dev/null)"
      fi
      echo
    done < "$D/list"
    echo "ratio = ptx / cuda kernel time (medians of $REPS runs after a warm-up; < 1: PTX path faster)."
    echo "cuda_*: --pdl=false --reuse=false (the same kernels and launches as the PTX path); dflt: the CUDA default (programmatic dependent launch, register reuse)."
    for f in "$L"/*.one-by-one; do [ -f "$f" ] && echo "$(basename "$f" .one-by-one): batched launches failed (logs/*.verify.ptx_batch), timed with --one-by-one"; done
    echo "vfy_*: bit-exact check against the original at the reduced size (llc default contraction vs nvcc -fmad=false)."
    [ "$FMA" = 1 ] && echo "*fma*: llc -fp-contract=fast vs nvcc -fmad=true, unverified timing; fma_diff: max-diff of the fused CUDA build against the original at the reduced size."
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
    [ -f "$D/${t}_fma.ptx" ] && cp "$D/${t}_fma.ptx" "$X/llc_fma.ptx"
    ptxas -arch=$SM -O3 -v "$X/llc.ptx" -o "$X/llc.cubin" > "$X/llc.ptxas.txt" 2>&1
    cuobjdump -sass "$X/llc.cubin" > "$X/llc.sass" 2>&1
    kf=$(ls "$B/$t"/*_kernel.cu | head -n 1)
    nvcc -O3 -arch=$SM -fmad=false -ptx "$kf" -o "$X/nvcc.ptx" > "$X/nvcc.ptx.log" 2>&1
    nvcc -O3 -arch=$SM -fmad=false -cubin -Xptxas -v "$kf" -o "$X/nvcc.cubin" > "$X/nvcc.ptxas.txt" 2>&1
    cuobjdump -sass "$X/nvcc.cubin" > "$X/nvcc.sass" 2>&1
    cp "$kf" "$X/"
    # the CUDA default (pdl, register reuse) for reference
    kd=$(ls "$B/${t}_dflt"/*_kernel.cu 2>/dev/null | head -n 1)
    if [ -n "$kd" ]; then
      nvcc -O3 -arch=$SM -fmad=false -cubin -Xptxas -v "$kd" -o "$X/nvcc_dflt.cubin" > "$X/nvcc_dflt.ptxas.txt" 2>&1
      cuobjdump -sass "$X/nvcc_dflt.cubin" > "$X/nvcc_dflt.sass" 2>&1
    fi
    # Instruction counts per kernel: PTX instructions (lines ending in ;
    # inside an .entry, declarations excluded) and SASS instructions with an
    # opcode histogram (modifiers stripped).
    for f in "$X/llc.ptx" "$X/nvcc.ptx"; do
      awk -v F="$(basename "$f")" '
        /\.entry/ { match($0, /\.entry[ \t]+[A-Za-z0-9_$]+/); k = substr($0, RSTART + 7, RLENGTH - 7); gsub(/[ \t]/, "", k); n[k] = 0; inside = 1 }
        inside && /;[ \t]*$/ && !/^[ \t]*\./ && !/^[ \t]*\/\// { n[k]++; op = $1; if (op ~ /^@/) op = $2; sub(/;$/, "", op); h[k "\t" op]++ }
        END { for (k in n) printf "%s %s: %d PTX instructions\n", F, k, n[k]; for (x in h) { split(x, p, "\t"); printf "%s %s   %-24s %d\n", F, p[1], p[2], h[x] } }' "$f" | sort
    done > "$X/counts.txt"
    for f in "$X/llc.sass" "$X/nvcc.sass" "$X/nvcc_dflt.sass"; do
      [ -f "$f" ] || continue
      awk -v F="$(basename "$f")" '
        /Function :/ { k = $NF; n[k] = 0 }
        /^[ \t]*\/\*[0-9a-f]+\*\// { line = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); split(line, w, /[ \t]+/); op = w[1]; if (op ~ /^@/) op = w[2]; sub(/;$/, "", op); split(op, q, "."); n[k]++; h[k "\t" q[1]]++ }
        END { for (k in n) printf "%s %s: %d SASS instructions\n", F, k, n[k]; for (x in h) { split(x, p, "\t"); printf "%s %s   %-10s %d\n", F, p[1], p[2], h[x] } }' "$f" | sort
    done >> "$X/counts.txt"
    grep -H "instructions\|registers" "$X/counts.txt" "$X/llc.ptxas.txt" "$X/nvcc.ptxas.txt" "$X/nvcc_dflt.ptxas.txt" 2>/dev/null | sed "s#^$X/##"
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
