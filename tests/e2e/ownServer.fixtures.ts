/**
 * A production server of a spec's own (tests/support/instances.ts), for specs that need buyers or
 * brands the shared e2e server does not have: its SQLite store in a temp folder, the given stand-in
 * buyers as its only buyer documents (each with its secret in the environment), any further
 * settings, and the store opened for the spec to read. stop() ends it all and removes the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../engine/store/db';
import { startInstance, type Instance } from '../support/instances';
import type { StandInBuyer } from '../support/standInBuyer';

export interface OwnServer {
  server: Instance;
  db: Store;
  dbFile: string;
  stop(): Promise<void>;
}

export async function startOwnServer(
  port: number,
  opts: { secret: string; buyers: { buyer: StandInBuyer; document?: Record<string, unknown> }[]; env?: Record<string, string> },
): Promise<OwnServer> {
  const dir = mkdtempSync(join(tmpdir(), 'loansites-own-server-'));
  const dbFile = join(dir, 'store.sqlite');
  mkdirSync(join(dir, 'buyers'));
  const secrets: Record<string, string> = {};
  for (const { buyer, document } of opts.buyers) {
    const doc = buyer.document({ acceptsTestLeads: true, acceptsDuplicates: true, ...document });
    writeFileSync(join(dir, 'buyers', `${buyer.id}.json`), JSON.stringify(doc));
    secrets[String(doc.secretEnv)] = opts.secret;
  }
  const server = await startInstance(port, {
    LOANSITES_DB_FILE: dbFile,
    DATABASE_URL: '',
    LOANSITES_BUYERS_DIR: join(dir, 'buyers'),
    LEAD_DESTINATIONS: '',
    RATE_LIMIT_LEADS: '1000',
    ...secrets,
    ...opts.env,
  });
  const db = openStore({ url: '', file: dbFile });
  return {
    server,
    db,
    dbFile,
    async stop() {
      await db.destroy();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
