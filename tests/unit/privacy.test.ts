import { describe, expect, it } from 'vitest';
import { browserPrivacyState, pagePathFor, privacyOptedOut } from '../../engine/browser/privacy';
import { privacyChoicePath } from '../../engine/site/privacyChoicePage';
import { optInCookie, optOutCookie } from '../../engine/browser/privacyCookie';

describe('the privacy choice', () => {
  it.each([
    [true, '', 'gpc'],
    [true, 'privacy_opt_out=1', 'gpc'],
    [false, 'privacy_opt_out=1', 'opted-out'],
    [undefined, 'a=b; privacy_opt_out=1', 'opted-out'],
    [undefined, 'privacy_opt_out=0', 'opted-in'],
    [undefined, 'xprivacy_opt_out=1', 'opted-in'],
    ['1', '', 'opted-in'],
  ])('browser: GPC %s, cookie "%s" → %s', (gpc, cookie, state) => expect(browserPrivacyState(gpc, cookie)).toBe(state));

  it('the cookies the page writes are the ones the server reads', () => {
    const value = (c: string) => c.split(';')[0]!;
    expect(privacyOptedOut({ cookie: value(optOutCookie(true)) })).toBe(true);
    expect(privacyOptedOut({ cookie: value(optInCookie(true)) })).toBe(false);
    expect(optOutCookie(true)).toMatch(/Path=\/; Max-Age=34560000; SameSite=Lax; Secure$/);
    expect(optOutCookie(false)).not.toMatch(/Secure/);
    expect(optInCookie(false)).toMatch(/Max-Age=0/);
  });

  it.each([
    ['/payday-loans?gclid=abc&source1=x', true, '/payday-loans?source1=x'],
    ['/?ttclid=t&fbclid=f&msclkid=m&gbraid=g&wbraid=w&dclid=d', true, '/'],
    ['/a?gclid=abc#top', true, '/a#top'],
    ['/payday-loans?gclid=abc&source1=x', false, '/payday-loans?gclid=abc&source1=x'],
    ['/plain', true, '/plain'],
  ])('page path for third parties: %s (opted out %s) → %s', (url, out, path) => expect(pagePathFor(url, out)).toBe(path));

  it('the privacy-choice page is the first route without parameters whose layout has the block', () => {
    const layouts: Record<string, { blocks: { type: string }[] }> = {
      dns: { blocks: [{ type: 'hero' }, { type: 'privacyChoice' }] },
      plain: { blocks: [{ type: 'hero' }] },
    };
    const of = (name: string) => layouts[name] as never;
    expect(
      privacyChoicePath(
        {
          routes: [
            { path: '/', layout: 'plain' },
            { path: '/{state}', layout: 'dns' },
            { path: '/do-not-sell-or-share', layout: 'dns' },
          ],
        },
        of,
      ),
    ).toBe('/do-not-sell-or-share');
    expect(privacyChoicePath({ routes: [{ path: '/', layout: 'plain' }] }, of)).toBeUndefined();
  });
});
