/**
 * A real PostgreSQL 15 for one test file: initdb into a temp dir, started by pg_ctl on a free
 * port (unix socket in the same dir), trust auth for the loopback only, fsync off. Run as the
 * postgres user when the tests run as root (initdb refuses root). Nothing is skipped: when
 * PostgreSQL is not installed the test fails and says how to install it.
 *
 *   const pg = await startPostgres();   // in beforeAll
 *   openStore({ url: pg.url })
 *   await pg.stop();                     // in afterAll
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:{port}/{database} */
  url: string;
  port: number;
  /** a URL for another, new database on the same server */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * The folder of a fresh cluster (initdb -U postgres, trust, UTF8, C locale), made once per
 * PostgreSQL build in the system's temp folder and copied by every start: a copy is the same
 * cluster initdb would make, in a third of the time. Two processes making it at once each make
 * their own and the first rename wins; the other's is removed.
 */
function clusterTemplate(run: (bin: string, args: string[]) => string): string {
  const stamp = Math.trunc(statSync(join(PG_BIN, 'initdb')).mtimeMs).toString(36);
  const template = join(tmpdir(), `loansites-pg-template-${stamp}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const building = mkdtempSync(join(tmpdir(), 'loansites-pg-template-building-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(building, uid, gid);
  }
  run('initdb', ['-D', join(building, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  try {
    renameSync(join(building, 'data'), template);
  } catch {
    // another process renamed its own first: the same cluster
  }
  rmSync(building, { recursive: true, force: true });
  return template;
}

/**
 * `port`: listen there (a bench given its ports) instead of on a free one picked at random.
 * `keep`: the server's folder, created on the first start and kept after stop (a bench's large
 * data loaded once), instead of a temp folder removed on stop.
 */
export async function startPostgres(opts: { port?: number; keep?: string } = {}): Promise<RunningPostgres> {
  const initdb = join(PG_BIN, 'initdb');
  if (!existsSync(initdb)) {
    throw new Error(`PostgreSQL 15 is not installed (${initdb} is missing). Install it with: bash scripts/ensure-services.sh (apt-get install postgresql).`);
  }
  const asRoot = process.getuid?.() === 0;
  const dir = opts.keep ?? mkdtempSync(join(tmpdir(), 'loansites-pg-'));
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const run = (bin: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args]] : [join(PG_BIN, bin), args];
    try {
      return execFileSync(cmd, argv, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${bin} failed: ${e.stderr || e.stdout || e.message}`);
    }
  };
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    // A copy of a cluster initdb made once on this machine: initdb costs a second or more of CPU
    // (it builds the template databases), and some eighty test files start a server each.
    const template = clusterTemplate(run);
    execFileSync('cp', ['-a', template, data], { timeout: 60_000 });
  }
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = opts.port ?? (await freePort());
    try {
      run('pg_ctl', [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`,
        'start',
      ]);
      break;
    } catch (err) {
      if (attempt >= 2 || opts.port) throw err; // a port taken between the probe and the start: try another
    }
  }
  const base = `postgres://postgres@127.0.0.1:${port}`;
  let stopped = false;
  return {
    url: `${base}/postgres`,
    port,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]{0,40}$/.test(name)) throw new Error(`bad database name ${name}`);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `${base}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', opts.keep ? 'fast' : 'immediate', '-w', 'stop']);
      } finally {
        if (!opts.keep) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
