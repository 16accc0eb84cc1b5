/**
 * npm test runs its stages through scripts/test/run-stages.mjs: every stage runs and is reported,
 * a failing stage does not hide the ones after it, the run fails if any stage failed, and when
 * the first stage (the build) fails the rest are reported as not run.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNNER = join(ROOT, "scripts", "test", "run-stages.mjs");

function stages(...commands: string[]) {
    const result = spawnSync(process.execPath, [RUNNER, ...commands], { encoding: "utf8" });
    const report = result.stdout.slice(result.stdout.indexOf("=== npm test: stages"));
    return { status: result.status, report, stdout: result.stdout };
}

describe("npm test's stages", () => {
    it("runs the stages after a failing one, reports each, and fails", () => {
        const { status, report, stdout } = stages("true", "exit 3", "echo after");
        expect(stdout).toContain("after\n");
        expect(report).toMatch(/ok {3}true \(/);
        expect(report).toMatch(/FAIL exit 3 \(exit 3, /);
        expect(report).toMatch(/ok {3}echo after \(/);
        expect(report).toContain("npm test: 1 of 3 stages did not pass.");
        expect(status).toBe(1);
    });

    it("passes when every stage passes", () => {
        const { status, report } = stages("true", "echo ok");
        expect(report).toContain("npm test: all 2 stages passed.");
        expect(report).toContain("runtime start retries: 0");
        expect(status).toBe(0);
    });

    it("does not run the rest when the first stage (the build) fails", () => {
        const { status, report, stdout } = stages("exit 1", "echo never");
        expect(stdout).not.toContain("never\n");
        expect(report).toContain("skip echo never (not run: the first stage failed)");
        expect(status).toBe(1);
    });

    it("reports the runtime start retries the e2e tests logged", () => {
        const { report } = stages(
            'echo "t.test.ts: runtime start retry 1 of 2" >> "$COPILOT_E2E_START_RETRIES_LOG"'
        );
        expect(report).toContain("runtime start retries: 1");
        expect(report).toContain("  t.test.ts: runtime start retry 1 of 2");
    });

    it("is what npm test runs, with every stage it had", () => {
        const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
            scripts: Record<string, string>;
        };
        expect(scripts.test).toBe(
            "node scripts/test/run-stages.mjs 'npm run build' 'npm run typecheck' 'npm run lint' 'npm run format:check' 'npm run check:actionlint' 'npm run check:api' 'npm run check:package' 'npm run patch:check' 'vitest run' 'npm run test:release -- 1.0.14 --all' 'npm run test:release -- 1.0.0' 'npm run test:release -- 1.0.15-preview.4'"
        );
    });
});
