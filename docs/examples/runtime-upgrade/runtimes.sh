#!/usr/bin/env bash
# The step "The runtimes of the base and the head lockfile" of runtime-upgrade.yml: for the app's
# lockfile (package-lock.json or pnpm-lock.yaml) at <base ref> and in the working tree, the
# runtime each gives the app, installed into <cache folder>, and the SDK release each locks;
# writes base=<path>, head=<path>, base_sdk=<version> and head_sdk=<version> to $GITHUB_OUTPUT
# (or stdout). Fails when either cannot be told.
# Usage: bash runtimes.sh <base ref> <cache folder>
set -eo pipefail
base_ref=${1:?usage: runtimes.sh <base ref> <cache folder>}
cache=${2:?usage: runtimes.sh <base ref> <cache folder>}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -f pnpm-lock.yaml ]]; then
    lockfile=pnpm-lock.yaml
elif [[ -f package-lock.json ]]; then
    lockfile=package-lock.json
else
    echo "runtimes: no package-lock.json or pnpm-lock.yaml in $(pwd): run this in the app's folder." >&2
    exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git show "$base_ref:$lockfile" > "$scratch/$lockfile"
base_spec=$(node "$here/lockfile-runtime.mjs" "$scratch/$lockfile")
head_spec=$(node "$here/lockfile-runtime.mjs" "$lockfile")
base_sdk=$(node "$here/lockfile-runtime.mjs" --sdk "$scratch/$lockfile")
head_sdk=$(node "$here/lockfile-runtime.mjs" --sdk "$lockfile")
echo "base ($base_ref): $base_spec (SDK $base_sdk); head: $head_spec (SDK $head_sdk)" >&2
base=$(bash "$here/runtime-path.sh" "$base_spec" "$cache")
head=$(bash "$here/runtime-path.sh" "$head_spec" "$cache")
if [[ -z $base || -z $head || -z $base_sdk || -z $head_sdk ]]; then
    echo "runtimes: an empty value (base '$base', head '$head', SDKs '$base_sdk', '$head_sdk')." >&2
    exit 3
fi
printf 'base=%s\nhead=%s\nbase_sdk=%s\nhead_sdk=%s\n' "$base" "$head" "$base_sdk" "$head_sdk" \
    >> "${GITHUB_OUTPUT:-/dev/stdout}"
