#!/bin/sh
# The layers of src/ (docs/ARCHITECTURE.md), lowest first. A file may include
# headers of its own layer and of the layers below it, never above: this
# reads every #include "..." of src/ and fails on one that runs upward, or on
# a header that is in no layer or in two. The build enforces the same through
# each layer's include directories; this says which line is wrong. It also
# fails on a source file of src/ or cli/ over 800 lines (one concept a file).
set -eu
src=${1:?usage: check_layers.sh SRC_DIR}/src
layers="model capacity strategy input plan output commands"
rank() { i=0; for l in $layers; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
status=0
for dir in "$src"/*/; do
  layer=$(basename "$dir")
  [ "$(rank "$layer")" -ge 0 ] || { echo "src/$layer: not a layer ($layers)"; status=1; }
done
for file in "$src"/*/*.h "$src"/*/*.cpp; do
  layer=$(basename "$(dirname "$file")")
  own=$(rank "$layer")
  grep -n '^#include "' "$file" | while IFS=: read -r line text; do
    header=$(echo "$text" | sed 's/#include "\(.*\)"/\1/')
    found=$(cd "$src" && ls -d */"$header" 2>/dev/null || true)
    count=$(echo "$found" | grep -c . || true)
    if [ "$count" -ne 1 ]; then
      echo "src/$layer/$(basename "$file"):$line: $header is in $count layers"
      exit 1
    fi
    theirs=$(rank "$(dirname "$found")")
    if [ "$theirs" -gt "$own" ]; then
      echo "src/$layer/$(basename "$file"):$line: $layer includes $found, a higher layer"
      exit 1
    fi
  done || status=1
done
for file in "$src"/*/*.h "$src"/*/*.cpp "$src"/../cli/*.cpp; do
  lines=$(wc -l < "$file")
  if [ "$lines" -gt 800 ]; then
    echo "${file#"$src"/}: $lines lines, over 800: split it by concept"
    status=1
  fi
done
[ $status -eq 0 ] && echo "layers: every include of src/ runs downward ($layers); no file over 800 lines"
exit $status
