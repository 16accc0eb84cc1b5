/**
 * The spec of this package that `init` and `upgrade` write, and what `doctor` checks of it. The
 * rule (docs/adopting.md): the app's own spec is kept exactly as written, whatever its kind; a
 * spec is never replaced by a registry version the app did not choose (the name was unclaimed
 * there: whoever registered it would have their code installed into the SDK the app patches).
 * The registry is a local fake on 127.0.0.1, never the live one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
    checkSpec,
    chooseOwnSpec,
    classifySpec,
    npmRegistryLookup,
    type RegistryLookup,
} from "../../src/cli/ownSpec.js";
import { startFakeRegistry, type FakeRegistry } from "../support/fakeRegistry.js";
import { wirePatch } from "../../src/cli/wiring.js";

const NAME = "copilot-sdk-tool-override";
const app = mkdtempSync(join(tmpdir(), "own-spec-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** A lookup that fails the test when asked: a declared spec needs no registry. */
const noRegistry: RegistryLookup = (name, range) => {
    throw new Error(`the registry was asked for ${name}@${range}`);
};

describe("the spec init and upgrade write for this package", () => {
    const kept = [
        "0.4.0",
        "^0.4.0",
        "./copilot-sdk-tool-override-0.4.0.tgz",
        "file:../copilot-sdk-tool-override-0.4.0.tgz",
        "file:vendor/copilot-sdk-tool-override",
        "git+https://github.com/example/copilot-sdk-tool-override.git#v0.4.0",
        "github:example/copilot-sdk-tool-override",
        "https://example.com/copilot-sdk-tool-override-0.4.0.tgz",
    ];

    it("keeps the app's spec as written, for every kind, without asking the registry", () => {
        for (const spec of kept) {
            for (const where of ["dependencies", "devDependencies"]) {
                const json = { [where]: { "@github/copilot-sdk": "1.0.14", [NAME]: spec } };
                expect(chooseOwnSpec(json, undefined, "0.4.0", app, noRegistry), spec).toBe(spec);
                const wired = wirePatch(json, "npm", "1.0.15-preview.4", spec).json;
                expect((wired.dependencies as Record<string, string>)[NAME], spec).toBe(spec);
            }
        }
    });

    it("keeps a pnpm app's packageExtensions spec when the dependency sections lack it", () => {
        const json = {
            pnpm: {
                packageExtensions: {
                    "@github/copilot-sdk": { dependencies: { [NAME]: "./tool-override.tgz" } },
                },
            },
        };
        expect(chooseOwnSpec(json, undefined, "0.4.0", app, noRegistry)).toBe(
            "./tool-override.tgz"
        );
    });

    it("takes --package over the app's spec", () => {
        const json = { dependencies: { [NAME]: "./old.tgz" } };
        expect(chooseOwnSpec(json, "./new.tgz", "0.4.0", app, noRegistry)).toBe("./new.tgz");
    });

    it("uses this version when the app names none only if the registry has it, and refuses otherwise", () => {
        const has: RegistryLookup = () => ({ found: true, version: "0.4.0" });
        expect(chooseOwnSpec({}, undefined, "0.4.0", app, has)).toBe("0.4.0");
        const lacks: RegistryLookup = (name, range) => ({
            found: false,
            reason: `the registry answers 404 Not Found for ${name}@${range}`,
        });
        expect(() => chooseOwnSpec({}, undefined, "0.4.0", app, lacks)).toThrow(
            "package.json does not list copilot-sdk-tool-override, and the registry answers 404 Not Found for copilot-sdk-tool-override@0.4.0: an exact '0.4.0' would make the next install fail, or install whatever another publisher registers under that name. Nothing was changed. Name what the app installs it from: `--package <spec>`, e.g. `--package ./copilot-sdk-tool-override-0.4.0.tgz` for a packed copy in the app's folder."
        );
    });
});

