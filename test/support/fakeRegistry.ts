/**
 * A fake npm registry on 127.0.0.1, in a child process (the CLI asks it with `npm view`
 * synchronously, which would block a server in the test's own process). It serves the packuments
 * it is given and answers 404 for every other name, as a registry does for an unclaimed one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** A running fake registry. */
export interface FakeRegistry {
    /** `http://127.0.0.1:<port>/`, for `npm_config_registry`. */
    readonly url: string;
    /** Stops it. */
    close(): Promise<void>;
}

const SERVER = `
const { createServer } = require("node:http");
const packages = JSON.parse(process.argv[1]);
const server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    const name = decodeURIComponent(request.url.slice(1));
    const versions = packages[name];
    if (versions === undefined) {
        response.statusCode = 404;
        response.end('{"error":"Not found"}');
        return;
    }
    const entries = Object.fromEntries(versions.map((version) => [version, { name, version, dist: { tarball: "http://127.0.0.1/" + name + "-" + version + ".tgz" } }]));
    response.end(JSON.stringify({ name, "dist-tags": { latest: versions.at(-1) }, versions: entries }));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

/**
 * Starts a fake registry.
 *
 * @param packages - each published name and its versions; any other name answers 404
 */
export async function startFakeRegistry(
    packages: Record<string, readonly string[]> = {}
): Promise<FakeRegistry> {
    const child: ChildProcess = spawn(process.execPath, ["-e", SERVER, JSON.stringify(packages)], {
        stdio: ["ignore", "pipe", "inherit"],
    });
    const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
    const port = Number(chunk.toString().trim());
    return {
        url: `http://127.0.0.1:${port}/`,
        close: async () => {
            if (child.exitCode !== null) return;
            const exited = once(child, "exit");
            child.kill();
            await exited;
        },
    };
}
