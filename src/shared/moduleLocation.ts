// Where this module is, for resolving @github/copilot-sdk as the app's own code resolves it.
// The CommonJS builds replace this file with one that exports `__filename` as a file URL
// (scripts/package/build.mjs; scripts/patch/lib/constructionChecks.mjs for the benchmark's copy),
// because `import.meta` does not exist there.

// @ts-ignore: `import.meta` is not allowed in the CommonJS compile of this file, which the build replaces
const here: string = import.meta.url;

/** The file URL of this module in the build the app loaded (ESM or CommonJS). */
export const MODULE_URL: string = here;
