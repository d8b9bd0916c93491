import type { ChatSnapshot } from '@chatwire/core';

/**
 * The chat's status as the panel's header words it: the snapshot's `status`, except that a chat at rest with a tool
 * call whose approval is still asked for says `waiting for approval` (the run ended on the question; "ready" would
 * read as nothing left to do), as the demo's header does.
 */
export function chatStatusWords(snapshot: Pick<ChatSnapshot, 'status' | 'messages'>): string {
  if (snapshot.status !== 'ready') return snapshot.status;
  const waiting = snapshot.messages.some((message) =>
    message.parts.some((part) => part.type === 'tool-call' && part.state === 'approval-requested'),
  );
  return waiting ? 'waiting for approval' : snapshot.status;
}