describe("how a spec is read", () => {
    it("tells registry ranges, paths, git repositories, URLs and workspace packages apart", () => {
        expect(classifySpec(NAME, "0.4.0")).toEqual({
            kind: "registry",
            name: NAME,
            range: "0.4.0",
        });
        expect(classifySpec(NAME, "npm:other-name@^2")).toEqual({
            kind: "registry",
            name: "other-name",
            range: "^2",
        });
        expect(classifySpec(NAME, "./x.tgz")).toEqual({ kind: "path", path: "./x.tgz" });
        expect(classifySpec(NAME, "x-0.4.0.tgz")).toEqual({ kind: "path", path: "x-0.4.0.tgz" });
        expect(classifySpec(NAME, "file:../x")).toEqual({ kind: "path", path: "../x" });
        expect(classifySpec(NAME, "file:///tmp/x.tgz")).toEqual({
            kind: "path",
            path: "/tmp/x.tgz",
        });
        expect(classifySpec(NAME, "link:../x")).toEqual({ kind: "path", path: "../x" });
        expect(classifySpec(NAME, "owner/repo#main").kind).toBe("git");
        expect(classifySpec(NAME, "git+ssh://git@host/x.git").kind).toBe("git");
        expect(classifySpec(NAME, "https://host/x.tgz").kind).toBe("url");
        expect(classifySpec(NAME, "workspace:*").kind).toBe("workspace");
    });
});

describe("doctor's check that a spec can be installed", () => {
    it("finds a tarball or folder relative to the app, and names a missing one", () => {
        const dir = join(app, "paths");
        mkdirSync(join(dir, "vendor", "pkg"), { recursive: true });
        writeFileSync(join(dir, "x.tgz"), "");
        writeFileSync(join(dir, "vendor", "pkg", "package.json"), "{}");
        mkdirSync(join(dir, "empty"));
        expect(checkSpec(dir, NAME, "./x.tgz", noRegistry).status).toBe("ok");
        expect(checkSpec(dir, NAME, "file:vendor/pkg", noRegistry).status).toBe("ok");
        expect(checkSpec(dir, NAME, "./gone.tgz", noRegistry)).toEqual({
            status: "missing",
            detail: `${join(dir, "gone.tgz")} does not exist`,
        });
        expect(checkSpec(dir, NAME, "file:empty", noRegistry)).toEqual({
            status: "missing",
            detail: `${join(dir, "empty")} is a folder without a package.json`,
        });
    });

    it("does not claim a git repository or URL can be installed", () => {
        expect(checkSpec(app, NAME, "github:o/r", noRegistry).status).toBe("unchecked");
        expect(checkSpec(app, NAME, "https://host/x.tgz", noRegistry).status).toBe("unchecked");
    });
});

describe("the registry lookup, against a fake registry on 127.0.0.1", () => {
    let registry: FakeRegistry;
    const previous = process.env.npm_config_registry;
    beforeAll(async () => {
        registry = await startFakeRegistry({ "some-published-package": ["1.2.3"] });
        process.env.npm_config_registry = registry.url;
    });
    afterAll(async () => {
        if (previous === undefined) delete process.env.npm_config_registry;
        else process.env.npm_config_registry = previous;
        await registry.close();
    });

    it("answers found, 404 and no matching version", () => {
        expect(npmRegistryLookup("some-published-package", "1.2.3", app)).toEqual({
            found: true,
            version: "1.2.3",
        });
        expect(npmRegistryLookup(NAME, "0.4.0", app)).toEqual({
            found: false,
            reason: `the registry answers 404 Not Found for ${NAME}@0.4.0`,
        });
        expect(npmRegistryLookup("some-published-package", "9.9.9", app)).toEqual({
            found: false,
            reason: "the registry has no version of some-published-package matching '9.9.9'",
        });
        expect(checkSpec(app, NAME, "0.4.0", npmRegistryLookup)).toEqual({
            status: "missing",
            detail: `the registry answers 404 Not Found for ${NAME}@0.4.0`,
        });
    }, 60_000);

    it("says the registry could not be asked when nothing answers, never that the spec is missing", async () => {
        const stopped = await startFakeRegistry();
        await stopped.close();
        process.env.npm_config_registry = stopped.url;
        try {
            const answer = npmRegistryLookup(NAME, "0.4.0", app);
            expect(answer.found).toBe("unknown");
        } finally {
            process.env.npm_config_registry = registry.url;
        }
    }, 120_000);
});
