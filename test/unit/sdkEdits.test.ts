/**
 * The patch's edit table (scripts/patch/lib/sdkEdits.mjs): the client appends refuse a release
 * that sends session.create or session.resume from more than one place (a route the wrapped
 * methods would not cover), and a release without the class binding they rebind.
 */
import { describe, expect, it } from "vitest";
import { applyEdits, editsByFile, sdkEdits } from "../../scripts/patch/lib/sdkEdits.mjs";

const CLIENT = [
    "class CopilotClient {",
    '  async createSession(config) { return this.connection.sendRequest("session.create", {}); }',
    '  async resumeSessionInternal(id) { return this.connection.sendRequest("session.resume", {}); }',
    "}",
    "export { CopilotClient };",
    "",
].join("\n");

const clientEdits = () => editsByFile(sdkEdits(["SessionToolError"])).get("dist/client.js")!;

describe("the client.js append", () => {
    it("applies to a client with one route to each request", () => {
        const patched = applyEdits(CLIENT, clientEdits(), "9.9.9");
        expect(patched.startsWith(CLIENT)).toBe(true);
        expect(patched).toContain("CopilotClient = wrapForToolCustomization(CopilotClient);");
    });

    it("refuses a release that sends session.create from a second place", () => {
        const twoRoutes = CLIENT.replace(
            "}\nexport",
            '  async forkSession() { return this.connection.sendRequest("session.create", {}); }\n}\nexport'
        );
        expect(() => applyEdits(twoRoutes, clientEdits(), "9.9.9")).toThrow(
            /expects \/sendRequest\\\(".*session\\\.create"\/ exactly once in dist\/client\.js of @github\/copilot-sdk 9\.9\.9, but found 2/
        );
    });

    it("refuses a release whose client class is declared otherwise", () => {
        const renamed = CLIENT.replace("class CopilotClient {", "class Client {");
        expect(() => applyEdits(renamed, clientEdits(), "9.9.9")).toThrow(/found none/);
    });
});
