import { describe, expect, it } from 'vitest';
import { multipartParts } from '../../engine/console/costUpload';

const body = (parts: string[], boundary = 'XyZ') => Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`);

describe('the cost upload form as the browser posts it (multipart/form-data)', () => {
  it('gives each field and the file with its name, line breaks kept', () => {
    const parts = multipartParts(
      body([
        'Content-Disposition: form-data; name="csrf"\r\n\r\ntoken',
        'Content-Disposition: form-data; name="source"\r\n\r\ngoogle',
        'Content-Disposition: form-data; name="file"; filename="report.csv"\r\nContent-Type: text/csv\r\n\r\nDay,Campaign,Cost\r\n2026-11-01,a,1\r\n',
      ]),
      'XyZ',
    );
    expect(parts.get('csrf')!.data.toString()).toBe('token');
    expect(parts.get('source')!.data.toString()).toBe('google');
    expect(parts.get('file')).toEqual({ filename: 'report.csv', data: Buffer.from('Day,Campaign,Cost\r\n2026-11-01,a,1\r\n') });
  });

  it('keeps the first of a repeated field', () => {
    const parts = multipartParts(
      body(['Content-Disposition: form-data; name="csrf"\r\n\r\nfirst', 'Content-Disposition: form-data; name="csrf"\r\n\r\nsecond']),
      'XyZ',
    );
    expect(parts.get('csrf')!.data.toString()).toBe('first');
  });

  it.each([
    ['no boundary in the body', Buffer.from('day,campaign,cost'), 'The upload is not a multipart form'],
    ['a body cut short', Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nDay,Camp'), 'The upload is cut short; send the form again'],
  ])('refuses %s with a 400', (_what, raw, message) => {
    expect(() => multipartParts(raw, 'XyZ')).toThrow(expect.objectContaining({ status: 400, message }));
  });
});
