/**
 * Debian's nginx running the SHIPPED deploy/nginx.conf: the file is read as it is and only its
 * ${…} placeholders are filled (renderNginxConf — the same names the nginx image's template
 * step fills in compose.yaml); a small main file around it gives nginx a temp prefix, as the
 * image's own /etc/nginx/nginx.conf does in production.
 *
 *   const nginx = await startNginx({ port, upstreams: [portA, portB] });
 *   await nginx.stop();
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPortFree } from './ports';

export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
export const SHIPPED_NGINX_CONF = join(process.cwd(), 'deploy/nginx.conf');
export const NGINX_PLACEHOLDERS = ['NGINX_PORT', 'APP_UPSTREAM_1', 'APP_UPSTREAM_2', 'NGINX_CACHE_DIR'] as const;
type Vars = Record<(typeof NGINX_PLACEHOLDERS)[number], string>;

/** envsubst on exactly the placeholder names; any other ${…} left in the file is an error. */
export function renderNginxConf(vars: Vars, text = readFileSync(SHIPPED_NGINX_CONF, 'utf8')): string {
  let out = text;
  for (const name of NGINX_PLACEHOLDERS) out = out.split('${' + name + '}').join(vars[name]);
  const left = /\$\{[A-Za-z_]+\}/.exec(out.replace(/^\s*#.*$/gm, ''));
  if (left) throw new Error(`deploy/nginx.conf: placeholder ${left[0]} has no value`);
  return out;
}

/** Writes a runnable configuration under `dir`: main file + the rendered shipped file. Returns the main file's path. */
export function writeNginxFiles(dir: string, vars: Omit<Vars, 'NGINX_CACHE_DIR'>, extraHttp = ''): string {
  const site = renderNginxConf({ ...vars, NGINX_CACHE_DIR: join(dir, 'cache') });
  writeFileSync(join(dir, 'loansites.conf'), site);
  const main = join(dir, 'nginx.conf');
  writeFileSync(
    main,
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `error_log ${join(dir, 'error.log')} warn;`,
      `pid ${join(dir, 'nginx.pid')};`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${join(dir, 'body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      `  include ${join(dir, 'loansites.conf')};`,
      extraHttp,
      '}',
      '',
    ].join('\n'),
  );
  return main;
}

/** `nginx -t` on a configuration; throws with nginx's own words when it is refused. */
export function nginxTest(dir: string, main: string): string {
  try {
    return execFileSync(NGINX, ['-t', '-p', dir, '-c', main], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`nginx -t failed: ${(err as { stderr?: string }).stderr ?? err}`);
  }
}

export interface RunningNginx {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** extraHttp: more http-level configuration beside the shipped file (the benchmark's static-file server). */
export async function startNginx(opts: { port: number; upstreams: [number, number]; extraHttp?: string }): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX}). Install it with: bash scripts/ensure-services.sh (apt-get install nginx).`);
  if (!(await isPortFree(opts.port)))
    throw new Error(`port ${opts.port} is taken by another process: give this nginx a port of its own (tests/support/ports.ts freePort)`);
  const dir = mkdtempSync(join(tmpdir(), 'loansites-nginx-'));
  chmodSync(dir, 0o755);
  const main = writeNginxFiles(
    dir,
    { NGINX_PORT: `127.0.0.1:${opts.port}`, APP_UPSTREAM_1: `127.0.0.1:${opts.upstreams[0]}`, APP_UPSTREAM_2: `127.0.0.1:${opts.upstreams[1]}` },
    opts.extraHttp,
  );
  nginxTest(dir, main);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', main, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`nginx exited: ${stderr}`);
    try {
      await fetch(`${url}/`, { method: 'HEAD', signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (i > 100) throw new Error(`nginx did not answer on ${opts.port}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port: opts.port,
    dir,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
