import type { RunAgentInput } from '@ag-ui/core';
import { APP_CALL_ID_PREFIX, type McpAppCallRequest } from '@chatwire/core';
import { hasProtoKey } from '@chatwire/core/shared';

/** An app call's id: the prefix, `_`, then up to 64 letters, digits, `_` or `-` (the client's are 16 hex digits). */
const APP_CALL_ID = new RegExp(`^${APP_CALL_ID_PREFIX}_[A-Za-z0-9_-]{1,64}$`);
/** The canonical JSON of an app call's arguments, at most (its own limit under the body's). */
const MAX_ARGUMENT_CHARS = 64 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * MCP Apps: the call a run input asks for in `forwardedProps.chatwire.appCall`, checked: `undefined`
 * when there is none, an error when it is malformed (the handler answers 400 `invalid-app-call`).
 */
export function readAppCall(input: RunAgentInput): { readonly appCall?: McpAppCallRequest } | { readonly error: string } {
  const props = input.forwardedProps as unknown;
  const chatwire = isRecord(props) ? props['chatwire'] : undefined;
  const appCall = isRecord(chatwire) ? chatwire['appCall'] : undefined;
  if (appCall === undefined) return {};
  if (!isRecord(appCall)) return { error: 'forwardedProps.chatwire.appCall must be an object.' };
  const { toolCallId, via, name } = appCall;
  const args = appCall['arguments'] ?? {};
  if (typeof toolCallId !== 'string' || !APP_CALL_ID.test(toolCallId))
    return {
      error: `forwardedProps.chatwire.appCall.toolCallId must be '${APP_CALL_ID_PREFIX}_' and 1 to 64 letters, digits, '_' or '-'.`,
    };
  if (typeof via !== 'string' || via === '' || via.length > 256)
    return { error: 'forwardedProps.chatwire.appCall.via must name a tool call.' };
  if (typeof name !== 'string' || name === '' || name.length > 128)
    return { error: 'forwardedProps.chatwire.appCall.name must be a tool name of 1 to 128 characters.' };
  if (!isRecord(args) || hasProtoKey(args)) return { error: 'forwardedProps.chatwire.appCall.arguments must be a plain object.' };
  if (JSON.stringify(args).length > MAX_ARGUMENT_CHARS)
    return { error: `forwardedProps.chatwire.appCall.arguments are over ${MAX_ARGUMENT_CHARS} characters of JSON.` };
  return { appCall: { toolCallId, via, name, arguments: args } };
}
