#!/usr/bin/env bash
# hextile CUDA benchmark on one GPU: builds, verifies, sanitizes and times every configuration that
# bench/gen.sh generated into .hxbench/ (hextile's hybrid, none and classical code, and ppcg's code from
# ../shared/peers/ppcg for the same benchmarks), all in one call.
#
#   bench/gen.sh                        # here: generate .hxbench/ (no GPU needed)
#   OUT=/tmp/out bash bench/gpu.sh      # there: needs nvcc, gcc, python3, compute-sanitizer
#
# Phases (PHASES="build verify sanitize time ppcg", default all):
#   build     gcc -O2 for the CPU reference; nvcc -O3 -arch=sm_90, once with -fmad=false (bit-exact
#             check) and once with FMA (timing); ptxas resource report kept
#   verify    -fmad=false builds against the original loop nest at a reduced size that divides no tile
#             and at the paper's size (2048^2 x 512, 256^3 x 128); the FMA builds at the reduced size
#             (max-diff reported)
#   sanitize  compute-sanitizer memcheck and racecheck on a small size of the default configurations
#   time      FMA builds, median of HX_REPS runs after a warm-up: kernel-only (CUDA events around the
#             launches) and total (allocation, copies in and out, kernels); laplacian2d/3d configurations
#             also at 16384^2 x 1000 and 512^3 x 200
#   ppcg      ppcg's plain/tuned builds (its README's flags), 3 runs each, median
# Writes $OUT/results.tsv, $OUT/table.md, $OUT/verify.txt, $OUT/sanitize.txt, $OUT/ptxas.txt, $OUT/logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${HXBENCH:-.hxbench}
OUT=${OUT:-/tmp/hxout}
W=${WORK:-/tmp/hxw}
NJ=${NJ:-16}
PHASES=${PHASES:-build verify sanitize time ppcg}
ONLY=${ONLY:-}   # regexp on the configuration tag
mkdir -p "$OUT" "$W"
export CUDA_MODULE_LOADING=EAGER
has() { [[ " $PHASES " == *" $1 "* ]]; }
T0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - T0 ))s] $*"; }

{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.limit --format=csv; nvcc --version | tail -2; gcc --version | head -1; } > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

tags=$(awk '{print $1}' "$B/list" | grep -E "${ONLY:-.}")
params_small() { case $1 in *3d*) echo "N=45 T=9" ;; fdtd2d*) echo "NX=301 NY=257 T=23" ;; *) echo "N=301 T=23" ;; esac; }
params_tiny() { case $1 in *3d*) echo "N=19 T=5" ;; fdtd2d*) echo "NX=45 NY=37 T=6" ;; *) echo "N=45 T=6" ;; esac; }
# *fix configurations: timing builds with the paper-size parameters as compile-time constants (-DHX_FIX_N=...).
fixflags() { case $1 in *fix) for kv in $(params_full "$1"); do echo "-DHX_FIX_${kv%%=*}=${kv#*=}"; done ;; esac; }
params_full() { case $1 in *3d*) echo "N=256 T=128" ;; fdtd2d*) echo "NX=2048 NY=2048 T=512" ;; *) echo "N=2048 T=512" ;; esac; }

