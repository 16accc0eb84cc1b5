/**
 * The CLI's decisions without an app on disk: how `init` rewrites package.json for npm and pnpm,
 * and what `doctor` reads from a Dockerfile and a .dockerignore. Expected values are written from
 * the rules docs/adopting.md states (patch-package in dependencies with both flags; patchedDependencies
 * naming only the installed version; patches/ copied before the install).
 */
import { describe, expect, it } from "vitest";
import { renderManifest } from "../../src/cli/app.js";
import { checkDockerfile, checkDockerignore } from "../../src/cli/containerCheck.js";
import { compareVersions } from "../../src/cli/patchFiles.js";
import { wirePatch } from "../../src/cli/wiring.js";

const PATCH = "@github+copilot-sdk+1.0.14.patch";
const POSTINSTALL = "patch-package --error-on-fail --error-on-warn";
/** What the app depends on for this package (its exact version). */
const OWN = "0.4.0";

describe("init's package.json for npm", () => {
    it("pins the SDK, adds patch-package to dependencies and the postinstall", () => {
        const json = { name: "app", dependencies: { "@github/copilot-sdk": "^1.0.14" } };
        const { json: wired, changes } = wirePatch(json, "npm", "1.0.14", OWN);
        expect(wired).toEqual({
            name: "app",
            dependencies: {
                "@github/copilot-sdk": "1.0.14",
                "copilot-sdk-tool-override": OWN,
                "patch-package": "8.0.1",
            },
            scripts: { postinstall: POSTINSTALL },
        });
        expect(changes).toHaveLength(4);
        expect(json).toEqual({ name: "app", dependencies: { "@github/copilot-sdk": "^1.0.14" } });
    });

    it("moves patch-package out of devDependencies, which production installs omit", () => {
        const { json } = wirePatch(
            {
                dependencies: { "@github/copilot-sdk": "1.0.14" },
                devDependencies: { "patch-package": "8.0.1", vitest: "4.1.12" },
                scripts: { postinstall: POSTINSTALL },
            },
            "npm",
            "1.0.14",
            OWN
        );
        expect(json.devDependencies).toEqual({ vitest: "4.1.12" });
        expect(json.dependencies).toEqual({
            "@github/copilot-sdk": "1.0.14",
            "copilot-sdk-tool-override": OWN,
            "patch-package": "8.0.1",
        });
    });

    it("adds the flags to a bare patch-package postinstall and keeps one that has them", () => {
        expect(
            wirePatch({ scripts: { postinstall: "patch-package" } }, "npm", "1.0.14", OWN).json
                .scripts
        ).toEqual({ postinstall: POSTINSTALL });
        const chained = `${POSTINSTALL} && node build.js`;
        expect(
            wirePatch({ scripts: { postinstall: chained } }, "npm", "1.0.14", OWN).json.scripts
        ).toEqual({ postinstall: chained });
    });

    it("refuses to overwrite another postinstall, naming it and how to chain them", () => {
        expect(() =>
            wirePatch({ scripts: { postinstall: "node build.js" } }, "npm", "1.0.14", OWN)
        ).toThrow(
            `package.json has a postinstall of its own, 'node build.js', which this command would overwrite. Add the patch step to it yourself, e.g. "postinstall": "${POSTINSTALL} && node build.js", then run this command again.`
        );
    });

    it("changes nothing in a package.json that is wired already", () => {
        const json = {
            dependencies: {
                "@github/copilot-sdk": "1.0.14",
                "copilot-sdk-tool-override": OWN,
                "patch-package": "8.0.1",
            },
            scripts: { postinstall: POSTINSTALL },
        };
        expect(wirePatch(json, "npm", "1.0.14", OWN)).toEqual({ json, changes: [] });
    });

    it("keeps the SDK in devDependencies when the app has it there", () => {
        const { json } = wirePatch(
            { devDependencies: { "@github/copilot-sdk": "1.0.13" } },
            "npm",
            "1.0.14",
            OWN
        );
        expect(json.devDependencies).toEqual({ "@github/copilot-sdk": "1.0.14" });
    });
});

describe("init's package.json for pnpm", () => {
    it("names only the new version's patch and adds koffi to the built dependencies", () => {
        const { json, changes } = wirePatch(
            {
                dependencies: { "@github/copilot-sdk": "1.0.13" },
                pnpm: {
                    patchedDependencies: {
                        "@github/copilot-sdk@1.0.13": "patches/@github__copilot-sdk@1.0.13.patch",
                        "left-pad@1.3.0": "patches/left-pad@1.3.0.patch",
                    },
                    onlyBuiltDependencies: ["esbuild"],
                },
            },
            "pnpm",
            "1.0.14",
            OWN
        );
        expect(json).toEqual({
            dependencies: { "@github/copilot-sdk": "1.0.14", "copilot-sdk-tool-override": OWN },
            pnpm: {
                patchedDependencies: {
                    "left-pad@1.3.0": "patches/left-pad@1.3.0.patch",
                    "@github/copilot-sdk@1.0.14": "patches/@github__copilot-sdk@1.0.14.patch",
                },
                packageExtensions: {
                    "@github/copilot-sdk": { dependencies: { "copilot-sdk-tool-override": OWN } },
                },
                onlyBuiltDependencies: ["esbuild", "koffi"],
            },
        });
        expect(changes).toContain("pnpm.patchedDependencies: @github/copilot-sdk@1.0.13 removed");
    });

    it("replaces a bare @github/copilot-sdk key with the versioned one, never adding one beside it", () => {
        const { json, changes } = wirePatch(
            {
                dependencies: { "@github/copilot-sdk": "1.0.14" },
                pnpm: {
                    patchedDependencies: {
                        "@github/copilot-sdk": "patches/hand-made.patch",
                        "left-pad@1.3.0": "patches/left-pad@1.3.0.patch",
                    },
                },
            },
            "pnpm",
            "1.0.14",
            OWN
        );
        expect((json.pnpm as Record<string, unknown>).patchedDependencies).toEqual({
            "left-pad@1.3.0": "patches/left-pad@1.3.0.patch",
            "@github/copilot-sdk@1.0.14": "patches/@github__copilot-sdk@1.0.14.patch",
        });
        expect(changes).toContain(
            "pnpm.patchedDependencies: @github/copilot-sdk (no version: pnpm would install other releases unpatched) replaced by @github/copilot-sdk@1.0.14"
        );
    });

    it("refuses patch-package in a pnpm app's postinstall", () => {
        expect(() =>
            wirePatch({ scripts: { postinstall: POSTINSTALL } }, "pnpm", "1.0.14", OWN)
        ).toThrow(/runs patch-package in its postinstall .*, but this app uses pnpm/);
    });
});

