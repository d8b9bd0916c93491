import { memo } from 'react';
import { readDiscoveredNames, type ToolCallPart } from '@chatwire/core';

/** The tool names a discovery call asked for: `{ toolNames }`, or a `select:a,b` search query. */
function askedFor(part: ToolCallPart): string[] {
  const input = (part.input ?? part.partialInput) as { toolNames?: unknown; query?: unknown } | undefined;
  if (Array.isArray(input?.toolNames)) return input.toolNames.filter((name): name is string => typeof name === 'string');
  if (typeof input?.query === 'string') return input.query.startsWith('select:') ? input.query.slice(7).split(',').map((name) => name.trim()) : [input.query];
  return [];
}

/**
 * The model looking up lazy tools (the internal `__lazy__tool__discovery__` call), or Code Mode's
 * lazy APIs (`discover_tools`), shown as a compact step: "Looked up addTodo". Expanding it says what
 * was loaded and why, with the raw call.
 */
export const DiscoveryStep = memo(function DiscoveryStep(props: { part: ToolCallPart }) {
  const { part } = props;
  const apis = part.toolName === 'discover_tools';
  const loaded = part.state === 'output-available' && part.result ? readDiscoveredNames(part.result.output ?? part.result.content) : [];
  const names = loaded.length > 0 ? loaded : askedFor(part);
  const list = names.join(', ') || 'tools';
  const title =
    part.state === 'output-available'
      ? `Looked up ${list}`
      : part.state === 'output-error' || part.state === 'cancelled'
        ? `Could not look up ${list}`
        : `Looking up ${list}…`;
  return (
    <details className="step" data-testid="discovery-step" data-kind={apis ? 'code-mode' : 'tools'} data-state={part.state} data-tools={names.join(',')}>
      <summary>
        <span className="step-icon" aria-hidden="true">
          ⌕
        </span>
        {title}
      </summary>
      <div className="step-body">
        <p>
          {loaded.length > 0
            ? apis
              ? `Code Mode listed ${loaded.length === 1 ? 'this API' : 'these APIs'} by name only. The model now has ${loaded.length === 1 ? 'its TypeScript signature' : 'their TypeScript signatures'}, so its code can call: `
              : `These tools were kept out of the prompt until now. From the next step on, the model is sent ${loaded.length === 1 ? 'its definition' : 'their definitions'}: `
            : 'The model asked to load: '}
          {names.map((name, index) => (
            <span key={name}>
              {index > 0 ? ', ' : ''}
              <code>{name}</code>
            </span>
          ))}
          .
        </p>
        {part.result?.error ? <p className="tool-error">{part.result.error}</p> : null}
        <details className="raw-json">
          <summary>JSON</summary>
          <pre className="json">{JSON.stringify({ tool: part.toolName, input: part.input, result: part.result?.output ?? part.result?.content }, null, 2)}</pre>
        </details>
      </div>
    </details>
  );
});
