// npm run upstream:build -- <path to a github/copilot-sdk git repository>: regenerates the upstream
// pull requests (patches/upstream/<n>-<slug>/*.patch) from upstream/, against the commit in
// patches/upstream/BASE, and the record of what they were generated from
// (patches/upstream/SOURCES.sha256, which `npm run patch:check` compares offline).

import { checkArguments } from "../../build/cli/cliArguments.js";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
    FINGERPRINT,
    generateUpstreamSeries,
    SERIES,
    seriesBase,
    seriesFingerprint,
} from "./lib/upstreamSeries.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run upstream:build -- <path to a github/copilot-sdk git repository with the commit in patches/upstream/BASE>",
    flags: {},
    positionals: 1,
});

const repo = process.argv[2] ?? process.env.COPILOT_SDK_REPO;
if (repo === undefined) {
    console.error(
        "Usage: npm run upstream:build -- <path to a github/copilot-sdk git repository with the commit in patches/upstream/BASE>"
    );
    process.exit(2);
}
const series = generateUpstreamSeries({ repo, base: seriesBase() });
for (const entry of readdirSync(SERIES, { withFileTypes: true })) {
    if (entry.isDirectory() && /^\d+-/.test(entry.name)) {
        rmSync(join(SERIES, entry.name), { recursive: true });
    } else if (entry.name.endsWith(".patch")) {
        rmSync(join(SERIES, entry.name));
    }
}
for (const [name, text] of series) {
    const path = join(SERIES, name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote patches/upstream/${name}`);
}
writeFileSync(FINGERPRINT, seriesFingerprint(series));
console.log("wrote patches/upstream/SOURCES.sha256");
