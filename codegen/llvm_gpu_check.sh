#!/bin/sh
# Issue 7 acceptance on a GPU machine: every testdata stencil (hybrid, none,
# classical) through the PTX path (LLVM IR -> llc -> driver JIT), verified
# bit for bit against the Go reference run of the original program, with
# kernel and total times.
#
#   here:  sh codegen/llvm_gpu_check.sh prepare     # builds .hxptx/ (needs go, llc)
#   there: sh codegen/llvm_gpu_check.sh run         # needs libcuda.so.1 only
#
# prepare writes a CGO_ENABLED=0 hextile binary and one PTX file per
# configuration (llc for sm_80; the driver JIT-compiles it for newer GPUs),
# so the GPU machine needs neither go nor llvm. Carry .hxptx to it.
# SIZES_3D / SIZES_2D override the problem sizes (-D flags). ARCH=sm_90
# (an sm_90+ GPU) checks the kernels with programmatic dependent launch
# (griddepcontrol.wait, launched through cuLaunchKernelEx); register reuse
# is on either way (compile's default).
set -u
cd "$(dirname "$0")/.."
D=${HXPTX:-.hxptx}
S2=${SIZES_2D:--D N=301 -D T=23 -D NX=301 -D NY=257}
S3=${SIZES_3D:--D N=45 -D T=9}
ARCH=${ARCH:-sm_80}
case ${1:-} in
prepare)
  mkdir -p "$D"
  CGO_ENABLED=0 go build -o "$D/hextile" ./cmd/hextile || exit 1
  for f in testdata/*.c; do
    b=$(basename "$f" .c)
    for k in hybrid none classical; do
      if "$D/hextile" compile "$f" --tile=$k --target=ptx --arch=$ARCH -o "$D/${b}_$k.ptx" 2>"$D/${b}_$k.err"; then
        echo "$f $k" >> "$D/list.new"
      else
        echo "skip $b $k: $(head -c 200 "$D/${b}_$k.err")"
      fi
    done
  done
  mv "$D/list.new" "$D/list"
  ;;
run)
  fail=0
  while read -r f k; do
    b=$(basename "$f" .c)
    case $b in *3d*) all=$S3 ;; *) all=$S2 ;; esac
    # Only the sizes the file defines (hextile refuses a -D of a name it does not use).
    sz=
    for d in $all; do
      case $d in -D) continue ;; esac
      grep -q "^#define ${d%%=*}[ 	]" "$f" && sz="$sz -D $d"
    done
    echo "== $b $k"
    # shellcheck disable=SC2086
    "$D/hextile" run "$f" --tile=$k --device=gpu --ptx "$D/${b}_$k.ptx" $sz || fail=1
  done < "$D/list"
  exit $fail
  ;;
*)
  echo "usage: sh codegen/llvm_gpu_check.sh prepare|run" >&2
  exit 2
  ;;
esac
