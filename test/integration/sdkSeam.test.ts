/**
 * The SDK seam (src/sdkSeam/sdkSeam.ts) against every served release as published: each internal
 * member the fork touches must exist where the release's capabilities say it does, and the wire
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
import { INTERNAL_MEMBERS, wireToolDefinition } from "../../src/sdkSeam/sdkSeam.js";
import { detectRelease } from "../../src/sdkSeam/sdkRelease.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import { startFakeRuntime } from "../support/fakeRuntime.js";

const ROOT = join(import.meta.dirname, "..", "..");
const { pristineDir, releaseCapabilities, supportedVersions } = (await import(
    join(ROOT, "scripts", "patch", "lib", "sdkPatch.mjs")
)) as {
    pristineDir(version: string): string;
    releaseCapabilities(dir: string): Record<string, unknown>;
    supportedVersions(): string[];
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
            const capabilities = releaseCapabilities(dir);
            const missing: string[] = [];
            for (const member of INTERNAL_MEMBERS) {
                const text = readFileSync(join(dir, OWNER_FILES[member.owner]), "utf8");
                const expected =
                    member.capability === undefined || capabilities[member.capability] === true;
                if (expected && !declares(text, member.name, member.kind)) {
                    missing.push(
                        `${member.owner}.${member.name} (${member.kind}) is missing from @github/copilot-sdk ${version}; the fork needs it for ${member.why}`
                    );
                }
            }
            expect(missing).toEqual([]);
        });
    }

    for (const version of supportedVersions()) {
        it(`detects at run time what the build-time reading of @github/copilot-sdk ${version} finds`, () => {
            // Two readers of the release's files: the wrap's, at run time (src/sdkSeam/sdkRelease.ts),
            // and the patch scripts' (scripts/patch/lib/sdkPatch.mjs), which the self-contained
            // patches of 0.3.0 carried as constants.
            const dir = pristineDir(version);
            const release = detectRelease(join(dir, "package.json"));
            expect(release).toEqual({
                version,
                root: dir,
                capabilities: releaseCapabilities(dir),
                unsupported: undefined,
            });
        });
    }

    it("tells a dropped member apart (the check fails on a release without it)", () => {
        const text = readFileSync(join(pristineDir("1.0.0"), OWNER_FILES.CopilotSession), "utf8");
        // 1.0.0 has no _markDisconnected (its capabilities say so), but has registerTools.
        expect(declares(text, "_markDisconnected", "method")).toBe(false);
        expect(declares(text, "registerTools", "method")).toBe(true);
        expect(releaseCapabilities(pristineDir("1.0.0"))).toEqual({
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
    // As the fork sends them: flagged as overrides, and `defer: "auto"` where a tool replaces no
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
