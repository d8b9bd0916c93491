import { ChatwireError } from '../base/errors.js';
import type { ChatStore } from './chatStore.js';
import type { SendOptions, SendResult } from './commandInputs.js';
import type { TurnRunner } from './turnRunner.js';

/**
 * Drops the last assistant turn and asks again (`ChatClient.regenerate`, loaded with its first
 * call): refused (`busy`, or `invalid-argument` without a user message) without changing anything;
 * else `stop` stops the chat's response, the messages after the last user message go, and a new
 * turn starts from it.
 */
export function regenerate(runner: TurnRunner, store: ChatStore, options: SendOptions | undefined, stop: () => void): Promise<SendResult> {
  if (runner.busy()) return runner.refuse(runner.busyError());
  const messages = store.getSnapshot().messages;
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role !== 'user') end--;
  if (end === 0) return runner.refuse(new ChatwireError('invalid-argument', 'There is no user message to regenerate from.'));
  stop();
  store.dispatch({ type: 'setMessages', messages: messages.slice(0, end) });
  return runner.start(runner.newTurn(options));
}
