import { useState } from 'react';

/** A long list cut to a page, with the means to show more. */
export interface CappedList<T> {
  readonly items: readonly T[];
  readonly hidden: number;
  readonly more: () => void;
}

/** Keeps long lists responsive: shows `page` items, then one more page per click. */
export function useCappedList<T>(items: readonly T[], page: number): CappedList<T> {
  const [limit, setLimit] = useState(page);
  return { items: items.slice(0, limit), hidden: Math.max(0, items.length - limit), more: () => setLimit((value) => value + page) };
}

/** The "show more" button of a capped list. */
export function ShowMore<T>({ list }: { list: CappedList<T> }) {
  if (list.hidden === 0) return null;
  return (
    <button type="button" className="cw-button" onClick={list.more}>
      {`Show more (${list.hidden} hidden)`}
    </button>
  );
}
