import { jsonError, readJsonBody } from '@chatwire/server/extension';

/**
 * A POST body that must be a JSON object, read with `@chatwire/server`'s bounded reader: a
 * `Content-Length` over `maxBytes` is refused before anything is read and a body that grows past it
 * is cancelled as it does (413), so an oversized body never sits in memory. Answers 405, 415, 400
 * or 413 as a `Response`, else the object.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown> | Response> {
  if (request.method !== 'POST') return jsonError(405, `Use POST (got ${request.method}).`, 'method-not-allowed');
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
    return jsonError(415, 'The request body must be JSON, sent with `Content-Type: application/json`.', 'unsupported-media-type');
  const read = await readJsonBody(request, maxBytes);
  if (!read.ok) return jsonError(read.status, read.error, read.code);
  const body = read.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return jsonError(400, 'The body must be a JSON object.', 'invalid-json');
  return body as Record<string, unknown>;
}
