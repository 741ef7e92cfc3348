#!/usr/bin/env bash
# Profiles of hextile's kernels beside AN5D's on the H100: kernel-only GCells/s at the full size, then
# Nsight Compute (ncu) on one launch at a reduced step count, the registers and shared memory from ptxas,
# and the SASS of hextile's kernels. Two machines:
#
#   bash bench/profile.sh prepare   # here (Go): devbuild/hextile, the --harness CUDA programs of every
#                                   # configuration below and AN5D's generated code, into devbuild/profile
#   bash bench/profile.sh run       # on the GPU machine (nvcc, gcc, ncu, cuobjdump; no Go), carrying
#                                   # devbuild/profile; OUT=DIR for the logs (default /tmp/hxprof)
#
# Knobs: MATCH (extended regexp on the configuration name), NCU=0 (timings only), NCU_MATCH (the
# configurations profiled, a regexp), REPS (timed runs,
# median; default 3), NCU_SECTIONS, NCU_METRICS (default: the warp stall reasons).
#
# A configuration is NAME|INPUT|hextile flags|full size (harness arguments)|ncu size (harness arguments)|
# MODE|nvcc extra. MODE exact builds with -fmad=false (bit-exact, verified at the small size first),
# fast with --use_fast_math (relative L2 error shown). An AN5D configuration is
# NAME|an5d:CONFIG|-|-s S -t T|-s S -t T(ncu)|MODE|nvcc extra.
# Every hextile program is built for run-time sizes (the inputs take their sizes as function
# parameters), so one binary serves the verification, the timing and the profile.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/hxprof}
REPS=${REPS:-3}
ARCH=${ARCH:-sm_90}
MATCH=${MATCH:-.}
NCU=${NCU:-1}
NCU_MATCH=${NCU_MATCH:-.}
NCU_SECTIONS=${NCU_SECTIONS:-SpeedOfLight Occupancy LaunchStats WarpStateStats SchedulerStats InstructionStats MemoryWorkloadAnalysis}
# the warp stall reasons (percent of active warps' cycles stalled for each)
NCU_METRICS=${NCU_METRICS:-$(for r in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait math_pipe_throttle not_selected selected no_instruction dispatch_stall membar; do printf 'smsp__warp_issue_stalled_%s_per_warp_active.pct,' "$r"; done | sed 's/,$//')}
D=devbuild/profile
PEERS=${PEERS_DIR:-../shared/peers}
[ -d "$PEERS" ] || PEERS=/work/shared/peers
J=testdata/real/an5d_j2d5pt.c
S3=bench/inputs/an5d_star3d1r.c
B2=an5dsrc:box2d1r
S3A=an5dsrc:star3d1r
# NAME|INPUT|hextile flags|full size|ncu size|MODE|nvcc extra (minblocks=N: __launch_bounds__(threads, N) on
# hextile's kernels, edited into the generated CUDA by prepare). The *_stage configurations are
# --sweep-stage-input (gpuplan's sweep_stage.go) beside the plain sweep of the same sizes: MATCH='sweep_(fast|exact)$|stage'.
# The *_noedge and *_edgepf configurations are --sweep-edge=false (boundary boxes run the generic step) and
# --sweep-edge-prefetch beside the default edge steady state (gpuplan's sweep_edge.go):
# MATCH='^(j2d5pt2k_sweep_(fast|exact_w32)|box2d1r_sweep_exact|star3d1r(256)?_sweep_exact)(_noedge|_edgepf)?$'.
CONFIGS=(
  "j2d5pt_sweep_fast|$J|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_stage|$J|--tile=sweep --sweep-stage-input|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_noramp|$J|--tile=sweep --steady-ramp=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_m1|$J|--tile=sweep --min-blocks=1|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_m5|$J|--tile=sweep --min-blocks=5|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_w64|$J|--tile=sweep --sizes=7,64,242|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_fast_an5dfile|an5dsrc:j2d5pt|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "j2d5pt_sweep_exact|$J|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "j2d5pt_sweep_exact_stage|$J|--tile=sweep --sweep-stage-input|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "j2d5pt_sweep_exact_noramp|$J|--tile=sweep --steady-ramp=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "j2d5pt_sweep_exact_an5dfile|an5dsrc:j2d5pt|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "j2d5pt_an5d_fast|an5d:j2d5pt-256-10-256|-|-s 16384 -t 1000 -n 3|-s 16384 -t 40 -n 1|fast|"
  "j2d5pt_an5d_exact|an5d:j2d5pt-256-10-256|-|-s 16384 -t 1000 -n 3|-s 16384 -t 40 -n 1|exact|"
  "j2d5pt2k_sweep_fast|$J|--tile=sweep|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "j2d5pt2k_sweep_fast_w32|$J|--tile=sweep --sizes=7,32,242|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "j2d5pt2k_sweep_fast_f128|$J|--tile=sweep --sizes=7,64,114|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "j2d5pt2k_sweep_exact_w32|$J|--tile=sweep --sizes=7,32,242|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "j2d5pt2k_sweep_fast_noedge|$J|--tile=sweep --sweep-edge=false|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "j2d5pt2k_sweep_fast_edgepf|$J|--tile=sweep --sweep-edge-prefetch|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "j2d5pt2k_sweep_exact_w32_noedge|$J|--tile=sweep --sizes=7,32,242 --sweep-edge=false|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "j2d5pt2k_sweep_exact_w32_edgepf|$J|--tile=sweep --sizes=7,32,242 --sweep-edge-prefetch|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "j2d5pt2k_none_exact|$J|--tile=none --sizes=3,64,64 --block=64,8|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "j2d5pt2k_an5d_fast|an5d:j2d5pt-512-16-128|-|-s 2048 -t 512 -n 3|-s 2048 -t 40 -n 1|fast|"
  "box2d1r_sweep_exact|$B2|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "box2d1r_sweep_exact_stage|$B2|--tile=sweep --sweep-stage-input|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "box2d1r_sweep_exact_noramp|$B2|--tile=sweep --steady-ramp=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "box2d1r_sweep_exact_noedge|$B2|--tile=sweep --sweep-edge=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "box2d1r_sweep_exact_edgepf|$B2|--tile=sweep --sweep-edge-prefetch|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "star3d1r_sweep_exact|$S3|--tile=sweep|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_exact_stage|$S3|--tile=sweep --sweep-stage-input|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_exact_noramp|$S3|--tile=sweep --steady-ramp=false|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_exact_m1|$S3|--tile=sweep --min-blocks=1|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_exact_noedge|$S3|--tile=sweep --sweep-edge=false|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_exact_edgepf|$S3|--tile=sweep --sweep-edge-prefetch|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_sweep_fast|$S3|--tile=sweep|dimsize=514 timestep=200|dimsize=514 timestep=24|fast|"
  "star3d1r_sweep_fast_stage|$S3|--tile=sweep --sweep-stage-input|dimsize=514 timestep=200|dimsize=514 timestep=24|fast|"
  "star3d1r_none_exact|$S3||dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "star3d1r_an5d_exact|an5d:star3d1r-32x32-4-128|-|-s 512 -t 200 -n 3|-s 512 -t 24 -n 1|exact|"
  "star3d1r256_sweep_exact|$S3|--tile=sweep|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_sweep_exact_stage|$S3|--tile=sweep --sweep-stage-input|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_sweep_exact_w32|$S3|--tile=sweep --sizes=3,32,26,26|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_sweep_exact_noedge|$S3|--tile=sweep --sweep-edge=false|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_sweep_exact_edgepf|$S3|--tile=sweep --sweep-edge-prefetch|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_none_exact|$S3||dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "star3d1r256_an5d_exact|an5d:star3d1r-32x32-4-128|-|-s 254 -t 128 -n 3|-s 254 -t 24 -n 1|exact|"
  # the boundary boxes' steady code (--sweep-edge, gpuplan's sweep_edge.go) against the generic step
  # (--sweep-edge=false): MATCH='^edge_'
  "edge_j2d5pt2k_fast|$J|--tile=sweep|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_j2d5pt2k_fast_off|$J|--tile=sweep --sweep-edge=false|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_j2d5pt2k_fast_w64|$J|--tile=sweep --sizes=7,64,242|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_j2d5pt2k_fast_w128|$J|--tile=sweep --sizes=7,128,242|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_j2d5pt2k_fast_f128|$J|--tile=sweep --sizes=7,64,114|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_j2d5pt2k_exact|$J|--tile=sweep|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "edge_j2d5pt2k_exact_off|$J|--tile=sweep --sweep-edge=false|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "edge_j2d5pt2k_an5d_fast|an5d:j2d5pt-512-16-128|-|-s 2048 -t 512 -n 3|-s 2048 -t 40 -n 1|fast|"
  "edge_j2d5pt2k_an5d_exact|an5d:j2d5pt-512-16-128|-|-s 2048 -t 512 -n 3|-s 2048 -t 40 -n 1|exact|"
  "edge_lap2k_exact|bench/inputs/laplacian2d.c|--tile=sweep|N=2048 T=512|N=2048 T=40|exact|"
  "edge_lap2k_exact_off|bench/inputs/laplacian2d.c|--tile=sweep --sweep-edge=false|N=2048 T=512|N=2048 T=40|exact|"
  "edge_lap2k_exact_w64|bench/inputs/laplacian2d.c|--tile=sweep --sizes=7,64,242|N=2048 T=512|N=2048 T=40|exact|"
  "edge_lap2k_exact_none|bench/inputs/laplacian2d.c|--tile=none --sizes=3,64,64 --block=64,8|N=2048 T=512|N=2048 T=40|exact|"
  "edge_heat2k_exact|bench/inputs/heat2d.c|--tile=sweep|N=2048 T=512|N=2048 T=40|exact|"
  "edge_j2d5pt_fast|$J|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "edge_j2d5pt_fast_off|$J|--tile=sweep --sweep-edge=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "edge_j2d5pt_exact|$J|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_j2d5pt_exact_off|$J|--tile=sweep --sweep-edge=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_j2d5pt_an5d_fast|an5d:j2d5pt-256-10-256|-|-s 16384 -t 1000 -n 3|-s 16384 -t 40 -n 1|fast|"
  "edge_box2d1r_exact|$B2|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_box2d1r_exact_off|$B2|--tile=sweep --sweep-edge=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_star3d1r_exact|$S3|--tile=sweep|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "edge_star3d1r_exact_off|$S3|--tile=sweep --sweep-edge=false|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "edge_star3d1r_fast|$S3|--tile=sweep|dimsize=514 timestep=200|dimsize=514 timestep=24|fast|"
  "edge_star3d1r_an5d_exact|an5d:star3d1r-32x32-4-128|-|-s 512 -t 200 -n 3|-s 512 -t 24 -n 1|exact|"
  "edge_star3d1r256_exact|$S3|--tile=sweep|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "edge_star3d1r256_exact_off|$S3|--tile=sweep --sweep-edge=false|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "edge_star3d1r256_exact_w32|$S3|--tile=sweep --sizes=3,32,26,26|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "edge_star3d1r256_fast|$S3|--tile=sweep|dimsize=256 timestep=128|dimsize=256 timestep=24|fast|"
  # the edge and generic box paths outlined into __noinline__ device functions (--sweep-outline, the default;
  # gpuplan's sweep_outline.go) against all paths inline in the kernel (--sweep-outline=false), each beside
  # its edge_* row above: MATCH='^edge_(box2d1r_exact|star3d1r_exact|j2d5pt_exact|j2d5pt_fast|j2d5pt2k_fast|star3d1r256_exact)(_off|_nooutline)?$'
  "edge_box2d1r_exact_nooutline|$B2|--tile=sweep --sweep-outline=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_star3d1r_exact_nooutline|$S3|--tile=sweep --sweep-outline=false|dimsize=514 timestep=200|dimsize=514 timestep=24|exact|"
  "edge_j2d5pt_exact_nooutline|$J|--tile=sweep --sweep-outline=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "edge_j2d5pt_fast_nooutline|$J|--tile=sweep --sweep-outline=false|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "edge_j2d5pt2k_fast_nooutline|$J|--tile=sweep --sweep-outline=false|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "edge_star3d1r256_exact_nooutline|$S3|--tile=sweep --sweep-outline=false|dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "edge_star3d1r256_none_exact|$S3||dimsize=256 timestep=128|dimsize=256 timestep=24|exact|"
  "edge_star3d1r256_an5d_exact|an5d:star3d1r-32x32-4-128|-|-s 254 -t 128 -n 3|-s 254 -t 24 -n 1|exact|"
  "edge_j2d5pt1k_fast|$J|--tile=sweep|dimsize=1026 timestep=1000|dimsize=1026 timestep=40|fast|"
  "edge_j2d5pt1k_exact|$J|--tile=sweep|dimsize=1026 timestep=1000|dimsize=1026 timestep=40|exact|"
  "edge_j2d5pt1k_none_exact|$J|--tile=none|dimsize=1026 timestep=1000|dimsize=1026 timestep=40|exact|"
  # AN5D-like deep bands: 16 levels over a 512-thread face, one block per SM (--min-blocks=1), the buffers
  # (92,520 bytes) in dynamic shared memory beyond 48 KB (gpuplan's sweep_dynamic.go; ptxas reports 0 bytes
  # smem for them, --dump=plan the bytes), beside the default sweep and AN5D's best: MATCH='^deep_'
  "deep_j2d5pt2k_fast_h15w128|$J|--tile=sweep --sizes=15,128,482 --min-blocks=1|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "deep_j2d5pt2k_fast_h15w64|$J|--tile=sweep --sizes=15,64,482 --min-blocks=1|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "deep_j2d5pt2k_fast_h15w128_m2|$J|--tile=sweep --sizes=15,128,482|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "deep_j2d5pt2k_exact_h15w128|$J|--tile=sweep --sizes=15,128,482 --min-blocks=1|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "deep_j2d5pt2k_exact_h15w64|$J|--tile=sweep --sizes=15,64,482 --min-blocks=1|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "deep_j2d5pt2k_fast|$J|--tile=sweep|dimsize=2050 timestep=512|dimsize=2050 timestep=40|fast|"
  "deep_j2d5pt2k_exact|$J|--tile=sweep|dimsize=2050 timestep=512|dimsize=2050 timestep=40|exact|"
  "deep_j2d5pt2k_an5d_fast|an5d:j2d5pt-512-16-128|-|-s 2048 -t 512 -n 3|-s 2048 -t 40 -n 1|fast|"
  "deep_j2d5pt2k_an5d_exact|an5d:j2d5pt-512-16-128|-|-s 2048 -t 512 -n 3|-s 2048 -t 40 -n 1|exact|"
  "deep_j2d5pt_fast_h15w128|$J|--tile=sweep --sizes=15,128,482 --min-blocks=1|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "deep_j2d5pt_exact_h15w128|$J|--tile=sweep --sizes=15,128,482 --min-blocks=1|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|exact|"
  "deep_j2d5pt_fast|$J|--tile=sweep|dimsize=16386 timestep=1000|dimsize=16386 timestep=40|fast|"
  "deep_j2d5pt_an5d_fast|an5d:j2d5pt-256-10-256|-|-s 16384 -t 1000 -n 3|-s 16384 -t 40 -n 1|fast|"
  # radius 2: the register-aware floor (gpuplan.SweepRegisterNeed: 4 blocks of 256 threads) against the
  # spilling floor of 5, fewer levels, the untiled and hybrid kernels: MATCH='^r2_'
  "r2_star2d2r_sweep_exact|an5dsrc:star2d2r|--tile=sweep|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|exact|"
  "r2_star2d2r_sweep_fast|an5dsrc:star2d2r|--tile=sweep|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
  "r2_star2d2r_sweep_fast_m5|an5dsrc:star2d2r|--tile=sweep --min-blocks=5|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
  "r2_star2d2r_sweep_fast_h3|an5dsrc:star2d2r|--tile=sweep --sizes=3,128,244|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
  "r2_star2d2r_sweep_fast_h4|an5dsrc:star2d2r|--tile=sweep --sizes=4,128,240|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
  "r2_star2d2r_none_exact|an5dsrc:star2d2r|--tile=none --sizes=3,32,128 --block=32,8|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|exact|"
  "r2_j2d9pt_sweep_exact|an5dsrc:j2d9pt|--tile=sweep|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|exact|"
  "r2_j2d9pt_sweep_fast|an5dsrc:j2d9pt|--tile=sweep|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
  "r2_j2d9pt_sweep_fast_h3|an5dsrc:j2d9pt|--tile=sweep --sizes=3,128,244|dimsize=16388 timestep=1000|dimsize=16388 timestep=40|fast|"
)
# (deep_*: a grid with interior boxes of the 512-thread face and a short last band of the 16 levels)
verify_size() { case $1 in *star3d1r*) echo "dimsize=80 timestep=9" ;; *lap2k* | *heat2k*) echo "N=301 T=23" ;; deep_*) echo "dimsize=1100 timestep=37" ;; *) echo "dimsize=301 timestep=23" ;; esac; }

