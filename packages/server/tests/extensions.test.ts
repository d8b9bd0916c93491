import { describe, expect, it } from 'vitest';
import type { Event } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { extendTools, extensionOf, type ChatwireNamespace } from '@chatwire/server/extension';
import type { ScriptRule } from '@chatwire/server/testing';
import { collect, user } from './fixtures.js';

/**
 * Server packages (Code Mode) emit Chatwire events in a namespace the server grants to their tool
 * objects, and add their share to each model call's accounting. Nothing else may use `chatwire.`.
 */

const calling = (when: string, name: string): ScriptRule => ({ name: when, when, reply: { toolCalls: [{ name, args: {} }] } });
/** The accounting records, with the extensions' shares (fields named after their namespace). */
const usageOf = (events: readonly Event[]) =>
  events.flatMap((event) =>
    event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage'
      ? [event.value as ModelCallUsage & { readonly codeMode?: unknown }]
      : [],
  );

/** A made-up Code Mode share, checkable field by field. */
const share = (toolsSent: readonly string[]) => ({
  apis: { eager: ['a'], discovered: [], undiscovered: ['b'], newlyDiscovered: [] },
  tokens: {
    prompt: toolsSent.length,
    toolDefinitions: 2,
    sent: 3,
    allEager: 10,
    saved: 7,
    discoveryRoundTrips: 0,
    net: 7,
    code: 0,
    results: 0,
  },
  counting: { method: 'test', errorBound: 0 },
});

/** A tool that tries every name it is given and reports which ones `emit` refused. */
function emitter(name: string, attempts: readonly string[]) {
  const refused: string[] = [];
  const tool = toolDefinition({ name, description: 'Emits.', inputSchema: z.object({}) }).server(async (_input, { emit }) => {
    for (const attempt of attempts) {
      try {
        emit?.(attempt, { from: name });
      } catch (error) {
        refused.push((error as Error).message);
      }
    }
    return { ok: true };
  });
  return { tool, refused };
}

describe('extendTools: a namespace of Chatwire events for a server package', () => {
  const attempts = [
    'chatwire.code_mode.console',
    'chatwire.code_mode.',
    'chatwire.model_call_usage',
    'chatwire.tool_executing',
    'chatwire.code_modeX',
    'progress',
  ];

  it('lets a granted tool emit in its namespace only, and refuses Chatwire’s own events to every tool', async () => {
    const granted = emitter('runCode', attempts);
    extendTools({ namespace: 'codeMode' }, [granted.tool]);
    const events = await collect(
      chat({
        model: createScriptedModel({ rules: [calling('go', 'runCode')] }),
        messages: [user('go')],
        tools: [granted.tool],
        secret: 's',
      }),
    );
    const emitted = events.flatMap((event) =>
      event.type === 'CUSTOM' && (event.value as { from?: string } | null)?.from === 'runCode' ? [event.name] : [],
    );
    expect(emitted).toEqual(['chatwire.code_mode.console', 'progress']);
    expect(granted.refused).toEqual([
      "emit('chatwire.code_mode.'): event names starting with 'chatwire.' are reserved for Chatwire (this tool may emit 'chatwire.code_mode.*').",
      "emit('chatwire.model_call_usage'): event names starting with 'chatwire.' are reserved for Chatwire (this tool may emit 'chatwire.code_mode.*').",
      "emit('chatwire.tool_executing'): event names starting with 'chatwire.' are reserved for Chatwire (this tool may emit 'chatwire.code_mode.*').",
      "emit('chatwire.code_modeX'): event names starting with 'chatwire.' are reserved for Chatwire (this tool may emit 'chatwire.code_mode.*').",
    ]);
  });

  it('binds the grant to the tool object: a copy, or a tool of the same name, has none', async () => {
    const granted = emitter('runCode', attempts);
    extendTools({ namespace: 'codeMode' }, [granted.tool]);
    const copy = { ...granted.tool };
    expect(extensionOf(granted.tool)?.namespace).toBe('codeMode');
    expect(extensionOf(copy)).toBeUndefined();
    const lookalike = emitter('runCode', ['chatwire.code_mode.console']);
    await collect(
      chat({
        model: createScriptedModel({ rules: [calling('go', 'runCode')] }),
        messages: [user('go')],
        tools: [lookalike.tool],
        secret: 's',
      }),
    );
    expect(lookalike.refused).toEqual([
      "emit('chatwire.code_mode.console'): event names starting with 'chatwire.' are reserved for Chatwire.",
    ]);
  });

  it('refuses unknown namespaces, tools that do not run on the server, and and returns the tools it granted', () => {
    const definition = toolDefinition({ name: 'plain', description: 'No implementation.', inputSchema: z.object({}) });
    expect(() => extendTools({ namespace: 'model_call_usage' as ChatwireNamespace }, [])).toThrow(
      "extendTools: unknown namespace 'model_call_usage' (known: codeMode, mcp).",
    );
    expect(() => extendTools({ namespace: 'codeMode' }, [definition])).toThrow(
      "extendTools: 'plain' is not a server tool; only tools that run in the agent loop emit events.",
    );
    const { tool } = emitter('once', []);
    expect(extendTools({ namespace: 'codeMode' }, [tool])).toEqual([tool]);
  });
});

