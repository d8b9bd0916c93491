import { useState, type ReactNode } from 'react';
import type { ModelRequestRecord, RequestSegmentRecord } from '@chatwire/core/shared';

/** A group that renders its texts only once opened (a long request holds many). */
function Group({ title, children }: { title: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="cw-event" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{title}</summary>
      {open ? children() : null}
    </details>
  );
}

const nameOf = (segment: RequestSegmentRecord) =>
  segment.tool ??
  (segment.message
    ? `${segment.message.index + 1}. ${segment.message.role}${segment.message.id ? ` (${segment.message.id})` : ''}`
    : segment.block);

function Texts({ segments }: { segments: readonly RequestSegmentRecord[] }) {
  return (
    <>
      {segments.map((segment, index) => (
        <div key={index} data-testid="request-text" data-block={segment.block}>
          <div className="cw-muted">
            <span className="cw-name">{nameOf(segment)}</span>
            {` · ${segment.tokens.toLocaleString('en-US')} tokens`}
            {segment.chars === undefined ? '' : ` · ${segment.chars.toLocaleString('en-US')} characters, shortened`}
          </div>
          <pre>{segment.text}</pre>
        </div>
      ))}
    </>
  );
}

/** The request as the adapter sent it, block by block: each text (redacted, shortened past a length) with its tokens. */
export function RequestTexts({ record }: { record: ModelRequestRecord }) {
  const of = (block: RequestSegmentRecord['block']) => record.segments.filter((segment) => segment.block === block);
  const groups = [
    { title: 'System prompt', segments: of('system') },
    { title: `Tools (${of('tool').length})`, segments: of('tool') },
    { title: `Messages (${new Set(of('message').map((segment) => segment.message?.index)).size})`, segments: of('message') },
  ];
  return (
    <>
      <h3>The request as sent</h3>
      <p className="cw-note">
        {record.serialisation === 'adapter'
          ? `As ${record.provider} (${record.model}) was sent it, counted with: ${record.counting.method}.`
          : `As JSON: this model adapter describes no serialisation of its own, so these counts are not the accounting's (${record.counting.method}). The provider's usage is the figure to trust.`}{' '}
        Secrets are redacted, attachments are their descriptions.
      </p>
      {groups.map((group) =>
        group.segments.length ? (
          <Group key={group.title} title={group.title}>
            {() => <Texts segments={group.segments} />}
          </Group>
        ) : null,
      )}
      <Group title="Whole request">{() => <pre>{record.segments.map((segment) => segment.text).join('')}</pre>}</Group>
    </>
  );
}
