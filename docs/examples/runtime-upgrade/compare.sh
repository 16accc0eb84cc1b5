#!/usr/bin/env bash
# The step "Compare the two runtimes for the app's tools" of runtime-upgrade.yml: runs the app's
# own copy of copilot-sdk-tool-override (pnpm exec or npx --no: never a download) to compare the
# two runtimes for the app's session config, accepting the reviewed differences; the JSON report
# goes to <report>. Exit: 0 nothing the app relies on changed; 1 something did; 2 usage; 3 probe.
# Each runtime is driven by the SDK release its lockfile locks (<base sdk>, <head sdk>).
# Usage: bash compare.sh <base runtime> <head runtime> <app module> <reviewed differences> <report>
#        <base sdk> <head sdk>
set -eo pipefail
usage="usage: compare.sh <base runtime> <head runtime> <app module> <reviewed differences> <report> <base sdk> <head sdk>"
if [[ $# -ne 7 ]]; then
    echo "$usage" >&2
    exit 2
fi
if [[ -z $6 || -z $7 ]]; then
    echo "compare: an empty SDK version ('$6', '$7'): the runtimes step gave none." >&2
    exit 2
fi
for runtime in "$1" "$2"; do
    if [[ -z $runtime || ! -x $runtime ]]; then
        echo "compare: runtime '$runtime' is not an executable: the runtimes step gave no path." >&2
        exit 2
    fi
done
if [[ -f pnpm-lock.yaml ]]; then run=(pnpm exec); else run=(npx --no); fi
"${run[@]}" copilot-sdk-tool-override conformance --compare "$1" "$2" \
    --sdk-a "$6" --sdk-b "$7" --app "$3" --accept "$4" --json > "$5"
