import type { Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { parseResultContent } from '@chatwire/core/shared';

const readVersions = (value: unknown): [string, string][] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    : [];

/**
 * The definition version (drift fingerprint) each tool had when the conversation last discovered
 * it: from discovery results (`versions`) and the markers of calls that loaded their tool
 * (`metadata.chatwire.toolVersions`), the latest record winning. Tools without a record are absent.
 */
export function recordedVersions(history: readonly Message[]): Map<string, string> {
  const versions = new Map<string, string>();
  const discoveryCalls = new Set<string>();
  for (const message of history) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) discoveryCalls.add(call.id);
      continue;
    }
    if (message.role !== 'tool') continue;
    const chatwire = (message.metadata as { chatwire?: { toolVersions?: unknown } } | undefined)?.chatwire;
    for (const [name, version] of readVersions(chatwire?.toolVersions)) versions.set(name, version);
    if (discoveryCalls.has(message.toolCallId) && message.error === undefined) {
      const content = (typeof message.content === 'string' ? parseResultContent(message.content) : null) as { versions?: unknown } | null;
      for (const [name, version] of readVersions(content?.versions)) versions.set(name, version);
    }
  }
  return versions;
}
