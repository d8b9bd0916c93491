/** What {@link endOfTurn} resolves with. */
export const END_OF_TURN = Symbol('end of turn');
/** Resolves with {@link END_OF_TURN} on the next turn of the event loop (after pending I/O). */
export const endOfTurn = (): Promise<typeof END_OF_TURN> => new Promise((resolve) => setImmediate(resolve, END_OF_TURN));
