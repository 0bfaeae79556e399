/**
 * Form traces at rest: POST /api/trace (the real route, over a real SQLite file) stores the
 * trace sealed, so the database file — read byte by byte, write-ahead log included — holds no
 * date of birth or income in plain text; `npm run traces -- --forms` opens it on demand.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encryptFormTrace } from '../../engine/browser/formTrace/encryptBrowser';
import type { FormTrace } from '../../engine/browser/formTrace/format';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const KEY = 'e'.repeat(64);
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
let server: TraceServer;
beforeAll(async () => {
  server = await startTraceServer({ LEADS_ENCRYPTION_KEY: KEY, FORM_TRACE_PRIVATE_KEY: keys.privateKey, RATE_LIMIT_FORM_TRACE: '50' }, '/api/trace');
}, 60_000);
afterAll(() => server?.close());

const DOB = '1987-06-05';
const trace: FormTrace = {
  clientId: '1234567890.1712345678',
  type: 'general',
  request: {
    url: 'https://ipaydayloans.com/api/leads',
    search: {},
    body: { firstName: 'Zoë', dateOfBirth: DOB, monthlyIncome: 4321, email: 'zoe.at.rest@example.org' },
  },
  response: { status: 201, body: { id: 'ld_x', status: 'received' } },
};

it('no plaintext date of birth or income in the database file; npm run traces -- --forms opens the trace', async () => {
  const envelope = await encryptFormTrace(trace, keys.publicKey);
  const res = await post(server.port, JSON.stringify(envelope), { path: '/api/trace' });
  expect(res.status).toBe(201);

  const bytes = Buffer.concat([server.dbFile, `${server.dbFile}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  expect(bytes.length).toBeGreaterThan(0);
  for (const plain of [DOB, '"monthlyIncome":4321', 'zoe.at.rest@example.org']) expect(bytes.includes(Buffer.from(plain))).toBe(false);

  const out = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/traces.ts', '--forms', '--since', '1h', '--json'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, LOANSITES_DB_FILE: server.dbFile, DATABASE_URL: '', LEADS_ENCRYPTION_KEY: KEY },
  });
  expect(out.status).toBe(0);
  const listed = JSON.parse(out.stdout) as { id: string; trace: FormTrace }[];
  expect(listed.map((t) => t.id)).toEqual([res.json.id]);
  expect(listed[0]!.trace.request.body).toMatchObject({ dateOfBirth: DOB, monthlyIncome: 4321 });
}, 90_000);
