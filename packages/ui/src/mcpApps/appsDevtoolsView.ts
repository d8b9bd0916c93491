import type { ChatMessage, McpAppView } from '@chatwire/core';
import { mcpAppsByCall } from '@chatwire/core/mcp-apps';
import type { DevtoolsBlock, DevtoolsViewChat, DevtoolsViewInput, DevtoolsViewModule } from '@chatwire/core/shared';
import { formatSize } from '../vocabulary.js';
import { mcpAppCsp } from './appCsp.js';

/** The apps of each turn (1-based, as the devtools' turn selector counts), in the order their calls came. */
function appsByTurn(messages: readonly ChatMessage[]): Map<number, McpAppView[]> {
  const byTurn = new Map<number, McpAppView[]>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user') turn++;
    const apps = [...mcpAppsByCall(message.parts).values()];
    if (apps.length > 0) byTurn.set(turn, [...(byTurn.get(turn) ?? []), ...apps]);
  }
  return byTurn;
}

const list = (values: readonly string[] | undefined) => (values?.length ? values.join(' ') : 'none');

/**
 * The devtools' Apps view: for the selected turn, each MCP App a call brought: its server and
 * resource, its size and hash, and its Content Security Policy as the server declared it, as the
 * frame got it, and what was refused.
 */
export const appsViewModule: DevtoolsViewModule = {
  available(chat: DevtoolsViewChat): boolean {
    return chat.messages.some((message) => mcpAppsByCall(message.parts).size > 0);
  },
  render(input: DevtoolsViewInput): readonly DevtoolsBlock[] {
    const apps = appsByTurn(input.messages).get(input.turn) ?? [];
    if (apps.length === 0) return [{ type: 'empty', text: `No MCP App in turn ${input.turn}.` }];
    const blocks: DevtoolsBlock[] = [
      {
        type: 'table',
        label: 'MCP Apps of this turn',
        heading: `${apps.length} ${apps.length === 1 ? 'app' : 'apps'} in turn ${input.turn}`,
        columns: [{ title: 'Server' }, { title: 'Call' }, { title: 'Resource' }, { title: 'Size', numeric: true }, { title: 'SHA-256' }],
        rows: apps.map((app) => ({
          testId: 'devtools-mcp-app',
          data: { server: app.server, tool: app.tool },
          cells: [
            app.server,
            { text: `${app.tool} (${app.toolCallId})`, tone: 'code' as const },
            app.error
              ? { text: `${app.resourceUri}: ${app.error}`, tone: 'bad' as const }
              : { text: app.resourceUri, tone: 'code' as const },
            app.error ? '' : formatSize(app.bytes),
            { text: app.sha256.slice(0, 16), tone: 'muted' as const },
          ],
        })),
      },
    ];
    for (const app of apps) {
      if (app.error) continue;
      const policy = mcpAppCsp(app.csp);
      blocks.push({
        type: 'table',
        label: `Content Security Policy of ${app.toolCallId}`,
        heading: `CSP of ${app.server}/${app.tool} (${app.toolCallId})`,
        columns: [{ title: 'Field' }, { title: 'Declared' }, { title: 'Applied' }],
        rows: (['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const).map((field) => ({
          testId: 'devtools-mcp-app-csp',
          data: { field },
          cells: [field, list(app.csp?.[field]), list(policy.applied[field])],
        })),
      });
      if (policy.refused.length > 0)
        blocks.push({
          type: 'table',
          label: `Origins refused for ${app.toolCallId}`,
          columns: [{ title: 'Field' }, { title: 'Origin' }, { title: 'Why' }],
          rows: policy.refused.map((entry) => ({
            testId: 'devtools-mcp-app-refused',
            cells: [entry.field, { text: entry.value, tone: 'code' as const }, { text: entry.reason, tone: 'bad' as const }],
          })),
        });
      blocks.push({ type: 'note', text: `Frame policy: ${policy.policy}` });
    }
    return blocks;
  },
};
