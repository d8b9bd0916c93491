import { parseToolArguments } from '@chatwire/core/shared';

/** Parsed tool-call arguments for a provider's tool-use block: an object, `{}` when empty or unusable. */
export function toolInputOf(args: string): Record<string, unknown> {
  try {
    const value = parseToolArguments(args);
    // Broken arguments were answered with an error result the model reads; `input` must be an object.
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
