import { toolDefinition } from '@chatwire/core';
import type { ToolTokenCounter } from '@chatwire/server';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codeModeTokens, createCodeMode } from '../src/index.js';
import { assistantCalls, toolResult } from './fixtures.js';

/** 20 tools of the same shape: the first 2 eager, the other 18 lazy. */
function catalog() {
  return Array.from({ length: 20 }, (_, i) =>
    toolDefinition({
      name: `report${i}`,
      description: `Builds report number ${i} for a region. Covers sales, returns and stock levels per store.`,
      inputSchema: z.object({
        region: z.enum(['north', 'south', 'east', 'west']).describe('Sales region'),
        from: z.string().describe('First day, ISO date'),
        to: z.string().describe('Last day, ISO date'),
        limit: z.number().int().min(1).max(500).default(50).describe('Most rows returned'),
      }),
      outputSchema: z.object({ rows: z.array(z.object({ store: z.string(), sales: z.number(), returns: z.number() })) }),
      lazy: i >= 2,
    }).server(() => ({ rows: [] })),
  );
}

/** The default count of one tool definition, computed here independently of the package. */
const toolJsonTokens = (tool: { name: string; description: string; parameters: unknown }) =>
  countTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }));

describe('codeModeTokens', () => {
  it('counts the prompt section and the tool definitions as sent, against all stubs eager', () => {
    const codeMode = createCodeMode({ tools: catalog() });
    const tokens = codeModeTokens(codeMode);
    expect(tokens.prompt).toBe(countTokens(codeMode.systemPrompt));
    expect(tokens.toolDefinitions).toBe(codeMode.tools.reduce((sum, tool) => sum + toolJsonTokens(tool), 0));
    expect(tokens.sent).toBe(tokens.prompt + tokens.toolDefinitions);
    expect(tokens.allEager).toBe(countTokens(codeMode.allEagerSystemPrompt) + toolJsonTokens(codeMode.tool));
    expect(tokens.saved).toBe(tokens.allEager - tokens.sent);
    // 18 of 20 stubs withheld: most of the all-eager cost is saved.
    expect(tokens.saved / tokens.allEager).toBeGreaterThan(0.5);
    expect(tokens).toMatchObject({ discovery: 0, code: 0, results: 0, errorBound: 0 });
  });

  it('costs more with richer catalogs', () => {
    const counts = (['none', 'first-sentence', 'full'] as const).map(
      (includeDescription) => codeModeTokens(createCodeMode({ tools: catalog(), lazyToolsConfig: { includeDescription } })).sent,
    );
    expect(counts[0]).toBeLessThan(counts[1] as number);
    expect(counts[1]).toBeLessThan(counts[2] as number);
  });

  it('counts discovery round-trips, code and results in the conversation', () => {
    const codeMode = createCodeMode({ tools: catalog() });
    const discovery = codeMode.discover(['report7']);
    const code = 'return await external_report7({ region: "north", from: "2026-01-01", to: "2026-01-31" });';
    const result = { success: true, result: { rows: [] } };
    const messages = [
      { id: 'u1', role: 'user' as const, content: 'report 7 for the north' },
      assistantCalls('a1', [{ id: 'd1', name: 'discover_tools', args: { toolNames: ['report7'] } }]),
      toolResult('d1', discovery),
      assistantCalls('a2', [{ id: 'x1', name: 'execute_typescript', args: { typescriptCode: code } }]),
      toolResult('x1', result),
    ];
    const tokens = codeModeTokens(codeMode, { messages });
    expect(tokens.discovery).toBe(
      countTokens(`discover_tools${JSON.stringify({ toolNames: ['report7'] })}`) + countTokens(JSON.stringify(discovery)),
    );
    expect(tokens.code).toBe(countTokens(JSON.stringify({ typescriptCode: code })));
    expect(tokens.results).toBe(countTokens(JSON.stringify(result)));
  });

  it('uses the model adapter’s own counter for tool definitions', () => {
    const counter: ToolTokenCounter = { method: 'fixed test count', errorBound: 0.1, countTool: () => 100, countOverhead: (n) => 7 * n };
    const codeMode = createCodeMode({ tools: catalog() });
    const tokens = codeModeTokens(codeMode, { counter });
    expect(tokens).toMatchObject({ method: 'fixed test count', errorBound: 0.1, toolDefinitions: 2 * 100 + 2 * 7 });
    // All eager: every stub in the prompt, and only execute_typescript in the tool list.
    expect(tokens.allEager).toBe(countTokens(codeMode.allEagerSystemPrompt) + 100 + 7);
  });
});
