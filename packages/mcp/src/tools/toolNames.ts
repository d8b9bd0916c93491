import { createHash } from 'node:crypto';

/** The providers' rule for tool names (OpenAI and Anthropic). */
export const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** Replaces every character providers refuse with `_` (an empty name becomes `tool`). */
export function sanitizeNamePart(part: string): string {
  const cleaned = part.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'tool';
}

/** The name a model sees for `tool` of a server with `prefix`, before collisions: `prefix__tool`, sanitised, at most 64 characters. */
export function exposedToolName(prefix: string, tool: string): string {
  const raw = prefix ? `${prefix}__${tool}` : tool;
  const name = prefix ? `${sanitizeNamePart(prefix)}__${sanitizeNamePart(tool)}` : sanitizeNamePart(tool);
  // Too long: cut, and keep the names of two long tools apart with a hash of the original.
  return name.length <= MAX ? name : `${name.slice(0, MAX - 9)}_${shortHash(raw)}`;
}

/** One tool to name: which server, its prefix and its MCP name. */
export interface NamingRequest {
  readonly server: string;
  readonly prefix: string;
  readonly tool: string;
}

/**
 * Assigns every tool a provider-safe, unique name. Collisions (two originals that sanitise alike,
 * or two servers without prefixes) are resolved the same way whatever order servers list them in:
 * originals are ordered by `server` then `tool` (code units); the first keeps the name, each later
 * one gets `_` and a hash of its original `server/tool` (cut to fit 64 characters).
 * Returns `server\u0000tool` -> name.
 */
export function assignToolNames(requests: readonly NamingRequest[], reserved: ReadonlySet<string> = new Set()): Map<string, string> {
  const key = (request: NamingRequest) => `${request.server}\u0000${request.tool}`;
  const ordered = [...requests].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const taken = new Set(reserved);
  const names = new Map<string, string>();
  for (const request of ordered) {
    let name = exposedToolName(request.prefix, request.tool);
    if (taken.has(name)) {
      const suffix = `_${shortHash(`${request.server}/${request.tool}`)}`;
      name = `${name.slice(0, MAX - suffix.length)}${suffix}`;
      for (let attempt = 2; taken.has(name); attempt++) {
        const more = `_${shortHash(`${request.server}/${request.tool}#${attempt}`)}`;
        name = `${name.slice(0, MAX - more.length)}${more}`;
      }
    }
    taken.add(name);
    names.set(key(request), name);
  }
  return names;
}
