import type { Event, Interrupt, Message, ResumeEntry } from '@ag-ui/core';
import { toolDefinition, type ApprovalDecision, type GrantView } from '@chatwire/core';
import {
  createChatHandler,
  createGrantsHandler,
  createScriptedModel,
  createThreadsHandler,
  type ChatHandlerOptions,
  type GrantOptions,
  type GrantStore,
  type ServerStore,
  type StoredGrant,
  type ThreadStore,
} from '@chatwire/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { applyEvents, interruptsOf, readEvents, user } from '../fixtures.js';

/**
 * Where one server keeps its approvals ledger, threads and grants: `store` (memory or Redis), and
 * `threads` (a thread store, whose own grants are used when it has them).
 */
export interface GrantsSetup {
  readonly store: ServerStore;
  readonly threads?: ThreadStore;
}

/** The grant store a setup's handlers use (the thread store's when it keeps grants). */
const grantStoreOf = (setup: GrantsSetup): GrantStore => (setup.threads?.grants ?? setup.store.grants) as GrantStore;

/** A thread store like `store` but keeping no grants: the app's own thread store, say (grants then live in `store.grants`). */
export function withoutGrants(store: ThreadStore): ThreadStore {
  const { grants: _kept, ...rest } = store;
  return rest;
}

const DAY = 24 * 60 * 60_000;
const HOUR = 60 * 60_000;

/** Runs `work` on every item, `size` at a time, keeping the order. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}

/** The `chatwire.approval_decision` events of a run. */
const decisionsOf = (events: readonly Event[]): ApprovalDecision[] =>
  events
    .filter((event) => event.type === 'CUSTOM' && event.name === 'chatwire.approval_decision')
    .map((event) => (event as { value: ApprovalDecision }).value);

/** One server (chat, grants and threads handlers on one options object, as docs/security.md tells apps) and a refund tool that counts its runs. */
function grantsServer(setup: GrantsSetup, grants?: GrantOptions) {
  const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId.slice(0, 20) }));
  const refundOrder = toolDefinition({
    name: 'refundOrder',
    description: 'Refund an order.',
    inputSchema: z.object({ orderId: z.string() }),
    needsApproval: true,
  }).server(refund);
  const options: ChatHandlerOptions = {
    model: createScriptedModel(),
    tools: [refundOrder],
    secret: 'grant-scenarios-secret',
    store: setup.store,
    ...(setup.threads ? { threads: setup.threads } : {}),
    userOf: (request) => request.headers.get('x-user') ?? undefined,
    ...(grants ? { grants } : {}),
  };
  const chat = createChatHandler(options);
  const grantsHandler = createGrantsHandler(options);
  const threadsHandler = options.threads ? createThreadsHandler(options) : undefined;
  const headers = (who: string | undefined, json = true) => ({
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(who ? { 'x-user': who } : {}),
  });

  const send = async (threadId: string, messages: Message[], who: string | undefined, resume?: ResumeEntry[]) => {
    const response = await chat(
      new Request('http://chatwire.test/api/chat', {
        method: 'POST',
        headers: headers(who),
        body: JSON.stringify({
          threadId,
          runId: `run_${Math.random().toString(36).slice(2)}`,
          messages,
          tools: [],
          context: [],
          ...(resume ? { resume } : {}),
        }),
      }),
    );
    if (response.status !== 200) {
      return { status: response.status, code: ((await response.json()) as { code: string }).code, events: [] as Event[], messages };
    }
    const events = await readEvents(response);
    return { status: 200, code: undefined, events, messages: applyEvents(messages, events) };
  };
  /** Asks for a refund of `order` in `threadId` (after `history`): the run and the approval it ended with, if any. */
  const ask = async (threadId: string, order: string, who: string | undefined, history: Message[] = []) => {
    const sent = await send(threadId, [...history, user(`use refundOrder for ${order}`)], who);
    return { ...sent, threadId, who, interrupt: interruptsOf(sent.events)[0] as Interrupt | undefined };
  };
  type Asked = Awaited<ReturnType<typeof ask>>;
  /** Answers an asked approval with `payload`: the resumed run, and the decision it streamed. */
  const answer = async (asked: Asked, payload: Record<string, unknown>) => {
    expect(asked.interrupt, 'the run asked for approval').toBeDefined();
    const resumed = await send(asked.threadId, asked.messages, asked.who, [
      { interruptId: asked.interrupt!.id, status: 'resolved', payload },
    ]);
    expect(resumed.status).toBe(200);
    return { ...resumed, decision: decisionsOf(resumed.events)[0] };
  };
  const listGrants = async (threadId: string, who: string | undefined) => {
    const response = await grantsHandler(
      new Request(`http://chatwire.test/api/grants?threadId=${encodeURIComponent(threadId)}`, { headers: headers(who, false) }),
    );
    return { status: response.status, body: (await response.json()) as { grants: GrantView[]; code?: string } };
  };
  const revoke = async (threadId: string, id: string, who: string | undefined) => {
    const response = await grantsHandler(
      new Request('http://chatwire.test/api/grants', {
        method: 'POST',
        headers: headers(who),
        body: JSON.stringify({ threadId, revoke: id }),
      }),
    );
    return { status: response.status, body: (await response.json()) as { revoked?: string; code?: string; error?: string } };
  };
  const deleteThread = async (threadId: string, who: string) => {
    if (!threadsHandler) throw new Error('This setup has no thread store.');
    return (
      await threadsHandler(
        new Request(`http://chatwire.test/api/threads/${encodeURIComponent(threadId)}`, { method: 'DELETE', headers: headers(who, false) }),
      )
    ).status;
  };
  return { refund, ask, answer, listGrants, revoke, deleteThread };
}

