/**
 * Two brands never hold the same host, even when two instances publish them at once: each
 * instance checks a document against the brands it serves, so a brand another instance has just
 * published with the host is checked again in the store, in the publication's own transaction.
 * Without it both publications went through, neither built, and every instance fell back to the
 * brands' files (a brand made in the studio vanished).
 */
import { describe, expect, it } from 'vitest';
import { studioRoute } from '../../engine/console/studioApi';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { brandSchedule, publishBrand, publishDueBrands, publishedBrand, refusedBrandSchedule } from '../../engine/store/brandRevisions';
import { bothStores, migratedStore } from '../support/bothStores';
import { consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';
import type { Store } from '../../engine/store/db';

const stores = bothStores('loansites-studio-hosts-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

type Who = { cookie: string; csrf: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' bodies are read as JSON
type Answer = { status: number; body: Record<string, any> };

const answers = (id: string, hosts: string) => ({
  id,
  name: 'Twin Loans',
  kind: 'general',
  hosts,
  primaryColor: '#0b5394',
  phone: '+1-800-555-0100',
  email: 'help@twin.example',
  address: '1 Main St, Austin, TX 78701',
});

/** The studio's route called as the API handler calls it; a refusal thrown as an ApiError comes back as its answer. */
const caller = (db: () => Store) => async (method: string, path: string, who: Who, body?: unknown) => {
  try {
    return (await studioRoute(db(), studioRequest(method, path, who, body), path.split('/').filter(Boolean), { announce: async () => {} })) as Answer;
  } catch (err) {
    const e = err as { status?: number; message: string };
    if (!e.status) throw err;
    return { status: e.status, body: { error: e.message } } as Answer;
  }
};

describe.each(stores.kinds('studio-host-claims.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const call = caller(db);
  let editor: Who;

  it('a publication claiming a host another instance has just published for another brand is refused, and the other stays live', async () => {
    await addUser(db(), { email: 'twins@example.com', role: 'editor', passwordHash: await hashPassword('a long passphrase 1', cheap) });
    editor = (await consoleSignIn(db(), 'twins@example.com', 'a long passphrase 1'))!;
    // both drafts are valid on their own: neither host is published yet
    expect(await call('POST', 'brands', editor, { answers: answers('twin-a', 'twin.example.com') })).toMatchObject({ status: 201 });
    expect(await call('POST', 'brands', editor, { answers: answers('twin-b', 'twin.example.com, www.twin-b.example.com') })).toMatchObject({
      status: 201,
    });
    // another instance publishes twin-a; this one has not heard of it yet (no announcement reached it)
    await publishBrand(db(), { id: 'twin-a', version: 1, author: 'other@example.com' });
    const refused = await call('POST', 'brands/twin-b/publish', editor, { version: 1 });
    expect(refused).toEqual({
      status: 409,
      body: { error: 'host "twin.example.com" was published for the brand "twin-a" meanwhile (version 1); a host can belong to one brand only' },
    });
    expect(await publishedBrand(db(), 'twin-b')).toBeUndefined();
    expect((await publishedBrand(db(), 'twin-a'))?.version).toBe(1);
  });

  it('a publication set for later whose host another brand took meanwhile is marked failed with the reason', async () => {
    const at = new Date(Date.now() + 60_000);
    expect(await call('POST', 'brands/twin-b/publish', editor, { version: 1, at: at.toISOString() })).toMatchObject({ status: 200 });
    expect(await brandSchedule(db(), 'twin-b')).toMatchObject({ version: 1, state: 'pending' });
    expect(await publishDueBrands(db(), new Date(at.getTime() + 1000))).toEqual([]);
    expect(await brandSchedule(db(), 'twin-b')).toBeUndefined();
    expect(await refusedBrandSchedule(db(), 'twin-b')).toMatchObject({ version: 1, reason: expect.stringMatching(/^host "twin\.example\.com" was published/) });
    expect(await publishedBrand(db(), 'twin-b')).toBeUndefined();
  });

  it('a draft claiming a host another draft claims is made and saved with a warning naming that draft; the first published keeps the host', async () => {
    const warning = (name: string, brand: string, version: number) =>
      `host "claimed.example.com" is also claimed by the draft of ${name} (${brand}, version ${version}), not published yet: the brand published first keeps it, and publishing the other is then refused`;
    const first = await call('POST', 'brands', editor, { answers: { ...answers('claim-a', 'claimed.example.com'), name: 'Claim A Loans' } });
    expect(first).toMatchObject({ status: 201, body: { id: 'claim-a', warnings: [] } });
    // answered in the wizard: taken, with the warning
    const hosts = 'www.claim-b.example.com, claimed.example.com';
    expect(await call('POST', 'check', editor, { question: 'hosts', value: hosts, answers: { id: 'claim-b' } })).toEqual({
      status: 200,
      body: { ok: true, warning: warning('Claim A Loans', 'claim-a', 1) },
    });
    const second = await call('POST', 'brands', editor, { answers: { ...answers('claim-b', hosts), name: 'Claim B Loans' } });
    expect(second).toMatchObject({
      status: 201,
      body: { id: 'claim-b', version: 1, warnings: [{ question: 'hosts', message: warning('Claim A Loans', 'claim-a', 1) }] },
    });
    // the other draft's editor is told too, on opening the brand and at each save, at the host
    const opened = await call('GET', 'brands/claim-a', editor);
    expect(opened.body.warnings).toEqual([{ pointer: '/hosts/0', message: warning('Claim B Loans', 'claim-b', 1) }]);
    const saved = await call('PUT', 'brands/claim-a/draft', editor, { document: opened.body.document, expectedVersion: 1 });
    expect(saved).toMatchObject({
      status: 200,
      body: { version: 2, problems: [], warnings: [{ pointer: '/hosts/0', message: warning('Claim B Loans', 'claim-b', 1) }] },
    });
    expect((await call('GET', 'brands/claim-b', editor)).body.warnings).toEqual([{ pointer: '/hosts/1', message: warning('Claim A Loans', 'claim-a', 2) }]);
    // a warning, not a refusal: the first published keeps the host, and the other is refused then
    expect(await call('POST', 'brands/claim-a/publish', editor, { version: 2 })).toMatchObject({ status: 200, body: { publishedVersion: 2 } });
    expect(await call('POST', 'brands/claim-b/publish', editor, { version: 1 })).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/^host "claimed\.example\.com" was published for the brand "claim-a" meanwhile/) },
    });
  });
});

