#!/usr/bin/env bash
# The CUDA sweep kernel (--tile=sweep) and the overlapped kernel (--tile=overlapped, the _overlap rows;
# not yet run on the GPU) against --tile=none on the H100, two machines:
#
#   bash bench/sweep.sh prepare     # here (Go): devbuild/hextile, then the --harness CUDA programs of every
#                                   # configuration below in devbuild/sweep/<name>/
#   bash bench/sweep.sh run         # on the GPU machine (nvcc, gcc; no Go), carrying devbuild/sweep
#   FAST=1 bash bench/sweep.sh run  # the same programs built with nvcc --use_fast_math (not bit-exact:
#                                   # the verify column then shows the relative L2 error)
#
# Each configuration is generated twice with the same flags: for the full size (-D values: the width
# decision and the harness's defaults) and for the verification size (NAME.v: a #define-sized input's
# kernels are built for its -D values), and built with nvcc -O3 -arch=sm_90 -fmad=false (bit-exact with
# the C reference, built by gcc -O2). run first verifies each configuration at the small size that
# divides no tile size (the NAME.v program, the reference on the CPU), then times the full-size program (HX_VERIFY=0, median of REPS runs
# after a warm-up; kernel time from CUDA events) and prints GCells/s (gcells-kernel: cell updates of the
# original program / kernel time). Logs in $OUT (default /tmp/hxsweep). The _noregs rows turn the column
# registers off (--reuse=false: every read of a level from shared memory, fewer registers per thread).
# The _nosteady rows turn the sweep kernel's steady state off (--steady=false: every step of every box
# runs the generic code with its guards), the _nounroll rows keep it without unrolling it by the buffer
# depth (--steady-unroll=false: run-time buffer slots); the plain _sweep rows have both (the default).
# The _noprefetch rows turn off the steady state's prefetch of level 0's band-start inputs of the next step
# before the barrier (--sweep-prefetch=false; on in the plain _sweep rows), the _ring rows add the
# own-column register ring (--sweep-ring: one own-column load per step instead of one per read), the
# _pflate rows issue the prefetch after the last level instead of right after level 0
# (--sweep-prefetch-late: fewer live registers, less overlap).
# The _noramp rows keep the pipeline's fill and drain of interior boxes on the generic step
# (--steady-ramp=false, the kernel as measured before the ramp); the plain _sweep rows run all of an interior
# box's steps steady (gpuplan's sweep_ramp.go). box2d1r is AN5D's 9-point box (testdata/real/an5d_box2d1r.c).
# The sweep rows' verification sizes have interior boxes, so the steady code is verified too (star3d1r:
# dimsize=80; 45 had none; laplacian3d: N=100, 45 had none).
# The _hexstream rows are the streaming hybrid kernel (--tile=hybrid --stream: one block per hexagon of the
# hybrid schedule, a thread per s0 column of its widest row, sweeping s1 over the whole domain; w1 is not
# used; _gG: --stream-groups=G, G threads per column, thread y computing the rows a = y mod G, every read
# of the previous row from shared memory), _hybrid_shared the classical hybrid kernel with --shared for
# comparison (MATCH='hexstream|hybrid'); the _storeall rows store every computed cell (--stream-store-all;
# by default only the cells other hexagons read and those of the last two time steps).
# The _hexchunk rows are the chunked streaming hybrid kernel (--stream --stream-chunk=C: one block per
# (hexagon, chunk of C planes of s1), ghost planes along s1 only, reads from a mirror copy with a fixup
# kernel per launch, neighbour values prefetched before the barrier; _auto: the host picks C per launch
# for >= 2112 blocks, at least 128 planes for h = 7; _cC: C fixed; _mbN: --min-blocks=N, a resident-block
# floor of N blocks per SM in the launch bounds, at most 65536/(64 N) registers per thread; MATCH='hexchunk'). Their verification
# size (2101^2, 37 steps) has several chunks per hexagon even for C = 1024 and divides no size.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hxsweep}
REPS=${REPS:-3}
ARCH=${ARCH:-sm_90}
ONLY=${ONLY:-}
MATCH=${MATCH:-.}  # extended regexp on the configuration name (with ONLY: both)
D=devbuild/sweep
# name | file | compile options | full size (-D) | verification size (harness arguments)
CONFIGS=(
  "j2d5pt_none|testdata/real/an5d_j2d5pt.c|--tile=none|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep|testdata/real/an5d_j2d5pt.c|--tile=sweep|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_nosteady|testdata/real/an5d_j2d5pt.c|--tile=sweep --steady=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_noramp|testdata/real/an5d_j2d5pt.c|--tile=sweep --steady-ramp=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_nounroll|testdata/real/an5d_j2d5pt.c|--tile=sweep --steady-unroll=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_noprefetch|testdata/real/an5d_j2d5pt.c|--tile=sweep --sweep-prefetch=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_ring|testdata/real/an5d_j2d5pt.c|--tile=sweep --sweep-ring|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_pflate|testdata/real/an5d_j2d5pt.c|--tile=sweep --sweep-prefetch-late|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_noregs|testdata/real/an5d_j2d5pt.c|--tile=sweep --reuse=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_h3_w252|testdata/real/an5d_j2d5pt.c|--tile=sweep --sizes=3,128,252|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_h5_w246|testdata/real/an5d_j2d5pt.c|--tile=sweep --sizes=5,256,246|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_h9_w236|testdata/real/an5d_j2d5pt.c|--tile=sweep --sizes=9,256,236|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_h11_w234|testdata/real/an5d_j2d5pt.c|--tile=sweep --sizes=11,256,234|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_sweep_h7_w114|testdata/real/an5d_j2d5pt.c|--tile=sweep --sizes=7,256,114|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hybrid_shared|testdata/real/an5d_j2d5pt.c|--tile=hybrid --sizes=11,23,128 --shared|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w113|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=7,113,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h3_w57|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=3,57,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h11_w105|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=11,105,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h15_w97|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=15,97,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w241|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=7,241,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w113_noregs|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --sizes=7,113,64 --reuse=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w49_g16|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-groups=16 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w113_g8|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-groups=8 --sizes=7,113,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h3_w25_g8|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-groups=8 --sizes=3,25,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w17_g16|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-groups=16 --sizes=7,17,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w113_storeall|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-store-all --sizes=7,113,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_hexstream_h7_w49_g16_storeall|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-groups=16 --stream-store-all --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_overlap|testdata/real/an5d_j2d5pt.c|--tile=overlapped|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "j2d5pt_overlap_h7_w48|testdata/real/an5d_j2d5pt.c|--tile=overlapped --sizes=7,48,48|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "box2d1r_none|testdata/real/an5d_box2d1r.c|--tile=none|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "box2d1r_sweep|testdata/real/an5d_box2d1r.c|--tile=sweep|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "box2d1r_sweep_noramp|testdata/real/an5d_box2d1r.c|--tile=sweep --steady-ramp=false|-D dimsize=16386 -D timestep=1000|dimsize=301 timestep=23"
  "laplacian2d_none|bench/inputs/laplacian2d.c|--tile=none|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep|bench/inputs/laplacian2d.c|--tile=sweep|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_nosteady|bench/inputs/laplacian2d.c|--tile=sweep --steady=false|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_noramp|bench/inputs/laplacian2d.c|--tile=sweep --steady-ramp=false|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_nounroll|bench/inputs/laplacian2d.c|--tile=sweep --steady-unroll=false|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_noprefetch|bench/inputs/laplacian2d.c|--tile=sweep --sweep-prefetch=false|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_ring|bench/inputs/laplacian2d.c|--tile=sweep --sweep-ring|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_pflate|bench/inputs/laplacian2d.c|--tile=sweep --sweep-prefetch-late|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_sweep_h3_w64|bench/inputs/laplacian2d.c|--tile=sweep --sizes=3,64,122|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_overlap|bench/inputs/laplacian2d.c|--tile=overlapped|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_overlap_h5_w22|bench/inputs/laplacian2d.c|--tile=overlapped --sizes=5,22,22|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_overlap_h1_w30|bench/inputs/laplacian2d.c|--tile=overlapped --sizes=1,30,30|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h3_w25|bench/inputs/laplacian2d.c|--tile=hybrid --stream --sizes=3,25,64|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h7_w17|bench/inputs/laplacian2d.c|--tile=hybrid --stream --sizes=7,17,64|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h1_w29|bench/inputs/laplacian2d.c|--tile=hybrid --stream --sizes=1,29,64|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h7_w49|bench/inputs/laplacian2d.c|--tile=hybrid --stream --sizes=7,49,64|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h3_w25_g8|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-groups=8 --sizes=3,25,64|-D N=2048 -D T=512|N=301 T=23"
  "laplacian2d_hexstream_h7_w17_g16|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-groups=16 --sizes=7,17,64|-D N=2048 -D T=512|N=301 T=23"
  "j2d5pt_hexchunk_auto_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=auto --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c256_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=256 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c1024_h7_w49|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=1024 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w113|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --sizes=7,113,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c256_h3_w57|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=256 --sizes=3,57,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h11_w105|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --sizes=11,105,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h15_w33|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --sizes=15,33,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w49_noregs|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --reuse=false --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w49_storeall|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --stream-store-all --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w49_mb6|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --min-blocks=6 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "j2d5pt_hexchunk_c512_h7_w49_mb8|testdata/real/an5d_j2d5pt.c|--tile=hybrid --stream --stream-chunk=512 --min-blocks=8 --sizes=7,49,64|-D dimsize=16386 -D timestep=1000|dimsize=2101 timestep=37"
  "laplacian2d_hexchunk_auto_h7_w49|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=auto --sizes=7,49,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c128_h7_w49|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=128 --sizes=7,49,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c64_h7_w49|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=64 --sizes=7,49,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c64_h3_w25|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=64 --sizes=3,25,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c128_h3_w57|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=128 --sizes=3,57,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c128_h7_w17|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=128 --sizes=7,17,64|-D N=2048 -D T=512|N=2101 T=37"
  "laplacian2d_hexchunk_c64_h1_w29|bench/inputs/laplacian2d.c|--tile=hybrid --stream --stream-chunk=64 --sizes=1,29,64|-D N=2048 -D T=512|N=2101 T=37"
  "heat2d_none|bench/inputs/heat2d.c|--tile=none|-D N=2048 -D T=512|N=301 T=23"
  "heat2d_sweep|bench/inputs/heat2d.c|--tile=sweep|-D N=2048 -D T=512|N=301 T=23"
  "laplacian3d_none|bench/inputs/laplacian3d.c|--tile=none|-D N=256 -D T=128|N=45 T=9"
  "laplacian3d_sweep|bench/inputs/laplacian3d.c|--tile=sweep|-D N=256 -D T=128|N=100 T=9"
  "laplacian3d_sweep_noprefetch|bench/inputs/laplacian3d.c|--tile=sweep --sweep-prefetch=false|-D N=256 -D T=128|N=100 T=9"
  "laplacian3d_sweep_ring|bench/inputs/laplacian3d.c|--tile=sweep --sweep-ring|-D N=256 -D T=128|N=100 T=9"
  "laplacian3d_sweep_pflate|bench/inputs/laplacian3d.c|--tile=sweep --sweep-prefetch-late|-D N=256 -D T=128|N=100 T=9"
  "laplacian3d_sweep_noregs|bench/inputs/laplacian3d.c|--tile=sweep --reuse=false|-D N=256 -D T=128|N=45 T=9"
  "laplacian3d_sweep_h1|bench/inputs/laplacian3d.c|--tile=sweep --sizes=1,64,30,30|-D N=256 -D T=128|N=45 T=9"
  "laplacian3d_sweep_32x16|bench/inputs/laplacian3d.c|--tile=sweep --sizes=3,32,10,26|-D N=256 -D T=128|N=45 T=9"
  "star3d1r_none|bench/inputs/an5d_star3d1r.c|--tile=none|-D dimsize=514 -D timestep=200|dimsize=45 timestep=9"
  "star3d1r_sweep|bench/inputs/an5d_star3d1r.c|--tile=sweep|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_nosteady|bench/inputs/an5d_star3d1r.c|--tile=sweep --steady=false|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_noramp|bench/inputs/an5d_star3d1r.c|--tile=sweep --steady-ramp=false|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_nounroll|bench/inputs/an5d_star3d1r.c|--tile=sweep --steady-unroll=false|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_noprefetch|bench/inputs/an5d_star3d1r.c|--tile=sweep --sweep-prefetch=false|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_ring|bench/inputs/an5d_star3d1r.c|--tile=sweep --sweep-ring|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_pflate|bench/inputs/an5d_star3d1r.c|--tile=sweep --sweep-prefetch-late|-D dimsize=514 -D timestep=200|dimsize=80 timestep=9"
  "star3d1r_sweep_h1|bench/inputs/an5d_star3d1r.c|--tile=sweep --sizes=1,128,30,30|-D dimsize=514 -D timestep=200|dimsize=45 timestep=9"
  "star3d1r_overlap|bench/inputs/an5d_star3d1r.c|--tile=overlapped|-D dimsize=514 -D timestep=200|dimsize=45 timestep=9"
  "star3d1r_overlap_h3_w8|bench/inputs/an5d_star3d1r.c|--tile=overlapped --sizes=3,8,8,16|-D dimsize=514 -D timestep=200|dimsize=45 timestep=9"
)
if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf "$D"
  mkdir -p "$D"
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name file opts full vsize <<< "$c"
    { [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]]; } && continue
  [[ "$name" =~ $MATCH ]] || continue
    # shellcheck disable=SC2086
    devbuild/hextile compile "$file" --target=cuda --harness $opts $full -o "$D/$name" 2> "$D/$name.gen.log" ||
      { echo "prepare: $name failed:"; cat "$D/$name.gen.log"; exit 1; }
    echo "$vsize" > "$D/$name/verify.args"
    # The verification program, generated at the small size: a #define-sized input's kernels are built
    # for its -D values and refuse another size at run time.
    vdefs=$(for a in $vsize; do printf -- '-D %s ' "$a"; done)
    # shellcheck disable=SC2086
    devbuild/hextile compile "$file" --target=cuda --harness $opts $vdefs -o "$D/$name.v" 2>> "$D/$name.gen.log" ||
      { echo "prepare: $name (verification size) failed:"; cat "$D/$name.gen.log"; exit 1; }
  done
  du -sh "$D"
  exit 0
