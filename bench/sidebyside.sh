#!/usr/bin/env bash
# hextile, ppcg and AN5D side by side on one GPU, in one call (hextile issue 15, item 6).
#
#   bash bench/sidebyside.sh prepare    # here (Go, llc): devbuild/hextile, every hextile harness and PTX
#                                       # into devbuild/sidebyside/, the peers' sources into devbuild/peers/
#   bash bench/sidebyside.sh run        # on the GPU machine (nvcc, cc, python3; no Go, no llc), carrying
#                                       # devbuild/{hextile,sidebyside,peers}: builds, verifies, times, prints the table, writes $OUT
#   bash bench/sidebyside.sh table      # the table again from $OUT/logs (python3; no GPU)
#   bash bench/sidebyside.sh selftest   # the log parsing and the table on fake logs (here)
#
# Rows and hextile's candidate flags: bench/sidebyside.conf (read by prepare; run reads the copy prepare
# left in devbuild/sidebyside/, so the two always agree). Columns, kernel-only GCells/s (float):
#   hextile default   no flags (`hextile compile INPUT --target=cuda --harness`), nvcc -O3 -arch=$ARCH
#                     exact: -fmad=false (bit-exact with the C program, verified so); fast: --use_fast_math
#   hextile best      the fastest verified of the default and the row's `best` flags, each mode separately
#   PTX default       the default through --target=ptx (llc here, --fast-math for the fast PTX), run by
#                     `hextile run --device=gpu --ptx` (the Go CUDA driver runtime, no nvcc)
#   ppcg              its generated CUDA (../shared/peers/ppcg, best configuration of its README),
#                     exact: -fmad=false; fast: --use_fast_math; its checksum against its CPU run
#   AN5D              its generated CUDA (../shared/peers/an5d/generated.tar.xz, the H100 best
#                     configuration of its README), fast (native, as AN5D is built): --use_fast_math;
#                     IEEE: without it and with -fmad=false; both checked with its own -c
# Verification before timing, at the SMALL size of the row: the exact hextile builds bit for bit (the
# harness's "verify: ok"), the fast ones within a relative L2 error of FM_TOL (harness rel-error), the
# PTX runs by hextile run (bit for bit; --fast-math: within its --rtol), AN5D by -c (Max Error <= AN5D_TOL,
# at AN5D_CHECK2 / AN5D_CHECK3). A configuration that fails is not timed (its cell says FAIL).
#
# Knobs (environment):
#   OUT=/tmp/sbs-out   results: table.md, sidebyside.tsv, env.txt, logs/ (one log per run), build/
#   ROWS=regexp        rows to run (on the row name), e.g. ROWS='^(laplacian2d|j2d5pt)$'; prepare too
#   COLS="hx ptx ppcg an5d"  column groups to run
#   PTX_MODES=exact    the PTX default's modes ("exact fast" adds its --fast-math column: 1-2 min more)
#   LIMIT=540          seconds after the start: no run starts later (rest marked skip); builds stopped
#   REPS_SCALE=1       multiply each row's REPS (REPS_MAX caps: 9)
#   HX_MODES="exact fast"  the hextile harness builds' modes (a --fast-math configuration: fast only)
#   NJ_HX=6 NJ_PEERS=10  parallel builds of hextile's and of the peers' (niced, beside the timing)
#   ARCH=sm_90         nvcc -arch
#   FM_TOL=1e-4        relative L2 error allowed to the fast-math hextile builds at the small size
#   AN5D_TOL=1e-2      AN5D -c Max Error allowed (absolute, on values up to 1000)
#   DRY=1              print the build and run commands instead of running them
# Wall time with every row (H100, estimate, not yet measured): about 7 minutes. Builds (130 nvcc runs in
# two pools: hextile's row by row, and the peers' with AN5D's 2-D ones, up to 2 minutes each, first) run
# niced in the background while the rows are verified and timed in order; a row's ppcg and AN5D runs wait (deferred) until their builds are done,
# so the GPU never idles on them. Timing: about 12 s per 2048^2 / 256^3 row, 35-40 s per 16384^2 row and
# 20 s per 512^3 row (2 GiB / 1 GiB arrays: each run pays host initialisation and copies besides the
# kernels; hence those rows' fewer hextile steps and REPS 1 in the conf). LIMIT stops it in any case
# (cells "skip"); rerun the rest with ROWS=. carry: devbuild/hextile, devbuild/sidebyside, devbuild/peers (16 MiB).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
HX=${HEXTILE:-./devbuild/hextile}
D=devbuild/sidebyside
P=devbuild/peers
CONF=${CONF:-bench/sidebyside.conf}
OUT=${OUT:-/tmp/sbs-out}
W=${WORK:-/tmp/sbs-work}
ROWS=${ROWS:-.}
COLS=${COLS:-hx ptx ppcg an5d}
PTX_MODES=${PTX_MODES:-exact}
HX_MODES=${HX_MODES:-exact fast}
LIMIT=${LIMIT:-540}
REPS_SCALE=${REPS_SCALE:-1}
REPS_MAX=${REPS_MAX:-9}
NJ_HX=${NJ_HX:-6}
NJ_PEERS=${NJ_PEERS:-10}
ARCH=${ARCH:-sm_90}
FM_TOL=${FM_TOL:-1e-4}
AN5D_TOL=${AN5D_TOL:-1e-2}
AN5D_CHECK2=${AN5D_CHECK2:--s 2048 -t 20}
AN5D_CHECK3=${AN5D_CHECK3:--s 256 -t 20}
DRY=${DRY:-0}
PEERS=${PEERS_DIR:-../shared/peers}
[ -d "$PEERS" ] || PEERS=/work/shared/peers

# rows: the row lines of a conf file as TAB-separated fields (bars and the spaces around them removed).
rows() { grep -E '^[[:space:]]*row[[:space:]]*\|' "$1" | sed -E 's/[[:space:]]*\|[[:space:]]*/\t/g; s/^[[:space:]]+//; s/[[:space:]]+$//' | cut -f2-; }
bests() { grep -E '^[[:space:]]*best[[:space:]]*\|' "$1" | sed -E 's/[[:space:]]*\|[[:space:]]*/\t/g; s/^[[:space:]]+//; s/[[:space:]]+$//' | cut -f2-; }
has_col() { [[ " $COLS " == *" $1 "* ]]; }
# defs "N=1 T=2": -D N=1 -D T=2
defs() { for kv in $1; do printf -- '-D %s ' "$kv"; done; }
# src INPUT: the file hextile reads and its extra flags (AN5D's files: the preprocessor with common.h)
src() {
  case $1 in
  an5d:*) echo "$P/an5d/stencils/${1#an5d:}.c --cpp -I $P/an5d" ;;
  *) echo "$1" ;;
  esac
}

