// `copilot-sdk-tool-override/patch`: what the thin patch of @github/copilot-sdk imports. It must
// not import the SDK (the SDK's client.js imports it while the SDK is still loading): everything
// here reaches the SDK only through what client.js hands to `toolCustomizationHook`. The SDK's
// root module re-exports this module, so that `import { SessionToolError } from
// "@github/copilot-sdk"` works in the patch form.

export * from "./publicApi.js";
export { toolCustomizationHook } from "./wrap/wrapSdk.js";
