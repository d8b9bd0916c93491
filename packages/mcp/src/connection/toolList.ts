import { createHash } from 'node:crypto';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolAnnotations } from '../tools/approvalRule.js';
import { MAX_DEFINITION_CHARS, checkJsonSchema, exceedsJsonChars } from '../tools/checkJsonSchema.js';

/** One tool as an MCP server lists it, checked. */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations: McpToolAnnotations;
  /** SHA-256 of its description, schemas and annotations (canonical JSON): what drift is judged on. */
  readonly fingerprint: string;
}

/** A tool the server listed that cannot be used, and why. */
export interface SkippedTool {
  readonly name: string;
  readonly reason: string;
}

const MAX_PAGES = 200;
const MAX_NAME = 128;
const LIMIT_TEXT = MAX_DEFINITION_CHARS.toLocaleString('en-US');
const COUNTED = 'every enum and const value, default and string counted';

/** JSON with object keys sorted, so two equal definitions hash alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of a tool definition (see {@link McpToolInfo.fingerprint}). */
export function fingerprintTool(tool: {
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}): string {
  const material = canonical({
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
    annotations: tool.annotations ?? null,
  });
  return createHash('sha256').update(material).digest('hex');
}

/**
 * Reads every page of `tools/list` (at most 200 pages) and checks each tool on its own: a tool
 * the MCP schema refuses, whose description and input schema take more than 64,000 characters of JSON
 * (or its output schema), whose schemas are not usable JSON Schema, or whose name repeats is skipped
 * with its reason; past `maxTools` the rest are skipped.
 */
export async function readToolList(
  page: (cursor: string | undefined) => Promise<{ tools: unknown[]; nextCursor?: string | undefined }>,
  maxTools: number,
): Promise<{ tools: McpToolInfo[]; skipped: SkippedTool[] }> {
  const tools: McpToolInfo[] = [];
  const skipped: SkippedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let dropped = 0;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const result = await page(cursor);
    for (const raw of result.tools) {
      const name =
        typeof (raw as { name?: unknown } | null)?.name === 'string' ? (raw as { name: string }).name.slice(0, MAX_NAME) : '(unnamed)';
      const parsed = ToolSchema.safeParse(raw);
      if (!parsed.success) {
        skipped.push({
          name,
          reason: `not a valid MCP tool: ${parsed.error.issues
            .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
            .join('; ')
            .slice(0, 300)}`,
        });
        continue;
      }
      const tool = parsed.data;
      // Size first: a definition this large would be sent with every request (and counted, serialised and
      // read by the model each time), so it is skipped before anything else reads it.
      if (exceedsJsonChars({ description: tool.description ?? '', inputSchema: tool.inputSchema }, MAX_DEFINITION_CHARS)) {
        skipped.push({ name, reason: `its description and inputSchema take more than ${LIMIT_TEXT} characters of JSON (${COUNTED})` });
        continue;
      }
      if (tool.outputSchema !== undefined && exceedsJsonChars(tool.outputSchema, MAX_DEFINITION_CHARS)) {
        skipped.push({ name, reason: `its outputSchema takes more than ${LIMIT_TEXT} characters of JSON (${COUNTED})` });
        continue;
      }
      const input = checkJsonSchema(tool.inputSchema);
      const output = tool.outputSchema === undefined ? undefined : checkJsonSchema(tool.outputSchema);
      if (input) {
        skipped.push({ name, reason: `its inputSchema is not valid JSON Schema: ${input}` });
        continue;
      }
      if (output) {
        skipped.push({ name, reason: `its outputSchema is not valid JSON Schema: ${output}` });
        continue;
      }
      if (seen.has(tool.name)) {
        skipped.push({ name, reason: 'listed twice' });
        continue;
      }
      if (tools.length >= maxTools) {
        dropped++;
        continue;
      }
      seen.add(tool.name);
      const info: McpToolInfo = {
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        description: tool.description ?? tool.title ?? tool.annotations?.title ?? tool.name,
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
        annotations: (tool.annotations ?? {}) as McpToolAnnotations,
        fingerprint: fingerprintTool(tool),
      };
      tools.push(Object.freeze(info));
    }
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  if (dropped > 0)
    skipped.push({ name: `(${dropped} more)`, reason: `the server lists more than maxTools (${maxTools}); the rest were dropped` });
  return { tools, skipped };
}
