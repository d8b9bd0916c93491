import { createCompactionMarker, discoveryCatalog } from '@chatwire/core/shared';
import { describe, expect, it } from 'vitest';
import { createCodeMode, discoveredInConversation, MAX_NAMES_PER_CALL } from '../src/index.js';
import { assistantCalls, createFixtureTools, toolResult } from './fixtures.js';

// No execution runs in this file: the default driver is never started.
const codeModeWith = (includeDescription: 'none' | 'first-sentence' | 'full' = 'none') => {
  const { getWeather, fetchArchive, runReport } = createFixtureTools().tools;
  return createCodeMode({ tools: [getWeather, fetchArchive, runReport], lazyToolsConfig: { includeDescription } });
};

describe('system prompt', () => {
  it('documents eager APIs in full and lists lazy ones by name (none)', () => {
    expect(codeModeWith('none').systemPrompt).toMatchInlineSnapshot(`
      "## Code execution (execute_typescript)

      You can write TypeScript and run it with the \`execute_typescript\` tool. It runs in a sandbox without network, files or timers; it reaches the application only through the async \`external_*\` functions below.

      - The code is the body of an async function: \`await\` every \`external_*\` call, and run independent calls together with \`Promise.all\`.
      - \`return\` a JSON value to get it back; \`console.log\` lines come back too.
      - Prefer one execution that does the whole job (loops, filtering, arithmetic) over many separate tool calls.
      - Limits per execution: 10 s including time in external calls, 64 MB of memory, 50 external calls, a result of 32 KiB (longer results are cut).

      ### APIs

      \`\`\`typescript
      interface GetWeatherInput {
        /** City name */
        city: string;
      }
      interface GetWeatherOutput {
        city: string;
        celsius: number;
      }
      /** Current weather for a city. */
      declare function external_getWeather(input: GetWeatherInput): Promise<GetWeatherOutput>;
      \`\`\`

      ### Discoverable APIs

      These APIs exist, but their signatures are not shown here. Call \`discover_tools\` with their names to get the signatures before you use them in code.

      Tools you can load: external_fetchArchive, external_runReport."
    `);
  });

  it('adds the first sentence of each lazy description (first-sentence)', () => {
    const prompt = codeModeWith('first-sentence').systemPrompt;
    expect(prompt.slice(prompt.indexOf('### Discoverable APIs'))).toMatchInlineSnapshot(`
      "### Discoverable APIs

      These APIs exist, but their signatures are not shown here. Call \`discover_tools\` with their names to get the signatures before you use them in code.

      Tools you can load:
      - external_fetchArchive: Retrieve historical weather for a city.
      - external_runReport: Generate a summary report for a period!"
    `);
  });

  it('adds whole lazy descriptions (full)', () => {
    const prompt = codeModeWith('full').systemPrompt;
    expect(prompt.slice(prompt.indexOf('### Discoverable APIs'))).toMatchInlineSnapshot(`
      "### Discoverable APIs

      These APIs exist, but their signatures are not shown here. Call \`discover_tools\` with their names to get the signatures before you use them in code.

      Tools you can load:
      - external_fetchArchive: Retrieve historical weather for a city. Slow and rarely needed.
      - external_runReport: Generate a summary report for a period! Includes charts."
    `);
  });

  it('renders the catalog with core’s discoveryCatalog, and keeps it out of the tool definitions', () => {
    const codeMode = codeModeWith('first-sentence');
    const { tools } = createFixtureTools();
    const catalog = discoveryCatalog(
      [tools.fetchArchive, tools.runReport].map((tool) => ({ name: `external_${tool.name}`, description: tool.description })),
      'first-sentence',
    );
    expect(codeMode.systemPrompt.endsWith(catalog)).toBe(true);
    for (const tool of codeMode.tools) {
      expect(tool.description).not.toContain('fetchArchive');
      expect(JSON.stringify(tool.parameters)).not.toContain('fetchArchive');
    }
  });

  it('is byte-stable: the same tools give the same prompt, and discovering changes nothing', () => {
    const first = codeModeWith();
    const before = first.systemPrompt;
    first.discover(['fetchArchive']);
    expect(first.systemPrompt).toBe(before);
    expect(codeModeWith().systemPrompt).toBe(before);
  });

  it('puts every stub in the all-eager prompt (for accounting)', () => {
    const codeMode = codeModeWith();
    expect(codeMode.allEagerSystemPrompt).toContain('declare function external_fetchArchive(');
    expect(codeMode.allEagerSystemPrompt).toContain('declare function external_runReport(');
    expect(codeMode.allEagerSystemPrompt).not.toContain('Discoverable APIs');
  });
});

