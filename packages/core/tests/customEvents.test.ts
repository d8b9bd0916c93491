import { describe, expect, it } from 'vitest';
import {
  ChatClient,
  type ChatConnection,
  type ChatMessage,
  type CustomEventExtension,
  type CustomEventReducer,
  type ToolCallPart,
} from '@chatwire/core';
import { initialChatState, reduceChat, type ChatAction } from '@chatwire/core/shared';

/**
 * The extension point for other packages' CUSTOM events (`customEvents`): an extension is plain data
 * (a name, a prefix, a loader); its reducer loads with its first event, is registered under its
 * name, and builds `part.extensions[name]` on the tool call each event names. A made-up extension
 * here ("steps" of a long-running tool); Code Mode's own tests are in packages/code-mode.
 */

const run = {
  started: { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
  finished: { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
};
const toolCall = (id: string) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'longTask', parentMessageId: 'a1' },
  { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}' },
  { type: 'TOOL_CALL_END', toolCallId: id },
];
const step = (toolCallId: unknown, value: unknown, name = 'acme.steps.step') => ({ type: 'CUSTOM', name, value: { toolCallId, value } });

/** Folds `acme.steps.step` events into the list of values on their call (kept under `key`); anything else is refused with a reason. */
const reduceSteps =
  (key: string): CustomEventReducer =>
  ({ name, value }, callOf) => {
    const event = value as { toolCallId?: unknown; value?: unknown };
    if (name !== 'acme.steps.step' || typeof event?.toolCallId !== 'string') return { warning: `Bad steps event '${name}'.` };
    const call = callOf(event.toolCallId);
    if (!call) return { warning: `No call '${event.toolCallId}'.` };
    const steps = (call.extensions?.[key] as readonly unknown[] | undefined) ?? [];
    if (steps.at(-1) === event.value) return undefined; // the same step again changes nothing
    return { toolCallId: call.toolCallId, state: [...steps, event.value] };
  };

function extension(name: string, load: CustomEventExtension['load'] = async () => reduceSteps(name)) {
  let loads = 0;
  const declared: CustomEventExtension = {
    name,
    prefix: 'acme.steps.',
    load: () => {
      loads++;
      return load();
    },
  };
  return { declared, loads: () => loads };
}

function clientOver(runs: readonly (readonly unknown[])[], customEvents: readonly CustomEventExtension[]) {
  const warnings: string[] = [];
  let index = 0;
  const connection: ChatConnection = {
    async *run() {
      for (const event of runs[index++] ?? []) yield event;
    },
  };
  const client = new ChatClient({ connection, customEvents, onWarning: (message) => warnings.push(message) });
  return { client, warnings };
}

const callOf = (messages: readonly ChatMessage[], id: string) =>
  messages.flatMap((message) => message.parts).find((part): part is ToolCallPart => part.type === 'tool-call' && part.toolCallId === id);