prepare() {
  mkdir -p devbuild
  CGO_ENABLED=0 go build -o devbuild/hextile ./cmd/hextile || exit 1
  if [ ! -d "$PEERS/an5d" ] || [ ! -d "$PEERS/ppcg" ]; then echo "no peers at $PEERS (set PEERS_DIR)" >&2; exit 1; fi
  rm -rf "$D" "$P"
  mkdir -p "$D/hx" "$D/ptx" "$P/an5d/stencils" "$P/an5d/generated" "$P/ppcg"
  # AN5D: licence, driver header, the stencil files (hextile's inputs, unchanged), the generated code
  # of the configurations the rows name.
  cp "$PEERS/an5d/LICENSE" "$PEERS/an5d/common.h" "$P/an5d/"
  cp "$PEERS"/an5d/stencils/*.c "$P/an5d/stencils/"
  tmp=$(mktemp -d)
  tar xJf "$PEERS/an5d/generated.tar.xz" -C "$tmp" || exit 1
  cp "$PEERS/ppcg/tools/warmup.cu" "$P/ppcg/"
  cp "$PEERS/ppcg/results/cpu_full_checksums.txt" "$P/ppcg/"
  rows "$CONF" | awk -F'\t' -v re="$ROWS" '$1 ~ re' > "$D/rows.tmp"
  : > "$D/rows"
  : > "$D/hx.list"
  fail=0
  while IFS=$'\t' read -r name label input full small reps ppcg an5d; do
    # shellcheck disable=SC2046
    set -- $(src "$input")
    # the row's hextile configurations: c0 = the default, c1.. = the conf's best lines
    { echo "-"; bests "$CONF" | awk -F'\t' -v n="$name" '$1 == n { print $2 }'; } > "$tmp/flags"
    i=0
    while read -r flags; do
      f=$flags; [ "$f" = - ] && f=
      tag=c$i
      # shellcheck disable=SC2046,SC2086
      if "$HX" compile "$@" --target=cuda --harness $f $(defs "$full") -o "$D/hx/$name/$tag" < /dev/null > "$tmp/err" 2>&1; then
        st=ok
        # A #define-sized input (not AN5D's, whose sizes are arguments): its kernels are built for the -D
        # values, so the verification at the small size needs its own program (NAME.v).
        case $input in
        an5d:*) ;;
        *) "$HX" compile "$@" --target=cuda --harness $f $(defs "$small") -o "$D/hx/$name/$tag.v" < /dev/null >> "$tmp/err" 2>&1 || st="error: the verification program: $(tail -n 1 "$tmp/err")" ;;
        esac
        # a printer that cannot print an expression leaves this in the CUDA (nvcc would reject it)
        if grep -q 'unsupported' "$D/hx/$name/$tag"/*.cu; then
          st="error: the generated CUDA has an unsupported expression: $(grep -ho '/\* unsupported[^*]*\*/' "$D/hx/$name/$tag"/*.cu | head -n 1)"
          echo "prepare: $name $tag ($flags): $st" >&2
          rm -rf "${D:?}/hx/$name/$tag"
          fail=1
        fi
      else
        st=$(grep -m1 'error' "$tmp/err" || tail -n 1 "$tmp/err")
        echo "prepare: $name $tag ($flags): $st" >&2
        rm -rf "${D:?}/hx/$name/$tag"
        fail=1
      fi
      printf '%s\t%s\t%s\t%s\n' "$name" "$tag" "$flags" "$st" >> "$D/hx.list"
      i=$((i + 1))
    done < "$tmp/flags"
    # the default through the PTX path, bit-exact and --fast-math
    for m in exact fast; do
      fm=; [ "$m" = fast ] && fm=--fast-math
      # shellcheck disable=SC2046,SC2086
      "$HX" compile "$@" --target=ptx --arch="$ARCH" $fm $(defs "$full") -o "$D/ptx/${name}_$m.ptx" < /dev/null > "$tmp/err" 2>&1 ||
        { echo "prepare: $name PTX $m: $(grep -m1 error "$tmp/err")" >&2; rm -f "$D/ptx/${name}_$m.ptx"; fail=1; continue; }
      # The verification PTX: the cost model's choice at the full size (its flags, from --dump=plan), compiled
      # at the small size, where the model alone would choose other kernels.
      # shellcheck disable=SC2046,SC2086
      "$HX" compile "$@" --target=ptx --arch="$ARCH" $fm $(defs "$full") --dump=plan -o /dev/null < /dev/null 2> /dev/null |
        sed -n 's/^  chosen: \(.*\): [0-9.]* GCells.*/\1/p' | head -n 1 > "$D/ptx/${name}_$m.flags"
      # shellcheck disable=SC2046,SC2086
      "$HX" compile "$@" --target=ptx --arch="$ARCH" $fm $(cat "$D/ptx/${name}_$m.flags") $(defs "$small") -o "$D/ptx/${name}_$m.small.ptx" < /dev/null > "$tmp/err" 2>&1 ||
        { echo "prepare: $name PTX $m (small): $(grep -m1 error "$tmp/err")" >&2; rm -f "$D/ptx/${name}_$m.ptx"; fail=1; }
    done
    if [ "$ppcg" != - ]; then
      pd=${ppcg%% *}
      if [ ! -d "$P/ppcg/$pd" ]; then
        mkdir -p "$P/ppcg/$pd"
        s=$PEERS/ppcg/generated/$pd
        cp "$s"/*_host_timed.cu "$s"/*_kernel.hu "$P/ppcg/$pd/" || fail=1
        for k in "$s"/*_kernel.cu "$s"/*_kernel.cu.xz; do
          [ -f "$k" ] || continue
          case $k in *.xz) xz -dc "$k" > "$P/ppcg/$pd/$(basename "${k%.xz}")" ;; *) cp "$k" "$P/ppcg/$pd/" ;; esac
        done
      fi
    fi
    if [ "$an5d" != - ]; then
      c=${an5d%% *}
      cp "$tmp/generated/$c"_host.cu "$tmp/generated/$c"_kernel.cu "$tmp/generated/$c"_kernel.hu "$P/an5d/generated/" ||
        { echo "prepare: $name: no AN5D configuration $c in generated.tar.xz" >&2; fail=1; }
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$input" "$full" "$small" "$reps" "$ppcg" "$an5d" >> "$D/rows"
  done < "$D/rows.tmp"
  rm -rf "$tmp" "$D/rows.tmp"
  cp "$CONF" "$D/conf"
  echo "prepare: $(wc -l < "$D/rows") rows, $(grep -c $'\tok$' "$D/hx.list") hextile configurations, $(find "$D/ptx" -name '*.ptx' | wc -l) PTX files, $(find "$P/an5d/generated" -name '*_host.cu' | wc -l) AN5D and $(find "$P/ppcg" -name '*_host_timed.cu' | wc -l) ppcg builds"
  du -sh devbuild/hextile "$D" "$P"
  echo "carry devbuild/hextile, $D and $P; on the GPU machine: bash bench/sidebyside.sh run"
  exit $fail
}

# ---------------------------------------------------------------- run (GPU machine)
T0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
# x LOG TIMEOUT CMD...: run CMD with its output in LOG under a time limit (the rest of LIMIT at most);
# skipped (LOG says so) when LIMIT has passed; DRY=1 prints it.
x() {
  local log=$1 to=$2; shift 2
  if [ "$DRY" = 1 ]; then echo "+ $* > $log"; return 0; fi
  local l; l=$(left)
  if [ "$l" -le 0 ]; then echo "skipped: time limit (LIMIT=$LIMIT s)" > "$log"; return 3; fi
  [ "$l" -lt "$to" ] && to=$l
  timeout "$to" "$@" < /dev/null > "$log" 2>&1
}
# xt LOG TIMEOUT CMD...: x for a timed run, at a raised CPU priority where the host allows it (PRIO: nice
# -n -10 as root), so that the builds running niced beside it (NJ_HX + NJ_PEERS processes) do not delay its
# kernel launches: session 12's full run, with 24 build processes on 16 cores, timed the 2048^2 and 16384^2
# rows 5-10% low against the same kernels timed beside fewer builds.
PRIO=()
xt() {
  local log=$1 to=$2; shift 2
  x "$log" "$to" "${PRIO[@]}" "$@"
}
# built KEY [LOG]: wait for the build KEY (W/done/KEY holds its exit status); 0 when it built. Else LOG
# (when given) says why: the time limit came first (skipped) or the build failed.
built() {
  [ "$DRY" = 1 ] && return 0
  while [ ! -f "$W/done/$1" ]; do
    if [ "$(left)" -le 0 ]; then
      [ -n "${2:-}" ] && echo "skipped: time limit (LIMIT=$LIMIT s) before build $1 finished" > "$2"
      return 1
    fi
    sleep 1
  done
  [ "$(cat "$W/done/$1")" = 0 ] && return 0
  [ -n "${2:-}" ] && echo "build failed: $OUT/build/$1.log: $(grep -m1 -i 'error' "$OUT/build/$1.log")" > "$2"
  return 1
}
# build jobs: KIND ARGS (one line each), run by build_job in parallel.
build_job() {
  local kind=$1 key rc
  case $kind in
  hx) # hx ROW TAG MODE
    local d=$D/hx/$2/$3 o=$W/hx/$2/$3 base fl
    key=hx.$2.$3.$4; mkdir -p "$o"
    base=$(basename "$(ls "$d"/*_ref.c)" _ref.c)
    fl="-fmad=false"; [ "$4" = fast ] && fl="--use_fast_math"
    # -mcmodel=medium: a #define-sized input's static arrays may pass 2 GiB (16384^2 float x 2), which the
    # default code model cannot link with the static CUDA runtime (as hextile run --backend=cuda builds)
    bx "$key" cc -O2 -std=gnu99 -ffp-contract=off -mcmodel=medium -I "$P/an5d" -c "$d/${base}_ref.c" -o "$o/ref_$4.o" &&
      bx "$key" nvcc -O3 -arch="$ARCH" $fl -Xcompiler -mcmodel=medium -o "$o/$4" "$d/${base}_host.cu" "$d/${base}_kernel.cu" "$o/ref_$4.o" &&
      if [ -d "$d.v" ]; then
        bx "$key" cc -O2 -std=gnu99 -ffp-contract=off -mcmodel=medium -I "$P/an5d" -c "$d.v/${base}_ref.c" -o "$o/ref_$4.v.o" &&
          bx "$key" nvcc -O3 -arch="$ARCH" $fl -Xcompiler -mcmodel=medium -o "$o/$4.v" "$d.v/${base}_host.cu" "$d.v/${base}_kernel.cu" "$o/ref_$4.v.o"
      fi
    rc=$? ;;
  an5d) # an5d CONFIG MODE
    local fl="--use_fast_math"; [ "$3" = exact ] && fl="-fmad=false"
    key=an5d.$2.$3; mkdir -p "$W/an5d"
    bx "$key" nvcc -O3 $fl -Xcompiler -fopenmp -I "$P/an5d" -D SB_TYPE=float -arch="$ARCH" -w -o "$W/an5d/$2.$3" \
      "$P/an5d/generated/$2_host.cu" "$P/an5d/generated/$2_kernel.cu"
    rc=$? ;;
  ppcg) # ppcg BENCH/CONFIG MODE
    local d=$P/ppcg/$2 fl="--use_fast_math" extra=()
    [ "$3" = exact ] && fl="-fmad=false"
    case $2 in j2d5pt_large/*) extra=(-Xcompiler -mcmodel=medium) ;; esac
    case $2 in */tuned2) extra+=(-maxrregcount=128) ;; esac
    key=ppcg.${2//\//.}.$3; mkdir -p "$W/ppcg"
    bx "$key" nvcc -O3 -arch="$ARCH" $fl "${extra[@]}" -o "$W/ppcg/${2//\//.}.$3" "$d"/*_host_timed.cu "$d"/*_kernel.cu "$P/ppcg/warmup.cu"
    rc=$? ;;
  esac
  [ "$DRY" = 1 ] || echo "$rc" > "$W/done/$key"
}
# vbin BIN: the verification program of BIN (BIN.v, built for the small size of a #define-sized input), or BIN
vbin() { if [ -x "$1.v" ]; then echo "$1.v"; else echo "$1"; fi; }
# bx KEY CMD...: one build step, output appended to OUT/build/KEY.log
bx() {
  local key=$1; shift
  if [ "$DRY" = 1 ]; then echo "+ $*"; return 0; fi
  echo "+ $*" >> "$OUT/build/$key.log"
  nice -n 10 "$@" >> "$OUT/build/$key.log" 2>&1
}

# reps N: a row's REPS scaled and capped
reps() { awk -v r="$1" -v s="$REPS_SCALE" -v m="$REPS_MAX" 'BEGIN { n = int(r * s + 0.5); if (n < 1) n = 1; if (n > m) n = m; print n }'; }

# The row functions read the row's fields from the caller's variables (name label input full small rps
# ppcg an5d).
# tmodes TAG: the modes row $name's configuration TAG runs in: fast only for a --fast-math plan (its
# bit-exact build would time the fast-math plan under IEEE arithmetic, a configuration of no column).
# Only the modes in HX_MODES.
tmodes() {
  local m
  for m in $(awk -F'\t' -v n="$name" -v t="$1" '$1 == n && $2 == t { print ($3 ~ /--fast-math/) ? "fast" : "exact fast"; exit }' "$D/hx.list"); do
    [[ " $HX_MODES " == *" $m "* ]] && echo "$m"
  done
  return 0
}
# hx_row: hextile's harness builds (every configuration, exact and fast) and the PTX default.
hx_row() {
  local r t m v ok fm tags pids=()
  r=$(reps "$rps")
  # shellcheck disable=SC2046
  set -- $(src "$input")
  tags=$(awk -F'\t' -v n="$name" '$1 == n && $4 == "ok" { print $2 }' "$D/hx.list")
  if has_col hx; then
    for t in $tags; do for m in $(tmodes "$t"); do
      # shellcheck disable=SC2086
      { built "hx.$name.$t.$m" "$L/$name.hx.$t.$m.verify" && x "$L/$name.hx.$t.$m.verify" 120 "$(vbin "$W/hx/$name/$t/$m")" $small HX_REPS=0; } &
      pids+=($!)
    done; done
  fi
  if has_col ptx; then
    for m in $PTX_MODES; do
      [ -f "$D/ptx/${name}_$m.ptx" ] || continue
      fm=; [ "$m" = fast ] && fm=--fast-math
      # shellcheck disable=SC2046,SC2086
      x "$L/$name.ptx.c0.$m.verify" 180 "$HX" run "$@" --device=gpu --backend=ptx $(cat "$D/ptx/${name}_$m.flags" 2> /dev/null) --ptx "$D/ptx/${name}_$m.small.ptx" $fm $(defs "$small") --reps=0 &
      pids+=($!)
    done
  fi
  [ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
  if has_col hx; then
    for t in $tags; do for m in $(tmodes "$t"); do
      v=$L/$name.hx.$t.$m.verify
      ok=0
      if [ "$DRY" = 1 ]; then ok=1
      elif [ $m = exact ]; then grep -q '^verify: ok' "$v" 2> /dev/null && ok=1
      else awk -v tol="$FM_TOL" '/^rel-error:/ { e = $2 } END { exit !(e != "" && e + 0 <= tol) }' "$v" 2> /dev/null && ok=1; fi
      [ $ok = 1 ] || continue
      # shellcheck disable=SC2086
      xt "$L/$name.hx.$t.$m.time" 240 "$W/hx/$name/$t/$m" $full HX_VERIFY=0 HX_REPS="$r"
    done; done
    [ "$DRY" = 1 ] || stamp "  hextile: $(for t in $tags; do for m in $(tmodes "$t"); do printf '%s/%s %s  ' "$t" "$m" "$(sed -n 's/^gcells-kernel: //p' "$L/$name.hx.$t.$m.time" 2> /dev/null)"; done; done)"
  fi
  if has_col ptx; then
    for m in $PTX_MODES; do
      [ -f "$D/ptx/${name}_$m.ptx" ] || continue
      [ "$DRY" = 1 ] || grep -q '^verify: ok' "$L/$name.ptx.c0.$m.verify" 2> /dev/null || continue
      fm=; [ "$m" = fast ] && fm=--fast-math
      # shellcheck disable=SC2046,SC2086
      xt "$L/$name.ptx.c0.$m.time" 240 "$HX" run "$@" --device=gpu --backend=ptx --ptx "$D/ptx/${name}_$m.ptx" $fm $(defs "$full") --verify=false --reps="$r"
    done
    [ "$DRY" = 1 ] || stamp "  PTX: $(for m in $PTX_MODES; do printf '%s %s  ' "$m" "$(sed -n 's/^gcells-kernel: //p' "$L/$name.ptx.c0.$m.time" 2> /dev/null)"; done)"
  fi
}

# peers_pending ready|all: ppcg and AN5D for the rows in deferred (in order): those whose builds are
# finished (ready), or all of them, waiting for their builds (all).
peers_pending() {
  local keep=() line
  for line in "${deferred[@]}"; do
    IFS=$'\t' read -r name label input full small rps ppcg an5d <<< "$line"
    if [ "$1" = all ] || peers_ready; then
      stamp "row $name: ppcg and AN5D"
      peer_row
    else
      keep+=("$line")
    fi
  done
  deferred=("${keep[@]}")
}

# peers_ready: whether the row's ppcg and AN5D builds are all finished.
peers_ready() {
  local k
  [ "$DRY" = 1 ] && return 0
  for k in $(peer_keys); do [ -f "$W/done/$k" ] || return 1; done
}
peer_keys() {
  local m
  for m in exact fast; do
    if has_col ppcg && [ "$ppcg" != - ]; then local pd=${ppcg%% *}; echo "ppcg.${pd//\//.}.$m"; fi
    if has_col an5d && [ "$an5d" != - ]; then echo "an5d.${an5d%% *}.$m"; fi
  done
}

# peer_row: ppcg (REPS runs of its binary; no arguments: sizes compiled in) and AN5D (-c at the check
# size once per build, then -s S -t T -n REPS).
peer_row() {
  local r m i pd lg cfg as at chk pids=()
  r=$(reps "$rps")
  if has_col an5d && [ "$an5d" != - ]; then
    read -r cfg as at <<< "$an5d"
    chk=$AN5D_CHECK2; case $cfg in *x*) chk=$AN5D_CHECK3 ;; esac
    for m in exact fast; do
      [ -f "$L/an5d.$cfg.$m.verify" ] && continue
      # shellcheck disable=SC2086
      { built "an5d.$cfg.$m" "$L/an5d.$cfg.$m.verify" && x "$L/an5d.$cfg.$m.verify" 120 "$W/an5d/$cfg.$m" $chk -n 1 -c; } &
      pids+=($!)
    done
    [ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
  fi
  if has_col ppcg && [ "$ppcg" != - ]; then
    pd=${ppcg%% *}
    for m in exact fast; do
      lg=$L/$name.ppcg.${pd//\//.}.$m.time
      built "ppcg.${pd//\//.}.$m" "$lg" || continue
      [ "$DRY" = 1 ] || : > "$lg"
      for ((i = 1; i <= r; i++)); do
        xt "$lg.$i" 240 "$W/ppcg/${pd//\//.}.$m" || break
      done
      [ "$DRY" = 1 ] || { cat "$lg".* >> "$lg" 2> /dev/null; rm -f "$lg".*; }
    done
    [ "$DRY" = 1 ] || stamp "  ppcg $pd: kernel_s $(grep -h '^kernel_s' "$L/$name".ppcg.*.time 2> /dev/null | awk '{ printf "%s ", $2 }')"
  fi
  if has_col an5d && [ "$an5d" != - ]; then
    for m in exact fast; do
      [ "$DRY" = 1 ] || awk -v tol="$AN5D_TOL" '/^Max Error:/ { e = $3 } END { exit !(e != "" && e + 0 <= tol) }' "$L/an5d.$cfg.$m.verify" 2> /dev/null || continue
      xt "$L/$name.an5d.$cfg.$m.time" 240 "$W/an5d/$cfg.$m" -s "$as" -t "$at" -n "$r"
    done
    [ "$DRY" = 1 ] || stamp "  AN5D $cfg: $(grep -h '^Average' "$L/$name".an5d.*.time 2> /dev/null | tr -s ' ' | tr '\n' ';')"
  fi
}

run() {
  if [ "$DRY" != 1 ] && nice -n -10 true 2> /dev/null; then PRIO=(nice -n -10); fi
  if [ ! -x "$HX" ] || [ ! -f "$D/rows" ]; then echo "no $D/rows or $HX: run 'bash bench/sidebyside.sh prepare' where Go is, and carry devbuild" >&2; exit 2; fi
  if [ "$DRY" != 1 ]; then
    command -v nvcc > /dev/null || { [ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH; }
    command -v nvcc > /dev/null || { echo "nvcc not on PATH (export PATH=/usr/local/cuda/bin:\$PATH)" >&2; exit 2; }
  fi
  rm -rf "$W" "$OUT/logs" "$OUT/build"
  mkdir -p "$OUT/logs" "$OUT/build" "$W/done"
  L=$OUT/logs
  export CUDA_MODULE_LOADING=EAGER
  if [ "$DRY" != 1 ]; then
    { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader; nvcc --version | tail -n 2; cc --version | head -n 1; } > "$OUT/env.txt" 2>&1
    cat "$OUT/env.txt"
  fi
  awk -F'\t' -v re="$ROWS" '$1 ~ re' "$D/rows" > "$W/rows"
  # 1. Builds in the background, two pools: hextile's row by row (NJ_HX), the peers' (NJ_PEERS: AN5D's
  # long 2-D builds first, then its 3-D ones and ppcg), so neither waits for the other.
  : > "$W/jobs.hx"
  : > "$W/jobs.peers"
  if has_col hx; then
    while IFS=$'\t' read -r name _; do
      for t in $(awk -F'\t' -v n="$name" '$1 == n && $4 == "ok" { print $2 }' "$D/hx.list"); do
        for m in $(tmodes "$t"); do echo "hx $name $t $m"; done
      done
    done < "$W/rows" > "$W/jobs.hx"
  fi
  {
    if has_col an5d; then
      cut -f8 "$W/rows" | awk '$1 != "-" { print $1 }' | sort -u > "$W/an5d.cfgs"
      for m in fast exact; do grep -v 'x' "$W/an5d.cfgs" | sed "s/.*/an5d & $m/"; done
      for m in fast exact; do grep 'x' "$W/an5d.cfgs" | sed "s/.*/an5d & $m/"; done
    fi
    if has_col ppcg; then
      cut -f7 "$W/rows" | awk '$1 != "-" { print $1 }' | sort -u | while read -r p; do echo "ppcg $p exact"; echo "ppcg $p fast"; done
    fi
  } > "$W/jobs.peers"
  stamp "builds: $(wc -l < "$W/jobs.hx") hextile (NJ_HX=$NJ_HX), $(wc -l < "$W/jobs.peers") ppcg and AN5D (NJ_PEERS=$NJ_PEERS)"
  export -f build_job bx
  export D P W OUT ARCH DRY
  BPIDS=()
  if [ "$DRY" = 1 ]; then
    # shellcheck disable=SC2086
    cat "$W/jobs.peers" "$W/jobs.hx" | while read -r j; do build_job $j; done
  else
    # setsid: each pool its own process group, stopped as a whole at the end
    setsid xargs -r -P "$NJ_HX" -L 1 bash -c 'build_job "$@"' _ < "$W/jobs.hx" &
    BPIDS+=($!)
    setsid xargs -r -P "$NJ_PEERS" -L 1 bash -c 'build_job "$@"' _ < "$W/jobs.peers" &
    BPIDS+=($!)
  fi
  # 2. Per row: hextile's verification (small size, in parallel) and timing (full size, one run at a
  # time), then the peers' if their builds are done (else after the last row: the GPU does not wait for
  # AN5D's long builds while hextile rows can run).
  deferred=()
  while IFS=$'\t' read -r name label input full small rps ppcg an5d; do
    stamp "row $name: $label"
    hx_row
    deferred+=("$(printf '%s\t' "$name" "$label" "$input" "$full" "$small" "$rps" "$ppcg" "$an5d")")
    peers_pending ready
  done < "$W/rows"
  peers_pending all
  local b
  for b in "${BPIDS[@]}"; do
    if kill -0 "$b" 2> /dev/null; then
      stamp "stopping the builds still running (LIMIT)"
      kill -- -"$b" 2> /dev/null
    fi
    wait "$b" 2> /dev/null
  done
  [ "$DRY" = 1 ] && exit 0
  stamp "table"
  if command -v python3 > /dev/null; then
    table
  else
    echo "no python3 here: the logs are in $OUT/logs; make the table where python3 is with OUT=<that folder> bash bench/sidebyside.sh table"
  fi
  grep -l 'error' "$OUT"/build/*.log 2> /dev/null | sed 's/^/build log with errors: /'
  stamp "done"
}

# table: OUT/logs -> OUT/sidebyside.tsv and OUT/table.md (printed).
table() {
  mkdir -p "$OUT"
  awk -F'\t' -v re="$ROWS" '$1 ~ re' "$D/rows" > "$OUT/.rows"
  python3 - "$OUT/.rows" "$D/hx.list" "$OUT/logs" "$OUT" "$FM_TOL" "$AN5D_TOL" "$PEERS_CHK" <<'PY'
import os, re, sys, statistics
rows_f, hxl_f, logs, out, fm_tol, an_tol, cpu_chk = sys.argv[1:8]
fm_tol, an_tol = float(fm_tol), float(an_tol)

def read(p):
    try:
        return open(p, errors='replace').read()
    except OSError:
        return None

def field(text, key):
    m = re.search(r'(?m)^' + re.escape(key) + r':? (\S+)', text or '')
    return m.group(1) if m else None

def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None

cpu = {}
for line in (read(cpu_chk) or '').splitlines():
    p = line.split()
    if len(p) >= 2 and not line.startswith('#'):
        cpu[p[0]] = num(p[1])

def short(flags):
    if not flags or flags == '-':
        return 'default'
    s = flags.replace('--tile=', '').replace('--sizes=', '').replace('--block=', 'b').replace('--', '')
    return s

rows = [l.rstrip('\n').split('\t') for l in open(rows_f) if l.strip()]
hx = {}
for l in open(hxl_f):
    p = l.rstrip('\n').split('\t')
    if len(p) >= 4:
        hx.setdefault(p[0], []).append((p[1], p[2], p[3]))

tsv = []   # row, label, column, mode, config, flags, verify, kernel_s, gcells, note
cells = {}

def put(name, label, col, mode, cfg, flags, ver, ks, gc, note=''):
    tsv.append([name, label, col, mode, cfg, flags, ver, '' if ks is None else '%.6g' % ks, '' if gc is None else '%.2f' % gc, note])

def hx_result(name, col, tag, mode):
    """(state, gcells, kernel_s, note) of one hextile harness or hextile run configuration."""
    v = read(os.path.join(logs, '%s.%s.%s.%s.verify' % (name, col, tag, mode)))
    t = read(os.path.join(logs, '%s.%s.%s.%s.time' % (name, col, tag, mode)))
    if v is None:
        return ('-', None, None, 'not run')
    if v.startswith('skipped'):
        return ('skip', None, None, v.strip()[:160])
    if v.startswith('build failed'):
        return ('err', None, None, v.strip()[:200])
    line = field(v, 'verify') or ''
    vl = re.search(r'(?m)^verify: .*', v)
    vl = vl.group(0) if vl else ''
    if col == 'hx' and mode == 'fast':
        e = num(field(v, 'rel-error'))
        ok = e is not None and e <= fm_tol
        note = 'rel-error %s' % (field(v, 'rel-error') or '?')
    else:
        ok = line == 'ok'
        note = vl[:120]
    if not ok:
        last = (v.strip().splitlines() or ['empty log'])[-1][:160]
        return ('FAIL', None, None, note or 'no verify line: ' + last)
    if t is None:
        return ('-', None, None, 'verified, not timed')
    if t.startswith('skipped'):
        return ('skip', None, None, 'time limit')
    gc, ks = num(field(t, 'gcells-kernel')), num(field(t, 'time-gpu-kernel'))
    if gc is None:
        return ('err', None, None, (t.strip().splitlines() or [''])[-1][:120])
    return ('ok', gc, ks, note)

def fmt(state, gc, extra=''):
    if state != 'ok':
        return state
    return '%.1f%s' % (gc, (' (%s)' % extra) if extra else '')

for name, label, inp, full, small, reps, ppcg, an5d in rows:
    c = {}
    # hextile harness: default and best per mode
    for mode in ('exact', 'fast'):
        best = None
        res = []
        for tag, flags, st in hx.get(name, []):
            if st != 'ok':
                put(name, label, 'hextile', mode, tag, flags, 'compile refused', None, None, st)
                continue
            s, gc, ks, note = hx_result(name, 'hx', tag, mode)
            put(name, label, 'hextile', mode, tag, flags, s, ks, gc, note)
            res.append((tag, flags, s, gc))
            if s == 'ok' and (best is None or gc > best[3]):
                best = (tag, flags, s, gc)
        # the default: no flags (exact), the model's fast-math choice (fast) where the row lists it
        d = [r for r in res if r[0] == 'c0']
        if mode == 'fast':
            d = [r for r in res if r[1] == '--fast-math'] or d
        c['def_' + mode] = fmt(d[0][2], d[0][3]) if d else '-'
        if best:
            c['best_' + mode] = fmt('ok', best[3], short(best[1]))
            c['bestv_' + mode] = best[3]
        else:
            c['best_' + mode] = next((r[2] for r in res if r[2] in ('FAIL', 'skip', 'err')), '-')
        s, gc, ks, note = hx_result(name, 'ptx', 'c0', mode)
        put(name, label, 'hextile-ptx', mode, 'c0', '-', s, ks, gc, note)
        c['ptx_' + mode] = fmt(s, gc)
    # ppcg: median kernel_s of its runs; checksum against its CPU run
    if ppcg != '-':
        pd, expr = ppcg.split()[0], ppcg.split()[1]
        ncell = eval(expr.replace('^', '**'), {'__builtins__': {}})
        bench = pd.split('/')[0]
        for mode in ('exact', 'fast'):
            t = read(os.path.join(logs, '%s.ppcg.%s.%s.time' % (name, pd.replace('/', '.'), mode)))
            ks = [float(x) for x in re.findall(r'(?m)^kernel_s (\S+)', t or '')]
            sums = [float(x) for x in re.findall(r'(?m)^checksum (\S+)', t or '')]
            note, state, gc, k = '', '-', None, None
            if t is not None and t.startswith('build failed'):
                state, note = 'err', t.strip()[:200]
            elif t is not None and 'skipped' in t and not ks:
                state = 'skip'
            elif ks:
                k = statistics.median(ks)
                gc = ncell / k / 1e9
                state = 'ok'
                ref = cpu.get(bench)
                if sums and ref:
                    note = 'checksum rel diff %.2g vs CPU' % (abs(sums[0] - ref) / abs(ref))
            elif t is not None:
                state = 'err'
            put(name, label, 'ppcg', mode, pd, '-', state, k, gc, note)
            c['ppcg_' + mode] = fmt(state, gc)
    else:
        c['ppcg_exact'] = c['ppcg_fast'] = '-'
    # AN5D: its -c check, median of its per-run times
    if an5d != '-':
        cfg, s_, t_ = an5d.split()
        dims = 3 if 'x' in cfg.split('-')[1] else 2
        ncell = float(s_) ** dims * float(t_)
        for mode in ('exact', 'fast'):
            v = read(os.path.join(logs, 'an5d.%s.%s.verify' % (cfg, mode)))
            t = read(os.path.join(logs, '%s.an5d.%s.%s.time' % (name, cfg, mode)))
            err = num(field(v, 'Max Error'))
            state, gc, k, note = '-', None, None, ''
            if v is None:
                state = '-'
            elif v.startswith('skipped'):
                state = 'skip'
            elif v.startswith('build failed'):
                state, note = 'err', v.strip()[:200]
            elif err is None or err > an_tol:
                state, note = 'FAIL', '-c Max Error %s' % (field(v, 'Max Error') or 'missing')
            elif t is None:
                state = '-'
            elif t.startswith('skipped'):
                state = 'skip'
            else:
                ms = [float(x) for x in re.findall(r'(?m)^\s*\d+:\s+\S+ GFLOPS,\s+(\S+) ms', t)]
                if ms:
                    k = statistics.median(ms) / 1e3
                    gc = ncell / k / 1e9
                    state = 'ok'
                    note = '-c Max Error %s' % field(v, 'Max Error')
                else:
                    state = 'err'
            put(name, label, 'an5d', mode, cfg, '-s %s -t %s' % (s_, t_), state, k, gc, note)
            c['an5d_' + mode] = fmt(state, gc)
            if state == 'ok':
                c['an5dv_' + mode] = gc
    else:
        c['an5d_exact'] = c['an5d_fast'] = '-'
    for mode in ('exact', 'fast'):
        h, a = c.get('bestv_' + mode), c.get('an5dv_' + mode)
        c['ratio_' + mode] = '%.2f' % (h / a) if h and a else '-'
    cells[name] = (label, c)

cols = [('def_exact', 'hextile default exact'), ('def_fast', 'hextile default fast'),
        ('best_exact', 'hextile best exact (flags)'), ('best_fast', 'hextile best fast (flags)'),
        ('ptx_exact', 'PTX default exact'), ('ptx_fast', 'PTX default fast'),
        ('ppcg_exact', 'ppcg exact'), ('ppcg_fast', 'ppcg fast'),
        ('an5d_exact', 'AN5D IEEE'), ('an5d_fast', 'AN5D fast (native)'),
        ('ratio_exact', 'best/AN5D exact'), ('ratio_fast', 'best/AN5D fast')]
lines = ['| stencil, size x steps | ' + ' | '.join(h for _, h in cols) + ' |',
         '|---|' + '|'.join('--:' for _ in cols) + '|']
for name, label, *_ in rows:
    lab, c = cells[name]
    lines.append('| %s | %s |' % (lab, ' | '.join(c.get(k, '-') for k, _ in cols)))
lines += ['',
          'Kernel-only GCells/s (float; interior points x steps / kernel time, median of the row\'s runs after a warm-up).',
          'exact: nvcc -fmad=false, IEEE division and square root (hextile verified bit for bit with the C program at a small size);',
          'fast: --use_fast_math (hextile: relative L2 error <= %g at the small size; AN5D\'s native build).' % fm_tol,
          'AN5D IEEE: AN5D\'s code without --use_fast_math and with -fmad=false; AN5D checked by its -c (Max Error <= %g).' % an_tol,
          'hextile best: fastest verified of the default and the row\'s flags in bench/sidebyside.conf. PTX: the default through',
          '--target=ptx, run by hextile run --device=gpu (Go driver runtime). FAIL: verification failed (not timed);',
          'skip: time limit; err: build failed or no result (see sidebyside.tsv); -: not applicable or not run.',
          'laplacian2d/gradient2d/laplacian3d: hextile and ppcg run ppcg\'s input, AN5D its own j2d5pt/gradient2d/star3d1r',
          'at the same size (other coefficients).']
with open(os.path.join(out, 'table.md'), 'w') as f:
    f.write('\n'.join(lines) + '\n')
with open(os.path.join(out, 'sidebyside.tsv'), 'w') as f:
    f.write('row\tlabel\tcolumn\tmode\tconfig\tflags\tverify\tkernel_s\tgcells_kernel\tnote\n')
    for r in tsv:
        f.write('\t'.join(r) + '\n')
print('\n'.join(lines))
PY
  local rc=$?
  rm -f "$OUT/.rows"
  return $rc
}

# selftest: the table from fake logs of two rows (every cell state: verified and timed, bit-exact
# failure, fast-math tolerance failure, refused configuration, time limit, AN5D -c failure, ppcg
# medians and checksum), compared with the expected table lines.
selftest() {
  local t; t=$(mktemp -d)
  D=$t/d OUT=$t/out
  mkdir -p "$D" "$OUT/logs"
  local L=$OUT/logs
  tsvline() { local IFS=$'\t'; echo "$*"; }
  {
    tsvline lap 'lap 2048^2 x 512' bench/inputs/laplacian2d.c 'N=2048 T=512' 'N=31 T=5' 3 'laplacian2d/plain 2046^2*512' 'j2d5pt-512-16-128 2046 512'
    tsvline s3 's3 512^3 x 200' an5d:star3d1r 'dimsize=514 timestep=50' 'dimsize=45 timestep=9' 1 - 'star3d1r-32x32-4-128 512 200'
  } > "$D/rows"
  printf 'lap\tc0\t-\tok\nlap\tc1\t--tile=none --sizes=3,32,64\tok\nlap\tc2\t--tile=none\tok\n' > "$D/hx.list"
  printf 's3\tc0\t-\tok\ns3\tc1\t--tile=hybrid --shared\terror: the generated CUDA has an unsupported expression\n' >> "$D/hx.list"
  printf 'laplacian2d 2.0761927839e+06 2.29\n' > "$t/cpu.txt"
  h() { printf 'verify: %s\nmax-diff: 0\nrel-error: %s\n' "$2" "$3" > "$L/$1.verify"; }
  tm() { printf 'verify: skipped\ntime-gpu-kernel: %s\ngcells-kernel: %s\n' "$2" "$3" > "$L/$1.time"; }
  h lap.hx.c0.exact ok 0; tm lap.hx.c0.exact 0.0285 75.2
  h lap.hx.c0.fast 'FAILED: A[0][1][2]: original 1, gpu 1.0000001' 1e-7; tm lap.hx.c0.fast 0.0143 150
  h lap.hx.c1.exact ok 0; tm lap.hx.c1.exact 0.0056 383.6
  h lap.hx.c1.fast 'FAILED: A[0][1][2]: original 1, gpu 1.0000001' 2e-7; tm lap.hx.c1.fast 0.0043 500
  h lap.hx.c2.exact 'FAILED: A[0][3][4]: original 1, gpu 2' 0.1
  h lap.hx.c2.fast 'FAILED: A[0][3][4]: original 1, gpu 2' 0.5
  printf 'verify: ok\n' > "$L/lap.ptx.c0.exact.verify"; tm lap.ptx.c0.exact 0.0268 80
  printf 'checksum 2.0761927839e+06\nsample 1\ntime_s 0.0155\nkernel_s 0.0077\n' > "$L/lap.ppcg.laplacian2d.plain.exact.time"
  printf 'checksum 2.0761927839e+06\nsample 1\ntime_s 0.0155\nkernel_s 0.0076\n' >> "$L/lap.ppcg.laplacian2d.plain.exact.time"
  printf 'checksum 2.0761927839e+06\nsample 1\ntime_s 0.0155\nkernel_s 0.0075\n' >> "$L/lap.ppcg.laplacian2d.plain.exact.time"
  echo 'skipped: time limit (LIMIT=540 s)' > "$L/lap.ppcg.laplacian2d.plain.fast.time"
  printf '[CPU execution]\n1.0 ms\nMax Error: 0.000000e+00\nRMS Error: 0.0e+00\n' > "$L/an5d.j2d5pt-512-16-128.exact.verify"
  printf '[CPU execution]\n1.0 ms\nMax Error: 1.800000e-04\nRMS Error: 1.0e-05\n' > "$L/an5d.j2d5pt-512-16-128.fast.verify"
  printf '[Device warm-up]\n9.0 ms\n\n[Device execution]\n      0:  1000.0000 GFLOPS,     7.5000 ms\n      1:  1000.0000 GFLOPS,     7.0000 ms\n      2:  1000.0000 GFLOPS,     6.9000 ms\nAverage:  1000.0 GFLOPS, 7.1333 ms\n' > "$L/lap.an5d.j2d5pt-512-16-128.exact.time"
  printf '[Device execution]\n      0:  1000.0000 GFLOPS,     3.5000 ms\nAverage:  1000.0 GFLOPS, 3.5 ms\n' > "$L/lap.an5d.j2d5pt-512-16-128.fast.time"
  h s3.hx.c0.exact ok 0; echo 'skipped: time limit (LIMIT=540 s)' > "$L/s3.hx.c0.exact.time"
  echo 'skipped: time limit (LIMIT=540 s)' > "$L/s3.hx.c0.fast.verify"
  printf 'Max Error: 5.000000e+00\n' > "$L/an5d.star3d1r-32x32-4-128.fast.verify"
  printf 'Max Error: 0.000000e+00\n' > "$L/an5d.star3d1r-32x32-4-128.exact.verify"
  printf '      0:   500.0000 GFLOPS,   100.0000 ms\n' > "$L/s3.an5d.star3d1r-32x32-4-128.exact.time"
  PEERS_CHK=$t/cpu.txt table > "$t/table.txt" || { echo "selftest: table failed"; cat "$t/table.txt"; return 1; }
  local want=(
    '| lap 2048^2 x 512 | 75.2 | 150.0 | 383.6 (none 3,32,64) | 500.0 (none 3,32,64) | 80.0 | - | 282.0 | skip | 306.2 | 612.4 | 1.25 | 0.82 |'
    '| s3 512^3 x 200 | skip | skip | skip | skip | - | - | - | - | 268.4 | FAIL | - | - |'
  )
  local w bad=0
  for w in "${want[@]}"; do
    grep -qxF "$w" "$t/table.txt" || { echo "selftest: missing line: $w"; bad=1; }
  done
  # the TSV: one line per measurement, the refused configuration with its reason
  grep -q $'^s3\ts3 512^3 x 200\thextile\texact\tc1\t--tile=hybrid --shared\tcompile refused\t' "$OUT/sidebyside.tsv" || { echo "selftest: the TSV lacks the refused configuration"; bad=1; }
  grep -q $'^lap\t.*\tppcg\texact\tlaplacian2d/plain\t-\tok\t0.0076\t282.01\tchecksum rel diff 0 vs CPU$' "$OUT/sidebyside.tsv" || { echo "selftest: the TSV lacks ppcg's median"; bad=1; }
  if [ $bad = 1 ] || [ "${VERBOSE:-0}" = 1 ]; then cat "$t/table.txt" "$OUT/sidebyside.tsv"; fi
  rm -rf "$t"
  [ $bad = 0 ] && echo "selftest: ok (1 passed, 0 failed)"
  return $bad
}

case ${1:-} in
prepare) prepare ;;
run) PEERS_CHK=$P/ppcg/cpu_full_checksums.txt run ;;
table) PEERS_CHK=$P/ppcg/cpu_full_checksums.txt table ;;
selftest) selftest ;;
*) echo "usage: bash bench/sidebyside.sh prepare|run|table|selftest" >&2; exit 2 ;;
esac
