import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { CliError, section } from "./app.js";
import { OWN_PACKAGE, SDK_PACKAGE } from "./patchFiles.js";

/**
 * What a dependency spec in package.json points at, as npm and pnpm read it: a registry version
 * or range (`0.4.0`, `^0.4.0`, `npm:other@1`), a tarball or folder on disk (`./x.tgz`,
 * `file:../x`), a git repository, a tarball URL, or a workspace package.
 */
export type SpecKind =
    | { readonly kind: "registry"; readonly name: string; readonly range: string }
    | { readonly kind: "path"; readonly path: string }
    | { readonly kind: "git" | "url" | "workspace" };

/**
 * Classifies a dependency spec the way npm-package-arg and pnpm do, for the cases apps write.
 *
 * @param name - the dependency's name (the registry name unless the spec is an `npm:` alias)
 * @param spec - the spec as package.json has it
 */
export function classifySpec(name: string, spec: string): SpecKind {
    const text = spec.trim();
    if (/^(file|link|portal):/.test(text)) {
        return { kind: "path", path: text.replace(/^(file|link|portal):(\/\/(?=\/))?/, "") };
    }
    if (text.startsWith("workspace:")) return { kind: "workspace" };
    if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(text) || /\.git(#.*)?$/.test(text)) {
        return { kind: "git" };
    }
    if (/^https?:\/\//.test(text)) return { kind: "url" };
    if (text.startsWith("npm:")) {
        const alias = text.slice("npm:".length);
        const at = alias.indexOf("@", 1);
        return at === -1
            ? { kind: "registry", name: alias, range: "latest" }
            : { kind: "registry", name: alias.slice(0, at), range: alias.slice(at + 1) };
    }
    if (
        /^(\.{1,2}([\\/]|$)|~[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(text) ||
        /\.(tgz|tar\.gz|tar)$/.test(text)
    ) {
        return { kind: "path", path: text };
    }
    // `owner/repo` or `owner/repo#ref`: npm reads it as a GitHub repository.
    if (/^[^@\s/][^\s/]*\/[^\s/]+$/.test(text)) return { kind: "git" };
    return { kind: "registry", name, range: text === "" ? "latest" : text };
}

/** Where the app names a spec for this package, and the spec. */
export interface DeclaredSpec {
    /** `dependencies`, `devDependencies`, `optionalDependencies` or `pnpm.packageExtensions`. */
    readonly where: string;
    readonly spec: string;
}

/**
 * Every spec the app's package.json gives for this package: its own dependency sections and the
 * pnpm `packageExtensions` entry that makes it a dependency of the SDK. An install needs each of
 * them to resolve.
 *
 * @param json - the app's package.json
 */
export function declaredOwnSpecs(json: Record<string, unknown>): DeclaredSpec[] {
    const found: DeclaredSpec[] = [];
    for (const where of ["dependencies", "devDependencies", "optionalDependencies"]) {
        const spec = section(json, where)[OWN_PACKAGE];
        if (typeof spec === "string") found.push({ where, spec });
    }
    const extension = section(
        section(section(section(json, "pnpm"), "packageExtensions"), SDK_PACKAGE),
        "dependencies"
    )[OWN_PACKAGE];
    if (typeof extension === "string") {
        found.push({ where: "pnpm.packageExtensions", spec: extension });
    }
    return found;
}

/** The registry's answer about one package version or range. */
export type RegistryAnswer =
    | { readonly found: true; readonly version: string }
    | { readonly found: false; readonly reason: string }
    | { readonly found: "unknown"; readonly reason: string };

/** Asks the registry the app is configured with whether `name@range` resolves. */
export type RegistryLookup = (name: string, range: string, app: string) => RegistryAnswer;

/**
 * Asks the registry through `npm view` run in the app's folder, so the app's own `.npmrc` (and
 * `npm_config_registry`) decide which registry answers.
 */
export const npmRegistryLookup: RegistryLookup = (name, range, app) => {
    const args = ["view", `${name}@${range}`, "version", "--json"];
    // One retry, shortly: an unreachable registry is reported, not waited for.
    const fetch = [
        "--fetch-retries=1",
        "--fetch-retry-mintimeout=1000",
        "--fetch-retry-maxtimeout=2000",
    ];
    try {
        const output = execFileSync("npm", [...args, ...fetch], {
            cwd: app,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
            timeout: 60_000,
            // A silent loglevel inherited from `npm run -s` would hide the error.
            env: { ...process.env, npm_config_loglevel: "error" },
        }).trim();
        if (output === "") return { found: false, reason: noMatch(name, range) };
        const versions = JSON.parse(output) as unknown;
        const version = Array.isArray(versions) ? versions.at(-1) : versions;
        return { found: true, version: String(version) };
    } catch (error) {
        const stdout = (error as { stdout?: string }).stdout ?? "";
        let summary: string;
        let code = "";
        try {
            const parsed = JSON.parse(stdout) as { error?: { code?: unknown; summary?: unknown } };
            code = String(parsed.error?.code ?? "");
            summary = String(parsed.error?.summary ?? "");
        } catch {
            summary = ((error as { stderr?: string }).stderr ?? (error as Error).message)
                .trim()
                .split("\n")[0]!;
        }
        if (code === "E404") {
            return {
                found: false,
                reason: /No match found for version/.test(summary)
                    ? noMatch(name, range)
                    : `the registry answers 404 Not Found for ${name}@${range}`,
            };
        }
        return {
            found: "unknown",
            reason: `\`npm ${args.join(" ")}\` failed${code === "" ? "" : ` (${code})`}: ${summary}`,
        };
    }
};

function noMatch(name: string, range: string): string {
    return `the registry has no version of ${name} matching '${range}'`;
}

/** Whether a spec can be installed, as far as can be told without installing it. */
export type SpecCheck =
    | { readonly status: "ok"; readonly detail: string }
    | { readonly status: "missing"; readonly detail: string }
    | { readonly status: "unchecked"; readonly detail: string };

/**
 * Checks that a spec of this package resolves: a tarball or folder on disk exists (relative to
 * the app, as npm and pnpm resolve it); a registry range has a version on the app's registry.
 * Git repositories, URLs and workspace packages are not checked (reported as such).
 *
 * @param app - the app's folder
 * @param name - the dependency's name
 * @param spec - the spec as package.json has it
 * @param lookup - how to ask the registry
 */
export function checkSpec(
    app: string,
    name: string,
    spec: string,
    lookup: RegistryLookup
): SpecCheck {
    const kind = classifySpec(name, spec);
    switch (kind.kind) {
        case "path": {
            const path = kind.path.startsWith("~")
                ? join(homedir(), kind.path.slice(1))
                : isAbsolute(kind.path)
                  ? kind.path
                  : resolve(app, kind.path);
            if (!existsSync(path)) return { status: "missing", detail: `${path} does not exist` };
            if (statSync(path).isDirectory() && !existsSync(join(path, "package.json"))) {
                return { status: "missing", detail: `${path} is a folder without a package.json` };
            }
            return { status: "ok", detail: `${path} is there` };
        }
        case "registry": {
            const answer = lookup(kind.name, kind.range, app);
            if (answer.found === true) {
                return {
                    status: "ok",
                    detail: `the registry has ${kind.name}@${kind.range} (${answer.version})`,
                };
            }
            return answer.found === false
                ? { status: "missing", detail: answer.reason }
                : { status: "unchecked", detail: answer.reason };
        }
        case "git":
        case "url":
        case "workspace":
            return {
                status: "unchecked",
                detail:
                    `a ${kind.kind === "url" ? "tarball URL" : kind.kind === "git" ? "git repository" : "workspace package"}, ` +
                    `not fetched to check`,
            };
    }
}

/**
 * The spec `init` and `upgrade` write for this package: `--package` when given; else the one the
 * app already has (its own dependency sections first, then pnpm's `packageExtensions`), kept
 * exactly as written (a tarball path, a git URL, a registry version), so that a rewrite never
 * points the app at a registry name it did not choose; else this version, but only when the
 * app's registry has it.
 *
 * @param json - the app's package.json
 * @param given - `--package`, when given
 * @param version - this package's version
 * @param app - the app's folder
 * @param lookup - how to ask the registry (only when the app names no spec)
 * @throws CliError when the app names no spec and the registry does not have this version
 */
export function chooseOwnSpec(
    json: Record<string, unknown>,
    given: string | undefined,
    version: string,
    app: string,
    lookup: RegistryLookup
): string {
    if (given !== undefined) return given;
    const declared = declaredOwnSpecs(json)[0];
    if (declared !== undefined) return declared.spec;
    const answer = lookup(OWN_PACKAGE, version, app);
    if (answer.found === true) return version;
    throw new CliError(
        `package.json does not list ${OWN_PACKAGE}, and ${answer.reason}: ` +
            `an exact '${version}' would make the next install fail, ` +
            `or install whatever another publisher registers under that name. Nothing was changed. ` +
            `Name what the app installs it from: \`--package <spec>\`, e.g. ` +
            `\`--package ./${OWN_PACKAGE}-${version}.tgz\` for a packed copy in the app's folder.`
    );
}

/**
 * What an install command names to install this package from the app's own spec, so that a fix
 * the CLI prints fetches exactly what the app already depends on: a path, git repository or URL
 * as written (npm and pnpm read the package's name from what they fetch), a registry range or
 * `npm:` alias after the package's name (the app chose that registry version), a workspace spec
 * after the name. Never the bare name, which installs whatever holds it on the registry.
 *
 * @param spec - the app's spec for this package, as package.json has it
 */
export function ownInstallArgument(spec: string): string {
    const kind = classifySpec(OWN_PACKAGE, spec);
    switch (kind.kind) {
        case "path":
        case "git":
        case "url":
            return spec.trim();
        case "registry":
        case "workspace":
            return `${OWN_PACKAGE}@${spec.trim()}`;
    }
}
