/**
 * The studio's paths on the console host: its pages map onto pages/_console/studio/… and its JSON
 * API passes through; the same paths on a brand host are refused like every console path.
 */
import { describe, expect, it } from 'vitest';
import { consoleUrl, isConsolePath } from '../../engine/frontDoor/consolePath';

describe('studio paths on the console host', () => {
  it.each([
    ['/studio', '/_console/studio'],
    ['/studio/new', '/_console/studio/new'],
    ['/studio/ipaydayloans', '/_console/studio/ipaydayloans'],
    ['/studio/ipaydayloans/history', '/_console/studio/ipaydayloans/history'],
    ['/api/console/studio/brands', '/api/console/studio/brands'],
    ['/api/console/studio/brands/ipaydayloans', '/api/console/studio/brands/ipaydayloans'],
    ['/api/console/studio/brands/ipaydayloans/draft', '/api/console/studio/brands/ipaydayloans/draft'],
    ['/api/console/studio/brands/ipaydayloans/revisions/12', '/api/console/studio/brands/ipaydayloans/revisions/12'],
    ['/api/console/studio/check', '/api/console/studio/check'],
    ['/api/brand-logo/0123456789abcdef0123456789abcdef.svg', '/api/brand-logo/0123456789abcdef0123456789abcdef.svg'],
  ])('%s → %s', (path, url) => expect(consoleUrl(path, '')).toBe(url));

  it.each([
    '/studio/IPAYDAY',
    '/studio/a/b',
    '/studio/ipaydayloans/history/x',
    '/api/console/studio/brands/../x',
    '/api/console/studio/a/b/c/d/e',
    '/studio/%2e%2e',
  ])('%s is not a console path (404)', (path) => expect(consoleUrl(path, '')).toBeUndefined());

  it('is refused on brand hosts', () => {
    expect(isConsolePath('/api/console/studio/brands')).toBe(true);
    expect(isConsolePath('/_console/studio/ipaydayloans')).toBe(true);
  });
});
