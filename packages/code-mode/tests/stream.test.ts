import { EventType, type CustomEvent, type Event } from '@ag-ui/core';
import { ChatClient, fetchServerSentEvents, type ModelCallUsage, type ToolCallPart } from '@chatwire/core';
import { chat, createChatHandler, createScriptedModel } from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import { codeModeEvents, readCodeModeUsage, type CodeModeEventValues } from '../src/client.js';
import { createCodeMode, createQuickJsDriver, toWireEvent, type CodeModeEvent } from '../src/index.js';
import { createFixtureTools } from './fixtures.js';

/**
 * Code Mode inside the agent loop: its execution streams as `chatwire.code_mode.*` events (the
 * namespace the server grants its tools), every model call's accounting carries its share, and a
 * ChatClient shows the execution on the call's part.
 */

const driver = createQuickJsDriver();
afterAll(() => driver.dispose());

const code = [
  "console.log('comparing');",
  "const [now, then] = await Promise.all([external_getWeather({ city: 'Oslo' }), external_fetchArchive({ city: 'Oslo', year: 1990 })]);",
  'return { warmer: now.celsius - then.celsius };',
].join('\n');

/** Discover fetchArchive, run the code, then answer with the result. */
const rules: ScriptRule[] = [
  { name: 'discover', when: /compare/i, reply: { toolCalls: [{ name: 'discover_tools', args: { toolNames: ['fetchArchive'] } }] } },
  {
    name: 'execute',
    when: (context) => context.phase === 'tools' && context.results.some((result) => result.toolName === 'discover_tools'),
    reply: { toolCalls: [{ name: 'execute_typescript', args: { typescriptCode: code } }] },
  },
  { name: 'answer', when: (context) => context.phase === 'tools', reply: { text: 'Oslo is 7 degrees colder than in 1990.' } },
];

const codeModeEventsIn = (events: readonly Event[]) =>
  events.filter((event): event is CustomEvent => event.type === EventType.CUSTOM && event.name.startsWith('chatwire.code_mode.'));
const usageOf = (events: readonly Event[]) =>
  events.flatMap((event) =>
    event.type === EventType.CUSTOM && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : [],
  );

async function runScenario() {
  const fixture = createFixtureTools();
  const codeMode = createCodeMode({ tools: fixture.all, driver });
  const system = `You are a weather assistant.\n\n${codeMode.systemPrompt}`;
  const events: Event[] = [];
  for await (const event of chat({
    model: createScriptedModel({ rules }),
    messages: [{ id: 'u1', role: 'user', content: 'use code to compare Oslo today with 1990' }],
    tools: [...codeMode.tools],
    system,
    secret: 's',
  })) {
    events.push(event);
  }
  return { ...fixture, codeMode, events };
}