/** A grant record for the store-level tests: never verifies (it is not signed), which the stores do not look at. */
const record = (owner: string, id: string, createdAt: number, expiresAt: number, more: Partial<StoredGrant> = {}): StoredGrant => ({
  id,
  owner,
  toolName: 'refundOrder',
  effect: 'allow',
  scope: 'always',
  version: 'v1',
  createdAt,
  expiresAt,
  signature: 'unsigned',
  ...more,
});

/**
 * The grants' owner, lifetime and bounds, through the public handlers, on one kind of store. `open`
 * runs once per test (a fresh server on the file's shared backing store); ids and users are fresh
 * per test, so tests never see each other's grants.
 */
export function grantScenarios(name: string, open: () => GrantsSetup | Promise<GrantsSetup>): void {
  let counter = 0;
  const fresh = (label: string) => `${label}_${Date.now().toString(36)}_${++counter}`;

  describe(`grants: ${name}`, () => {
    beforeAll(async () => {
      // A thread store's schema is created before the first test's clock starts (PGlite compiles its WebAssembly then).
      const setup = await open();
      await setup.threads?.list('nobody', { limit: 1 });
    }, 120_000);
    afterEach(() => {
      vi.useRealTimers();
    });

    it('a chat grant covers only its user: another user (or a request naming nobody) in the same thread id is asked, and cannot plant one for them', async () => {
      const setup = await open();
      const server = grantsServer(setup);
      const [ada, bob, thread, planted] = [fresh('ada'), fresh('bob'), fresh('t'), fresh('t_planted')];
      const granted = await server.answer(await server.ask(thread, 'ORD-1', ada), { approved: true, grant: 'thread' });
      expect(granted.decision).toMatchObject({ by: 'user', grant: { scope: 'thread', effect: 'allow' } });
      expect(server.refund).toHaveBeenCalledTimes(1);

      for (const who of [bob, undefined]) {
        const other = await server.ask(thread, 'ORD-2', who);
        if (setup.threads) {
          // A thread store refuses another owner's thread outright.
          expect(other).toMatchObject({ status: 404, code: 'unknown-thread' });
        } else {
          expect(other.interrupt).toBeDefined();
          expect(decisionsOf(other.events)).toEqual([]);
        }
      }
      // Ada's own next call in the chat is covered.
      const again = await server.ask(thread, 'ORD-3', ada, granted.messages);
      expect(again.interrupt).toBeUndefined();
      expect(decisionsOf(again.events)[0]).toMatchObject({ by: 'grant', grant: { id: granted.decision!.grant!.id } });
      expect(server.refund).toHaveBeenCalledTimes(2);

      // The reverse: bob allows it "for this chat" in a thread id first; ada, arriving there, is asked.
      await server.answer(await server.ask(planted, 'ORD-4', bob), { approved: true, grant: 'thread' });
      expect(server.refund).toHaveBeenCalledTimes(3);
      const victim = await server.ask(planted, 'ORD-5', ada);
      if (setup.threads) expect(victim).toMatchObject({ status: 404, code: 'unknown-thread' });
      else expect(victim.interrupt).toBeDefined();
      expect(server.refund).toHaveBeenCalledTimes(3);
    });

    it('another user lists and revokes nothing of a chat that is not theirs: the endpoint answers exactly as for a chat with no grants', async () => {
      const server = grantsServer(await open());
      const [ada, bob, thread, never] = [fresh('ada'), fresh('bob'), fresh('t'), fresh('t_never')];
      const granted = await server.answer(await server.ask(thread, 'ORD-1', ada), { approved: true, grant: 'thread' });
      const grantId = granted.decision!.grant!.id;
      for (const who of [bob, undefined]) {
        const theirs = await server.listGrants(thread, who);
        expect(theirs).toEqual(await server.listGrants(never, who));
        expect(theirs).toEqual({ status: 200, body: { grants: [] } });
        const revoked = await server.revoke(thread, grantId, who);
        expect(revoked).toEqual(await server.revoke(never, grantId, who));
        expect(revoked).toMatchObject({ status: 404, body: { code: 'unknown-grant' } });
      }
      // Still ada's, and still covering her calls.
      expect((await server.listGrants(thread, ada)).body.grants.map((grant) => grant.id)).toEqual([grantId]);
      expect(await server.revoke(thread, grantId, ada)).toMatchObject({ status: 200, body: { revoked: grantId } });
      expect((await server.listGrants(thread, ada)).body.grants).toEqual([]);
    });

    it('a burst of 50 answers at the cap keeps exactly 200 grants; the others run once and say why no grant was kept', async () => {
      const server = grantsServer(await open());
      const ada = fresh('ada');
      const base = fresh('t_burst');
      // 220 approvals, each in a chat of its own; "always" grants all belong to ada, so they share one owner.
      const asked = await inBatches(
        Array.from({ length: 220 }, (_, index) => index),
        20,
        (index) => server.ask(`${base}_${index}`, `ORD-${index}`, ada),
      );
      const always = { approved: true, grant: 'always', grantArguments: true };
      const before = await inBatches(asked.slice(0, 170), 20, (one) => server.answer(one, always));
      expect(before.filter((run) => run.decision?.grant).length).toBe(170);
      const burst = await Promise.all(asked.slice(170).map((one) => server.answer(one, always)));
      const kept = burst.filter((run) => run.decision?.grant !== undefined);
      const refused = burst.filter((run) => /^No grant was stored: this user has 200 grants/.test(run.decision?.reason ?? ''));
      expect({ kept: kept.length, refused: refused.length }).toEqual({ kept: 30, refused: 20 });
      // Every approved call ran, granted or not.
      expect(server.refund).toHaveBeenCalledTimes(220);
      const listed = await server.listGrants(fresh('t_any'), ada);
      expect(listed.body.grants).toHaveLength(200);
      expect(new Set(listed.body.grants.map((grant) => grant.arguments)).size).toBe(200);
    }, 120_000);

    it('the store adds at most `max` grants of an owner however many arrive at once, and an owner whose grants expired takes new ones', async () => {
      const setup = await open();
      const grants = grantStoreOf(setup);
      const owner = `user:${fresh('cap')}`;
      const now = Date.now();
      const added = await Promise.all(
        Array.from({ length: 250 }, (_, index) => grants.add(record(owner, `grt_${index}`, now, now + 60_000), 200)),
      );
      expect(added.filter(Boolean)).toHaveLength(200);
      expect(await grants.list(owner)).toHaveLength(200);
      expect(await grants.add(record(owner, 'grt_full', now + 1, now + 60_000), 200)).toBe(false);
      // A minute later every one of them has expired: they make room.
      expect(await grants.add(record(owner, 'grt_later', now + 60_000, now + 120_000), 200)).toBe(true);
      expect((await grants.list(owner)).map((grant) => grant.id)).toEqual(['grt_later']);
      await grants.removeOwner(owner);
      expect(await grants.list(owner)).toEqual([]);
    });

    it('grants expire: "always" after alwaysTtlMs, "this chat" after threadTtlMs; expired ones are not listed and ask again', async () => {
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start);
      const server = grantsServer(await open(), { alwaysTtlMs: HOUR, threadTtlMs: 2 * HOUR });
      const [ada, chat] = [fresh('ada'), fresh('t_chat')];
      await server.answer(await server.ask(fresh('t'), 'ORD-1', ada), { approved: true, grant: 'always', grantArguments: true });
      const inChat = await server.answer(await server.ask(chat, 'ORD-2', ada), { approved: true, grant: 'thread', grantArguments: true });
      const listed = (await server.listGrants(chat, ada)).body.grants;
      const lifetimes = listed.map((grant) => [grant.scope, Date.parse(grant.expiresAt!) - Date.parse(grant.createdAt)]);
      expect(lifetimes.sort()).toEqual([
        ['always', HOUR],
        ['thread', 2 * HOUR],
      ]);

      vi.setSystemTime(start + HOUR - 1_000);
      expect((await server.ask(fresh('t'), 'ORD-1', ada)).interrupt).toBeUndefined();
      vi.setSystemTime(start + HOUR + 1_000);
      expect((await server.ask(fresh('t'), 'ORD-1', ada)).interrupt).toBeDefined();
      expect((await server.listGrants(chat, ada)).body.grants.map((grant) => grant.scope)).toEqual(['thread']);
      const stillCovered = await server.ask(chat, 'ORD-2', ada, inChat.messages);
      expect(stillCovered.interrupt).toBeUndefined();

      vi.setSystemTime(start + 2 * HOUR + 1_000);
      expect((await server.ask(chat, 'ORD-2', ada, stillCovered.messages)).interrupt).toBeDefined();
      expect((await server.listGrants(chat, ada)).body.grants).toEqual([]);
      // Ran: the two answered calls and the two covered ones.
      expect(server.refund).toHaveBeenCalledTimes(4);
    });

    it('without a setting, "always" and "this chat" grants last 30 days', async () => {
      const server = grantsServer(await open());
      const [ada, chat] = [fresh('ada'), fresh('t')];
      await server.answer(await server.ask(fresh('t'), 'ORD-1', ada), { approved: true, grant: 'always', grantArguments: true });
      await server.answer(await server.ask(chat, 'ORD-2', ada), { approved: true, grant: 'thread' });
      const listed = (await server.listGrants(chat, ada)).body.grants;
      expect(listed.map((grant) => Date.parse(grant.expiresAt!) - Date.parse(grant.createdAt))).toEqual([30 * DAY, 30 * DAY]);
    });

    it('a grant keeps at most 2 KiB of arguments (UTF-8): longer ones run once, no grant is kept, and the decision says why', async () => {
      const server = grantsServer(await open());
      const ada = fresh('ada');
      // `{"orderId":"…"}` is 14 bytes around the id: 1,017 two-byte characters make 2,048 bytes, one more ASCII character 2,049.
      const atBound = 'é'.repeat(1_017);
      const overBound = `${atBound}x`;
      const over = await server.answer(await server.ask(fresh('t'), 'ORD-1', ada), {
        approved: true,
        grant: 'always',
        grantArguments: true,
        editedArgs: { orderId: overBound },
      });
      expect(server.refund).toHaveBeenLastCalledWith({ orderId: overBound }, expect.anything());
      expect(over.decision?.grant).toBeUndefined();
      expect(over.decision?.reason).toBe(
        'No grant was stored: its arguments are 2049 bytes, and a grant keeps at most 2048; this call was answered once.',
      );
      expect((await server.listGrants(fresh('t'), ada)).body.grants).toEqual([]);

      const at = await server.answer(await server.ask(fresh('t'), 'ORD-2', ada), {
        approved: true,
        grant: 'always',
        grantArguments: true,
        editedArgs: { orderId: atBound },
      });
      expect(at.decision?.grant?.arguments).toBe(JSON.stringify({ orderId: atBound }));
      expect((await server.listGrants(fresh('t'), ada)).body.grants).toHaveLength(1);
      expect(server.refund).toHaveBeenCalledTimes(2);
    });
  });
}

