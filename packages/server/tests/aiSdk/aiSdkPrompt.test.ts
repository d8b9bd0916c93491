import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { toAiSdkPrompt, toAiSdkTools } from '@chatwire/server/extension';

/** AG-UI histories as the AI SDK specification's prompt (`toAiSdkPrompt`), per specification version. */

const artefact = (provider: string, metadata?: unknown) => JSON.stringify({ aiSdk: { provider, ...(metadata ? { metadata } : {}) } });
const v3 = { version: 'v3', provider: 'google.generative-ai' } as const;

describe('toAiSdkPrompt', () => {
  it('joins the system prompt and every system or developer message into one leading system message', () => {
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'hi' },
      { id: 's', role: 'system', content: 'House rules.' },
      { id: 'd', role: 'developer', content: 'Be brief.' },
      { id: 'u2', role: 'user', content: 'again' },
    ];
    expect(toAiSdkPrompt('You help.', messages, v3)).toEqual([
      { role: 'system', content: 'You help.\n\nHouse rules.\n\nBe brief.' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ]);
    expect(toAiSdkPrompt(undefined, [{ id: 'u', role: 'user', content: 'x' }], v3)[0]?.role).toBe('user');
  });

  it('calls with parsed arguments (empty or broken ones as {}), results as text or error-text, consecutive results in one tool message', () => {
    const messages: Message[] = [
      { id: 'u', role: 'user', content: 'go' },
      {
        id: 'a',
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'c1', type: 'function', function: { name: 'one', arguments: '{"x":1}' } },
          { id: 'c2', type: 'function', function: { name: 'two', arguments: '' } },
          { id: 'c3', type: 'function', function: { name: 'three', arguments: '{broken' } },
        ],
      },
      { id: 't1', role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
      { id: 't2', role: 'tool', toolCallId: 'c2', content: 'Failed: no such order.', error: 'no such order' },
      { id: 't3', role: 'tool', toolCallId: 'c3', content: 'Invalid arguments.' },
    ];
    expect(toAiSdkPrompt(undefined, messages, v3).slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'one', input: { x: 1 } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'two', input: {} },
          { type: 'tool-call', toolCallId: 'c3', toolName: 'three', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'one', output: { type: 'text', value: '{"ok":true}' } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'two', output: { type: 'error-text', value: 'Failed: no such order.' } },
          { type: 'tool-result', toolCallId: 'c3', toolName: 'three', output: { type: 'text', value: 'Invalid arguments.' } },
        ],
      },
    ]);
  });

  it("sends back this provider's reasoning and call metadata only; other reasoning, other providers' and unreadable values are not sent", () => {
    const messages: Message[] = [
      { id: 'u', role: 'user', content: 'go' },
      {
        id: 'r1',
        role: 'reasoning',
        content: 'Mine.',
        encryptedValue: artefact('google.generative-ai', { google: { thoughtSignature: 'ts' } }),
      },
      { id: 'r2', role: 'reasoning', content: 'Untagged.' },
      {
        id: 'r3',
        role: 'reasoning',
        content: 'Theirs.',
        encryptedValue: artefact('anthropic.messages', { anthropic: { signature: 's' } }),
      },
      { id: 'r4', role: 'reasoning', content: 'OpenAI item.', encryptedValue: '{"type":"reasoning","encrypted_content":"x","summary":[]}' },
      { id: 'r5', role: 'reasoning', content: 'No metadata.', encryptedValue: artefact('google.generative-ai') },
      {
        id: 'a',
        role: 'assistant',
        toolCalls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'one', arguments: '{}' },
            encryptedValue: artefact('google.generative-ai', { google: { thoughtSignature: 'tc' } }),
          },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'two', arguments: '{}' },
            encryptedValue: artefact('mistral.chat', { mistral: { a: 1 } }),
          },
        ],
      },
    ];
    expect(toAiSdkPrompt(undefined, messages, v3)[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Mine.', providerOptions: { google: { thoughtSignature: 'ts' } } },
        { type: 'reasoning', text: 'No metadata.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'one', input: {}, providerOptions: { google: { thoughtSignature: 'tc' } } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'two', input: {} },
      ],
    });
  });

  it('reasoning goes only with the answer right after it: a reasoning-only turn is not sent', () => {
    const mine = artefact('google.generative-ai', { google: { thoughtSignature: 'ts' } });
    const messages: Message[] = [
      { id: 'u', role: 'user', content: 'go' },
      { id: 'r1', role: 'reasoning', content: 'Stopped here.', encryptedValue: mine },
      { id: 'u2', role: 'user', content: 'and?' },
      { id: 'a', role: 'assistant', content: 'Answer.' },
    ];
    expect(toAiSdkPrompt(undefined, messages, v3)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Answer.' }] },
    ]);
  });

  it("attachments as file parts in each version's shape; what a version cannot carry becomes a note", () => {
    const message: Message = {
      id: 'u',
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', source: { type: 'data', value: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        { type: 'document', source: { type: 'url', value: 'https://example.com/report.pdf', mimeType: 'application/pdf' } },
        { type: 'image', source: { type: 'url', value: 'https://example.com/cat' } },
        { type: 'document', source: { type: 'file', value: 'file-123', provider: 'google', mimeType: 'application/pdf' } },
        { type: 'document', source: { type: 'data', value: 'JVBERi0=' } },
      ],
    } as Message;
    const [v3User] = toAiSdkPrompt(undefined, [message], v3);
    expect(v3User).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', data: new URL('https://example.com/report.pdf') },
        { type: 'file', mediaType: 'image/*', filename: 'cat', data: new URL('https://example.com/cat') },
        { type: 'text', text: expect.stringContaining('takes files as data or URLs, not as file ids') },
        { type: 'text', text: expect.stringContaining('Its type is unknown') },
      ],
    });
    const [v4User] = toAiSdkPrompt(undefined, [message], { version: 'v4', provider: 'google.generative-ai' });
    expect(v4User?.content.slice(1)).toEqual([
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'report.pdf',
        data: { type: 'url', url: new URL('https://example.com/report.pdf') },
      },
      { type: 'file', mediaType: 'image', filename: 'cat', data: { type: 'url', url: new URL('https://example.com/cat') } },
      { type: 'file', mediaType: 'application/pdf', data: { type: 'reference', reference: { google: 'file-123' } } },
      { type: 'text', text: expect.stringContaining('Its type is unknown') },
    ]);
  });
});

describe('toAiSdkTools', () => {
  const tool = (name: string) => ({ name, description: `${name}.`, parameters: { type: 'object' } });
  it('provider tools first (a stable prefix), then function tools in order; a provider tool stands for the Chatwire tool of its name', () => {
    expect(
      toAiSdkTools(
        [tool('a'), tool('bash'), tool('b')],
        { bash: { id: 'anthropic.bash_20250124' }, google_search: { id: 'google.google_search', args: { x: 1 } } },
        'v3',
      ),
    ).toEqual([
      { type: 'provider', id: 'anthropic.bash_20250124', name: 'bash', args: {} },
      { type: 'provider', id: 'google.google_search', name: 'google_search', args: { x: 1 } },
      { type: 'function', name: 'a', description: 'a.', inputSchema: { type: 'object' } },
      { type: 'function', name: 'b', description: 'b.', inputSchema: { type: 'object' } },
    ]);
  });
});
