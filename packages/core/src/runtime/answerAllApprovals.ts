import { pendingApprovals } from '../model/pendingApprovals.js';
import type { ChatClient } from './chatClient.js';

/**
 * Answers every approval the chat waits for at once (approve all, deny all), with the same
 * `reason` for each: they go out in one request, like answers given one by one.
 *
 * @example
 * ```ts
 * answerAllApprovals(client, false, 'Not now');
 * ```
 */
export function answerAllApprovals(client: ChatClient, approved: boolean, reason?: string): void {
  for (const part of pendingApprovals(client.getSnapshot().messages)) {
    if (part.approval) client.addToolApprovalResponse({ id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) });
  }
}