describe("init's package.json for this package", () => {
    it("moves it out of devDependencies: the patched SDK imports it at run time", () => {
        const { json, changes } = wirePatch(
            {
                dependencies: { "@github/copilot-sdk": "1.0.14" },
                devDependencies: { "copilot-sdk-tool-override": "0.4.0", vitest: "4.1.12" },
            },
            "npm",
            "1.0.14",
            "file:../copilot-sdk-tool-override-0.4.0.tgz"
        );
        expect(json.devDependencies).toEqual({ vitest: "4.1.12" });
        expect((json.dependencies as Record<string, string>)["copilot-sdk-tool-override"]).toBe(
            "file:../copilot-sdk-tool-override-0.4.0.tgz"
        );
        expect(changes[0]).toMatch(
            /^devDependencies: copilot-sdk-tool-override moved to dependencies/
        );
    });
});

describe("package.json as written back", () => {
    it("keeps the indentation and the final newline", () => {
        expect(renderManifest('{\n\t"a": 1\n}\n', { a: 1, b: [2] })).toBe(
            '{\n\t"a": 1,\n\t"b": [\n\t\t2\n\t]\n}\n'
        );
        expect(renderManifest('{\n    "a": 1\n}', { a: 2 })).toBe('{\n    "a": 2\n}');
    });
});

describe("doctor's Dockerfile check", () => {
    it("passes when patches/ is copied before the install, by name or with the whole context", () => {
        for (const copy of [
            "COPY patches ./patches",
            "COPY patches/ patches/",
            "COPY ./patches /app/patches",
            'COPY ["patches", "./patches"]',
            "COPY --chown=node:node . .",
            "ADD patches/*.patch ./patches/",
        ]) {
            const findings = checkDockerfile(
                `FROM node:20\nCOPY package*.json ./\n${copy}\nRUN npm ci --omit=dev\n`,
                "Dockerfile",
                PATCH
            );
            expect(findings, copy).toEqual([
                { ok: true, message: "Dockerfile copies patches/ before `npm ci` (line 4)" },
            ]);
        }
    });

    it("fails for an install before the copy, in every stage, with the line and the fix", () => {
        const dockerfile = [
            "FROM node:20 AS build",
            "COPY . .",
            "RUN npm ci",
            "FROM node:20",
            "COPY --from=build /app/patches ./patches",
            "COPY package.json package-lock.json ./",
            "RUN npm ci \\",
            "    --omit=dev",
        ].join("\n");
        expect(checkDockerfile(dockerfile, "Dockerfile", PATCH)).toEqual([
            { ok: true, message: "Dockerfile copies patches/ before `npm ci` (line 3)" },
            {
                ok: false,
                message:
                    "Dockerfile line 7 runs `npm ci` before patches/ is copied into the image, so the SDK there is installed unpatched (patch-package finds no patch and exits 0). Fix: add `COPY patches ./patches` before line 7.",
            },
        ]);
    });

    it("recognises pnpm installs and ignores commands that install nothing", () => {
        const findings = checkDockerfile(
            "FROM node:20\nRUN npm run build\nRUN corepack enable && pnpm install --frozen-lockfile\n",
            "Containerfile",
            "@github__copilot-sdk@1.0.14.patch"
        );
        expect(findings.map((finding) => [finding.ok, finding.message.slice(0, 40)])).toEqual([
            [false, "Containerfile line 3 runs `pnpm install`"],
        ]);
    });
});

describe("doctor's .dockerignore check", () => {
    it("fails for rules that drop the patch, and passes when a later rule brings it back", () => {
        for (const rule of ["patches", "patches/", "/patches", "**/*.patch", "*"]) {
            expect(checkDockerignore(`node_modules\n${rule}\n`, PATCH).ok, rule).toBe(false);
        }
        expect(checkDockerignore("*\n!patches\n!package*.json\n", PATCH).ok).toBe(true);
        expect(checkDockerignore("node_modules\n*.md\n# patches\n", PATCH)).toEqual({
            ok: true,
            message: `.dockerignore keeps patches/${PATCH} in the build context`,
        });
    });
});

describe("version order of the patched releases", () => {
    it("puts a preview before its release and 1.0.9 before 1.0.13", () => {
        expect(
            ["1.0.15", "1.0.13", "1.0.15-preview.4", "1.0.9", "1.0.15-preview.10"].sort(
                compareVersions
            )
        ).toEqual(["1.0.9", "1.0.13", "1.0.15-preview.4", "1.0.15-preview.10", "1.0.15"]);
    });
});
