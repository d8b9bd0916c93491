import type { Event, RunAgentInput } from '@ag-ui/core';
import { runRecord, type ChatRecord } from '@chatwire/core/shared';
import { reportError } from '../errors/errorReport.js';
import type { ChatOptions } from './chatOptions.js';

/**
 * Receives the record of each run when it ends (`chat()`'s and `createChatHandler`'s `runRecords`):
 * the same {@link ChatRecord} devtools saves and opens. A throw or a rejection is reported to
 * `onError`; the run is never affected.
 */
export type RunRecordSink = (record: ChatRecord) => void | Promise<void>;

/** Events kept in one run's record at most (a run past it is recorded up to there). */
const MAX_RECORDED_EVENTS = 20_000;

type RunEvents = AsyncGenerator<Event, void, undefined>;

/**
 * A run's events, recorded for `options.runRecords` as they pass; without a sink (the default) the
 * events themselves, untouched.
 */
export function recordedRun(options: ChatOptions, events: RunEvents): RunEvents {
  const sink = options.runRecords;
  return sink ? recording(options, sink, events) : events;
}

async function* recording(options: ChatOptions, sink: RunRecordSink, events: RunEvents): RunEvents {
  const startedAt = Date.now();
  const recorded: { at: number; event: Event }[] = [];
  let threadId = options.threadId ?? '';
  let runId = options.runId ?? '';
  try {
    for await (const event of events) {
      if (event.type === 'RUN_STARTED') ({ threadId, runId } = event);
      if (recorded.length < MAX_RECORDED_EVENTS) recorded.push({ at: Date.now(), event });
      yield event;
    }
  } finally {
    const input: RunAgentInput = {
      threadId,
      runId,
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      messages: [...options.messages],
      tools: [...(options.frontendTools ?? [])],
      context: [],
      ...(options.resume ? { resume: [...options.resume] } : {}),
    } as RunAgentInput;
    const report = (error: unknown) => reportError(options.onError, { kind: 'run', error, threadId, runId });
    try {
      void Promise.resolve(sink(runRecord({ input, startedAt, events: recorded }))).catch(report);
    } catch (error) {
      report(error);
    }
  }
}

/**
 * A {@link RunRecordSink} that writes each run's record as a JSON file in `directory` (Node.js),
 * named `<threadId>--<runId>.chatwire-record.json` (ids URL-encoded): open one in devtools with
 * "Open record". Records hold the conversation's messages: keep the directory private.
 *
 * @example
 * ```ts
 * createChatHandler({ model, tools, runRecords: writeRunRecords('./run-records') });
 * ```
 */
export function writeRunRecords(directory: string): RunRecordSink {
  return async (record) => {
    const [fs, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
    await fs.mkdir(directory, { recursive: true });
    const runId = record.history[0]?.runs[0]?.runId ?? 'run';
    const name = `${encodeURIComponent(record.chatId)}--${encodeURIComponent(runId)}.chatwire-record.json`;
    await fs.writeFile(path.join(directory, name), JSON.stringify(record));
  };
}
