/**
 * The origin a URL given out for a request's site starts with (a consent certificate's page, in the
 * post to a buyer): a brand's public host is https on the default port, whatever the request came
 * with; a local host keeps the scheme and port it was reached on, read only from the headers the
 * front door routes by (X-Forwarded-* only when a trusted proxy sets them).
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { originOfRequest } from '../../engine/http/api';

const saved = process.env.TRUST_FORWARDED_HOST;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUST_FORWARDED_HOST;
  else process.env.TRUST_FORWARDED_HOST = saved;
});

const request = (headers: Record<string, string>, encrypted = false) => ({ headers, socket: encrypted ? { encrypted } : {} }) as unknown as IncomingMessage;

describe('the origin of the site a request reached', () => {
  it.each([
    ['a *.localhost host keeps its port and http', { host: 'ipaydayloans.localhost:3000' }, 'http://ipaydayloans.localhost:3000'],
    ['localhost with no port', { host: 'localhost' }, 'http://localhost'],
    ['a loopback address', { host: '127.0.0.1:3830' }, 'http://127.0.0.1:3830'],
    ['an IPv6 loopback address', { host: '[::1]:3830' }, 'http://[::1]:3830'],
    ["http's own port is left out", { host: 'ipaydayloans.localhost:80' }, 'http://ipaydayloans.localhost'],
    ['a public host is https with no port, whatever the request came with', { host: 'ipaydayloans.com:3000' }, 'https://ipaydayloans.com'],
    ["a brand's dev. host is public too", { host: 'dev.ipaydayloans.com:3000' }, 'https://dev.ipaydayloans.com'],
    [
      "a client's X-Forwarded-Host and X-Forwarded-Proto are not read without a trusted proxy",
      { host: 'ipaydayloans.localhost:3000', 'x-forwarded-host': 'ipaydayloans.localhost:9999', 'x-forwarded-proto': 'https' },
      'http://ipaydayloans.localhost:3000',
    ],
  ])('%s', (_, headers, origin) => {
    delete process.env.TRUST_FORWARDED_HOST;
    expect(originOfRequest(request(headers))).toBe(origin);
  });

  it('takes the scheme of a TLS connection', () => {
    delete process.env.TRUST_FORWARDED_HOST;
    expect(originOfRequest(request({ host: 'ipaydayloans.localhost:8443' }, true))).toBe('https://ipaydayloans.localhost:8443');
  });

  it.each([
    [
      'the host and port of a trusted proxy’s X-Forwarded-Host, with its scheme',
      { host: '127.0.0.1:3000', 'x-forwarded-host': 'ipaydayloans.localhost:8443', 'x-forwarded-proto': 'https' },
      'https://ipaydayloans.localhost:8443',
    ],
    [
      "https's own port is left out",
      { host: '127.0.0.1:3000', 'x-forwarded-host': 'ipaydayloans.localhost', 'x-forwarded-proto': 'https' },
      'https://ipaydayloans.localhost',
    ],
    [
      'a scheme that is neither http nor https is not taken',
      { host: 'ipaydayloans.localhost:3000', 'x-forwarded-proto': 'javascript' },
      'http://ipaydayloans.localhost:3000',
    ],
    [
      'a public host stays https with no port',
      { host: '127.0.0.1:3000', 'x-forwarded-host': 'ipaydayloans.com:8080', 'x-forwarded-proto': 'http' },
      'https://ipaydayloans.com',
    ],
  ])('behind a trusted proxy: %s', (_, headers, origin) => {
    process.env.TRUST_FORWARDED_HOST = '1';
    expect(originOfRequest(request(headers))).toBe(origin);
  });
});
