/**
 * Guest-side JavaScript a sandbox evaluates before the model's code: `console` and one async
 * `external_*` function per tool. It evaluates to a function that receives three host functions
 * and the binding names, and returns `finish(promise)`, which reports the code's outcome.
 *
 * Only strings cross the boundary:
 * - `hostCall(binding, inputJson)` returns a guest promise of a reply string: `v<json>` (a value),
 *   `u` (undefined) or `e<name>\n<message>` (an error the guest turns into its own `Error`);
 * - `hostLog(level, text)`;
 * - `hostDone(kind, a, b, c)`: kind `ok` (a: the result's JSON or undefined), `error` (a: name,
 *   b: message, c: stack) or `result` (the returned value is not JSON; b: why).
 * The host functions stay in this closure: the global object holds only `console` and the
 * bindings. Intrinsics are captured before the model's code runs, so code that replaces
 * `JSON.stringify` or `Promise.prototype.then` changes its own behaviour only.
 */
export const GUEST_PRELUDE = String.raw`(function (hostCall, hostLog, hostDone, bindingNames) {
  'use strict';
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const ErrorCtor = Error;
  const StringCtor = String;
  const then = Promise.prototype.then;
  const indexOf = String.prototype.indexOf;
  const slice = String.prototype.slice;

  const text = (value) => {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch (_) {}
    try {
      return StringCtor(value);
    } catch (_) {
      return '[unprintable value]';
    }
  };
  const named = (name, message) => {
    const error = new ErrorCtor(message);
    defineProperty(error, 'name', { value: name, writable: true, configurable: true, enumerable: false });
    return error;
  };
  const logger = (level) => function () {
    let line = '';
    for (let i = 0; i < arguments.length; i++) line += (i ? ' ' : '') + text(arguments[i]);
    hostLog(level, line);
  };
  defineProperty(G, 'console', {
    value: freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') }),
    writable: true,
    configurable: true,
    enumerable: false,
  });

  for (let i = 0; i < bindingNames.length; i++) {
    const binding = bindingNames[i];
    const fn = ({
      [binding]: async function (input) {
        let json;
        try {
          json = input === undefined ? '{}' : stringify(input);
        } catch (error) {
          throw named('TypeError', 'The input of ' + binding + ' is not JSON: ' + text(error && error.message));
        }
        if (typeof json !== 'string') throw named('TypeError', 'The input of ' + binding + ' is not JSON.');
        const reply = await hostCall(binding, json);
        if (reply === 'u') return undefined;
        if (reply[0] === 'v') return parse(apply(slice, reply, [1]));
        const newline = apply(indexOf, reply, ['\n']);
        throw named(apply(slice, reply, [1, newline]), apply(slice, reply, [newline + 1]));
      },
    })[binding];
    defineProperty(G, binding, { value: fn, writable: true, configurable: true, enumerable: false });
  }

  return function finish(promise) {
    apply(then, promise, [
      (value) => {
        let json;
        try {
          json = stringify(value);
        } catch (error) {
          hostDone('result', 'TypeError', 'The returned value is not JSON: ' + text(error && error.message), '');
          return;
        }
        hostDone('ok', typeof json === 'string' ? json : undefined, '', '');
      },
      (error) => {
        let name = 'Error';
        let message = '';
        let stack = '';
        try {
          name = error !== null && typeof error === 'object' && typeof error.name === 'string' ? error.name : 'Error';
        } catch (_) {}
        try {
          message = error !== null && typeof error === 'object' ? text(error.message) : text(error);
        } catch (_) {
          message = '[unprintable error]';
        }
        try {
          stack = error !== null && typeof error === 'object' && typeof error.stack === 'string' ? error.stack : '';
        } catch (_) {}
        hostDone('error', name, message, stack);
      },
    ]);
  };
})`;

/** Wraps a transpiled body as the guest evaluates it: one line before the body, so guest line = line - 1. */
export const wrapGuestCode = (body: string): string => `(async function () {\n${body}\n})()`;
