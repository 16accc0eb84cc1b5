/**
 * The rule that a custom tool's handler runs once per tool request (session/toolRequests.ts): a
 * request id is taken once for its tool and call; anything it cannot tell apart is left to the SDK.
 */
import { describe, expect, it } from "vitest";
import {
    REMEMBERED_TOOL_REQUESTS,
    takesToolRequest,
} from "../../src/toolCustomization/session/toolRequests.js";
import type { SessionRecord } from "../../src/toolCustomization/session/record.js";

const record = () => ({ toolRequests: new Map<string, string>() }) as unknown as SessionRecord;

describe("takesToolRequest", () => {
    it("takes a request id once per tool and call, and leaves what it cannot tell apart to the SDK", () => {
        const session = record();
        expect(takesToolRequest(session, "r1", "lint", "c1")).toBe(true);
        expect(takesToolRequest(session, "r1", "lint", "c1")).toBe(false);
        expect(takesToolRequest(session, "r1", "fmt", "c1")).toBe(true);
        expect(takesToolRequest(session, "r1", "lint", "c2")).toBe(true);
        expect(takesToolRequest(session, 7, "lint", "c1")).toBe(true);
        expect(takesToolRequest(session, 7, "lint", "c1")).toBe(true);
    });

    it(`remembers the latest ${REMEMBERED_TOOL_REQUESTS} request ids, not more`, () => {
        const session = record();
        for (let index = 0; index <= REMEMBERED_TOOL_REQUESTS; index++) {
            takesToolRequest(session, `r${index}`, "lint", `c${index}`);
        }
        expect(session.toolRequests.size).toBe(REMEMBERED_TOOL_REQUESTS);
        expect(takesToolRequest(session, "r0", "lint", "c0")).toBe(true);
        expect(
            takesToolRequest(
                session,
                `r${REMEMBERED_TOOL_REQUESTS}`,
                "lint",
                `c${REMEMBERED_TOOL_REQUESTS}`
            )
        ).toBe(false);
    });
});
