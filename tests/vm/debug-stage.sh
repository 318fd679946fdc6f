#!/usr/bin/env bash
# debug-stage.sh SRC DST: make DST a copy of the tests directory SRC whose t/
# holds, besides the stock-lane tests, the debug lane's own files, so that
# tests/guest/run-all.sh runs them all in one sorted sequence:
#   t-debug/*.sh       as they are (001-debug-kernel, 70-kunit, 99-kmemleak)
#   stress/NN-*.sh      as t/80-stress-NN-*.sh (after the stock tests, before
#                      the kmemleak scan)
# Used on the host (to list the files and their limits) and in the guest.
set -euo pipefail
src=$1 dst=$2
rm -rf "$dst"
mkdir -p "$dst"
cp -a "$src"/. "$dst"/
rm -rf "$dst/out"
shopt -s nullglob
for f in "$src"/t-debug/*.sh; do cp "$f" "$dst/t/${f##*/}"; done
for f in "$src"/stress/[0-9][0-9]-*.sh; do cp "$f" "$dst/t/80-stress-${f##*/}"; done
