/**
 * Whether a container build will have the app's `patches/` folder when it installs: a static
 * reading of a Dockerfile (each stage's install commands and the COPY / ADD before them) and of
 * `.dockerignore`. Without the folder, patch-package prints "No patch files found" and exits 0,
 * so the image builds with an unpatched SDK.
 */

/** One finding about a container build. */
export interface ContainerFinding {
    readonly ok: boolean;
    readonly message: string;
}

/** Install commands that run the app's postinstall (or pnpm's patchedDependencies). */
const INSTALL = /\b(npm\s+(ci|install|i)|pnpm\s+(install|i))\b/;

/** A Dockerfile instruction with the line it starts on, continuation lines joined. */
interface Instruction {
    readonly line: number;
    readonly keyword: string;
    readonly args: string;
}

function instructions(dockerfile: string): Instruction[] {
    const result: Instruction[] = [];
    const lines = dockerfile.split(/\r?\n/);
    for (let index = 0; index < lines.length; index++) {
        const start = index;
        let text = lines[index]!;
        while (text.endsWith("\\") && index + 1 < lines.length) {
            text = text.slice(0, -1) + " " + lines[++index]!;
        }
        const trimmed = text.trim();
        if (trimmed === "" || trimmed.startsWith("#")) continue;
        const match = /^(\S+)\s*(.*)$/.exec(trimmed)!;
        result.push({ line: start + 1, keyword: match[1]!.toUpperCase(), args: match[2]! });
    }
    return result;
}

/** The source paths of a COPY or ADD (flags dropped; JSON form understood). */
function copySources(args: string): string[] {
    const words = args.trim().startsWith("[")
        ? (JSON.parse(args) as string[])
        : args.split(/\s+/).filter((word) => word !== "" && !word.startsWith("--"));
    if (args.includes("--from=")) return [];
    return words.slice(0, -1);
}

/** Whether a COPY source brings `patches/<file>` into the image. */
function copiesPatches(source: string, patchFile: string): boolean {
    const path = source.replace(/^\.\//, "").replace(/\/$/, "");
    if (path === "" || path === ".") return true;
    return matchesOrParent(path, `patches/${patchFile}`);
}

/**
 * Checks a Dockerfile: every stage that installs packages must copy `patches/` before it does.
 *
 * @param dockerfile - the Dockerfile's text
 * @param name - its file name, for messages
 * @param patchFile - the app's patch file name inside `patches/`
 * @returns one finding per install command
 */
export function checkDockerfile(
    dockerfile: string,
    name: string,
    patchFile: string
): ContainerFinding[] {
    const findings: ContainerFinding[] = [];
    let copied = false;
    for (const instruction of instructions(dockerfile)) {
        if (instruction.keyword === "FROM") copied = false;
        if (instruction.keyword === "COPY" || instruction.keyword === "ADD") {
            if (copySources(instruction.args).some((source) => copiesPatches(source, patchFile))) {
                copied = true;
            }
        }
        if (instruction.keyword !== "RUN") continue;
        const install = INSTALL.exec(instruction.args)?.[0];
        if (install === undefined) continue;
        findings.push(
            copied
                ? {
                      ok: true,
                      message: `${name} copies patches/ before \`${install}\` (line ${instruction.line})`,
                  }
                : {
                      ok: false,
                      message:
                          `${name} line ${instruction.line} runs \`${install}\` before patches/ is copied into the image, ` +
                          `so the SDK there is installed unpatched (patch-package finds no patch and exits 0). Fix: ` +
                          `add \`COPY patches ./patches\` before line ${instruction.line}.`,
                  }
        );
    }
    return findings;
}

/**
 * Checks `.dockerignore`: the patch file must not be excluded from the build context.
 *
 * @param dockerignore - the file's text
 * @param patchFile - the app's patch file name inside `patches/`
 * @returns a finding
 */
export function checkDockerignore(dockerignore: string, patchFile: string): ContainerFinding {
    const path = `patches/${patchFile}`;
    let excludedBy: string | undefined;
    for (const raw of dockerignore.split(/\r?\n/)) {
        const rule = raw.trim();
        if (rule === "" || rule.startsWith("#")) continue;
        const negated = rule.startsWith("!");
        const pattern = (negated ? rule.slice(1) : rule).replace(/^\.?\//, "").replace(/\/$/, "");
        if (matchesOrParent(pattern, path)) excludedBy = negated ? undefined : rule;
    }
    return excludedBy === undefined
        ? { ok: true, message: `.dockerignore keeps ${path} in the build context` }
        : {
              ok: false,
              message:
                  `.dockerignore excludes ${path} (rule '${excludedBy}'), so no image gets the patch. Fix: ` +
                  `remove that rule or add '!patches' after it.`,
          };
}

/** Whether a .dockerignore pattern matches a path or one of its parent folders. */
function matchesOrParent(pattern: string, path: string): boolean {
    const parts = path.split("/");
    for (let length = parts.length; length > 0; length--) {
        if (matches(pattern, parts.slice(0, length).join("/"))) return true;
    }
    return false;
}

/** Go's filepath.Match with `**`, as Docker uses it: `*` within a path segment, `**` across. */
function matches(pattern: string, path: string): boolean {
    let regex = "";
    for (let index = 0; index < pattern.length; index++) {
        const char = pattern[index]!;
        if (char === "*" && pattern[index + 1] === "*") {
            regex += ".*";
            index++;
            if (pattern[index + 1] === "/") index++;
        } else if (char === "*") regex += "[^/]*";
        else if (char === "?") regex += "[^/]";
        else regex += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return new RegExp(`^${regex}$`).test(path);
}