describe('Code Mode events on the stream', () => {
  it('streams started, console, the nested calls and their results, and finished, all before the call’s result', async () => {
    const { events } = await runScenario();
    const execute = events.find((event) => event.type === EventType.TOOL_CALL_START && event.toolCallName === 'execute_typescript');
    const toolCallId = execute?.type === EventType.TOOL_CALL_START ? execute.toolCallId : 'missing';
    const streamed = codeModeEventsIn(events);
    const names = streamed.map((event) => event.name.slice('chatwire.code_mode.'.length));
    expect(names[0]).toBe('execution_started');
    expect(names.at(-1)).toBe('execution_finished');
    expect(names.slice(1, -1).sort()).toEqual(['console', 'external_call', 'external_call', 'external_result', 'external_result']);
    // Both nested calls started before either returned: they ran in parallel.
    expect(names.indexOf('external_result')).toBeGreaterThan(names.lastIndexOf('external_call'));

    const values = streamed.map((event) => event.value as CodeModeEventValues[keyof CodeModeEventValues]);
    const executionId = values[0]?.executionId;
    for (const value of values) expect(value).toMatchObject({ executionId, toolCallId });
    expect(values[0]).toEqual({
      executionId,
      toolCallId,
      code,
      bindings: [
        'external_getWeather',
        'external_wait',
        'external_fail',
        'external_echo',
        'external_fetchArchive',
        'external_runReport',
        'external_huge',
        'external_deleteCity',
        'external_transfer',
      ],
      // The server passed the history: fetchArchive was discovered in an earlier response, runReport was not.
      undiscovered: ['external_runReport'],
      discoveryKnown: true,
    });
    const calls = streamed.filter((event) => event.name === 'chatwire.code_mode.external_call').map((event) => event.value);
    expect(calls).toEqual([
      { executionId, toolCallId, callId: `${toolCallId}.1`, toolName: 'getWeather', input: { city: 'Oslo' } },
      { executionId, toolCallId, callId: `${toolCallId}.2`, toolName: 'fetchArchive', input: { city: 'Oslo', year: 1990 } },
    ]);
    const results = streamed
      .filter((event) => event.name === 'chatwire.code_mode.external_result')
      .map((event) => event.value as CodeModeEventValues['external_result']);
    expect(results.map((result) => [result.callId, result.output]).sort()).toEqual([
      [`${toolCallId}.1`, { city: 'Oslo', celsius: 4 }],
      [`${toolCallId}.2`, { city: 'Oslo', year: 1990, celsius: 11 }],
    ]);
    expect(streamed.find((event) => event.name === 'chatwire.code_mode.console')?.value).toEqual({
      executionId,
      toolCallId,
      level: 'log',
      text: 'comparing',
    });
    expect(values.at(-1)).toMatchObject({ success: true, toolCalls: 2, logLines: 1, truncated: false });

    const finishedAt = events.indexOf(streamed.at(-1) as Event);
    const resultAt = events.findIndex((event) => event.type === EventType.TOOL_CALL_RESULT && event.toolCallId === toolCallId);
    expect(finishedAt).toBeLessThan(resultAt);
  });

  it('adds Code Mode’s share to each model call’s accounting: APIs as each call saw them, and the tokens', async () => {
    const { events, codeMode } = await runScenario();
    const shares = usageOf(events).map(readCodeModeUsage);
    expect(shares).toHaveLength(3);
    expect(shares.map((share) => share?.apis)).toEqual([
      {
        eager: ['getWeather', 'wait', 'fail', 'echo', 'huge', 'deleteCity', 'transfer'],
        discovered: [],
        undiscovered: ['fetchArchive', 'runReport'],
        newlyDiscovered: [],
      },
      {
        eager: ['getWeather', 'wait', 'fail', 'echo', 'huge', 'deleteCity', 'transfer'],
        discovered: ['fetchArchive'],
        undiscovered: ['runReport'],
        newlyDiscovered: ['fetchArchive'],
      },
      {
        eager: ['getWeather', 'wait', 'fail', 'echo', 'huge', 'deleteCity', 'transfer'],
        discovered: ['fetchArchive'],
        undiscovered: ['runReport'],
        newlyDiscovered: [],
      },
    ]);
    // Counted here independently, with the tokenizer, on the texts the model was sent.
    const prompt = countTokens(codeMode.systemPrompt);
    const discoveryCall = events.find((event) => event.type === EventType.TOOL_CALL_START && event.toolCallName === 'discover_tools');
    const discoveryId = discoveryCall?.type === EventType.TOOL_CALL_START ? discoveryCall.toolCallId : '';
    const discoveryResult = events.find((event) => event.type === EventType.TOOL_CALL_RESULT && event.toolCallId === discoveryId);
    const roundTrip =
      countTokens(`discover_tools${JSON.stringify({ toolNames: ['fetchArchive'] })}`) +
      countTokens(String(discoveryResult?.type === EventType.TOOL_CALL_RESULT ? discoveryResult.content : ''));
    const [first, second, third] = shares;
    expect(first?.tokens).toMatchObject({ prompt, discoveryRoundTrips: 0, code: 0, results: 0 });
    expect(first?.tokens.net).toBe(first!.tokens.saved);
    expect(second?.tokens).toMatchObject({ prompt, discoveryRoundTrips: roundTrip, code: 0, results: 0 });
    expect(second?.tokens.net).toBe(second!.tokens.saved - roundTrip);
    expect(third?.tokens.code).toBe(countTokens(JSON.stringify({ typescriptCode: code })));
    expect(third?.tokens.results).toBeGreaterThan(0);
    expect(first?.tokens.saved).toBe(first!.tokens.allEager - first!.tokens.sent);
    expect(first?.counting).toEqual({ method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })', errorBound: 0 });
  });

  it('cuts large nested inputs and outputs, and refused code, in the stream only', () => {
    const base = { executionId: 'e', toolCallId: undefined };
    const big = { rows: 'x'.repeat(5_000) };
    const result = toWireEvent(
      { type: 'external_result', ...base, callId: 'c.1', toolName: 'huge', output: big, durationMs: 3 },
      'c',
      1_024,
    );
    expect(result.value).toMatchObject({ toolCallId: 'c', outputTruncated: true });
    const preview = (result.value as { output: string }).output;
    expect(preview.startsWith(JSON.stringify(big).slice(0, 1_024))).toBe(true);
    expect(preview).toContain(`… [cut: ${JSON.stringify(big).length} characters]`);
    const call = toWireEvent({ type: 'external_call', ...base, callId: 'c.1', toolName: 'echo', input: big }, 'c', 1_024);
    expect(call.value).toMatchObject({ inputTruncated: true });
    const small = toWireEvent({ type: 'external_call', ...base, callId: 'c.2', toolName: 'echo', input: { a: 1 } }, 'c', 1_024);
    expect(small.value).toEqual({ executionId: 'e', toolCallId: 'c', callId: 'c.2', toolName: 'echo', input: { a: 1 } });
    const started = toWireEvent(
      { type: 'execution_started', ...base, code: 'é'.repeat(2_000), bindings: [], undiscovered: [], discoveryKnown: true },
      'c',
      1_024,
    );
    expect((started.value as { code: string }).code).toBe(`${'é'.repeat(512)}… [cut: 2000 characters]`);
  });

  it('reaches a ChatClient: the execute_typescript part shows the code, logs, nested calls and the result', async () => {
    const { all } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const handler = createChatHandler({
      model: createScriptedModel({ rules }),
      tools: [...codeMode.tools],
      system: codeMode.systemPrompt,
      secret: 's',
    });
    const warnings: string[] = [];
    const client = new ChatClient({
      connection: fetchServerSentEvents({
        url: 'http://chatwire.test/api/chat',
        fetch: ((url: string, init?: RequestInit) => handler(new Request(url, init))) as typeof fetch,
      }),
      customEvents: [codeModeEvents],
      onWarning: (message) => warnings.push(message),
    });
    const seen = new Set<string>();
    client.subscribe(() => {
      const part = client
        .getSnapshot()
        .messages.at(-1)
        ?.parts.find((p): p is ToolCallPart => p.type === 'tool-call' && p.toolName === 'execute_typescript');
      for (const nested of part?.extensions?.codeMode?.calls ?? []) seen.add(`${nested.toolName}:${nested.state}`);
    });
    await client.sendMessage('use code to compare Oslo today with 1990');
    const part = client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((p): p is ToolCallPart => p.type === 'tool-call' && p.toolName === 'execute_typescript');
    expect(part?.state).toBe('output-available');
    expect(part?.result?.output).toEqual({ success: true, result: { warmer: -7 }, logs: ['comparing'] });
    expect(part?.extensions?.codeMode).toMatchObject({
      code,
      state: 'succeeded',
      logs: [{ level: 'log', text: 'comparing' }],
      calls: [
        { toolName: 'getWeather', state: 'output-available', input: { city: 'Oslo' }, output: { city: 'Oslo', celsius: 4 } },
        {
          toolName: 'fetchArchive',
          state: 'output-available',
          input: { city: 'Oslo', year: 1990 },
          output: { city: 'Oslo', year: 1990, celsius: 11 },
        },
      ],
      undiscovered: ['external_runReport'],
    });
    expect([...seen].sort()).toEqual([
      'fetchArchive:executing',
      'fetchArchive:output-available',
      'getWeather:executing',
      'getWeather:output-available',
    ]);
    expect(client.getSnapshot().turns[0]?.modelCalls.map((call) => readCodeModeUsage(call)?.apis.discovered)).toEqual([
      [],
      ['fetchArchive'],
      ['fetchArchive'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a nested call needing approval is refused (never asked) and ends in a terminal state; the run finishes', async () => {
    const { all, log } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const refusing = ["try { await external_deleteCity({ city: 'Oslo' }); return 'ran'; } catch (e) { return e.name; }"].join('\n');
    const handler = createChatHandler({
      model: createScriptedModel({
        rules: [
          { name: 'execute', when: /delete/i, reply: { toolCalls: [{ name: 'execute_typescript', args: { typescriptCode: refusing } }] } },
          { name: 'answer', when: (context) => context.phase === 'tools', reply: { text: 'Oslo was not deleted.' } },
        ],
      }),
      tools: [...codeMode.tools],
      system: codeMode.systemPrompt,
      secret: 's',
    });
    const client = new ChatClient({
      connection: fetchServerSentEvents({
        url: 'http://chatwire.test/api/chat',
        fetch: ((url: string, init?: RequestInit) => handler(new Request(url, init))) as typeof fetch,
      }),
      customEvents: [codeModeEvents],
    });
    await client.sendMessage('delete Oslo with code');
    const snapshot = client.getSnapshot();
    const part = snapshot.messages
      .at(-1)
      ?.parts.find((p): p is ToolCallPart => p.type === 'tool-call' && p.toolName === 'execute_typescript');
    // The tool never ran; the nested call is in a terminal state with the reason, not left executing.
    expect(log.inputs).toEqual([]);
    expect(part?.state).toBe('output-available');
    expect(part?.result?.output).toMatchObject({ success: true, result: 'ApprovalRequiredError' });
    expect(part?.extensions?.codeMode?.state).toBe('succeeded');
    expect(part?.extensions?.codeMode?.calls).toHaveLength(1);
    expect(part?.extensions?.codeMode?.calls[0]).toMatchObject({
      toolName: 'deleteCity',
      state: 'output-error',
      input: { city: 'Oslo' },
      error: { name: 'ApprovalRequiredError' },
    });
    // Nothing is left waiting for an answer.
    const waiting = snapshot.messages.flatMap((message) =>
      message.parts.filter((p) => p.type === 'tool-call' && (p as ToolCallPart).state === 'approval-requested'),
    );
    expect(waiting).toEqual([]);
    expect(snapshot.status).toBe('ready');
    const text = snapshot.messages
      .at(-1)
      ?.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
      .join('');
    expect(text).toBe('Oslo was not deleted.');
  });

  it('reports events to onEvent outside chat() too, without a stream', async () => {
    const seen: CodeModeEvent[] = [];
    const { all } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver, onEvent: (event) => seen.push(event) });
    await codeMode.tool.execute({ typescriptCode: 'return 1;' }, { toolCallId: 'c9', signal: new AbortController().signal });
    expect(seen.map((event) => event.type)).toEqual(['execution_started', 'execution_finished']);
  });
});
