import { memo } from 'react';
import type { ToolCallPart } from '@chatwire/core';
import { discoveryStatus } from '../vocabulary.js';
import { RawJson } from './Fields.js';

/**
 * The discovery step: the model asking for lazy tools by name (Chatwire's
 * `__lazy__tool__discovery__` call, or Code Mode's `discover_tools`), shown as one compact line,
 * "Discovered addTodo", that opens (a native disclosure: Enter or Space) on what discovery did.
 * Hide it or draw your own with `MessageList`'s `discovery` prop.
 */
export const DiscoveryStep = memo(function DiscoveryStep(props: { part: ToolCallPart }) {
  const { part } = props;
  const status = discoveryStatus(part);
  return (
    <details
      className="cw-step"
      data-testid="discovery-step"
      data-kind={status.codeMode ? 'code-mode' : 'tools'}
      data-state={part.state}
      data-phase={status.phase}
      data-tools={status.names.join(',')}
    >
      <summary>
        <span className="cw-step-icon" aria-hidden="true">
          ⌕
        </span>
        {status.title}
      </summary>
      <div className="cw-step-body">
        <p>
          {status.phase === 'discovered'
            ? status.codeMode
              ? 'Code Mode lists lazy tools by name only. Discovery gave the model the TypeScript signature of '
              : 'Lazy tools stay out of the prompt until the model asks for them. From its next step on, the model is sent the definition of '
            : 'The model asked to discover '}
          {status.names.map((name, index) => (
            <span key={name}>
              {index > 0 ? ', ' : ''}
              <code>{name}</code>
            </span>
          ))}
          {status.phase === 'discovered' && status.codeMode ? ', so its code can call it.' : '.'}
        </p>
        {part.result?.error ? <p className="cw-tool-error">{part.result.error}</p> : null}
        <RawJson value={{ tool: part.toolName, input: part.input, result: part.result?.output ?? part.result?.content }} />
      </div>
    </details>
  );
});