describe('discover_tools', () => {
  it('returns the stub of a lazy API, with or without the external_ prefix', () => {
    const codeMode = codeModeWith();
    const bare = codeMode.discover(['runReport']);
    expect(bare).toEqual({
      discovered: ['runReport'],
      tools: [
        {
          name: 'external_runReport',
          description: 'Generate a summary report for a period! Includes charts.',
          typeStub: codeMode.stubs.get('runReport')?.typeStub,
        },
      ],
    });
    expect(bare.tools[0]?.typeStub).toContain('period: "day" | "week" | "month";');
    expect(codeMode.discover(['external_runReport'])).toEqual(bare);
  });

  it('reports unknown and eager names without failing the others, and dedupes', () => {
    const result = codeModeWith().discover(['nope', 'getWeather', 'fetchArchive', 'external_fetchArchive']);
    expect(result.discovered).toEqual(['fetchArchive']);
    expect(result.tools.map((tool) => tool.name)).toEqual(['external_fetchArchive']);
    expect(result.errors).toEqual([
      "Unknown API 'nope'. Pass names exactly as listed under Discoverable APIs.",
      'external_getWeather needs no discovery: its signature is in the system prompt.',
    ]);
  });

  it(`answers at most ${MAX_NAMES_PER_CALL} names per call`, () => {
    const names = Array.from({ length: MAX_NAMES_PER_CALL + 2 }, (_, i) => `name${i}`);
    const result = codeModeWith().discover(names);
    expect(result.errors?.filter((error) => error.startsWith('Only'))).toHaveLength(2);
  });

  it('pays once: a stub already returned in the conversation is not returned again', () => {
    const codeMode = codeModeWith();
    const first = codeMode.discover(['fetchArchive']);
    const messages = [
      { id: 'u1', role: 'user' as const, content: 'compare' },
      assistantCalls('a1', [{ id: 'd1', name: 'discover_tools', args: { toolNames: ['fetchArchive'] } }]),
      toolResult('d1', first),
      { id: 'u2', role: 'user' as const, content: 'again, with a report' },
      assistantCalls('a2', [{ id: 'd2', name: 'discover_tools', args: { toolNames: ['fetchArchive', 'runReport'] } }]),
    ];
    const second = codeMode.discover(['fetchArchive', 'runReport'], { messages, toolCallId: 'd2' });
    expect(second).toEqual({
      discovered: ['fetchArchive', 'runReport'],
      tools: [expect.objectContaining({ name: 'external_runReport' })],
      alreadyDiscovered: ['external_fetchArchive'],
    });
    expect(JSON.stringify(second)).not.toContain('FetchArchiveInput');
  });

  it('counts an earlier discover_tools call of the same response as returned already', () => {
    const codeMode = codeModeWith();
    const messages = [
      assistantCalls('a1', [
        { id: 'd1', name: 'discover_tools', args: { toolNames: ['runReport'] } },
        { id: 'd2', name: 'discover_tools', args: { toolNames: ['runReport'] } },
      ]),
    ];
    expect(codeMode.discover(['runReport'], { messages, toolCallId: 'd1' }).tools).toHaveLength(1);
    expect(codeMode.discover(['runReport'], { messages, toolCallId: 'd2' })).toMatchObject({
      tools: [],
      alreadyDiscovered: ['external_runReport'],
    });
  });
});

describe('discoveredInConversation', () => {
  const lazyNames = new Set(['fetchArchive', 'runReport']);

  it('derives the discovered set from the messages alone (a new instance after a restart agrees)', () => {
    const messages = [
      assistantCalls('a1', [{ id: 'd1', name: 'discover_tools', args: { toolNames: ['runReport'] } }]),
      toolResult('d1', codeModeWith().discover(['runReport'])),
      assistantCalls('a2', [{ id: 'x1', name: 'execute_typescript', args: { typescriptCode: 'return 1' } }]),
      toolResult('x1', { success: true, result: 1 }),
    ];
    expect(discoveredInConversation(messages, { lazyNames })).toEqual(['runReport']);
    expect(codeModeWith().discovered(messages)).toEqual(['runReport']);
  });

  it('ignores failed discovery results, unknown names, and calls after the execution in its response', () => {
    const messages = [
      assistantCalls('a1', [{ id: 'd1', name: 'discover_tools', args: { toolNames: ['runReport'] } }]),
      toolResult('d1', { discovered: ['runReport'] }, 'the call failed'),
      assistantCalls('a2', [
        { id: 'd2', name: 'discover_tools', args: { toolNames: ['notATool'] } },
        { id: 'x1', name: 'execute_typescript', args: { typescriptCode: '' } },
        { id: 'd3', name: 'discover_tools', args: { toolNames: ['fetchArchive'] } },
      ]),
    ];
    expect(discoveredInConversation(messages, { lazyNames, toolCallId: 'x1' })).toEqual([]);
    expect(discoveredInConversation(messages, { lazyNames })).toEqual(['fetchArchive']);
    expect(discoveredInConversation(messages, { lazyNames, sameResponse: false })).toEqual([]);
  });

  it('carries discoveries across a compaction marker', () => {
    const messages = [createCompactionMarker(['fetchArchive']), { id: 'u9', role: 'user' as const, content: 'next' }];
    expect(discoveredInConversation(messages, { lazyNames })).toEqual(['fetchArchive']);
  });

  it('survives malformed arguments and results', () => {
    const messages = [
      {
        id: 'a1',
        role: 'assistant' as const,
        toolCalls: [{ id: 'd1', type: 'function' as const, function: { name: 'discover_tools', arguments: '{"toolNames": [' } }],
      },
      { id: 't1', role: 'tool' as const, toolCallId: 'd1', content: 'not json' },
      {
        id: 'a2',
        role: 'assistant' as const,
        toolCalls: [{ id: 'd2', type: 'function' as const, function: { name: 'discover_tools', arguments: '{"toolNames": "runReport"}' } }],
      },
    ];
    expect(discoveredInConversation(messages, { lazyNames })).toEqual([]);
  });
});
