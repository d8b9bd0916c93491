/** The open thread is named in the address (`?thread=<id>`), so a reload, a bookmark or a second tab open it again. */
const PARAM = 'thread';

/** Thread ids this page makes and accepts; anything else in the address is ignored. */
const THREAD_ID = /^[\w-]{1,64}$/;

/** The thread the address names, if it names a valid one. */
export function threadInAddress(): string | undefined {
  const id = new URLSearchParams(window.location.search).get(PARAM);
  return id !== null && THREAD_ID.test(id) ? id : undefined;
}

/** The page's address with `id` as its thread (`undefined`: without one). */
export function threadAddress(id: string | undefined): string {
  const url = new URL(window.location.href);
  if (id === undefined) url.searchParams.delete(PARAM);
  else url.searchParams.set(PARAM, id);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Puts the thread in the address, or takes it out, without a new history entry. */
export function showInAddress(id: string | undefined): void {
  if (threadInAddress() !== id) window.history.replaceState(window.history.state, '', threadAddress(id));
}
