import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Event } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition, type ModelCallUsage } from '@chatwire/core';
import { readChatRecord, type ChatRecord } from '@chatwire/core/shared';
import { chat, createScriptedModel, writeRunRecords, type ChatOptions } from '@chatwire/server';
import { recordedRun } from '../src/run/runRecords.js';
import { collect, deferred, user } from './fixtures.js';

const tools = [
  toolDefinition({ name: 'getWeather', description: 'Weather.', inputSchema: z.object({ city: z.string() }) }).server(async ({ city }) => ({
    city,
  })),
  toolDefinition({ name: 'listOrders', description: 'List orders.', inputSchema: z.object({}), lazy: true }).server(async () => []),
];
const options = (extra: Partial<ChatOptions> = {}): ChatOptions => ({
  model: createScriptedModel(),
  messages: [user('use getWeather {"city":"Oslo"}', 'u1')],
  tools,
  secret: 's',
  threadId: 'thread_records',
  runId: 'run_records',
  ...extra,
});
const usagesOf = (events: readonly Event[]) =>
  events.flatMap((event) => (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage' ? [event.value as ModelCallUsage] : []));

describe('run records (off by default)', () => {
  it('without `runRecords` a run is not recorded: its events pass untouched', () => {
    const events = (async function* (): AsyncGenerator<Event, void, undefined> {})();
    expect(recordedRun(options(), events)).toBe(events);
  });

  it("with a sink, each run's record carries its request, every event and its accounting, and reads back as a chat record", async () => {
    const records: ChatRecord[] = [];
    const recorded = deferred();
    const events = await collect(chat(options({ runRecords: (record) => void (records.push(record), recorded.settle()) })));
    await recorded.settled;
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ format: 'chatwire.chat-record', version: 1, source: 'server', chatId: 'thread_records', snapshots: [] });
    expect(record!.history[0]!.runs[0]!.input.messages).toEqual([user('use getWeather {"city":"Oslo"}', 'u1')]);
    expect(record!.history[0]!.events.map((entry) => entry.event)).toEqual(events);
    expect(record!.accounting.turns[0]!.modelCalls).toEqual(usagesOf(events));
    expect(record!.accounting.conversationUsage?.requests.lazy).toBe(usagesOf(events).length);
    const reading = readChatRecord(JSON.stringify(record));
    expect(reading.ok).toBe(true);
  });

  it('a sink that throws or rejects is reported to onError; the run is unaffected', async () => {
    const reported = [deferred(), deferred()];
    const onError = vi.fn((_report: unknown) => reported[onError.mock.calls.length - 1]?.settle());
    const thrown = await collect(
      chat(
        options({
          onError,
          runRecords: () => {
            throw new Error('disk full');
          },
        }),
      ),
    );
    expect(thrown.at(-1)?.type).toBe('RUN_FINISHED');
    const rejected = await collect(chat(options({ onError, runRecords: () => Promise.reject(new Error('no space')) })));
    expect(rejected.at(-1)?.type).toBe('RUN_FINISHED');
    await Promise.all(reported.map((report) => report.settled));
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls.map(([report]) => (report as { error: Error }).error.message)).toEqual(['disk full', 'no space']);
  });

  it('writeRunRecords writes one JSON file per run in its directory, whatever the ids hold', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'chatwire-records-'));
    try {
      // The sink's own promise says when the file is written.
      const write = writeRunRecords(directory);
      let written: Promise<void> | undefined;
      await collect(
        chat(options({ threadId: '../../escape', runId: 'run/1', runRecords: (record) => (written = Promise.resolve(write(record))) })),
      );
      await written;
      expect(await readdir(directory)).toHaveLength(1);
      const [name] = await readdir(directory);
      expect(name).toBe('..%2F..%2Fescape--run%2F1.chatwire-record.json');
      const reading = readChatRecord(await readFile(join(directory, name!), 'utf8'));
      expect(reading.ok && reading.record.chatId).toBe('../../escape');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('readChatRecord refuses what is not a record, saying why', () => {
    expect(readChatRecord('not json')).toEqual({ ok: false, error: expect.stringContaining('not JSON') });
    expect(readChatRecord('{"format":"other"}')).toEqual({ ok: false, error: expect.stringContaining('not a chat record') });
    expect(readChatRecord(JSON.stringify({ format: 'chatwire.chat-record', version: 2 }))).toEqual({
      ok: false,
      error: expect.stringContaining('version'),
    });
    const base = { format: 'chatwire.chat-record', version: 1, chatId: 'c', savedAt: 'now', snapshots: [], accounting: { turns: [] } };
    expect(readChatRecord(JSON.stringify({ ...base, history: [{ runs: [], events: [{ event: 'x' }] }] }))).toEqual({
      ok: false,
      error: expect.stringContaining('not an AG-UI event'),
    });
    expect(readChatRecord(JSON.stringify({ ...base, history: [] })).ok).toBe(true);
  });
});
