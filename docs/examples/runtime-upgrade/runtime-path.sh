#!/usr/bin/env bash
# The path of the Copilot runtime an npm spec from lockfile-runtime.mjs names, installed once into
# a cache folder: the runtime an SDK release bundles (@github/copilot-sdk@<version>: the wrapper in
# its platform package) or a copilot CLI (@github/copilot@<version>).
# Usage: bash runtime-path.sh <spec> <cache folder>. Prints the path; fails loudly otherwise.
set -eo pipefail
spec=${1:?usage: runtime-path.sh <spec> <cache folder>}
cache=${2:?usage: runtime-path.sh <spec> <cache folder>}
case "$spec" in
    @github/copilot-sdk@* | @github/copilot@*) ;;
    *)
        echo "runtime-path: '$spec' is not @github/copilot-sdk@<version> or @github/copilot@<version>." >&2
        exit 2
        ;;
esac
prefix="$cache/runtimes/${spec//\//+}"
platform=$(node -p 'process.platform + "-" + process.arch')
if [[ $spec == @github/copilot-sdk@* ]]; then
    runtime="$prefix/node_modules/@github/copilot-sdk-$platform/prebuilds/$platform/copilot-runtime"
else
    runtime="$prefix/node_modules/.bin/copilot"
fi
if [[ ! -x $runtime ]]; then
    rm -rf "$prefix"
    mkdir -p "$prefix"
    echo '{ "private": true }' > "$prefix/package.json"
    # A nested npm started from `npm run -s` would print nothing, not even its errors.
    npm_config_loglevel=error npm install --prefix "$prefix" --no-save --no-audit --no-fund \
        --ignore-scripts "$spec" >&2
fi
if [[ ! -x $runtime ]]; then
    echo "runtime-path: installing $spec gave no runtime at $runtime (no platform package for $platform?)." >&2
    exit 3
fi
echo "$runtime"
