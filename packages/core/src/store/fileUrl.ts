/** URL schemes a file part may carry; anything else (`javascript:`, ...) is refused, as the UI may render it as a link or source. */
const SAFE_SCHEME = /^(?:https?|data|blob):/i;
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** Whether a file part may carry this URL: http(s), `data:`, `blob:`, or a relative URL. */
export const isSafeFileUrl = (url: string): boolean => SAFE_SCHEME.test(url) || !HAS_SCHEME.test(url);
