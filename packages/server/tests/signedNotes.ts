import type { Message, ToolCall } from '@ag-ui/core';
import type { CallSigner } from '../src/binding/signing.js';

/**
 * One exchange of the history tests' `noteDown` server tool in `threadId`: the user's request, the
 * model's call, its result signed by `signer` (as the server signs its own results) and the answer;
 * ids end in `i`.
 */
export function signedNoteExchange(signer: CallSigner, threadId: string, i: number, text: string): Message[] {
  const call: ToolCall = { id: `c${i}`, type: 'function', function: { name: 'noteDown', arguments: JSON.stringify({ text }) } };
  const content = JSON.stringify({ noted: text });
  return [
    { id: `u${i}`, role: 'user', content: `use noteDown for ${text}` },
    { id: `a${i}`, role: 'assistant', toolCalls: [call] },
    {
      id: `t${i}`,
      role: 'tool',
      toolCallId: call.id,
      content,
      metadata: { chatwire: { signature: signer.resultSignature(threadId, call, content) } },
    } as Message,
    { id: `b${i}`, role: 'assistant', content: `Noted: ${text}.` },
  ];
}