if [ "${1:-run}" = prepare ]; then
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  rm -rf "$D"; mkdir -p "$D/an5d/generated"
  cp "$PEERS/an5d/common.h" "$PEERS/an5d/LICENSE" "$D/an5d/"
  tmp=$(mktemp -d)
  tar xJf "$PEERS/an5d/generated.tar.xz" -C "$tmp" || exit 1
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name input flags full _ _ extra <<< "$c"
    [[ "$name" =~ $MATCH ]] || continue
    defs=$(for kv in $full; do printf -- '-D %s ' "$kv"; done)
    case $input in
    an5d:*) cp "$tmp/generated/${input#an5d:}"_* "$D/an5d/generated/" ;;
    an5dsrc:*)
      # shellcheck disable=SC2086
      devbuild/hextile compile "$PEERS/an5d/stencils/${input#an5dsrc:}.c" --cpp -I "$PEERS/an5d" --target=cuda --harness $flags $defs -o "$D/$name" 2> "$D/$name.gen.log" ||
        { echo "prepare: $name failed"; cat "$D/$name.gen.log"; exit 1; } ;;
    *)
      # shellcheck disable=SC2086
      devbuild/hextile compile "$input" --target=cuda --harness $flags $defs -o "$D/$name" 2> "$D/$name.gen.log" ||
        { echo "prepare: $name failed"; cat "$D/$name.gen.log"; exit 1; } ;;
    esac
  done
  rm -rf "$tmp"
  # minblocks=N: the kernels' __launch_bounds__(threads) become __launch_bounds__(threads, N)
  for c in "${CONFIGS[@]}"; do
    IFS='|' read -r name _ _ _ _ _ extra <<< "$c"
    [[ "$name" =~ $MATCH ]] || continue
    mb=$(printf '%s\n' $extra | sed -n 's/^minblocks=//p')
    [ -n "$mb" ] && sed -i -E "s/__launch_bounds__\(([0-9]+)\)/__launch_bounds__(\1, $mb)/" "$D/$name"/*_kernel.cu
  done
  du -sh "$D"
  exit 0
fi

mkdir -p "$OUT"
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name input _ _ _ mode extra <<< "$c"
  [[ "$name" =~ $MATCH ]] || continue
  fl="-fmad=false"; [ "$mode" = fast ] && fl="--use_fast_math"
  extra=$(printf '%s\n' $extra | grep -v '^minblocks=' | tr '\n' ' ')
  case $input in
  an5d:*)
    g=$D/an5d/generated/${input#an5d:}
    # shellcheck disable=SC2086
    nice nvcc -O3 $fl $extra -Xcompiler -fopenmp -I "$D/an5d" -D SB_TYPE=float -arch="$ARCH" -w -Xptxas -v -o "$OUT/$name.bin" "${g}_host.cu" "${g}_kernel.cu" > "$OUT/$name.build.log" 2>&1 || echo "BUILD FAILED $name" & ;;
  *)
    d=$D/$name; base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
    # shellcheck disable=SC2086
    ( gcc -O2 -I "$D/an5d" -c "$d/${base}_ref.c" -o "$OUT/$name.ref.o" &&
      nvcc -O3 -arch="$ARCH" $fl $extra -Xptxas -v -o "$OUT/$name.bin" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$OUT/$name.ref.o" ) > "$OUT/$name.build.log" 2>&1 || echo "BUILD FAILED $name" & ;;
  esac
done
wait
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/env.txt"
printf "%-28s %-5s %-14s %10s %s\n" config mode verify gcells-k regs/smem | tee "$OUT/summary.txt"
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name input flags full small mode extra <<< "$c"
  [[ "$name" =~ $MATCH ]] || continue
  bin=$OUT/$name.bin
  [ -x "$bin" ] || { printf "%-28s %s\n" "$name" "BUILD FAILED" | tee -a "$OUT/summary.txt"; continue; }
  rs=$(grep -E 'Used [0-9]+ registers' "$OUT/$name.build.log" | grep -v 'hx_orig\|warmup' | sed -E 's/.*Used ([0-9]+) registers.*/\1r/' | sort -u | tr '\n' ' ')
  sm=$(grep -oE '[0-9]+ bytes smem' "$OUT/$name.build.log" | sort -u | tr '\n' ' ')
  case $input in
  an5d:*)
    v=-
    # shellcheck disable=SC2086
    timeout 300 "$bin" $full > "$OUT/$name.time.log" 2>&1
    # AN5D prints "Average: X GFLOPS, Y ms": GCells/s = cells x steps / time
    dim=2; case $name in *star3d* | *box3d* | *j3d*) dim=3 ;; esac
    gk=$(awk -v full="$full" -v dim="$dim" 'BEGIN { n = split(full, a, " "); for (i = 1; i <= n; i++) { if (a[i] == "-s") s = a[i+1]; if (a[i] == "-t") t = a[i+1] } }
      /^Average:/ { for (i = 1; i <= NF; i++) if ($i == "ms") ms = $(i-1) }
      END { if (ms > 0) printf "%.1f", s ^ dim * t / (ms / 1000) / 1e9 }' "$OUT/$name.time.log")
    # shellcheck disable=SC2206
    ncmd=("$bin" $small) ;;
  *)
    # shellcheck disable=SC2046
    timeout 300 "$bin" $(verify_size "$name") HX_REPS=0 > "$OUT/$name.verify.log" 2>&1
    if [ "$mode" = fast ]; then v="rel $(sed -n 's/^rel-error: //p' "$OUT/$name.verify.log" | head -n 1)"; else v=$(sed -n 's/^verify: //p' "$OUT/$name.verify.log" | head -n 1); fi
    # shellcheck disable=SC2086
    timeout 300 "$bin" $full HX_VERIFY=0 HX_REPS="$REPS" > "$OUT/$name.time.log" 2>&1
    gk=$(sed -n 's/^gcells-kernel: //p' "$OUT/$name.time.log" | head -n 1)
    # shellcheck disable=SC2206
    ncmd=("$bin" $small HX_VERIFY=0 HX_REPS=0)
    cuobjdump -sass "$bin" > "$OUT/$name.sass" 2> /dev/null ;;
  esac
  printf "%-28s %-5s %-14s %10s %s %s\n" "$name" "$mode" "${v:-none}" "${gk:--}" "$rs" "$sm" | tee -a "$OUT/summary.txt"
  if [ "$NCU" = 1 ] && [[ "$name" =~ $NCU_MATCH ]]; then
    secs=(); for s in $NCU_SECTIONS; do secs+=(--section "$s"); done
    # the hextile harness launches a warm-up first; skip a few launches to reach a steady one
    timeout 240 ncu --clock-control none "${secs[@]}" --metrics "$NCU_METRICS" --launch-skip 3 --launch-count 1 \
      -k 'regex:^(hx_|kernel)' "${ncmd[@]}" > "$OUT/$name.ncu.txt" 2>&1 || echo "ncu failed: $name" >> "$OUT/summary.txt"
  fi
done
