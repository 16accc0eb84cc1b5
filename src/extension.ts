// `copilot-sdk-tool-override/extension`: the SDK's `@github/copilot-sdk/extension` with
// `joinSession` giving a client with the tool customization. The SDK's own `joinSession` builds
// its client from the SDK's class, which the library form does not replace; this one lets it,
// and then moves that client onto the wrapped class before its one call, the extension resume,
// reaches the runtime. In the patch form the SDK's class is the wrapped one: its joinSession is
// called as it is.

import { CopilotClient as SdkCopilotClient } from "@github/copilot-sdk";
import * as extension from "@github/copilot-sdk/extension";
import { CopilotClient } from "./library.js";
import { SessionToolError } from "./toolCustomization/api/sessionToolError.js";
import { adoptExtensionClient } from "./wrap/wrapSdk.js";

export * from "@github/copilot-sdk/extension";

/**
 * The SDK's `joinSession` (for extensions the Copilot CLI runs as child processes), whose client
 * runs the tool customization like {@link CopilotClient}.
 *
 * @throws SessionToolError `UNSUPPORTED_BY_RELEASE` when the installed release's `joinSession`
 *   does not resume through the client's extension entry point, so its client could not be
 *   wrapped: nothing is sent then.
 */
export const joinSession: typeof extension.joinSession = (...args) => {
    // The SDK's own class carries the wrap (the patch form), so the library hands that class out
    // as it is and the SDK's joinSession builds a wrapped client itself: nothing to move.
    if (CopilotClient === SdkCopilotClient) return extension.joinSession(...args);
    const adopted = adoptExtensionClient(
        CopilotClient as unknown as Parameters<typeof adoptExtensionClient>[0],
        () => extension.joinSession(...args)
    );
    if (adopted === undefined) {
        return Promise.reject(
            new SessionToolError(
                "UNSUPPORTED_BY_RELEASE",
                "joinSession of the installed @github/copilot-sdk did not resume through CopilotClient.resumeSessionForExtension, " +
                    "so its client cannot run the tool customization: " +
                    "use the patch form (`npx --no copilot-sdk-tool-override init`), which wraps the SDK's own class."
            )
        );
    }
    return adopted;
};
