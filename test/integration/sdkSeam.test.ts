/**
 * The SDK seam (src/sdk/internals.ts) against every served release as published: each internal
 * member the wrap touches must exist where the release's capabilities say it does, and the wire
 * form `setTools` sends must be the one the SDK itself sends on `session.create`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
    approveAll,
    CopilotClient as UnpatchedClient,
    RuntimeConnection,
} from "copilot-sdk-unpatched";
import { INTERNAL_MEMBERS, wireToolDefinition } from "../../src/sdk/internals.js";
import { detectRelease } from "../../src/sdk/release.js";
import { supportedVersions } from "../../src/cli/conformance/servedReleases.js";
import { compareVersions } from "../../src/cli/conformance/sdkVersions.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import { startFakeRuntime } from "../support/fakeRuntime.js";

const ROOT = join(import.meta.dirname, "..", "..");
const { pristineDir } = (await import(
    join(ROOT, "scripts", "patch", "lib", "pristineSdk.mjs")
)) as { pristineDir(version: string): string };
const capabilitiesOf = (dir: string): Record<string, unknown> =>
    detectRelease(join(dir, "package.json")).capabilities as unknown as Record<string, unknown>;

/**
 * The first served release with each capability, read off the releases' own files by hand (the
 * SDK's changelog agrees): the run-time reader must find each from there on and not before.
 */
const FIRST_WITH: Record<string, string> = {
    builtInOverride: "1.0.0",
    validateTools: "1.0.0",
    disconnectHook: "1.0.4",
    extensionResume: "1.0.9",
    setTools: "1.0.13-preview.4",
};

/** Where each owner is declared in a release's ESM build. */
const OWNER_FILES = {
    CopilotClient: "dist/client.js",
    CopilotSession: "dist/session.js",
    ToolSet: "dist/toolSet.js",
} as const;

/**
 * Whether the class body in `text` declares `name` as a method or a field (a class field, or an
 * assignment in the constructor), as esbuild emits them: two-space members, `this.x = ` in
 * methods.
 */
function declares(text: string, name: string, kind: "method" | "field"): boolean {
    const escaped = name.replace(/[$]/g, "\\$");
    return kind === "method"
        ? new RegExp(`^  (?:async )?${escaped}\\(`, "m").test(text)
        : new RegExp(`^  ${escaped}(?: = |;)|this\\.${escaped} = `, "m").test(text);
}

describe("the SDK seam, on every served release as published", () => {
    for (const version of supportedVersions()) {
        it(`finds every internal member on @github/copilot-sdk ${version}`, () => {
            const dir = pristineDir(version);
            const capabilities = capabilitiesOf(dir);
            const missing: string[] = [];
            for (const member of INTERNAL_MEMBERS) {
                const text = readFileSync(join(dir, OWNER_FILES[member.owner]), "utf8");
                const expected =
                    member.capability === undefined || capabilities[member.capability] === true;
                if (expected && !declares(text, member.name, member.kind)) {
                    missing.push(
                        `${member.owner}.${member.name} (${member.kind}) is missing from @github/copilot-sdk ${version}; the wrap needs it for ${member.why}`
                    );
                }
            }
            expect(missing).toEqual([]);
        });
    }

    const releases = new Map(
        (
            JSON.parse(readFileSync(join(ROOT, "data", "sdk-releases.json"), "utf8")) as {
                releases: { sdkVersion: string; runtime?: string; runtimeVersion?: string }[];
            }
        ).releases.map((release) => [release.sdkVersion, release])
    );
    for (const version of supportedVersions()) {
        it(`detects what @github/copilot-sdk ${version} can do, and which runtime it bundles`, () => {
            const dir = pristineDir(version);
            const release = detectRelease(join(dir, "package.json"));
            const expected: Record<string, unknown> = Object.fromEntries(
                Object.entries(FIRST_WITH).map(([capability, first]) => [
                    capability,
                    compareVersions(version, first) >= 0,
                ])
            );
            // The runtime a bundled release starts, as data/sdk-releases.json measured it.
            const recorded = releases.get(version);
            if (recorded?.runtime === "bundled") {
                expected.bundledRuntimeVersion = recorded.runtimeVersion;
            }
            expect(release).toEqual({
                version,
                root: dir,
                capabilities: expected,
                unsupported: undefined,
            });
        });
    }

    it("tells a dropped member apart (the check fails on a release without it)", () => {
        const text = readFileSync(join(pristineDir("1.0.0"), OWNER_FILES.CopilotSession), "utf8");
        // 1.0.0 has no _markDisconnected (its capabilities say so), but has registerTools.
        expect(declares(text, "_markDisconnected", "method")).toBe(false);
        expect(declares(text, "registerTools", "method")).toBe(true);
        expect(capabilitiesOf(pristineDir("1.0.0"))).toEqual({
            builtInOverride: true,
            validateTools: true,
            setTools: false,
            disconnectHook: false,
            extensionResume: false,
        });
    });
});

describe("the wire form of a custom tool", () => {
    const { setUp } = fakeRuntimeClients();
    // As the wrap sends them: flagged as overrides, and `defer: "auto"` where a tool replaces no
    // built-in and says nothing (so setTools adds nothing the SDK would not send).
    const tools = [
        {
            name: "lint",
            description: "Lints a file",
            parameters: z.object({ path: z.string() }),
            handler: async () => "ok",
            overridesBuiltInTool: true,
            skipPermission: true,
            defer: true,
            metadata: { team: "x" },
            isTerminal: false,
        },
        {
            name: "view",
            description: "Reads a file",
            parameters: { type: "object", properties: { path: { type: "string" } } },
            handler: async () => "ok",
            overridesBuiltInTool: true,
        },
        { name: "bare", handler: async () => "ok", overridesBuiltInTool: true, defer: "auto" },
    ];

    /** The tools as the SDK as published sends them on `session.create` (the oracle). */
    async function publishedWireForm(): Promise<unknown> {
        const runtime = await startFakeRuntime();
        const client = new UnpatchedClient({ connection: RuntimeConnection.forUri(runtime.url) });
        try {
            await client.createSession({ onPermissionRequest: approveAll, tools: tools as never });
            return JSON.parse(JSON.stringify(runtime.paramsOf("session.create")[0]!.tools));
        } finally {
            await client.stop().catch(() => {});
            await runtime.close();
        }
    }

    it("is built by wireToolDefinition as the SDK as published builds it, field for field", async () => {
        const published = await publishedWireForm();
        expect(published).toHaveLength(3);
        expect(
            JSON.parse(JSON.stringify(tools.map((tool) => wireToolDefinition(tool as never))))
        ).toEqual(published);
    });

    it("is what the patched setTools sends on session.tools.set, a missing description as the empty string", async () => {
        const published = (await publishedWireForm()) as Record<string, unknown>[];
        const { runtime, client } = await setUp();
        const session = await client.createSession({ onPermissionRequest: approveAll });
        await session.setTools({ tools: tools as never });
        const [set] = runtime.paramsOf("session.tools.set");
        // The runtime refuses session.tools.set without `description` (session.create takes it).
        expect(published[2]).not.toHaveProperty("description");
        expect(JSON.parse(JSON.stringify(set!.tools))).toEqual([
            published[0],
            published[1],
            { ...published[2], description: "" },
        ]);
    });
});
