/**
 * Imports an AI SDK provider package the server's tests install (`@ai-sdk/google`, `@ai-sdk/mistral`),
 * resolved from this package: the demo's own tests load them through it, since the demo installs a
 * provider package only when asked for.
 */
export const loadProviderPackage = (name: string): Promise<unknown> => import(/* @vite-ignore */ name);
