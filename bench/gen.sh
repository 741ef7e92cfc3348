#!/usr/bin/env bash
# Generates everything bench/gpu.sh needs into .hxbench/ (ignored by git, carried to the GPU machine):
#   .hxbench/hx/<bench>_<schedule>_<variant>/   hextile's CUDA (+ harness) for one configuration
#   .hxbench/ppcg/<bench>/<config>/               ppcg's generated code (../shared/peers/ppcg), best configurations
#   .hxbench/list                                 one line per hextile configuration: tag bench schedule sizes block
# Usage: bench/gen.sh [hextile binary]   (run from the repository root; no GPU needed)
set -euo pipefail
cd "$(dirname "$0")/.."
HX=${1:-/tmp/hextile-bench}
[ -x "$HX" ] || go build -o "$HX" ./cmd/hextile
PPCG=${PPCG_DIR:-../shared/peers/ppcg}
[ -d "$PPCG" ] || PPCG=/work/shared/peers/ppcg
rm -rf .hxbench && mkdir -p .hxbench/hx .hxbench/ppcg
: > .hxbench/list
# configuration list: bench schedule variant sizes block
cat bench/configs.txt | grep -v '^#' | grep -v '^$' | while read -r bench sched variant sizes block extra; do
  tag=${bench}_${sched}_${variant}
  args=(compile "bench/inputs/$bench.c" --target=cuda --harness -o ".hxbench/hx/$tag" --tile="$sched")
  [ "$sizes" != "-" ] && args+=(--sizes="$sizes")
  [ "$block" != "-" ] && args+=(--block="$block")
  [ -n "${extra:-}" ] && args+=($extra)
  if "$HX" "${args[@]}" 2> ".hxbench/hx/$tag.err"; then
    echo "$tag $bench $sched $sizes $block" >> .hxbench/list
    rm -f ".hxbench/hx/$tag.err"
  else
    echo "gen: $tag failed: $(cat .hxbench/hx/$tag.err)" >&2
  fi
done
# ppcg: the best configuration of every row of its README, plus plain everywhere.
for b in laplacian2d heat2d gradient2d fdtd2d laplacian3d heat3d gradient3d j2d5pt_large star3d1r_large; do
  for c in plain tuned tuned2; do
    src=$PPCG/generated/$b/$c
    [ -d "$src" ] || continue
    case "$b:$c" in *:plain|fdtd2d:tuned|j2d5pt_large:tuned|star3d1r_large:tuned2|laplacian3d:tuned2) ;; *) continue ;; esac
    mkdir -p ".hxbench/ppcg/$b/$c"
    cp "$src"/*_host_timed.cu "$src"/*.hu ".hxbench/ppcg/$b/$c/"
    for f in "$src"/*_kernel.cu "$src"/*_kernel.cu.xz; do
      [ -f "$f" ] || continue
      case "$f" in *.xz) xz -dc "$f" > ".hxbench/ppcg/$b/$c/$(basename "${f%.xz}")" ;; *) cp "$f" ".hxbench/ppcg/$b/$c/" ;; esac
    done
  done
done
cp "$PPCG/tools/warmup.cu" .hxbench/ppcg/
cp bench/gpu.sh .hxbench/
du -sh .hxbench
wc -l < .hxbench/list
