import { afterEach, describe, expect, it } from 'vitest';
import type { ChatClient, ChatMessage, ToolCallPart } from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * The client's side of grants, edits, batches and decisions, against a plain AG-UI server scripted
 * event by event: what the client shows comes from the script, what it sends is read off the wire.
 */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});
async function serve(script: Script) {
  const server = await startAgUiServer(script);
  stop = server.close;
  return server;
}
const callsOf = (client: ChatClient): ToolCallPart[] =>
  client
    .getSnapshot()
    .messages.flatMap((message: ChatMessage) => message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call'));
const finishedOnce = (client: ChatClient) => new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));

const editable = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    editedArgs: { type: 'object', properties: { path: { type: 'string' } } },
    grant: { type: 'string', enum: ['once', 'thread'] },
  },
  required: ['approved'],
};

describe('approval answers', () => {
  it("reads a server's grant options and edit capability, and sends editedArgs and the grant in the resume entry", async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, callOf('c1', 'deleteFile', { path: '/tmp/a' }), {
            type: 'interrupt',
            interrupts: [
              {
                id: 'int-1',
                reason: 'tool_call',
                toolCallId: 'c1',
                responseSchema: editable,
                metadata: { chatwire: { grantOptions: ['once', 'thread', 'bogus'] } },
              },
            ],
          })
        : runOf(input, [
            {
              type: 'CUSTOM',
              name: 'chatwire.approval_decision',
              value: { toolCallId: 'c1', toolName: 'deleteFile', by: 'user', decision: 'approve', editedArguments: '{"path":"/tmp/b"}' },
            },
            { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"deleted":"/tmp/b"}' },
            ...textOf('a2', 'Deleted.'),
          ]),
    );
    const client = server.client();
    await client.sendMessage('delete /tmp/a');
    const [call] = callsOf(client);
    expect(call?.approval).toMatchObject({ grantOptions: ['once', 'thread'], editable: true });
    const finished = finishedOnce(client);
    client.addToolApprovalResponse({ id: 'int-1', approved: true, editedArgs: { path: '/tmp/b' }, grant: 'thread' });
    await finished;
    expect(server.inputs[1]?.resume).toHaveLength(1);
    expect(server.inputs[1]?.resume?.[0]).toMatchObject({ interruptId: 'int-1', status: 'resolved' });
    expect(server.inputs[1]?.resume?.[0]?.payload).toEqual({ approved: true, editedArgs: { path: '/tmp/b' }, grant: 'thread' });
    const [done] = callsOf(client);
    // The decision is on the part, and the input is what the call ran with.
    expect(done).toMatchObject({ state: 'output-available', input: { path: '/tmp/b' }, decision: { by: 'user', decision: 'approve' } });
  });

  it('a plain approval carries no extras, and an interrupt without editedArgs is not editable', async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, callOf('c1', 'deleteFile', { path: '/tmp/a' }), {
            type: 'interrupt',
            interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1' }],
          })
        : runOf(input, textOf('a2', 'OK.')),
    );
    const client = server.client();
    await client.sendMessage('delete /tmp/a');
    expect(callsOf(client)[0]?.approval?.editable).toBeUndefined();
    expect(callsOf(client)[0]?.approval?.grantOptions).toBeUndefined();
    const finished = finishedOnce(client);
    client.addToolApprovalResponse({ id: 'int-1', approved: false });
    await finished;
    expect(server.inputs[1]?.resume).toEqual([{ interruptId: 'int-1', status: 'resolved', payload: { approved: false } }]);
  });

  it('answering every pending approval sends them together in one request', async () => {
    const server = await serve((input, request) =>
      request === 0
        ? runOf(input, [...callOf('c1', 'deleteFile', { path: '/a' }), ...callOf('c2', 'deleteFile', { path: '/b' })], {
            type: 'interrupt',
            interrupts: [
              { id: 'int-1', reason: 'tool_call', toolCallId: 'c1' },
              { id: 'int-2', reason: 'tool_call', toolCallId: 'c2' },
            ],
          })
        : runOf(input, textOf('a2', 'Done.')),
    );
    const client = server.client();
    await client.sendMessage('delete both');
    const finished = finishedOnce(client);
    for (const call of callsOf(client)) client.addToolApprovalResponse({ id: call.approval!.id, approved: true });
    await finished;
    expect(server.inputs).toHaveLength(2);
    expect(server.inputs[1]?.resume?.map((entry) => entry.interruptId)).toEqual(['int-1', 'int-2']);
  });

  it('a decision event for a call that ran without asking (a policy, a grant) lands on its part; a malformed one is ignored', async () => {
    const server = await serve((input) =>
      runOf(input, [
        ...callOf('c1', 'lookup', { q: 'x' }),
        {
          type: 'CUSTOM',
          name: 'chatwire.approval_decision',
          value: {
            toolCallId: 'c1',
            toolName: 'lookup',
            by: 'grant',
            decision: 'approve',
            grant: { id: 'grt_1', toolName: 'lookup', effect: 'allow', scope: 'thread', createdAt: '2026-01-01T00:00:00Z' },
          },
        },
        { type: 'CUSTOM', name: 'chatwire.approval_decision', value: { toolCallId: 'c1', by: 'someone', decision: 'deny' } },
        { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"ok":true}' },
        ...textOf('a2', 'Found.'),
      ]),
    );
    const client = server.client();
    await client.sendMessage('look up x');
    expect(callsOf(client)[0]?.decision).toMatchObject({ by: 'grant', grant: { id: 'grt_1', scope: 'thread' } });
  });
});
