import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { createCompactionMarker, discoveredToolsInWire } from '@chatwire/core/shared';
import { describe, expect, it } from 'vitest';
import { discoveredInConversation } from '../src/index.js';
import { assistantCalls, toolResult } from './fixtures.js';

// Issue 25: the discovered set is derived from a history once (core's discoveredToolsInWire). Code
// Mode's discoveredInConversation and the server's derivation give the same set for the same
// evidence, whichever discovery tool carried it.

const lazyNames = new Set(['fetchArchive', 'runReport', 'getStock']);

/** One conversation's discovery evidence, carried by the discovery tool `tool`. */
const history = (tool: string) => [
  createCompactionMarker(['getStock', 'notLazy']),
  assistantCalls('a1', [{ id: 'd1', name: tool, args: { toolNames: ['runReport'] } }]),
  toolResult('d1', { discovered: ['runReport'] }),
  assistantCalls('a2', [{ id: 'd2', name: tool, args: { toolNames: ['fetchArchive'] } }]),
  toolResult('d2', { discovered: ['fetchArchive'] }, 'the call failed'),
  assistantCalls('a3', [{ id: 'd3', name: tool, args: { toolNames: ['fetchArchive'] } }]),
  toolResult('d3', { discovered: ['fetchArchive', 'unknownTool'] }),
];

describe('one discovered set (core, server and Code Mode)', () => {
  it.each([
    ['core / server (Chatwire discovery tool)', () => discoveredToolsInWire(history(DISCOVERY_TOOL_NAME), (name) => lazyNames.has(name))],
    ['Code Mode (discover_tools)', () => discoveredInConversation(history('discover_tools'), { lazyNames, sameResponse: false })],
  ])('%s: markers and successful results, in order, only known lazy tools', (_site, derive) => {
    expect(derive()).toEqual(['getStock', 'runReport', 'fetchArchive']);
  });

  it("Code Mode's same-response rule adds to core's derivation, not beside it", () => {
    const messages = [
      ...history('discover_tools').slice(0, 3),
      assistantCalls('a4', [
        { id: 'd4', name: 'discover_tools', args: { toolNames: ['fetchArchive'] } },
        { id: 'x1', name: 'execute_typescript', args: { typescriptCode: 'return 1' } },
      ]),
    ];
    expect(discoveredInConversation(messages, { lazyNames, toolCallId: 'x1' })).toEqual(['getStock', 'runReport', 'fetchArchive']);
    expect(discoveredToolsInWire(messages, (name) => lazyNames.has(name), { discoveryTool: 'discover_tools' })).toEqual([
      'getStock',
      'runReport',
    ]);
  });
});
