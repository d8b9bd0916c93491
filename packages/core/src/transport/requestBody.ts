import type { RunAgentInput } from '@ag-ui/core';

/**
 * The JSON body of a run request, the same text `JSON.stringify(input)` makes, with each frozen
 * message's JSON kept (by the message object) instead of written again every turn: a chat of 16,000
 * messages sends them all each turn, but serialises only the new ones. The client's run inputs
 * carry frozen, shared wire messages (`runtime/requestMessages.ts`); any other message is written
 * as usual.
 */
const jsonOf = new WeakMap<object, string>();

/** The JSON of one message: kept when the message is frozen (it cannot change any more). */
function messageJson(message: unknown): string {
  if (message === null || typeof message !== 'object') return JSON.stringify(message) ?? 'null';
  let json = jsonOf.get(message);
  if (json === undefined) {
    json = JSON.stringify(message) ?? 'null';
    if (Object.isFrozen(message)) jsonOf.set(message, json);
  }
  return json;
}

/** The JSON of a messages array: the kept JSON of each, joined (string concatenation: no array of pieces). */
function messagesJson(messages: readonly unknown[]): string {
  let json = '';
  for (let index = 0; index < messages.length; index++) json += (index === 0 ? '' : ',') + messageJson(messages[index]);
  return `[${json}]`;
}

/** `JSON.stringify(input)`, writing each frozen message of `input.messages` once in its life. */
export function runInputJson(input: RunAgentInput): string {
  let json = '';
  for (const key of Object.keys(input)) {
    const value = (input as unknown as Record<string, unknown>)[key];
    const text = key === 'messages' && Array.isArray(value) ? messagesJson(value) : JSON.stringify(value);
    // JSON.stringify leaves out what has no JSON (undefined, functions, symbols).
    if (text !== undefined) json += `${json ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `{${json}}`;
}
