import { describe, expect, it } from 'vitest';
import { mayRunLazyCall } from '@chatwire/core/shared';

// The lazy gate, asked by the server's loop (model calls, approved calls, apps' calls) and by the
// browser (a lazy browser tool's call, and held calls at the end of a run): one answer for all.

describe('mayRunLazyCall: may this call run now?', () => {
  const discovered = ['getWeather'];

  it.each([
    ['an eager tool', { name: 'getTime', lazy: false }, true],
    ['an eager tool without the flag', { name: 'getTime' }, true],
    ['a lazy tool discovered in the conversation', { name: 'getWeather', lazy: true }, true],
    ['a lazy tool nobody discovered', { name: 'sendMail', lazy: true }, false],
  ])('%s', (_case, tool, expected) => {
    expect(mayRunLazyCall(tool, () => discovered)).toBe(expected);
  });

  it('lets every call run where nothing is withheld (a server that sends every tool)', () => {
    expect(mayRunLazyCall({ name: 'sendMail', lazy: true }, () => discovered, false)).toBe(true);
  });

  it('derives the discovered set only for a withheld lazy tool (deriving it walks the history)', () => {
    let derived = 0;
    const set = () => {
      derived++;
      return discovered;
    };
    mayRunLazyCall({ name: 'getTime', lazy: false }, set);
    mayRunLazyCall({ name: 'sendMail', lazy: true }, set, false);
    expect(derived).toBe(0);
    mayRunLazyCall({ name: 'sendMail', lazy: true }, set);
    expect(derived).toBe(1);
  });

  it('answers with a promise when the set is one (the server vets it with its load policy)', async () => {
    await expect(mayRunLazyCall({ name: 'getWeather', lazy: true }, () => Promise.resolve(discovered))).resolves.toBe(true);
    await expect(mayRunLazyCall({ name: 'sendMail', lazy: true }, () => Promise.resolve(discovered))).resolves.toBe(false);
  });
});