describe('customEvents: other packages’ CUSTOM events onto tool-call parts', () => {
  it('loads the reducer once, while the first run is under way, and keeps its state on the call each event names', async () => {
    const steps = extension('steps');
    const { client, warnings } = clientOver(
      [
        [run.started, ...toolCall('c1'), step('c1', 'fetching'), step('c1', 'fetching'), step('c1', 'parsing'), run.finished],
        [run.started, ...toolCall('c2'), step('c2', 'fetching'), run.finished],
      ],
      [steps.declared],
    );
    expect(steps.loads()).toBe(0);
    await client.sendMessage('go');
    expect(steps.loads()).toBe(1);
    await client.sendMessage('again');
    const { messages } = client.getSnapshot();
    expect(callOf(messages, 'c1')?.extensions).toEqual({ steps: ['fetching', 'parsing'] });
    expect(callOf(messages, 'c2')?.extensions).toEqual({ steps: ['fetching'] });
    expect(steps.loads()).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('leaves events of an extension the client did not list alone, and says why the reducer refused one', async () => {
    const { client: without } = clientOver([[run.started, ...toolCall('c1'), step('c1', 'fetching'), run.finished]], []);
    await without.sendMessage('go');
    expect(callOf(without.getSnapshot().messages, 'c1')?.extensions).toBeUndefined();

    const { client, warnings } = clientOver(
      [
        [
          run.started,
          ...toolCall('c1'),
          step('nope', 'x'),
          step(42, 'x'),
          step('c1', 'x', 'acme.steps.other'),
          step('c1', 'kept'),
          run.finished,
        ],
      ],
      [extension('steps').declared],
    );
    await client.sendMessage('go');
    expect(callOf(client.getSnapshot().messages, 'c1')?.extensions).toEqual({ steps: ['kept'] });
    expect(warnings).toEqual(["No call 'nope'.", "Bad steps event 'acme.steps.step'.", "Bad steps event 'acme.steps.other'."]);
  });

  it('refuses a reserved name, and a loader that fails ignores the event, says why, and is tried again with the next one', async () => {
    const reserved = extension('core');
    const { client: reservedClient, warnings: reservedWarnings } = clientOver(
      [[run.started, ...toolCall('c1'), step('c1', 'x'), run.finished]],
      [reserved.declared],
    );
    await reservedClient.sendMessage('go');
    expect(reserved.loads()).toBe(0);
    expect(callOf(reservedClient.getSnapshot().messages, 'c1')?.extensions).toBeUndefined();
    expect(reservedWarnings).toEqual(["The custom event extension 'core' has a reserved name: its events are ignored."]);
    // A name an object inherits is refused too: it could never be told from the table's own entries.
    const inherited = extension('constructor');
    const { client: inheritedClient, warnings: inheritedWarnings } = clientOver(
      [[run.started, ...toolCall('c1'), step('c1', 'x'), run.finished]],
      [inherited.declared],
    );
    await inheritedClient.sendMessage('go');
    expect(inherited.loads()).toBe(0);
    expect(callOf(inheritedClient.getSnapshot().messages, 'c1')?.extensions).toBeUndefined();
    expect(inheritedWarnings).toEqual(["The custom event extension 'constructor' has a reserved name: its events are ignored."]);

    // The load while the run starts fails quietly, the first event's load fails and says so, the second event's succeeds.
    let failures = 2;
    const flaky = extension('flakySteps', async () => {
      if (failures-- > 0) throw new Error('chunk failed to load');
      return reduceSteps('flakySteps');
    });
    const { client, warnings } = clientOver(
      [[run.started, ...toolCall('c1'), step('c1', 'lost'), step('c1', 'kept'), run.finished]],
      [flaky.declared],
    );
    await client.sendMessage('go');
    expect(callOf(client.getSnapshot().messages, 'c1')?.extensions).toEqual({ flakySteps: ['kept'] });
    expect(flaky.loads()).toBe(3);
    expect(warnings).toEqual(["The custom event extension 'flakySteps' did not load (chunk failed to load): its event is ignored."]);
  });

  it('actions name the registered reducer and carry only data: one read back from JSON applies the same way', async () => {
    const { client } = clientOver(
      [[run.started, ...toolCall('c1'), step('c1', 'first'), run.finished]],
      [extension('replayedSteps').declared],
    );
    await client.sendMessage('go');
    const state = { ...initialChatState(), messages: client.getSnapshot().messages };
    const action: ChatAction = { type: 'wireEvent', event: step('c1', 'second') as never, now: 1, reducer: 'replayedSteps' };
    const replayed = JSON.parse(JSON.stringify(action)) as ChatAction;
    expect(callOf(reduceChat(state, replayed).state.messages, 'c1')?.extensions).toEqual({ replayedSteps: ['first', 'second'] });
    expect(reduceChat(state, replayed).state).toEqual(reduceChat(state, action).state);
  });

  it('keeps an extension’s state when a messages snapshot replaces the turn (the server never has it)', async () => {
    const { client } = clientOver(
      [
        [
          run.started,
          ...toolCall('c1'),
          step('c1', 'fetching'),
          {
            type: 'MESSAGES_SNAPSHOT',
            messages: [
              { id: 'u1', role: 'user', content: 'go' },
              { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'longTask', arguments: '{}' } }] },
            ],
          },
          run.finished,
        ],
      ],
      [extension('snapshotSteps').declared],
    );
    await client.sendMessage('go');
    expect(callOf(client.getSnapshot().messages, 'c1')?.extensions).toEqual({ snapshotSteps: ['fetching'] });
  });
});
