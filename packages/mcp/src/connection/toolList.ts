import { createHash } from 'node:crypto';
import { ToolSchema } from '@modelcontextprotocol/core';
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
/** An HTTP header name's characters (RFC 9110 `tchar`): what an `x-mcp-header` may name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The property types a header can carry (SEP-2243): one value, never a structure or a float. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Why a tool's `x-mcp-header` declarations (SEP-2243, protocol revision 2026-07-28: arguments
 * mirrored into `Mcp-Param-*` request headers) are unusable, or `undefined` when they are fine or
 * absent: a name that is empty or not a header token, one used twice (in any case), or a property
 * that is not a string, integer or boolean.
 */
export function headerDeclarationProblem(inputSchema: Record<string, unknown>): string | undefined {
  const properties = inputSchema['properties'];
  if (!properties || typeof properties !== 'object') return undefined;
  const seen = new Set<string>();
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (!property || typeof property !== 'object' || !('x-mcp-header' in property)) continue;
    const header = (property as Record<string, unknown>)['x-mcp-header'];
    if (typeof header !== 'string' || !HEADER_NAME.test(header)) return `'${name}' has an x-mcp-header that is not a header name`;
    if (seen.has(header.toLowerCase())) return `the x-mcp-header '${header}' is declared twice`;
    seen.add(header.toLowerCase());
    const type = (property as Record<string, unknown>)['type'];
    if (typeof type !== 'string' || !HEADER_TYPES.has(type))
      return `'${name}' is mirrored into a header but is not a string, integer or boolean`;
  }
  return undefined;
}

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
  /** SEP-2243: tools with unusable `x-mcp-header` declarations are skipped (on 2026-07-28 HTTP connections, where headers are sent). */
  checkHeaders = false,
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
      const header = checkHeaders ? headerDeclarationProblem(tool.inputSchema as Record<string, unknown>) : undefined;
      if (header) {
        skipped.push({ name, reason: `its x-mcp-header declarations are invalid (SEP-2243): ${header}` });
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
