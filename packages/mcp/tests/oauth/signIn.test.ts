import { createMemoryCredentialStore, type CredentialStore } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpAuth, McpSignInError } from '../../src/auth/mcpAuth.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauthFixture.js';

/**
 * Signing in with the SDK's OAuth client machinery against the SDK's authorization server and an
 * SDK v2 MCP server on loopback: the flow, then each way a callback or a server can be wrong.
 */
let fixture: OAuthFixture;
beforeAll(async () => {
  fixture = await startOAuthFixture();
});
afterAll(async () => {
  await fixture?.close();
});

const REDIRECT = 'http://127.0.0.1:9/api/mcp/callback';
const authFor = (store: CredentialStore = createMemoryCredentialStore(), extra: { requestTimeoutMs?: number; url?: string } = {}) =>
  new McpAuth(
    {
      redirectUrl: REDIRECT,
      userOf: () => undefined,
      store,
      secret: 'test-secret',
      ...(extra.requestTimeoutMs ? { requestTimeoutMs: extra.requestTimeoutMs } : {}),
    },
    [{ name: 'notes', url: extra.url ?? fixture.mcpUrl }],
  );
const started = async (auth: McpAuth, user: string) => {
  const url = await auth.begin('notes', user);
  if (!url) throw new Error('expected an authorization URL');
  return url;
};

