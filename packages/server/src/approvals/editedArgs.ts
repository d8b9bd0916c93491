import type { ToolCall } from '@ag-ui/core';
import type { ServerTool } from '@chatwire/core';
import { validateToolInput } from '@chatwire/core/shared';
import canonicalize from 'canonicalize';

/** The longest edited arguments accepted, as canonical JSON (characters). */
const MAX_EDITED_ARGS_CHARS = 64 * 1024;

/** Why edited arguments are refused, or the call as it will run: same id and tool, the edited arguments in canonical JSON. */
export type EditedCall =
  { readonly ok: true; readonly call: ToolCall; readonly input: unknown } | { readonly ok: false; readonly error: string };

/** A key that would reach an object's prototype when copied by a careless consumer. */
function findProtoKey(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return 'the arguments nest deeper than 64 levels';
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return "the arguments carry a '__proto__' key";
    const inner = findProtoKey((value as Record<string, unknown>)[key], depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Checks AG-UI `editedArgs` (a full replacement of a call's arguments, never merged) against the
 * tool's schema: an object, no `__proto__` key anywhere, at most {@link MAX_EDITED_ARGS_CHARS}
 * characters, and valid input for the tool. The call that runs carries them as canonical JSON.
 */
export async function editedCall(tool: ServerTool<string, unknown, unknown>, call: ToolCall, edited: unknown): Promise<EditedCall> {
  if (typeof edited !== 'object' || edited === null || Array.isArray(edited))
    return { ok: false, error: 'editedArgs must be an object (the full arguments)' };
  const proto = findProtoKey(edited);
  if (proto) return { ok: false, error: proto };
  let text: string | undefined;
  try {
    text = canonicalize(edited);
  } catch {
    text = undefined;
  }
  if (text === undefined) return { ok: false, error: 'editedArgs have no canonical JSON form' };
  if (text.length > MAX_EDITED_ARGS_CHARS)
    return { ok: false, error: `editedArgs are ${text.length} characters; at most ${MAX_EDITED_ARGS_CHARS} are accepted` };
  const valid = await validateToolInput(tool, JSON.parse(text) as unknown);
  if (!valid.ok) return { ok: false, error: valid.error };
  return { ok: true, call: { ...call, function: { ...call.function, arguments: text } }, input: valid.value };
}