fi
mkdir -p "$OUT"
extra="-fmad=false"
[ "${FAST:-0}" = 1 ] && extra="--use_fast_math"
# Build all in parallel.
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts full vsize <<< "$c"
  { [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]]; } && continue
  [[ "$name" =~ $MATCH ]] || continue
  d=$D/$name
  [ -d "$d" ] || { echo "run: $d missing: run 'bash bench/sweep.sh prepare' here and carry devbuild/sweep"; exit 2; }
  base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
  ( gcc -O2 -c "$d/${base}_ref.c" -o "$OUT/$name.ref.o" &&
    nvcc -O3 -arch="$ARCH" $extra -Xptxas -v -o "$OUT/$name.bin" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$OUT/$name.ref.o" ) > "$OUT/$name.build.log" 2>&1 ||
    echo "BUILD FAILED $name (log $OUT/$name.build.log)" &
  ( gcc -O2 -c "$d.v/${base}_ref.c" -o "$OUT/$name.v.ref.o" &&
    nvcc -O3 -arch="$ARCH" $extra -o "$OUT/$name.v.bin" "$d.v/${base}_host.cu" "$d.v/${base}_kernel.cu" "$OUT/$name.v.ref.o" ) > "$OUT/$name.v.build.log" 2>&1 ||
    echo "BUILD FAILED $name verification program (log $OUT/$name.v.build.log)" &
done
wait
fail=0
printf "%-28s %-34s %-12s %10s %10s %s\n" config options verify gcells-k gcells-tot regs/smem
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name file opts full vsize <<< "$c"
  { [ -n "$ONLY" ] && [[ "$name" != $ONLY* ]]; } && continue
  [[ "$name" =~ $MATCH ]] || continue
  bin=$OUT/$name.bin
  if [ ! -x "$bin" ]; then printf "%-28s %-34s %s\n" "$name" "$opts" "BUILD FAILED"; fail=1; continue; fi
  # shellcheck disable=SC2046
  timeout 300 "$OUT/$name.v.bin" $(cat "$D/$name/verify.args") HX_REPS=0 > "$OUT/$name.verify.log" 2>&1
  v=$(grep -m1 '^verify:' "$OUT/$name.verify.log" | cut -c9- || true)
  if [ "${FAST:-0}" = 1 ]; then v="rel $(grep -m1 '^rel-error:' "$OUT/$name.verify.log" | cut -d' ' -f2)"; fi
  [ "$v" = " ok" ] || [ "${FAST:-0}" = 1 ] || fail=1
  timeout 300 "$bin" HX_VERIFY=0 HX_REPS="$REPS" > "$OUT/$name.time.log" 2>&1
  gk=$(grep -m1 '^gcells-kernel:' "$OUT/$name.time.log" | cut -d' ' -f2)
  gt=$(grep -m1 '^gcells-total:' "$OUT/$name.time.log" | cut -d' ' -f2)
  rs=$(grep -m1 -E 'Used [0-9]+ registers' "$OUT/$name.build.log" | sed -E 's/.*Used ([0-9]+) registers.*/\1 regs/')
  if [[ "$name" == *hexchunk* ]]; then
    # Two kernels (the chunked kernel and its fixup): the larger register count, and any spills.
    rs="$(grep -oE 'Used [0-9]+ registers' "$OUT/$name.build.log" | awk '{print $2}' | sort -n | tail -1) regs"
    sp=$(grep -oE '[0-9]+ bytes spill stores' "$OUT/$name.build.log" | awk '{s+=$1} END {print s+0}')
    [ "$sp" != 0 ] && rs="$rs ($sp B spill stores)"
  fi
  sm=$(grep -m1 -oE '[0-9]+ bytes smem' "$OUT/$name.build.log" || true)
  printf "%-28s %-34s %-12s %10s %10s %s\n" "$name" "$opts" "${v:-none}" "${gk:--}" "${gt:--}" "$rs $sm"
done
exit $fail
