#!/bin/sh
# The man page must render with no groff warnings.
out=$(groff -man -ww -z "$1" 2>&1)
if [ -n "$out" ]; then
  echo "$out"
  exit 1
fi
echo "man page renders cleanly"