describe('sign-in', () => {
  it('discovers the authorization server from the 401, registers, and stores the tokens sealed for the user who signed in', async () => {
    const store = createMemoryCredentialStore();
    const auth = authFor(store);
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
    const url = await started(auth, 'ann');
    // The authorization server is on another origin than the MCP server; PKCE S256 and the resource indicator are on the URL.
    expect(url.origin).toBe(new URL(fixture.issuer).origin);
    expect(url.origin).not.toBe(new URL(fixture.mcpUrl).origin);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(fixture.mcpUrl);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    const callback = await fixture.consent(url, 'ann-at-notes');
    expect(await auth.finish(callback.searchParams, 'ann')).toBe('notes');
    expect(await auth.state('notes', 'ann')).toBe('connected');
    expect(await auth.state('notes', 'bob')).toBe('needs-sign-in');
    // What the store holds is sealed: no token in it.
    const stored = await store.get('mcp:user:ann', 'notes');
    const record = await auth.record('notes', 'ann');
    expect(record?.tokens.access_token).toBeTruthy();
    expect(stored).not.toContain(record?.tokens.access_token ?? '-');
    expect(stored).not.toContain(record?.tokens.refresh_token ?? '-');
    // Copied to another user's key, it does not open.
    await store.set('mcp:user:bob', 'notes', stored ?? '');
    expect(await auth.record('notes', 'bob')).toBeUndefined();
    expect(await auth.state('notes', 'bob')).toBe('needs-sign-in');
  });

  it("two users' first sign-ins at once (two client registrations racing) both finish: each code is exchanged with its own flow's registration", async () => {
    const auth = authFor();
    const [annUrl, bobUrl] = await Promise.all([started(auth, 'ann'), started(auth, 'bob')]);
    expect(annUrl.searchParams.get('client_id')).not.toBe(bobUrl.searchParams.get('client_id'));
    const [annCallback, bobCallback] = await Promise.all([fixture.consent(annUrl, 'ann'), fixture.consent(bobUrl, 'bob')]);
    expect(await auth.finish(annCallback.searchParams, 'ann')).toBe('notes');
    expect(await auth.finish(bobCallback.searchParams, 'bob')).toBe('notes');
    expect([await auth.state('notes', 'ann'), await auth.state('notes', 'bob')]).toEqual(['connected', 'connected']);
  });

  it('refuses a replayed callback: each state is used once', async () => {
    const auth = authFor();
    const callback = await fixture.consent(await started(auth, 'ann'));
    await auth.finish(callback.searchParams, 'ann');
    const exchanges = fixture.grants.authorization_code;
    await expect(auth.finish(callback.searchParams, 'ann')).rejects.toMatchObject({ code: 'unknown-state' });
    expect(fixture.grants.authorization_code).toBe(exchanges);
  });

  it('refuses a state it never issued, and a callback without one', async () => {
    const auth = authFor();
    const callback = await fixture.consent(await started(auth, 'ann'));
    const forged = new URLSearchParams(callback.searchParams);
    forged.set('state', 'not-a-state-we-issued');
    await expect(auth.finish(forged, 'ann')).rejects.toMatchObject({ code: 'unknown-state' });
    forged.delete('state');
    await expect(auth.finish(forged, 'ann')).rejects.toMatchObject({ code: 'unknown-state' });
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
  });

  it("refuses a callback that would complete another user's sign-in, and burns that state", async () => {
    const auth = authFor();
    const callback = await fixture.consent(await started(auth, 'ann'));
    await expect(auth.finish(callback.searchParams, 'mallory')).rejects.toMatchObject({ code: 'other-user' });
    expect(await auth.state('notes', 'mallory')).toBe('needs-sign-in');
    // Ann's own callback no longer works either: she starts again.
    await expect(auth.finish(callback.searchParams, 'ann')).rejects.toMatchObject({ code: 'unknown-state' });
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
  });

  it('refuses a code issued for another PKCE verifier (a code injected into this sign-in)', async () => {
    const auth = authFor();
    const mine = await fixture.consent(await started(auth, 'ann'));
    const theirs = await fixture.consent(await started(auth, 'ann'));
    // The state of one sign-in with the code of the other: the token endpoint checks the verifier.
    const injected = new URLSearchParams(mine.searchParams);
    injected.set('code', theirs.searchParams.get('code') ?? '');
    const error = await auth.finish(injected, 'ann').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpSignInError);
    expect(error).toMatchObject({ code: 'exchange-failed' });
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
  });

  it('refuses a callback whose iss names another authorization server (a mix-up), before the code is sent anywhere', async () => {
    const auth = authFor();
    fixture.controls.wrongIss = 'http://127.0.0.1:1/';
    try {
      const callback = await fixture.consent(await started(auth, 'ann'));
      const exchanges = fixture.grants.authorization_code;
      await expect(auth.finish(callback.searchParams, 'ann')).rejects.toMatchObject({ code: 'issuer-mismatch' });
      expect(fixture.grants.authorization_code).toBe(exchanges);
    } finally {
      fixture.controls.wrongIss = undefined;
    }
  });

  it('gives up on a token endpoint that never answers, within the bound, storing nothing', async () => {
    const auth = authFor(createMemoryCredentialStore(), { requestTimeoutMs: 1_000 });
    const callback = await fixture.consent(await started(auth, 'ann'));
    fixture.controls.hangToken = true;
    try {
      await expect(auth.finish(callback.searchParams, 'ann')).rejects.toMatchObject({ code: 'timeout' });
    } finally {
      fixture.controls.hangToken = false;
    }
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
  });

  it("refuses metadata pointing at an authorization server whose metadata claims another server's issuer", async () => {
    const auth = authFor(createMemoryCredentialStore(), { url: await fixture.rogue('issuer') });
    await expect(auth.begin('notes', 'ann')).rejects.toThrow(/issuer/i);
  });

  it('refuses protected resource metadata that names another resource', async () => {
    const auth = authFor(createMemoryCredentialStore(), { url: await fixture.rogue('resource') });
    await expect(auth.begin('notes', 'ann')).rejects.toThrow(/does not match/);
  });

  it('disconnecting revokes the refresh and access tokens at the authorization server and deletes them', async () => {
    const auth = authFor();
    await auth.finish((await fixture.consent(await started(auth, 'ann'))).searchParams, 'ann');
    const record = await auth.record('notes', 'ann');
    expect(await auth.disconnect('notes', 'ann')).toEqual({ revoked: true });
    expect(fixture.revoked).toEqual(expect.arrayContaining([record?.tokens.refresh_token, record?.tokens.access_token]));
    expect(await auth.state('notes', 'ann')).toBe('needs-sign-in');
  });
});