/**
 * Deleting a thread deletes its grants, on a setup with a thread store: through the threads
 * endpoint, and (for a thread store that keeps its own grants) through the store itself.
 */
export function threadGrantScenarios(
  name: string,
  open: () => GrantsSetup | Promise<GrantsSetup>,
  { threadStoreKeepsGrants }: { readonly threadStoreKeepsGrants: boolean },
): void {
  let counter = 0;
  const fresh = (label: string) => `${label}_${Date.now().toString(36)}_${++counter}`;

  describe(`grants die with their thread: ${name}`, () => {
    it('a chat deleted (204) loses its grants: the same id, made again by its user or another, asks again', async () => {
      const setup = await open();
      const server = grantsServer(setup);
      const [ada, bob, thread, mine] = [fresh('ada'), fresh('bob'), fresh('t'), fresh('t_mine')];
      for (const id of [thread, mine]) {
        const granted = await server.answer(await server.ask(id, 'ORD-1', ada), { approved: true, grant: 'thread' });
        expect(granted.decision?.grant).toBeDefined();
        expect((await server.listGrants(id, ada)).body.grants).toHaveLength(1);
        expect(await server.deleteThread(id, ada)).toBe(204);
        expect((await server.listGrants(id, ada)).body.grants).toEqual([]);
      }
      expect(server.refund).toHaveBeenCalledTimes(2);
      // Another user makes a thread with that id: asked, nothing runs.
      const other = await server.ask(thread, 'ORD-2', bob);
      expect(other.interrupt).toBeDefined();
      // Its user starts it again: asked too.
      const again = await server.ask(mine, 'ORD-3', ada);
      expect(again.interrupt).toBeDefined();
      expect(server.refund).toHaveBeenCalledTimes(2);
    });

    // Registered only where the thread store keeps the grants itself (the app's own store, without them, has no such promise).
    if (threadStoreKeepsGrants)
      it("a thread store that keeps grants drops a deleted thread's grants however it is deleted, and takes none for a thread that is gone or another user's", async () => {
        const setup = await open();
        const grants = setup.threads!.grants!;
        const server = grantsServer(setup);
        const [ada, thread] = [fresh('ada'), fresh('t')];
        await server.answer(await server.ask(thread, 'ORD-1', ada), { approved: true, grant: 'thread' });
        // The key docs/security.md names for a user's chat: `thread@<user, percent-encoded>:<thread id>`.
        const key = (user: string, threadId: string) => `thread@${encodeURIComponent(user)}:${threadId}`;
        expect(await grants.list(key(ada, thread))).toEqual([expect.objectContaining({ user: ada, threadId: thread, scope: 'thread' })]);
        // An app's own clean-up job deletes the thread through the store, not the endpoint.
        expect(await setup.threads!.remove(ada, thread)).toBe(true);
        expect(await grants.list(key(ada, thread))).toEqual([]);
        const now = Date.now();
        const forThread = (threadId: string, user: string) =>
          record(key(user, threadId), fresh('grt'), now, now + 60_000, { scope: 'thread', threadId, user });
        // A grant that arrives for the deleted thread (its last run answering late) is refused.
        expect(await grants.add(forThread(thread, ada), 200)).toBe(false);
        // One for another user's thread too; the thread's own user's is taken.
        const [bob, bobs] = [fresh('bob'), fresh('t_bob')];
        expect((await server.ask(bobs, 'ORD-2', bob)).interrupt).toBeDefined();
        expect(await grants.add(forThread(bobs, ada), 200)).toBe(false);
        expect(await grants.add(forThread(bobs, bob), 200)).toBe(true);
      });
  });
}