describe.each(stores.kinds('studio-console-host.sqlite'))('%s: the console’s hosts', (_kind, options) => {
  const db = migratedStore(options);
  const call = caller(db);

  it('a brand may not take a console host, as its own or as its automatic {id}.localhost (the console answers there first)', async () => {
    await addUser(db(), { email: 'hosts@example.com', role: 'editor', passwordHash: await hashPassword('a long passphrase 1', cheap) });
    const editor = (await consoleSignIn(db(), 'hosts@example.com', 'a long passphrase 1'))!;
    expect(await call('POST', 'brands', editor, { answers: answers('console', 'console-loans.example.com') })).toEqual({
      status: 422,
      body: {
        error: 'some answers need another look',
        // said at the id, the answer that makes that host, not at the hosts the operator left as they were
        problems: [{ question: 'id', message: 'its local host "console.localhost" is the console’s; choose another id' }],
      },
    });
    // answered one at a time, the wizard says so at once
    expect(await call('POST', 'check', editor, { question: 'hosts', value: 'loans.example.com, console.localhost' })).toEqual({
      status: 200,
      body: { ok: false, message: 'host "console.localhost" is also claimed by the console; a host can belong to one brand only' },
    });
    const saved = process.env.CONSOLE_HOSTS;
    process.env.CONSOLE_HOSTS = 'ops.example.com';
    try {
      const opened = await call('GET', 'brands/cocoloan', editor);
      const doc = structuredClone(opened.body.document);
      doc.hosts.push('ops.example.com');
      const draft = await call('PUT', 'brands/cocoloan/draft', editor, { document: doc, expectedVersion: 0 });
      expect(draft.body.problems).toEqual([
        expect.objectContaining({
          pointer: `/hosts/${doc.hosts.length - 1}`,
          message: 'host "ops.example.com" is also claimed by the console; a host can belong to one brand only',
        }),
      ]);
      expect(await call('POST', 'brands/cocoloan/publish', editor, { version: draft.body.version })).toMatchObject({ status: 422 });
      expect(await publishedBrand(db(), 'cocoloan')).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.CONSOLE_HOSTS;
      else process.env.CONSOLE_HOSTS = saved;
    }
  });
});
