import type { DiffMessage, RequestRow } from '../../viewModel/index.js';

const messageList = (messages: readonly DiffMessage[]) =>
  messages
    .map((message) => `${message.role}${message.id ? ` ${message.id}` : ''} (${message.tokens.toLocaleString('en-US')} tokens)`)
    .join(', ');

/** What changed since the previous model call's request, and where a prompt cache stops holding it. */
export function RequestDiffView({ row }: { row: RequestRow }) {
  const { diff } = row;
  if (diff.first) {
    return (
      <>
        <h3>Against the previous call</h3>
        <p className="cw-muted" data-testid="request-diff" data-first="true">
          The first request recorded in this chat: nothing to compare with.
        </p>
      </>
    );
  }
  const lines: { readonly id: string; readonly label: string; readonly value: string; readonly data?: string }[] = [];
  if (diff.toolsAdded.length)
    lines.push({ id: 'tools-added', label: 'Tools added', value: diff.toolsAdded.join(', '), data: diff.toolsAdded.join(' ') });
  if (diff.toolsRemoved.length)
    lines.push({ id: 'tools-removed', label: 'Tools removed', value: diff.toolsRemoved.join(', '), data: diff.toolsRemoved.join(' ') });
  if (diff.toolsChanged.length)
    lines.push({
      id: 'tools-changed',
      label: 'Tool definitions changed',
      value: diff.toolsChanged.join(', '),
      data: diff.toolsChanged.join(' '),
    });
  if (diff.systemChanged) lines.push({ id: 'system-changed', label: 'System prompt', value: 'changed' });
  if (diff.messagesAdded.length) lines.push({ id: 'messages-added', label: 'Messages added', value: messageList(diff.messagesAdded) });
  if (diff.messagesChanged.length)
    lines.push({ id: 'messages-changed', label: 'Messages changed', value: messageList(diff.messagesChanged) });
  if (diff.messagesRemoved.length)
    lines.push({ id: 'messages-removed', label: 'Messages no longer sent', value: messageList(diff.messagesRemoved) });
  return (
    <>
      <h3>Against the previous call</h3>
      <table aria-label="Changes against the previous call" data-testid="request-diff">
        <tbody>
          {lines.map((line) => (
            <tr key={line.id} data-testid={`request-diff-${line.id}`} data-items={line.data ?? ''}>
              <td>{line.label}</td>
              <td className="cw-name">{line.value}</td>
            </tr>
          ))}
          <tr data-testid="request-cache-break" data-at={diff.cacheBreak?.at ?? ''}>
            <td>Prompt cache</td>
            <td className={diff.cacheBreak ? 'cw-warn' : 'cw-good'}>
              {diff.cacheBreak
                ? `Breaks in the ${diff.cacheBreak.at === 'tools' ? 'tool list' : diff.cacheBreak.at === 'system' ? 'system prompt' : 'messages'}: ${diff.cacheBreak.cause}.`
                : 'Repeats the whole previous request: only new messages follow it.'}
            </td>
          </tr>
        </tbody>
      </table>
    </>
  );
}