if has build; then
  stamp build
  build_one() {
    tag=$1; d=$B/hx/$tag; o=$W/$tag; mkdir -p "$o"
    ref=$(ls "$d"/*_ref.c); base=$(basename "$ref" _ref.c)
    { gcc -O2 -c "$ref" -o "$o/ref.o" &&
      nvcc -O3 -arch=sm_90 -fmad=false -o "$o/exact" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$o/ref.o" &&
      nvcc -O3 -arch=sm_90 -Xptxas -v $(fixflags "$tag") -o "$o/fast" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$o/ref.o"; } > "$o/build.log" 2>&1 ||
      echo "BUILD FAILED $tag"
  }
  export -f build_one params_full fixflags; export B W
  echo $tags | tr ' ' '\n' | xargs -P "$NJ" -I{} bash -c 'build_one {}'
  for t in $tags; do echo "== $t"; grep -E "registers|spill|smem" "$W/$t/build.log" | grep -E "Used|spill" | sort -u; done > "$OUT/ptxas.txt"
  if has ppcg; then
    for d in $B/ppcg/*/*/; do
      b=$(basename "$(dirname "$d")"); c=$(basename "$d"); o=$W/ppcg_${b}_$c; mkdir -p "$o"
      extra=""; [ "$b" = j2d5pt_large ] && extra="-Xcompiler -mcmodel=medium"; [ "$c" = tuned2 ] && extra="$extra -maxrregcount=128"
      ( nvcc -O3 -arch=sm_90 $extra -o "$o/bin" "$d"/*_host_timed.cu "$d"/*_kernel.cu "$B/ppcg/warmup.cu" > "$o/build.log" 2>&1 || echo "BUILD FAILED ppcg $b $c" ) &
      while [ "$(jobs -r | wc -l)" -ge "$NJ" ]; do sleep 0.5; done
    done
    wait
  fi
  stamp built
fi

if has verify; then
  stamp verify
  : > "$OUT/verify.txt"
  for t in $tags; do
    for p in "$(params_small "$t")" "$(params_full "$t")"; do
      case "$p:$t" in *N=256*:*_d|*2048*:*_d|*N=45*|*N=301*|*NX=301*) ;; *) continue ;; esac
      r=$(timeout 300 "$W/$t/exact" $p HX_REPS=0 2>&1); rc=$?
      echo "$t exact $p rc=$rc $(echo "$r" | grep -E '^verify' | head -1) $(echo "$r" | grep -E 'max-diff|rel-error' | tr '\n' ' ')" >> "$OUT/verify.txt"
    done &
    while [ "$(jobs -r | wc -l)" -ge 8 ]; do sleep 0.5; done
  done
  wait
  for t in $tags; do
    p=$(params_small "$t")
    case $t in *fix) p=$(params_full "$t") ;; esac
    r=$(timeout 120 "$W/$t/fast" $p HX_REPS=0 2>&1); rc=$?
    echo "$t fma $p rc=$rc $(echo "$r" | grep -E '^verify' | head -1) $(echo "$r" | grep -E 'max-diff|rel-error' | tr '\n' ' ')" >> "$OUT/verify.txt"
  done
  sort -o "$OUT/verify.txt" "$OUT/verify.txt"
  echo "verify: -fmad=false builds: $(grep exact "$OUT/verify.txt" | grep -c 'verify: ok') bit-identical of $(grep -c exact "$OUT/verify.txt") runs"
  echo "verify: FMA builds: $(grep fma "$OUT/verify.txt" | awk '{for(i=1;i<=NF;i++) if($i=="rel-error:") print $(i+1)}' | awk '$1<1e-5' | wc -l) with relative L2 error < 1e-5 of $(grep -c fma "$OUT/verify.txt") runs"
  grep exact "$OUT/verify.txt" | grep -v 'verify: ok' | head -20
  stamp verified
fi

if has sanitize; then
  stamp sanitize
  : > "$OUT/sanitize.txt"
  for t in $tags; do
    case $t in *_d) ;; *) [[ $t =~ ${SAN_RE:-^$} ]] || continue ;; esac
    pt=$(params_tiny "$t")
    # shared-memory tiles and register reuse (full tiles only): big enough for full tiles
    case $t in fdtd2d*_s_*|fdtd2d*t32*) pt="NX=300 NY=257 T=10" ;; *3d*_s_*|*3d*_b*) pt="N=40 T=5" ;; *_s_*) pt="N=300 T=20" ;; *_t*) pt="N=300 T=10" ;; esac
    for tool in memcheck racecheck; do
      ( r=$(timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 "$W/$t/exact" $pt HX_REPS=0 2>&1); rc=$?
        echo "$t $tool rc=$rc $(echo "$r" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1) $(echo "$r" | grep -E '^verify' | head -1)" >> "$OUT/sanitize.txt" ) &
      while [ "$(jobs -r | wc -l)" -ge 6 ]; do sleep 0.5; done
    done
  done
  wait
  sort -o "$OUT/sanitize.txt" "$OUT/sanitize.txt"
  cat "$OUT/sanitize.txt"
  stamp sanitized
fi

: > "$W/times.tsv"
if has time; then
  stamp time
  for t in $tags; do
    for p in "$(params_full "$t")" L; do
      if [ "$p" = L ]; then
        case $t in *fix) continue ;; laplacian2d*) p="N=16384 T=1000" ;; laplacian3d*) p="N=512 T=200" ;; *) continue ;; esac
        reps=2
      else reps=${HX_REPS:-5}; fi
      r=$(timeout 240 "$W/$t/fast" $p HX_VERIFY=0 HX_REPS=$reps 2>&1); rc=$?
      k=$(echo "$r" | awk '/^time-gpu-kernel/{print $2}'); w=$(echo "$r" | awk '/^time-gpu-total/{print $2}')
      printf "hextile\t%s\t%s\t%s\t%s\t%s\n" "$t" "$p" "${k:-nan}" "${w:-nan}" "$rc" >> "$W/times.tsv"
      echo "$t $p rc=$rc kernel=$k total=$w"
    done
  done
  stamp timed
fi
if has ppcg; then
  stamp ppcg
  for o in $W/ppcg_*; do
    [ -x "$o/bin" ] || continue
    n=${o#$W/ppcg_}; c=${n##*_}; b=${n%_*}
    ks=(); ws=()
    for i in 1 2 3; do
      r=$(timeout 240 "$o/bin" 2>&1)
      ks+=("$(echo "$r" | awk '/^kernel_s/{print $2}')"); ws+=("$(echo "$r" | awk '/^time_s/{print $2}')")
    done
    k=$(printf "%s\n" "${ks[@]}" | sort -g | sed -n 2p); w=$(printf "%s\n" "${ws[@]}" | sort -g | sed -n 2p)
    case $b in *3d*|star3d1r_large) p="N=256 T=128" ;; fdtd2d) p="NX=2048 NY=2048 T=512" ;; *) p="N=2048 T=512" ;; esac
    [ "$b" = j2d5pt_large ] && p="N=16384 T=1000"; [ "$b" = star3d1r_large ] && p="N=512 T=200"
    printf "ppcg\t%s_%s\t%s\t%s\t%s\t0\n" "$b" "$c" "$p" "${k:-nan}" "${w:-nan}" >> "$W/times.tsv"
    echo "ppcg $b $c kernel=$k total=$w"
  done
  stamp ppcg-done
fi

python3 - "$W/times.tsv" "$OUT" <<'PY'
import sys, re
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip()]
flops = {'laplacian2d': 5, 'heat2d': 10, 'gradient2d': 15, 'fdtd2d': 11, 'laplacian3d': 7, 'heat3d': 15,
         'gradient3d': 21, 'j2d5pt_large': 5, 'star3d1r_large': 7}
def bench_of(tag):
    for b in sorted(flops, key=len, reverse=True):
        if tag.startswith(b + '_'):
            return b
    return tag
out = []
for who, tag, p, k, w, rc in rows:
    b = bench_of(tag)
    kv = dict(x.split('=') for x in p.split())
    T = int(kv['T'])
    if b == 'fdtd2d':
        cells = int(kv['NX']) * int(kv['NY']) * T
    elif '3d' in b:
        cells = (int(kv['N']) - 2) ** 3 * T
    else:
        cells = (int(kv['N']) - 2) ** 2 * T
    name = b
    if b in ('laplacian2d', 'j2d5pt_large') and kv['N'] == '16384': name = 'j2d5pt_large'
    if b in ('laplacian3d', 'star3d1r_large') and kv['N'] == '512': name = 'star3d1r_large'
    conf = tag[len(b) + 1:]
    try:
        kf, wf = float(k), float(w)
        gk, gw = cells / kf / 1e9, cells / wf / 1e9
    except ValueError:
        kf = wf = gk = gw = float('nan')
    out.append((name, who, conf, p, kf, wf, gk, gw, gk * flops[b], gw * flops[b], rc))
out.sort(key=lambda r: (r[0], r[1], -r[6] if r[6] == r[6] else 0))
with open(sys.argv[2] + '/results.tsv', 'w') as f:
    f.write('bench\tcompiler\tconfig\tsize\tkernel_s\ttotal_s\tgcells_kernel\tgcells_total\tgflops_kernel\tgflops_total\trc\n')
    for r in out:
        f.write('\t'.join(str(x) for x in r) + '\n')
lines = ['| bench | compiler | config | size | kernel s | total s | GCells/s kernel | GCells/s total | GFLOPS kernel | GFLOPS total |',
         '|---|---|---|---|--:|--:|--:|--:|--:|--:|']
for r in out:
    lines.append('| %s | %s | %s | %s | %.4f | %.4f | %.1f | %.1f | %.0f | %.0f |' % r[:10])
best = {}
for r in out:
    key = (r[0], r[1])
    if r[6] == r[6] and (key not in best or r[6] > best[key][6]):
        best[key] = r
lines += ['', '| bench | hextile best (config) kernel / total GCells/s | ppcg best (config) kernel / total GCells/s | ratio kernel |', '|---|---|---|--:|']
for b in sorted({r[0] for r in out}):
    h, p = best.get((b, 'hextile')), best.get((b, 'ppcg'))
    fmt = lambda r: '%.1f / %.1f (%s)' % (r[6], r[7], r[2]) if r else '-'
    ratio = '%.2f' % (h[6] / p[6]) if h and p else '-'
    lines.append('| %s | %s | %s | %s |' % (b, fmt(h), fmt(p), ratio))
open(sys.argv[2] + '/table.md', 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
tar czf "$OUT/logs.tgz" -C "$W" $(cd "$W" && ls -d */build.log times.tsv 2>/dev/null) 2>/dev/null
stamp done
