import type { AiSdkJsonObject, AiSdkProviderOptions } from './specification.js';

/*
 * A provider's metadata on a reasoning span or a tool call (Gemini's `thoughtSignature`, Anthropic's
 * thinking `signature` or `redactedData`, OpenAI's reasoning `itemId` and `reasoningEncryptedContent`)
 * has to go back to the provider with the history, as the part's `providerOptions`: the AI SDK's own
 * `generateText` does the same. The bridge keeps it in the AG-UI history as the `encryptedValue` of the
 * reasoning message or the tool call (the client stores it and sends it back), as JSON tagged with the
 * provider that wrote it: `{"aiSdk":{"provider":"google.generative-ai","metadata":{...}}}`.
 */

/** What an artefact holds: the provider that wrote it and the metadata it reported (possibly none). */
export interface ProviderArtefact {
  readonly provider: string;
  readonly metadata: AiSdkProviderOptions | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The provider metadata of a stream part as provider options: each provider key whose value is a JSON
 * object, or `undefined` when there is none.
 */
export function metadataOf(value: unknown): AiSdkProviderOptions | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, AiSdkJsonObject> = {};
  for (const [key, entry] of Object.entries(value)) if (isObject(entry)) out[key] = entry as AiSdkJsonObject;
  return Object.keys(out).length ? out : undefined;
}

/** Metadata reported over several parts of one span or call (start, deltas, end), later keys winning. */
export function mergeMetadata(
  into: AiSdkProviderOptions | undefined,
  next: AiSdkProviderOptions | undefined,
): AiSdkProviderOptions | undefined {
  if (!next) return into;
  if (!into) return next;
  const out: Record<string, AiSdkJsonObject> = { ...into };
  for (const [key, entry] of Object.entries(next)) out[key] = { ...out[key], ...entry };
  return out;
}

/** An artefact as the history keeps it (a message's or a call's `encryptedValue`). */
export function encodeArtefact(artefact: ProviderArtefact): string {
  return JSON.stringify({ aiSdk: { provider: artefact.provider, ...(artefact.metadata ? { metadata: artefact.metadata } : {}) } });
}

/**
 * The artefact an `encryptedValue` holds when the bridge wrote it for this provider; `undefined` for
 * anything else (another provider's or adapter's value, or one that is not an artefact), which is then
 * not sent: a provider only reads its own metadata, and a value from elsewhere means nothing to it.
 */
export function decodeArtefact(value: string | undefined, provider: string): ProviderArtefact | undefined {
  if (!value || !value.startsWith('{"aiSdk"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const inner = isObject(parsed) ? parsed['aiSdk'] : undefined;
  if (!isObject(inner) || inner['provider'] !== provider) return undefined;
  return { provider, metadata: metadataOf(inner['metadata']) };
}
