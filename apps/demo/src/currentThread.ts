/** The query parameter naming the open thread, so a reload, a bookmark or a second tab open the same one. */
const PARAM = 'thread';

/** Thread ids the demo makes and accepts (anything else in the address is ignored). */
const THREAD_ID = /^[\w-]{1,64}$/;

/** The thread the address names, if it names a valid one. */
export function threadInAddress(): string | undefined {
  const id = new URLSearchParams(window.location.search).get(PARAM);
  return id !== null && THREAD_ID.test(id) ? id : undefined;
}

/** The address of a thread (same page, its `?thread=`). */
export function threadAddress(id: string): string {
  const url = new URL(window.location.href);
  url.searchParams.set(PARAM, id);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Puts the open thread in the address without a new history entry. */
export function showThreadInAddress(id: string): void {
  if (threadInAddress() !== id) window.history.replaceState(window.history.state, '', threadAddress(id));
}

/** Takes the thread out of the address (a new chat the server does not have yet). */
export function showNoThreadInAddress(): void {
  if (threadInAddress() === undefined) return;
  const url = new URL(window.location.href);
  url.searchParams.delete(PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
