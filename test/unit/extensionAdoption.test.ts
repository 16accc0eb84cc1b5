/**
 * The library form's joinSession (src/extension.ts): the SDK's joinSession builds its client from
 * the SDK's own class; adoptExtensionClient moves that client onto the wrapped class before its
 * extension resume runs, so the wrap's checks run first (here: validateTools on a release without
 * it is refused before the SDK's method is reached). A joinSession that resumes some other way is
 * refused and its session disconnected; one that fails keeps its own error. Stand-in SDK classes.
 */
import { describe, expect, it, vi } from "vitest";
import { adoptExtensionClient, wrapCopilotClient } from "../../src/wrap/wrapSdk.js";

/** A stand-in for the SDK's client with an extension resume that records what it was given. */
class StandInClient {
    connection: unknown = null;
    readonly extensionResumes: unknown[] = [];
    start = vi.fn(async () => {
        this.connection = {};
    });
    async createSession() {
        return { sessionId: "s1" };
    }
    async resumeSession() {
        return { sessionId: "s1" };
    }
    async resumeSessionForExtension(sessionId: string, config: unknown) {
        this.extensionResumes.push(config);
        return { sessionId, disconnect: async () => undefined };
    }
}

type Client = StandInClient;
const Wrapped = wrapCopilotClient(StandInClient as never) as unknown as new () => Client;
const OWN_RESUME = StandInClient.prototype.resumeSessionForExtension;

describe("joinSession in the library form", () => {
    it("moves the SDK's client onto the wrapped class before its extension resume runs", async () => {
        let built: Client | undefined;
        const joined = adoptExtensionClient(Wrapped as never, () => {
            built = new StandInClient();
            return built.resumeSessionForExtension("s1", {
                validateTools: true,
                tools: [{ name: "lint" }],
            }) as never;
        });
        await expect(joined).rejects.toMatchObject({
            name: "SessionToolError",
            code: "UNSUPPORTED_BY_RELEASE",
        });
        expect(built).toBeInstanceOf(Wrapped);
        expect(built?.extensionResumes).toEqual([]);
        expect(built?.start).not.toHaveBeenCalled();
        // The SDK's class is as it was.
        expect(StandInClient.prototype.resumeSessionForExtension).toBe(OWN_RESUME);
        expect(new StandInClient()).not.toBeInstanceOf(Wrapped);
    });

    it("refuses a joinSession that joined without the extension resume, and disconnects that session", async () => {
        const disconnect = vi.fn(async () => undefined);
        const joined = adoptExtensionClient(
            Wrapped as never,
            async () => ({ sessionId: "s2", disconnect }) as never
        );
        expect(joined).toBeDefined();
        await expect(joined).rejects.toThrow(
            "joinSession of the installed @github/copilot-sdk joined a session without CopilotClient.resumeSessionForExtension"
        );
        expect(disconnect).toHaveBeenCalledOnce();
    });

    it("keeps the SDK's own error when its joinSession fails before resuming", async () => {
        const joined = adoptExtensionClient(Wrapped as never, async () => {
            throw new Error("joinSession() is intended for extensions running as child processes");
        });
        await expect(joined).rejects.toThrow("joinSession() is intended for extensions");
    });
});
