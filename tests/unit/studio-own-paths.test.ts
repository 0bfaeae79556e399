/**
 * A brand's logo and editorial-policy page are paths on its own site: "//host/…" (or "/\host/…",
 * which browsers read the same) starts with "/" but names another site, so the studio refuses it
 * at the field instead of publishing a logo the page's policy then blocks (an empty logo on every
 * page) and structured data pointing at "https://brand.com//host/…".
 */
import { describe, expect, it } from 'vitest';
import { studioRoute } from '../../engine/console/studioApi';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { publishedBrand } from '../../engine/store/brandRevisions';
import { bothStores, migratedStore } from '../support/bothStores';
import { consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';

const stores = bothStores('loansites-studio-own-paths-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

type Who = { cookie: string; csrf: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' bodies are read as JSON
type Answer = { status: number; body: Record<string, any> };

describe.each(stores.kinds('studio-own-paths.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const call = async (method: string, path: string, who: Who, body?: unknown) =>
    (await studioRoute(db(), studioRequest(method, path, who, body), path.split('/').filter(Boolean), { announce: async () => {} })) as Answer;

  it('refuses a logo or editorial-policy path that names another host, at its field, and will not publish it', async () => {
    await addUser(db(), { email: 'paths@example.com', role: 'editor', passwordHash: await hashPassword('a long passphrase 1', cheap) });
    const editor = (await consoleSignIn(db(), 'paths@example.com', 'a long passphrase 1'))!;
    const doc = structuredClone((await call('GET', 'brands/cocoloan', editor)).body.document);
    let version = 0;
    for (const [field, value] of [
      ['logo', '//evil.example/logo.svg'],
      ['logo', '/\\evil.example/logo.svg'],
      ['publishingPrinciples', '//evil.example/policy'],
    ] as const) {
      const changed = structuredClone(doc);
      changed.organization[field] = value;
      const saved = await call('PUT', 'brands/cocoloan/draft', editor, { document: changed, expectedVersion: version });
      version = saved.body.version;
      expect(saved.body.problems, value).toEqual([
        expect.objectContaining({
          pointer: `/organization/${field}`,
          message: expect.stringMatching(/^".*" is not valid: expected a path on this brand's own site/),
        }),
      ]);
      expect((await call('POST', 'brands/cocoloan/publish', editor, { version })).status).toBe(422);
    }
    expect(await publishedBrand(db(), 'cocoloan')).toBeUndefined();
    // the brand's own paths stay fine, an uploaded logo's among them
    const own = structuredClone(doc);
    own.organization.logo = '/api/brand-logo/0123456789abcdef0123456789abcdef.svg';
    expect((await call('PUT', 'brands/cocoloan/draft', editor, { document: own, expectedVersion: version })).body.problems).toEqual([]);
  });
});
