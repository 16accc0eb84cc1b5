/**
 * A stray import is found: in the library form only imports from this package get the tool
 * customization, so `doctor` names each file that takes `CopilotClient` (or `joinSession`) as a
 * value from the SDK itself, and exits 1 with the fix; the ESLint config the package ships
 * (`copilot-sdk-tool-override/eslint`) reports the same imports in an app's lint run.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import sdkImports from "../../src/cli/eslintConfig.js";
import { findStrayImports, strayImportsIn } from "../../src/cli/strayImports.js";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "stray-imports-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const STRAY = [
    `import { CopilotClient } from "@github/copilot-sdk";`,
    `import { approveAll, CopilotClient as Client } from '@github/copilot-sdk'`,
    `import sdk, { CopilotClient } from "@github/copilot-sdk";`,
    `export { CopilotClient } from "@github/copilot-sdk";`,
    `export * from "@github/copilot-sdk";`,
    `import * as sdk from "@github/copilot-sdk";\nnew sdk.CopilotClient();`,
    `const { CopilotClient } = require("@github/copilot-sdk");`,
    `const { CopilotClient: C } = await import("@github/copilot-sdk");`,
    `const C = require("@github/copilot-sdk").CopilotClient;`,
    `const sdk = require("@github/copilot-sdk");\nconst { CopilotClient } = sdk;`,
    `import { joinSession } from "@github/copilot-sdk/extension";`,
];
const CLEAN = [
    `import { CopilotClient } from "copilot-sdk-tool-override";`,
    `import type { CopilotClient } from "@github/copilot-sdk";`,
    `import { type CopilotClient, approveAll } from "@github/copilot-sdk";`,
    `import { approveAll } from "@github/copilot-sdk";`,
    `import * as sdk from "@github/copilot-sdk";\nsdk.approveAll;`,
    `// import { CopilotClient } from "@github/copilot-sdk";`,
    `/* import { CopilotClient } from "@github/copilot-sdk"; */`,
    `const text = 'import { CopilotClient } from "@github/copilot-sdk"';`,
    `import { CopilotClient } from "copilot-sdk-tool-override"\nimport { approveAll } from "@github/copilot-sdk"`,
    `import { joinSession } from "copilot-sdk-tool-override/extension";`,
];

describe("the stray-import check", () => {
    it("finds each way a file takes CopilotClient or joinSession as a value from the SDK", () => {
        for (const text of STRAY) expect(strayImportsIn(text), text).toHaveLength(1);
    });

    it("passes imports from this package, type-only imports, other names, comments and strings", () => {
        for (const text of CLEAN) expect(strayImportsIn(text), text).toEqual([]);
    });

    it("names the file and line, skipping node_modules", () => {
        const app = join(work, "scan");
        mkdirSync(join(app, "src", "agents"), { recursive: true });
        mkdirSync(join(app, "node_modules", "dep"), { recursive: true });
        writeFileSync(join(app, "src", "main.ts"), `${CLEAN[0]}\n`);
        writeFileSync(join(app, "src", "agents", "old.mjs"), `// the old client\n\n${STRAY[0]}\n`);
        writeFileSync(join(app, "node_modules", "dep", "index.js"), STRAY[6]!);
        expect(findStrayImports(app)).toEqual([
            {
                file: join("src", "agents", "old.mjs"),
                line: 3,
                module: "@github/copilot-sdk",
                name: "CopilotClient",
                instead: "copilot-sdk-tool-override",
            },
        ]);
    });
});

describe("the ESLint config the package ships", () => {
    const lint = (code: string) =>
        new Linter()
            .verify(
                code,
                [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, sdkImports],
                "app.ts"
            )
            .map((message) => message.message);

    it("reports the SDK's CopilotClient and joinSession, with the import to use instead", () => {
        expect(lint(STRAY[0]!)).toEqual([
            expect.stringContaining(
                'import CopilotClient from "copilot-sdk-tool-override" instead'
            ),
        ]);
        expect(lint(STRAY[10]!)).toEqual([
            expect.stringContaining(
                'import joinSession from "copilot-sdk-tool-override/extension" instead'
            ),
        ]);
    });

    it("passes the same names from this package and the SDK's other exports", () => {
        expect(lint(`${CLEAN[0]}\n${CLEAN[3]}\n${CLEAN[9]}`)).toEqual([]);
    });
});

describe("doctor in a library-form app", () => {
    /** An app whose node_modules link this repository's SDK and this package (built). */
    function libraryApp(name: string): string {
        const app = join(work, name);
        mkdirSync(join(app, "node_modules", "@github"), { recursive: true });
        symlinkSync(
            join(ROOT, "node_modules", "@github", "copilot-sdk"),
            join(app, "node_modules", "@github", "copilot-sdk")
        );
        symlinkSync(ROOT, join(app, "node_modules", "copilot-sdk-tool-override"));
        writeFileSync(
            join(app, "package.json"),
            JSON.stringify({
                name,
                private: true,
                dependencies: {
                    "@github/copilot-sdk": "1.0.14",
                    "copilot-sdk-tool-override": "file:./vendor/copilot-sdk-tool-override.tgz",
                },
            })
        );
        mkdirSync(join(app, "vendor"));
        writeFileSync(join(app, "vendor", "copilot-sdk-tool-override.tgz"), "");
        writeFileSync(join(app, "package-lock.json"), "{}");
        mkdirSync(join(app, "src"));
        writeFileSync(join(app, "src", "main.mjs"), `${CLEAN[0]}\n`);
        return app;
    }
    const doctor = (app: string) =>
        spawnSync(
            process.execPath,
            [join(ROOT, "build", "cli", "main.js"), "doctor", "--no-start"],
            {
                cwd: app,
                encoding: "utf8",
            }
        );

    it("names each file that imports the SDK's own client, exit 1, with the fix", () => {
        const app = libraryApp("stray");
        writeFileSync(join(app, "src", "worker.cjs"), `${STRAY[6]}\n`);
        const { status, stdout } = doctor(app);
        expect(stdout).toContain(
            `FAIL ${join("src", "worker.cjs")}:1 imports CopilotClient from "@github/copilot-sdk": that CopilotClient runs without the tool customization`
        );
        expect(stdout).toContain(
            'Fix: import it from "copilot-sdk-tool-override" (`import { CopilotClient } from "copilot-sdk-tool-override"`, which exports its type too), and add copilot-sdk-tool-override/eslint'
        );
        expect(status).toBe(1);
    });

    it("says no file does when none does", () => {
        const { stdout } = doctor(libraryApp("clean"));
        expect(stdout).toContain(
            "ok   no file of the app imports CopilotClient or joinSession from @github/copilot-sdk itself"
        );
        expect(stdout).not.toContain("imports CopilotClient from");
    });
});
