/**
 * Finds commands in a text that would fetch a package by its bare registry name: `npm install x`,
 * `pnpm add x@1`, `npx x`, `pnpm dlx x`, `npm exec x` and the like. A command that only runs an
 * installed copy (`npx --no x`, `npm exec --no x`, `pnpm exec x`) fetches nothing; one that names
 * what to fetch by path, URL or git (`npx --package ./x-1.0.0.tgz x`) does not fetch by the name.
 */

/** The command words that install or fetch, each with whether it runs a bin (npx-like). */
const FETCHING =
    /(?:^|[\s`"'(;&|])(npm\s+(?:install|i|add|exec|x)|pnpm\s+(?:add|dlx|install|i)|yarn\s+(?:add|dlx)|npx|bunx)(?=\s)/g;

/** A registry reference to `name`: the bare name, or the name with a version or range. */
function isRegistryReference(token: string, name: string): boolean {
    const bare = token.replace(/^["']|["']$/g, "");
    return bare === name || bare.startsWith(`${name}@`);
}

/**
 * @param text - the text to search (a message, a Markdown file)
 * @param name - the package's registry name
 * @returns each offending command, from its command word to the end of the command
 */
export function bareNameFetches(text: string, name: string): string[] {
    const found: string[] = [];
    for (const match of text.matchAll(FETCHING)) {
        const word = match[1]!;
        const start = match.index + match[0].length - word.length;
        const rest = text.slice(start + word.length);
        const end = rest.search(/[`\n;|)]|&&/);
        const command = `${word}${end === -1 ? rest : rest.slice(0, end)}`;
        const tokens = (end === -1 ? rest : rest.slice(0, end)).trim().split(/\s+/).filter(Boolean);
        const runsBin = /^(npx|bunx|npm\s+(exec|x)|pnpm\s+dlx|yarn\s+dlx)$/.test(word);
        if (runsBin) {
            if (tokens.includes("--no") || tokens.includes("--no-install")) continue;
            const fetched: string[] = [];
            let firstPositional: string | undefined;
            for (let i = 0; i < tokens.length; i++) {
                const token = tokens[i]!;
                if (token === "--package" || token === "-p") fetched.push(tokens[++i] ?? "");
                else if (token.startsWith("--package=")) fetched.push(token.slice(10));
                else if (!token.startsWith("-") && firstPositional === undefined) {
                    firstPositional = token;
                }
            }
            // Without --package, the command's first word is also what is fetched.
            if (fetched.length === 0 && firstPositional !== undefined)
                fetched.push(firstPositional);
            if (fetched.some((token) => isRegistryReference(token, name))) found.push(command);
        } else if (tokens.some((token) => isRegistryReference(token, name))) {
            found.push(command);
        }
    }
    return found;
}
