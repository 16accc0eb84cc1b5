// Every script's command line is checked before the script does anything: an unknown flag, a
// flag without its value or a stray word stops it with its usage (exit code 2), so a typo such
// as `--skd` never runs the default for minutes; `--help` prints the usage.

/**
 * Checks a script's command line; exits with the usage (code 2) on a problem, or prints it (code
 * 0) for `--help`.
 *
 * @param args - the command-line arguments (process.argv.slice(2))
 * @param spec - the usage, the flags the script knows (without the leading `--`), and how many
 *   plain words it takes
 * @returns the same arguments
 */
export function checkArguments(
    args: string[],
    {
        usage,
        flags = {},
        positionals = 0,
    }: { usage: string; flags?: Record<string, "value" | "switch">; positionals?: number }
): string[] {
    const fail = (problem: string): never => {
        console.error(`${problem}\n\n${usage}`);
        process.exit(2);
    };
    let words = 0;
    for (let at = 0; at < args.length; at++) {
        const arg = args[at] as string;
        if (arg === "--help" || arg === "-h") {
            console.log(usage);
            process.exit(0);
        }
        if (!arg.startsWith("-")) {
            if (++words > positionals) fail(`Unexpected argument '${arg}'.`);
            continue;
        }
        const kind = flags[arg.replace(/^--/, "")];
        if (kind === undefined || !arg.startsWith("--")) fail(`Unknown option '${arg}'.`);
        if (kind === "value") {
            const value = args[at + 1];
            if (value === undefined || value.startsWith("--")) fail(`${arg} needs a value.`);
            at++;
        }
    }
    return args;
}
