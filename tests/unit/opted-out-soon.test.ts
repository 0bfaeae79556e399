import { afterEach, describe, expect, it, vi } from 'vitest';
import { optedOutSoon } from '../../blocks/chrome/thirdParties';

/** The browser's privacy signals: GPC, the Cookie Store API (or none, or one that fails), document.cookie (its reads counted). */
function browser(opts: { gpc?: boolean; store?: 'none' | 'fails' | string | null; cookie?: string }) {
  let cookieReads = 0;
  vi.stubGlobal('navigator', { globalPrivacyControl: opts.gpc });
  vi.stubGlobal('document', {
    get cookie() {
      cookieReads++;
      return opts.cookie ?? '';
    },
  });
  const store =
    opts.store === 'none' || opts.store === undefined
      ? undefined
      : {
          get: async (name: string) => {
            expect(name).toBe('privacy_opt_out');
            if (opts.store === 'fails') throw new Error('blocked');
            return opts.store === null ? null : { name, value: opts.store };
          },
        };
  vi.stubGlobal('window', { cookieStore: store });
  return { cookieReads: () => cookieReads };
}

describe('optedOutSoon: the opt-out read without blocking on document.cookie', () => {
  afterEach(() => vi.unstubAllGlobals());

  const cases: { name: string; gpc?: boolean; store?: 'none' | 'fails' | string | null; cookie?: string; out: boolean; cookieRead: boolean }[] = [
    { name: 'opt-out cookie, from the cookie store', store: '1', out: true, cookieRead: false },
    { name: 'no cookie in the cookie store', store: null, cookie: 'privacy_opt_out=1', out: false, cookieRead: false },
    { name: 'an opted-back-in cookie (0)', store: '0', out: false, cookieRead: false },
    { name: 'Global Privacy Control, whatever the cookie', gpc: true, store: null, out: true, cookieRead: false },
    { name: 'no cookie store: document.cookie decides (out)', store: 'none', cookie: 'a=b; privacy_opt_out=1', out: true, cookieRead: true },
    { name: 'no cookie store: document.cookie decides (in)', store: 'none', cookie: 'a=b', out: false, cookieRead: true },
    { name: 'a cookie store that fails: document.cookie decides', store: 'fails', cookie: 'privacy_opt_out=1', out: true, cookieRead: true },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const b = browser(c);
      expect(await optedOutSoon()).toBe(c.out);
      expect(b.cookieReads() > 0).toBe(c.cookieRead);
    });
  }
});
