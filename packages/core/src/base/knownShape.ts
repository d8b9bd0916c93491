/**
 * Copies written out instead of spread, for the objects the streaming path replaces on every delta
 * (the streaming text part, its message, a streaming tool call, the chat state). On Node 20's V8,
 * `{ ...object, key: value }` costs some 20 times an object literal that names its keys, as much as
 * the rest of a delta. A literal is only right for an object that has no key it does not name, so
 * each kind of object has its known keys: an object is checked once (an enumeration of its keys),
 * and the copy made from it is known at once.
 */
export class KnownShape {
  readonly #keys: ReadonlySet<string>;
  /** The object last checked or made: a delta's copy is the next delta's input. */
  #last: object | undefined;

  constructor(keys: readonly string[]) {
    this.#keys = new Set(keys);
  }

  /** Whether every enumerable key of `value` is a known key (so a literal naming them copies it whole). */
  fits(value: object): boolean {
    if (value === this.#last) return true;
    for (const key in value) if (!this.#keys.has(key)) return false;
    this.#last = value;
    return true;
  }

  /** Whether `value` has exactly the known keys, every one of them (so a literal naming them all copies it as it is). */
  isExactly(value: object): boolean {
    if (value === this.#last) return true;
    let count = 0;
    for (const key in value) {
      if (!this.#keys.has(key)) return false;
      count++;
    }
    if (count !== this.#keys.size) return false;
    this.#last = value;
    return true;
  }

  /** Marks `value`, a copy made with known keys only, as fitting; returns it. */
  made<T extends object>(value: T): T {
    this.#last = value;
    return value;
  }
}
