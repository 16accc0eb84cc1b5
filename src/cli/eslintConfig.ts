// `copilot-sdk-tool-override/eslint`: an ESLint flat-config object for apps in the library form.
// It forbids, with ESLint's own `no-restricted-imports`, the imports that give the SDK's unwrapped
// client: `CopilotClient` from "@github/copilot-sdk" and `joinSession` from its "/extension".
// doctor finds the same imports in the app's files (strayImports.ts) and names this config.

/** The SDK's entry points that hand out a client, with the names whose values are unwrapped. */
export const UNWRAPPED_CLIENT_IMPORTS = [
    {
        module: "@github/copilot-sdk",
        names: ["CopilotClient"],
        instead: "copilot-sdk-tool-override",
    },
    {
        module: "@github/copilot-sdk/extension",
        names: ["joinSession"],
        instead: "copilot-sdk-tool-override/extension",
    },
] as const;

/** One entry of `no-restricted-imports`'s `paths` option. */
interface RestrictedPath {
    name: string;
    importNames: string[];
    message: string;
}

/** The flat-config object this module exports (mutable, as ESLint's `Config` type wants). */
export interface SdkImportsConfig {
    name: string;
    rules: {
        "no-restricted-imports": ["error", { paths: RestrictedPath[] }];
    };
}

/**
 * An ESLint flat-config object that reports each import of the SDK's unwrapped client in an app of
 * the library form (which gets the tool customization only through this package's exports). Put
 * it after the app's other configs, as it sets `no-restricted-imports`:
 *
 * @example
 * ```js
 * // eslint.config.mjs
 * import sdkImports from "copilot-sdk-tool-override/eslint";
 * export default [...yourConfigs, sdkImports];
 * ```
 */
const sdkImports: SdkImportsConfig = {
    name: "copilot-sdk-tool-override/sdk-imports",
    rules: {
        "no-restricted-imports": [
            "error",
            {
                paths: UNWRAPPED_CLIENT_IMPORTS.map(({ module, names, instead }) => ({
                    name: module,
                    importNames: [...names],
                    message:
                        `${module}'s ${names.join(", ")} runs without the tool customization: ` +
                        `import ${names.join(", ")} from "${instead}" instead (it exports the same names, types included).`,
                })),
            },
        ],
    },
};

export default sdkImports;