describe('extension accounting', () => {
  it('adds the share to each model call the extended tools were sent with, once per extension, with what the call was sent', async () => {
    const inputs: { system: string | undefined; toolsSent: readonly string[]; messages: number; method: string }[] = [];
    const a = emitter('runCode', []);
    const b = emitter('findApis', []);
    extendTools(
      {
        namespace: 'codeMode',
        usage: (call) => {
          inputs.push({ system: call.system, toolsSent: call.toolsSent, messages: call.messages.length, method: call.counter.method });
          return share(call.toolsSent);
        },
      },
      [a.tool, b.tool],
    );
    const events = await collect(
      chat({
        model: createScriptedModel({ rules: [calling('go', 'runCode')] }),
        messages: [user('go')],
        tools: [a.tool, b.tool],
        system: 'Be brief.',
        secret: 's',
      }),
    );
    const usage = usageOf(events);
    expect(usage).toHaveLength(2);
    expect(usage.map((record) => record.codeMode)).toEqual([share(['runCode', 'findApis']), share(['runCode', 'findApis'])]);
    // Two model calls, one hook call each (two extended tools, one extension); the second call's history holds the first's call and result.
    expect(inputs).toEqual([
      {
        system: 'Be brief.',
        toolsSent: ['runCode', 'findApis'],
        messages: 1,
        method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })',
      },
      {
        system: 'Be brief.',
        toolsSent: ['runCode', 'findApis'],
        messages: 3,
        method: 'o200k tokenizer on the tool JSON ({ name, description, parameters })',
      },
    ]);
  });

  it('adds nothing for calls without the extended tools, and survives a hook that throws', async () => {
    const plain = emitter('plain', []);
    const failing = emitter('failing', []);
    extendTools(
      {
        namespace: 'codeMode',
        usage: () => {
          throw new Error('hook bug');
        },
      },
      [failing.tool],
    );
    const errors: unknown[] = [];
    const withoutExtension = await collect(
      chat({ model: createScriptedModel({ rules: [calling('go', 'plain')] }), messages: [user('go')], tools: [plain.tool], secret: 's' }),
    );
    expect(usageOf(withoutExtension).every((record) => record.codeMode === undefined)).toBe(true);
    const events = await collect(
      chat({
        model: createScriptedModel({ rules: [calling('go', 'failing')] }),
        messages: [user('go')],
        tools: [failing.tool],
        secret: 's',
        onError: (report) => errors.push(report.error),
      }),
    );
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(usageOf(events)).toHaveLength(2);
    expect(usageOf(events)[0]?.codeMode).toBeUndefined();
    expect(errors).toEqual([new Error('hook bug'), new Error('hook bug')]);
  });
});
