import type { Event, Message, ResumeEntry } from '@ag-ui/core';
import type { ApprovalDecision } from '@chatwire/core';
import {
  createChatHandler,
  createGrantsHandler,
  createMemoryStore,
  createScriptedModel,
  type ChatHandlerOptions,
  type ChatModel,
} from '@chatwire/server';
import { applyEvents, interruptsOf, readEvents, user } from './fixtures.js';

/**
 * Test material for approval policies, grants, edits and batches: one server (own store), a `send`
 * that posts a run input, and the grants endpoint with the same options. `x-user` names the user.
 */
export function approvalServer(options: Partial<ChatHandlerOptions> = {}) {
  const received: (readonly Message[])[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request.messages), scripted.stream(request)) };
  const store = options.store ?? createMemoryStore();
  const userOf = (request: Request) => request.headers.get('x-user') ?? undefined;
  const all: ChatHandlerOptions = { model, secret: 'approvals-secret', store, userOf, ...options };
  let handler = createChatHandler(all);
  const grantsHandler = createGrantsHandler({ store, secret: all.secret as string, userOf });
  const send = async (threadId: string, messages: Message[], resume?: ResumeEntry[], who?: string) => {
    const response = await handler(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(who ? { 'x-user': who } : {}) },
        body: JSON.stringify({
          threadId,
          runId: `run_${Math.random().toString(36).slice(2)}`,
          messages,
          tools: [],
          context: [],
          ...(resume ? { resume } : {}),
        }),
      }),
    );
    if (response.status !== 200)
      return { status: response.status, body: (await response.json()) as { error: string; code: string }, events: [] as Event[], messages };
    const events = await readEvents(response);
    return { status: 200, body: undefined, events, messages: applyEvents(messages, events) };
  };
  const listGrants = async (threadId: string, who?: string) => {
    const response = await grantsHandler(
      new Request(`http://chatwire.test/api/grants?threadId=${encodeURIComponent(threadId)}`, { headers: who ? { 'x-user': who } : {} }),
    );
    return {
      status: response.status,
      body: (await response.json()) as {
        grants: { id: string; toolName: string; scope: string; effect: string; arguments?: string }[];
        code?: string;
      },
    };
  };
  const revoke = async (threadId: string, id: string, who?: string, init: RequestInit = {}) => {
    const response = await grantsHandler(
      new Request('http://chatwire.test/api/grants', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(who ? { 'x-user': who } : {}) },
        body: JSON.stringify({ threadId, revoke: id }),
        ...init,
      }),
    );
    return { status: response.status, body: (await response.json()) as { revoked?: string; code?: string; error?: string } };
  };
  /** Replaces the chat handler's options (a tool whose definition changed), keeping the store and secret. */
  const reconfigure = (more: Partial<ChatHandlerOptions>) => {
    handler = createChatHandler({ ...all, ...more });
  };
  return { send, received, store, listGrants, revoke, reconfigure, grantsHandler };
}

/** The `chatwire.approval_decision` events of a run. */
export function decisionsOf(events: readonly Event[]): ApprovalDecision[] {
  return events
    .filter((event) => event.type === 'CUSTOM' && event.name === 'chatwire.approval_decision')
    .map((event) => (event as { value: ApprovalDecision }).value);
}

/** A new user message appended to a history. */
export const say = (messages: Message[], text: string): Message[] => [...messages, user(text)];

export { interruptsOf };
