import { describe, expect, it } from 'vitest';
import { buildHostMap, forwardedHostProblem, hostsOfBrand, lookupBrandId, normaliseHost, requestHost } from '../../engine/site/hosts';

describe('normaliseHost', () => {
  it.each([
    ['ipaydayloans.com', 'ipaydayloans.com'],
    ['IPaydayLoans.COM', 'ipaydayloans.com'],
    ['ipaydayloans.com:3000', 'ipaydayloans.com'],
    ['ipaydayloans.com.', 'ipaydayloans.com'],
    ['ipaydayloans.com.:443', 'ipaydayloans.com'],
    ['  ipaydayloans.com  ', 'ipaydayloans.com'],
    ['ipaydayloans.localhost:3000', 'ipaydayloans.localhost'],
    ['[::1]:3000', '[::1]'],
    ['[::1]', '[::1]'],
    ['[::1', ''],
    ['[::1]x', ''],
    ['', ''],
    [null, ''],
    [undefined, ''],
    ['ipaydayloans.com:abc', ''],
    ['ipaydayloans.com:3000:1', ''],
    ['<script>alert(1)</script>', ''],
    ['ipay day.com', ''],
    ['ipaydayloans.com/evil', ''],
    ['-bad.com', ''],
    // a port out of range is not a plausible host (a URL built from it would throw)
    ['ipaydayloans.com:99999', ''],
    ['ipaydayloans.com:65536', ''],
    ['ipaydayloans.com:0', ''],
    ['ipaydayloans.com:65535', 'ipaydayloans.com'],
    ['[::1]:70000', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseHost(raw)).toBe(expected);
  });
});

describe('host map and lookup', () => {
  const map = buildHostMap([
    { id: 'ipaydayloans', hosts: ['ipaydayloans.com', 'www.ipaydayloans.com'] },
    { id: 'weloans', hosts: ['weloans.ca'] },
  ]);
  it.each([
    ['ipaydayloans.com', 'ipaydayloans'],
    ['www.ipaydayloans.com', 'ipaydayloans'],
    ['dev.ipaydayloans.com', 'ipaydayloans'],
    ['test123.ipaydayloans.com', 'ipaydayloans'],
    ['ipaydayloans.localhost', 'ipaydayloans'],
    ['weloans.ca', 'weloans'],
    ['dev.weloans.ca', 'weloans'],
    ['weloans.localhost', 'weloans'],
    ['ipaydayloans.com.evil.net', undefined],
    ['evil.ipaydayloans.com', undefined],
    ['ipaydayloans.co', undefined],
    ['localhost', undefined],
    ['', undefined],
  ])('%s → %s', (host, id) => {
    expect(lookupBrandId(map, host)).toBe(id);
  });

  it('adds dev. and test123. sub-hosts of each production host (www. dropped) and {id}.localhost', () => {
    expect(hostsOfBrand({ id: 'weloans', hosts: ['weloans.ca', 'www.weloans.ca'] })).toEqual([
      'weloans.ca',
      'dev.weloans.ca',
      'test123.weloans.ca',
      'www.weloans.ca',
      'weloans.localhost',
    ]);
  });

  it('keeps the first owner when two brands claim a host', () => {
    const clash = buildHostMap([
      { id: 'a', hosts: ['same.com'] },
      { id: 'b', hosts: ['same.com'] },
    ]);
    expect(clash.get('same.com')).toBe('a');
  });
});

describe('requestHost', () => {
  it('ignores x-forwarded-host unless told to trust it', () => {
    expect(requestHost({ host: 'weloans.ca', forwardedHost: 'ipaydayloans.com' })).toBe('weloans.ca');
    expect(requestHost({ host: 'weloans.ca', forwardedHost: 'ipaydayloans.com' }, true)).toBe('ipaydayloans.com');
  });
  it('normalises a trusted forwarded host', () => {
    expect(requestHost({ host: 'internal:8080', forwardedHost: ' WeLoans.ca.:443 ' }, true)).toBe('weloans.ca');
  });
  it('names no host for a trusted forwarded host listing several hosts, or an empty one (never the first, never Host)', () => {
    for (const forwardedHost of ['WeLoans.ca:443, proxy.local', 'weloans.ca,', ',weloans.ca', '', '  '])
      expect(requestHost({ host: 'weloans.ca', forwardedHost }, true), forwardedHost).toBe('');
    expect(forwardedHostProblem('weloans.ca, proxy.local')).toBe('The request has more than one X-Forwarded-Host value');
    expect(forwardedHostProblem(' ')).toBe('The request has an empty X-Forwarded-Host header');
    expect(forwardedHostProblem('weloans.ca')).toBeUndefined();
    // untrusted, it is not read at all
    expect(requestHost({ host: 'weloans.ca', forwardedHost: 'a.example, b.example' })).toBe('weloans.ca');
  });
  it('falls back to Host when a trusted forwarded host is missing', () => {
    expect(requestHost({ host: 'weloans.ca:3000', forwardedHost: null }, true)).toBe('weloans.ca');
  });
  it('gives empty for a missing Host header', () => {
    expect(requestHost({})).toBe('');
  });
});
