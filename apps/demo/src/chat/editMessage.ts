import type { ChatClient, SendResult } from '@chatwire/core';

/**
 * Whether the client edits a user message itself (`sendMessage({ text, messageId })`, which the
 * core adds together with `clearError()`). Until it does, {@link editMessage} does the same with
 * the commands every client has.
 */
export function canEditNatively(client: ChatClient): boolean {
  return typeof (client as { clearError?: unknown }).clearError === 'function';
}

/**
 * Replaces a user message's text and runs the conversation again from it; the messages after it
 * are dropped, as in every chat app. Never rejects (a busy chat resolves `{ sent: false }`).
 */
export function editMessage(client: ChatClient, messageId: string, text: string): Promise<SendResult> {
  if (canEditNatively(client)) {
    const input = { text, messageId };
    return client.sendMessage(input);
  }
  // The same through setMessages + sendMessage: keep everything before the message, send the new text.
  const messages = client.getSnapshot().messages;
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0) return client.sendMessage(text);
  client.setMessages(messages.slice(0, index));
  return client.sendMessage(text);
}
