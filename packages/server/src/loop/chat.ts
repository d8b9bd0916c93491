import type { Event } from '@ag-ui/core';
import type { ChatOptions } from '../run/chatOptions.js';
import { runChat } from './runChat.js';

export type { ChatOptions } from '../run/chatOptions.js';
export { reviewChatRequest, validateChatRequest } from './reviewChatRequest.js';
export type { ReviewedRequest } from './reviewChatRequest.js';
export { runChat } from './runChat.js';

/**
 * Runs the agent loop for one AG-UI run and yields its events: the model streams text and tool
 * calls, server tools execute (concurrently), and the run finishes when the model answers without
 * tools (`success`), leaves calls of frontend tools for the application (`success` with
 * `pendingToolCallIds`), or waits for approvals (`interrupt`). The pieces live in `loop/`.
 *
 * @example
 * ```ts
 * const events = chat({ model: createScriptedModel(), messages: input.messages, tools: [getWeather] });
 * return toServerSentEventsResponse(events);
 * ```
 */
export function chat(options: ChatOptions): AsyncGenerator<Event, void, undefined> {
  return runChat(options, undefined);
}
