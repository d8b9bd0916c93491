/**
 * Unicode bidirectional controls: embeddings and overrides (U+202A to U+202E), isolates (U+2066 to
 * U+2069) and the marks (U+200E, U+200F, U+061C). In a label they reorder what follows, so
 * `invoice\u202Efdp.exe` shows as `invoiceexe.pdf`.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A user-supplied label (a file name, ...) with its bidi controls removed, so it shows in its real
 * order wherever it is shown or echoed (the page, a model's reply, an error message).
 */
export const neutralizeBidi = (label: string): string => label.replace(BIDI_CONTROLS, '');
