#!/bin/sh
# eruplan snapshot with a stand-in kubectl first on PATH (never a cluster):
# the files it writes, read back by plan; kubectl failing or missing is
# exit 3 with its message.
set -eu
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/out"
cat >"$work/bin/kubectl" <<SCRIPT
#!/bin/sh
echo "\$*" >>"$work/calls"
case "\$*" in
  *"get nodes -o json") cat "$src/fixtures/kubernetes/nodes.json" ;;
  *"get pods -A -o json") cat "$src/fixtures/kubernetes/pods.json" ;;
  *"get priorityclasses -o json") cat "$src/fixtures/kubernetes/priority-classes.json" ;;
  *"get pdb -A -o json") echo '{"apiVersion": "v1", "kind": "List", "items": []}' ;;
  *"get daemonsets -A -o json") cat "$src/fixtures/kubernetes/daemonset-gpu.yaml" ;;
  *) echo "unexpected: \$*" >&2; exit 1 ;;
esac
SCRIPT
chmod +x "$work/bin/kubectl"
PATH="$work/bin:$PATH" "$bin" snapshot -o "$work/out" --context prod >"$work/stdout"
for f in nodes.json pods.json priorityclasses.json pdbs.json daemonsets.json; do
  [ -s "$work/out/$f" ] || { echo "missing: $f"; exit 1; }
done
grep -q "^--context prod get pods -A -o json$" "$work/calls" || { echo "kubectl not called as expected"; cat "$work/calls"; exit 1; }
cmp "$work/out/nodes.json" "$src/fixtures/kubernetes/nodes.json"
grep -q "^wrote $work/out/nodes.json " "$work/stdout"
# Read back: the same plan as from the fixture files.
"$bin" plan -n "$work/out/nodes.json" --pods "$work/out/pods.json" \
  --priority-classes "$work/out/priorityclasses.json" --pdbs "$work/out/pdbs.json" \
  -r "$src/fixtures/kubernetes/deployment.yaml" -o json >"$work/a.json"
"$bin" plan -n "$src/fixtures/kubernetes/nodes.json" --pods "$src/fixtures/kubernetes/pods.json" \
  --priority-classes "$src/fixtures/kubernetes/priority-classes.json" \
  -r "$src/fixtures/kubernetes/deployment.yaml" -o json >"$work/b.json"
cmp "$work/a.json" "$work/b.json"
# kubectl failing: exit 3 with its message, no file written.
cat >"$work/bin/kubectl" <<'SCRIPT'
#!/bin/sh
echo "error: You must be logged in to the server (Unauthorized)" >&2
exit 1
SCRIPT
mkdir "$work/out2"
set +e
PATH="$work/bin:$PATH" "$bin" snapshot -o "$work/out2" 2>"$work/err"
rc=$?
set -e
[ "$rc" -eq 3 ] || { echo "failing kubectl: exit $rc, want 3"; exit 1; }
grep -q "Unauthorized" "$work/err" || { echo "failing kubectl: message lost"; cat "$work/err"; exit 1; }
[ -z "$(ls "$work/out2")" ] || { echo "failing kubectl: files written"; exit 1; }
# kubectl missing.
rm "$work/bin/kubectl"
set +e
PATH="$work/bin" "$bin" snapshot -o "$work/out2" 2>"$work/err"
rc=$?
set -e
[ "$rc" -eq 3 ] || { echo "missing kubectl: exit $rc, want 3"; exit 1; }
grep -q "cannot run kubectl" "$work/err" || { echo "missing kubectl: message"; cat "$work/err"; exit 1; }
echo "snapshot: five files written by a stand-in kubectl and read back; failures are exit 3"
