import { describe, expect, it } from 'vitest';
import { checkFileUrl, fromWireMessages, isSafeFileUrl, neutralizeBidi } from '@chatwire/core/wire';

/** URLs a browser reads as `javascript:`: the WHATWG parser strips leading C0 controls and spaces, and tabs and newlines anywhere. */
const BYPASSES = [
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '\x01javascript:alert(1)',
  '\r\njavascript:alert(1)',
  'jav\nascript:alert(1)',
  '\x00javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
];

describe('file URLs, checked as the WHATWG URL parser reads them', () => {
  it('refuses each URL a browser reads as javascript:, naming the scheme it reads', () => {
    for (const url of BYPASSES) {
      expect(isSafeFileUrl(url), JSON.stringify(url)).toBe(false);
      expect(checkFileUrl(url, { blob: true, relative: true }), JSON.stringify(url)).toMatchObject({ ok: false, scheme: 'javascript:' });
    }
  });

  it('allows http(s), data: of media and text types, blob: and relative URLs on the client; not data: of HTML, nor other schemes', () => {
    for (const url of [
      'https://example.com/a.png',
      'HTTP://example.com/a',
      'data:image/png;base64,AAAA',
      'data:application/pdf;base64,AAAA',
      'blob:https://app.example/1234',
      '/uploads/a.pdf',
      'a.png',
    ]) {
      expect(isSafeFileUrl(url), url).toBe(true);
    }
    for (const url of [
      'data:text/html;base64,PHNjcmlwdD4=',
      ' data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
      'ftp://example.com/a',
    ]) {
      expect(isSafeFileUrl(url), url).toBe(false);
    }
  });

  it('takes a policy: no blob: or relative URLs by default, the data: types given, and the app’s upload URLs', () => {
    expect(checkFileUrl('blob:https://a/1').ok).toBe(false);
    expect(checkFileUrl('/uploads/a.png').ok).toBe(false);
    expect(checkFileUrl('/uploads/a.png', { uploadUrls: ['/uploads/'] })).toEqual({ ok: true, kind: 'upload' });
    expect(checkFileUrl('s3://bucket/uploads/a.png', { uploadUrls: ['s3://bucket/uploads/'] })).toEqual({ ok: true, kind: 'upload' });
    expect(checkFileUrl('data:image/png;base64,AAAA', { dataTypes: [] }).ok).toBe(false);
    expect(checkFileUrl('data:text/html;base64,AAAA', { dataTypes: ['*'] }).ok).toBe(true);
    expect(checkFileUrl('data:image/png;base64,AAAA', { dataTypes: ['image/*'] }).ok).toBe(true);
    expect(checkFileUrl('data:imagex/png;base64,AAAA', { dataTypes: ['image/*'] }).ok).toBe(false);
  });

  it('a ChatClient never shows a file part a server or a saved conversation sent with such a URL', () => {
    const back = fromWireMessages(
      [
        {
          id: 'u1',
          role: 'user',
          content: [
            ...BYPASSES.map((value) => ({ type: 'document' as const, source: { type: 'url' as const, value, mimeType: 'text/plain' } })),
            { type: 'document', source: { type: 'data', value: 'PHNjcmlwdD4=', mimeType: 'text/html' } },
            {
              type: 'image',
              source: { type: 'url', value: 'https://example.com/a.png', mimeType: 'image/png' },
              metadata: { filename: 'a\u202Egnp.exe' },
            },
          ],
        },
      ],
      0,
    );
    expect(back[0]!.parts).toEqual([{ type: 'file', mimeType: 'image/png', url: 'https://example.com/a.png', filename: 'agnp.exe' }]);
  });
});

describe('bidi controls in labels', () => {
  it('are removed, so a label shows in its real order', () => {
    expect(neutralizeBidi('invoice_\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(neutralizeBidi('\u2066a\u2069\u200Eb\u200F\u061Cc\u202A\u202B\u202C\u202D')).toBe('abc');
    expect(neutralizeBidi('plain name.png')).toBe('plain name.png');
  });
});
