// npm run upstream:build -- <path to a github/copilot-sdk git repository>: regenerates
// patches/upstream/*.patch from src/ and the tests, against the commit in patches/upstream/BASE.

import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib/sdkPatch.mjs";
import { generateUpstreamSeries, seriesBase } from "./lib/upstreamSeries.mjs";

const repo = process.argv[2] ?? process.env.COPILOT_SDK_REPO;
if (repo === undefined) {
    console.error(
        "Usage: npm run upstream:build -- <path to a github/copilot-sdk git repository with the commit in patches/upstream/BASE>"
    );
    process.exit(2);
}
const series = await generateUpstreamSeries({ repo, base: seriesBase() });
const folder = join(ROOT, "patches", "upstream");
for (const name of readdirSync(folder).filter((name) => name.endsWith(".patch"))) {
    rmSync(join(folder, name));
}
for (const [name, text] of series) {
    writeFileSync(join(folder, name), text);
    console.log(`wrote patches/upstream/${name}`);
}
