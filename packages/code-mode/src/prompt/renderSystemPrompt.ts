import { discoveryCatalog, type CatalogDetail } from '@chatwire/core/shared';
import type { ResolvedLimits } from '../limits.js';
import type { ToolStub } from '../stubs/toolStubs.js';

/** The name of the tool that runs code. */
export const EXECUTE_TYPESCRIPT = 'execute_typescript';
/** The name of the tool that returns the signatures of lazy APIs. */
export const DISCOVER_TOOLS = 'discover_tools';

/** What the Code Mode prompt section is made from. */
export interface PromptParts {
  /** APIs documented in full. */
  readonly eager: readonly ToolStub[];
  /** APIs listed by name (and optionally description) until discovered. */
  readonly lazy: readonly ToolStub[];
  readonly includeDescription: CatalogDetail;
  readonly limits: ResolvedLimits;
}

const kib = (bytes: number): string => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/**
 * The Code Mode section of the system prompt. It depends only on the tools and the options, never
 * on the conversation, so it is byte-identical on every turn and a provider's prompt cache holds.
 * The lazy catalog is rendered by core's `discoveryCatalog`, the same text lazy discovery uses.
 */
export function renderSystemPrompt(parts: PromptParts): string {
  const { eager, lazy, limits } = parts;
  const sections: string[] = [
    `## Code execution (${EXECUTE_TYPESCRIPT})`,
    [
      `You can write TypeScript and run it with the \`${EXECUTE_TYPESCRIPT}\` tool. It runs in a sandbox without network, files or timers; it reaches the application only through the async \`external_*\` functions below.`,
      '',
      '- The code is the body of an async function: `await` every `external_*` call, and run independent calls together with `Promise.all`.',
      '- `return` a JSON value to get it back; `console.log` lines come back too.',
      '- Prefer one execution that does the whole job (loops, filtering, arithmetic) over many separate tool calls.',
      `- Limits per execution: ${limits.timeoutMs / 1000} s including time in external calls, ${limits.memoryLimitMb} MB of memory, ${limits.maxToolCalls} external calls, a result of ${kib(limits.maxResultBytes)} (longer results are cut).`,
    ].join('\n'),
  ];
  if (eager.length > 0) {
    sections.push(`### APIs\n\n\`\`\`typescript\n${eager.map((stub) => stub.typeStub).join('\n\n')}\n\`\`\``);
  }
  if (lazy.length > 0) {
    const catalog = discoveryCatalog(
      lazy.map((stub) => ({ name: stub.binding, description: stub.description })),
      parts.includeDescription,
    );
    sections.push(
      `### Discoverable APIs\n\nThese APIs exist, but their signatures are not shown here. Call \`${DISCOVER_TOOLS}\` with their names to get the signatures before you use them in code.\n\n${catalog}`,
    );
  }
  return sections.join('\n\n');
}
