#!/bin/sh
# `cmake --install` puts the binary, the man page and both completions in
# place (SPEC §13), and the installed completions are what the binary prints.
set -eu
cmake=$1
build=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
fail=0
for f in bin/eruplan share/man/man1/eruplan.1 share/bash-completion/completions/eruplan \
         share/zsh/vendor-completions/_eruplan; do
  if [ ! -s "$prefix/$f" ]; then
    echo "missing after install: $f"
    fail=1
  fi
done
[ "$fail" -eq 0 ] || exit 1
# kubectl's plugin name, beside the binary: kubectl runs kubectl-eruplan.
[ -x "$prefix/bin/kubectl-eruplan" ] || { echo "missing after install: bin/kubectl-eruplan"; exit 1; }
"$prefix/bin/kubectl-eruplan" --version | grep -q "^eruplan " ||
  { echo "kubectl-eruplan does not run eruplan"; exit 1; }
"$prefix/bin/eruplan" completion bash | cmp - "$prefix/share/bash-completion/completions/eruplan"
"$prefix/bin/eruplan" completion zsh | cmp - "$prefix/share/zsh/vendor-completions/_eruplan"
bash -n "$prefix/share/bash-completion/completions/eruplan"
if command -v zsh >/dev/null 2>&1; then zsh -n "$prefix/share/zsh/vendor-completions/_eruplan"; fi
echo "installed: binary, kubectl-eruplan, man page, bash and zsh completions"
