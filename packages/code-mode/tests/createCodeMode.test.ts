import { EventType, type Event } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { chat, createChatHandler, createScriptedModel } from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CodeModeError,
  createCodeMode,
  createQuickJsDriver,
  DEFAULT_CODE_MODE_LIMITS,
  DEFAULT_LIMITS,
  resolveLimits,
} from '../src/index.js';
import { createFixtureTools } from './fixtures.js';

const driver = createQuickJsDriver();
afterAll(() => driver.dispose());

describe('createCodeMode', () => {
  it('returns execute_typescript and discover_tools with the seed’s names and inputs', () => {
    const { all } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    expect(codeMode.tool.name).toBe('execute_typescript');
    expect(codeMode.tool.kind).toBe('server');
    expect(codeMode.tool.parameters).toMatchObject({
      type: 'object',
      properties: { typescriptCode: { type: 'string' } },
      required: ['typescriptCode'],
    });
    expect(codeMode.discoveryTool?.name).toBe('discover_tools');
    expect(codeMode.discoveryTool?.parameters).toMatchObject({
      type: 'object',
      properties: { toolNames: { type: 'array', items: { type: 'string' } } },
      required: ['toolNames'],
    });
    expect(codeMode.tools).toEqual([codeMode.tool, codeMode.discoveryTool]);
    expect(codeMode.lazyToolNames).toEqual(['fetchArchive', 'runReport']);
  });

  it('has no discovery tool when nothing is lazy', () => {
    const { tools } = createFixtureTools();
    const codeMode = createCodeMode({ tools: [tools.getWeather, tools.wait], driver });
    expect(codeMode.discoveryTool).toBeNull();
    expect(codeMode.tools).toEqual([codeMode.tool]);
    expect(codeMode.systemPrompt).not.toContain('Discoverable APIs');
  });

  it('refuses tools without a server implementation, duplicate names, bad names, bad limits and options', () => {
    const definition = toolDefinition({ name: 'clientOnly', description: 'Runs in the browser.', inputSchema: z.object({}) });
    const client = definition.client(() => ({}));
    const { tools } = createFixtureTools();
    const dashed = toolDefinition({ name: 'get-weather', description: 'x', inputSchema: z.object({}) }).server(() => ({}));
    const cases: [() => unknown, string][] = [
      [() => createCodeMode({ tools: [definition] }), 'not-a-server-tool'],
      [() => createCodeMode({ tools: [client] }), 'not-a-server-tool'],
      [() => createCodeMode({ tools: [tools.getWeather, tools.getWeather] }), 'duplicate-tool'],
      [() => createCodeMode({ tools: [dashed] }), 'invalid-tool-name'],
      [() => createCodeMode({ tools: [], limits: { timeoutMs: 0 } }), 'invalid-limit'],
      [() => createCodeMode({ tools: [], limits: { memoryLimitMb: Number.NaN } }), 'invalid-limit'],
      [() => createCodeMode({ tools: [], limits: { maxStackBytes: 4 * 1024 * 1024 } }), 'invalid-limit'],
      [() => createCodeMode({ tools: [], limits: { timeout: 5 } as never }), 'invalid-limit'],
      [() => createCodeMode({ tools: [], lazyToolsConfig: { includeDescription: 'some' as never } }), 'invalid-option'],
    ];
    for (const [create, code] of cases) {
      expect(create).toThrow(CodeModeError);
      expect(create).toThrow(expect.objectContaining({ code }));
    }
  });

  it('fills in default limits and keeps given ones', () => {
    expect(resolveLimits()).toEqual(DEFAULT_CODE_MODE_LIMITS);
    // The former name stays an alias of the same object until the next minor version.
    expect(DEFAULT_LIMITS).toBe(DEFAULT_CODE_MODE_LIMITS);
    expect(DEFAULT_CODE_MODE_LIMITS).toEqual({
      timeoutMs: 10_000,
      memoryLimitMb: 64,
      maxStackBytes: 262_144,
      maxCodeBytes: 32_768,
      maxToolCalls: 50,
      maxConcurrentToolCalls: 8,
      maxResultBytes: 32_768,
      maxLogLines: 100,
      maxLogBytes: 8_192,
    });
    expect(resolveLimits({ timeoutMs: 500, maxToolCalls: 3 })).toMatchObject({ timeoutMs: 500, maxToolCalls: 3, memoryLimitMb: 64 });
  });

  it('runs through execute_typescript’s own execute with a ToolContext, reading messages when the server passes them', async () => {
    const { all, log } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const signal = new AbortController().signal;
    const plain = await codeMode.tool.execute(
      { typescriptCode: `return (await external_runReport({ period: 'day' })).rows;` },
      { toolCallId: 'c1', signal },
    );
    // No conversation in the context: discovery cannot be known, so lazy APIs are not gated.
    expect(plain).toEqual({ success: true, result: 3 });
    const withHistory = await codeMode.tool.execute({ typescriptCode: `return (await external_runReport({ period: 'day' })).rows;` }, {
      toolCallId: 'c2',
      signal,
      messages: [{ id: 'u', role: 'user', content: 'hi' }],
    } as never);
    expect(withHistory).toMatchObject({ success: false, error: { code: 'guest', name: 'DiscoveryRequiredError' } });
    expect(log.inputs).toEqual([{ period: 'day' }]);
  });

  it('refuses nested calls that need approval instead of running them unapproved', async () => {
    const { all, log } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const code = [
      'const outcomes: string[] = [];',
      "for (const call of [() => external_deleteCity({ city: 'Oslo' }), () => external_transfer({ amount: 500 }), () => external_transfer({ amount: 5 })]) {",
      '  try { outcomes.push(JSON.stringify(await call())); } catch (e) { outcomes.push(e.name + ": " + e.message); }',
      '}',
      'return outcomes;',
    ].join('\n');
    const result = await codeMode.execute(code);
    expect(result).toEqual({
      success: true,
      result: [
        "ApprovalRequiredError: external_deleteCity needs the user's approval, which cannot be asked for inside execute_typescript, so it was not run.",
        "ApprovalRequiredError: external_transfer needs the user's approval, which cannot be asked for inside execute_typescript, so it was not run.",
        '{"moved":5}',
      ],
    });
    expect(log.inputs).toEqual([{ amount: 5 }]);
  });

  it('keeps a failing event listener from breaking the execution', async () => {
    const { all } = createFixtureTools();
    const codeMode = createCodeMode({
      tools: all,
      driver,
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(await codeMode.execute(`return (await external_getWeather({ city: 'Rome' })).celsius;`)).toEqual({ success: true, result: 4 });
  });

  it('accepts a custom transpile hook, and reports its errors as TypeScriptError', async () => {
    const { all } = createFixtureTools();
    const seen: string[] = [];
    const codeMode = createCodeMode({
      tools: all,
      driver,
      transpile: async (code) => {
        seen.push(code);
        if (code.includes('FORBIDDEN')) throw Object.assign(new Error('FORBIDDEN is not allowed'), { line: 2 });
        return code.replace('SEVEN', '7');
      },
    });
    expect(await codeMode.execute('return SEVEN * 6;')).toEqual({ success: true, result: 42 });
    expect(await codeMode.execute('const a = 1;\nFORBIDDEN;')).toEqual({
      success: false,
      error: { code: 'syntax', name: 'TypeScriptError', message: 'FORBIDDEN is not allowed', line: 2 },
    });
    expect(seen).toEqual(['return SEVEN * 6;', 'const a = 1;\nFORBIDDEN;']);
  });
});

describe('Code Mode inside chat()', () => {
  /** A scripted scenario: discover an API, then run code that calls two tools in parallel, then answer. */
  const rules = (code: string, seenSystems: (string | undefined)[]): ScriptRule[] => [
    {
      name: 'discover',
      when: (context) => context.phase === 'user' && /compare/i.test(context.userText),
      reply: (context) => {
        seenSystems.push(context.request.system);
        return { toolCalls: [{ name: 'discover_tools', args: { toolNames: ['fetchArchive'] } }] };
      },
    },
    {
      name: 'execute',
      when: (context) => context.phase === 'tools' && context.results.some((result) => result.toolName === 'discover_tools'),
      reply: { toolCalls: [{ name: 'execute_typescript', args: { typescriptCode: code } }] },
    },
    {
      name: 'answer',
      when: (context) => context.phase === 'tools' && context.results.some((result) => result.toolName === 'execute_typescript'),
      reply: (context) => ({ text: `Result: ${context.results[0]?.content}` }),
    },
  ];

  const code = [
    "const [now, then] = await Promise.all([external_getWeather({ city: 'Oslo' }), external_fetchArchive({ city: 'Oslo', year: 1990 })]);",
    'return { warmer: now.celsius - then.celsius };',
  ].join('\n');

  it('plugs into chat() like any server tools: discovery, then code calling two tools in parallel', async () => {
    const { all, log } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const systems: (string | undefined)[] = [];
    const events: Event[] = [];
    for await (const event of chat({
      model: createScriptedModel({ rules: rules(code, systems) }),
      messages: [{ id: 'u1', role: 'user', content: 'Use code to compare Oslo today with 1990' }],
      tools: [...codeMode.tools],
      system: `You are a weather assistant.\n\n${codeMode.systemPrompt}`,
    })) {
      events.push(event);
    }
    const results = events.flatMap((event) => (event.type === EventType.TOOL_CALL_RESULT ? [String(event.content)] : []));
    expect(results).toHaveLength(2);
    const discovery = JSON.parse(results[0] ?? '{}');
    expect(discovery.discovered).toEqual(['fetchArchive']);
    expect(discovery.tools[0].typeStub).toContain('declare function external_fetchArchive(input: FetchArchiveInput): Promise<unknown>;');
    expect(JSON.parse(results[1] ?? '{}')).toEqual({ success: true, result: { warmer: 4 - 11 } });
    expect(log.inputs).toEqual([{ city: 'Oslo' }, { city: 'Oslo', year: 1990 }]);
    expect(log.maxInFlight).toBe(2);
    expect(systems[0]).toContain('### Discoverable APIs');
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
  });

  it('plugs into createChatHandler', async () => {
    const { all } = createFixtureTools();
    const codeMode = createCodeMode({ tools: all, driver });
    const handler = createChatHandler({
      model: createScriptedModel({ rules: rules(code, []) }),
      tools: [...codeMode.tools],
      system: codeMode.systemPrompt,
    });
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          threadId: 't1',
          runId: 'r1',
          messages: [{ id: 'u1', role: 'user', content: 'compare please' }],
          tools: [],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.text();
    const data = body
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as Event);
    const execution = data.find(
      (event) => event.type === EventType.TOOL_CALL_RESULT && JSON.parse((event as { content: string }).content).success !== undefined,
    );
    expect(JSON.parse((execution as { content: string }).content)).toEqual({ success: true, result: { warmer: -7 } });
  });
});
