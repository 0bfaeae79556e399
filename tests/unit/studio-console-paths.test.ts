/** The studio's addresses on the console host, and on no other. */
import { describe, expect, it } from 'vitest';
import { consoleUrl, isConsolePath } from '../../engine/frontDoor/consolePath';

describe("the studio's console paths", () => {
  it.each([
    ['/studio', '/_console/studio'],
    ['/studio/new', '/_console/studio/new'],
    ['/studio/acmeloans', '/_console/studio/acmeloans'],
    ['/studio/acmeloans/history', '/_console/studio/acmeloans/history'],
    ['/studio-preview/acmeloans', '/_console/studio-preview/acmeloans'],
  ])('maps %s onto its page', (path, url) => {
    expect(consoleUrl(path, '?path=/&token=x')).toBe(`${url}?path=/&token=x`);
  });

  it.each(['/studio/Acme', '/studio/acme/history/x', '/studio/acme/../../leads', '/studio-preview', '/studio-preview/acme/x', '/studios'])(
    'has no page at %s',
    (path) => {
      expect(consoleUrl(path, '')).toBeUndefined();
    },
  );

  it("serves the brands' logos, which a draft's preview shows, and no other public file", () => {
    expect(consoleUrl('/logos/acmeonline.svg', '')).toBe('/logos/acmeonline.svg');
    expect(consoleUrl('/logos/../static/ping.txt', '')).toBeUndefined();
    expect(consoleUrl('/static/ping.txt', '')).toBeUndefined();
  });

  it("keeps the preview's internal path off every brand host", () => {
    expect(isConsolePath('/_console/studio-preview/acme')).toBe(true);
    expect(consoleUrl('/api/console/studio-preview', '')).toBe('/api/console/studio-preview');
  });
});
