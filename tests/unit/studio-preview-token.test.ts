/** The draft preview's address: only the session it was made for, that brand and page, for a few minutes. */
import { describe, expect, it } from 'vitest';
import { PREVIEW_TTL_MS, previewToken, previewTokenValid, previewUrl } from '../../engine/console/studioPreview';

const session = 'session-token-of-the-editor';
const now = Date.parse('2026-11-28T12:00:00Z');

describe('the preview token', () => {
  const token = previewToken(session, 'acme', '/payday-loans', now);

  it('opens the page it was made for, in the session it was made for, until it expires', () => {
    expect(previewTokenValid(session, 'acme', '/payday-loans', token, now + 1000)).toBe(true);
    expect(previewTokenValid(session, 'acme', '/payday-loans', token, now + PREVIEW_TTL_MS + 1)).toBe(false);
  });

  it('opens nothing else: another session, brand or page, an altered or missing token', () => {
    expect(previewTokenValid('another-session', 'acme', '/payday-loans', token, now)).toBe(false);
    expect(previewTokenValid(session, 'other', '/payday-loans', token, now)).toBe(false);
    expect(previewTokenValid(session, 'acme', '/', token, now)).toBe(false);
    expect(
      previewTokenValid(
        session,
        'acme',
        '/payday-loans',
        token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        now,
      ),
    ).toBe(false);
    expect(previewTokenValid(session, 'acme', '/payday-loans', undefined, now)).toBe(false);
    expect(previewTokenValid('', 'acme', '/payday-loans', token, now)).toBe(false);
  });

  it('cannot be stretched: an expiry written further ahead than a token lives is refused', () => {
    const later = previewToken(session, 'acme', '/payday-loans', now + 60 * 60_000);
    expect(previewTokenValid(session, 'acme', '/payday-loans', later, now)).toBe(false);
  });

  it('rides in the preview address with its page', () => {
    const url = new URL(previewUrl(session, 'acme', '/payday-loans', now), 'http://console.localhost');
    expect(url.pathname).toBe('/studio-preview/acme');
    expect(previewTokenValid(session, 'acme', url.searchParams.get('path')!, url.searchParams.get('token'), now)).toBe(true);
  });
});
