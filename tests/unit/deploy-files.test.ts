/**
 * deploy/ as far as it can be checked without Docker: the shipped nginx.conf accepted by
 * Debian's nginx (`nginx -t`) with its placeholders filled as compose fills them, the compose
 * file's services, health checks, volumes and settings, and the Dockerfile's stages and the
 * files it copies. (tests/e2e/deploy.spec.ts runs nginx.conf and redis.conf for real.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NGINX_PLACEHOLDERS, nginxTest, renderNginxConf, SHIPPED_NGINX_CONF, writeNginxFiles } from '../support/nginx';

const root = process.cwd();
const text = (p: string) => readFileSync(join(root, p), 'utf8');
type Service = {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  command?: string[];
};
const compose = parse(text('deploy/compose.yaml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };

describe('deploy/nginx.conf', () => {
  it('has exactly the placeholders compose fills, and nginx -t accepts it filled', () => {
    const found = new Set([...text('deploy/nginx.conf').matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]));
    expect([...found].sort()).toEqual([...NGINX_PLACEHOLDERS].sort());
    expect(Object.keys(compose.services.nginx!.environment!).sort()).toEqual([...NGINX_PLACEHOLDERS].sort());
    const dir = mkdtempSync(join(tmpdir(), 'loansites-nginx-t-'));
    try {
      const main = writeNginxFiles(dir, { NGINX_PORT: '127.0.0.1:3498', APP_UPSTREAM_1: '127.0.0.1:3496', APP_UPSTREAM_2: '127.0.0.1:3497' });
      expect(nginxTest(dir, main)).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what the issue asks of it', () => {
    const conf = renderNginxConf(
      { NGINX_PORT: '8080', APP_UPSTREAM_1: 'app1:3000', APP_UPSTREAM_2: 'app2:3000', NGINX_CACHE_DIR: '/c' },
      readFileSync(SHIPPED_NGINX_CONF, 'utf8'),
    );
    const directives = conf.replace(/#.*$/gm, '');
    for (const d of [
      /gzip on;/,
      /proxy_cache_key \$host\$request_uri;/,
      /proxy_cache_use_stale error timeout/,
      /proxy_next_upstream error timeout/,
      /client_header_timeout \d+s;/,
      /client_body_timeout \d+s;/,
      /client_max_body_size 32k;/,
      /TRACE\s+1;/,
      /proxy_set_header X-Forwarded-For \$remote_addr;/,
      // the host nginx routed by, with the client's port (tests/unit/given-out-urls.test.ts opens what it gives out)
      /proxy_set_header X-Forwarded-Host \$host\$loansites_client_port;/,
      /proxy_set_header X-Forwarded-Proto \$scheme;/,
      /proxy_hide_header x-nextjs-cache;/,
      /proxy_hide_header x-middleware-rewrite;/,
    ])
      expect(directives).toMatch(d);
    expect(directives).not.toMatch(/proxy_add_x_forwarded_for/);
    // an expired copy served while it is refreshed stays served when the fresh answer may not be stored
    expect(directives).not.toMatch(/proxy_cache_use_stale[^;]*updating|proxy_cache_background_update on/);
  });
});

describe('deploy/compose.yaml', () => {
  const s = compose.services;

  it('nginx → two app instances → Redis + PostgreSQL, each with a health check', () => {
    expect(Object.keys(s).sort()).toEqual(['app1', 'app2', 'nginx', 'postgres', 'redis']);
    for (const [name, svc] of Object.entries(s)) expect(svc.healthcheck?.test, name).toBeTruthy();
    expect(s.nginx!.depends_on).toEqual({ app1: { condition: 'service_healthy' }, app2: { condition: 'service_healthy' } });
    for (const app of ['app1', 'app2'])
      expect(s[app]!.depends_on).toEqual({ redis: { condition: 'service_healthy' }, postgres: { condition: 'service_healthy' } });
    expect(s.nginx!.ports).toEqual(['8080:8080']);
    expect(s.app1!.ports ?? s.redis!.ports ?? s.postgres!.ports).toBeUndefined(); // only nginx is reachable
  });

  it('the apps share Redis and PostgreSQL, believe forwarded headers (only they), and run as a deployment', () => {
    for (const app of ['app1', 'app2']) {
      const env = s[app]!.environment!;
      expect(env.REDIS_URL).toBe('redis://redis:6379/0');
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/loansites:.*@postgres:5432\/loansites$/);
      expect(env.TRUST_FORWARDED_HOST).toBe('1');
      expect(env.LOANSITES_DEPLOYMENT).toBe('production');
      expect(env.LEADS_ENCRYPTION_KEY).toMatch(/^\$\{LEADS_ENCRYPTION_KEY:\?/);
      expect(s[app]!.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    }
    for (const other of ['nginx', 'redis', 'postgres']) expect(s[other]!.environment?.TRUST_FORWARDED_HOST).toBeUndefined();
  });

  it('mounts the shipped files and keeps data in volumes', () => {
    expect(s.nginx!.volumes).toContain('./nginx.conf:/etc/nginx/templates/loansites.conf.template:ro');
    expect(s.redis!.volumes).toContain('./redis.conf:/usr/local/etc/redis/redis.conf:ro');
    expect(s.redis!.command).toEqual(['redis-server', '/usr/local/etc/redis/redis.conf']);
    expect(s.postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes).sort()).toEqual(['nginx-cache', 'postgres-data']);
    for (const v of [...s.nginx!.volumes!, ...s.redis!.volumes!])
      if (v.startsWith('./')) expect(existsSync(join(root, 'deploy', v.slice(2).split(':')[0]!)), v).toBe(true);
  });
});

describe('deploy/Dockerfile', () => {
  const docker = text('deploy/Dockerfile');
  const lines = docker
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim());

  it('two stages: npm ci from the lock and build, then a runtime as a non-root user', () => {
    expect(lines.filter((l) => l.startsWith('FROM ')).map((l) => l.split(/\s+/).slice(-1)[0])).toEqual(['build', 'runtime']);
    expect(docker).toMatch(/npm ci --no-audit --no-fund/);
    expect(docker).toMatch(/npm run build/);
    expect(docker).toMatch(/npm prune --omit=dev/);
    const runtime = lines.slice(lines.findIndex((l) => l.endsWith('AS runtime')));
    expect(runtime.find((l) => l.startsWith('USER '))).toBe('USER node');
    expect(runtime.find((l) => l.startsWith('CMD '))).toBe('CMD ["node", "server.mjs"]');
    expect(runtime.some((l) => l.startsWith('HEALTHCHECK '))).toBe(true);
  });

  it('copies only what node server.mjs reads, and every such file exists (or is built)', () => {
    const built = new Set(['.next', 'node_modules', 'data/generated']);
    const copied = lines
      .filter((l) => l.startsWith('COPY --from=build'))
      .flatMap((l) =>
        l
          .split(/\s+/)
          .slice(2, -1)
          .filter((a) => !a.startsWith('--')),
      )
      .map((p) => p.replace(/^\/app\//, ''));
    expect(copied.sort()).toEqual([
      '.next',
      'brands',
      'content',
      'data/generated',
      'engine',
      'next.config.ts',
      'node_modules',
      'package.json',
      'public',
      'schemas',
      'scripts/check-node.cjs',
      'server.mjs',
      'tsconfig.json',
    ]);
    for (const p of copied) if (!built.has(p)) expect(existsSync(join(root, p)), p).toBe(true);
    // Every module loaded unbundled at run time — server.mjs and the cache handler, and what they
    // import relatively, transitively — is inside what is copied (the image would not start otherwise).
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const m of text(file).matchAll(/^import\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm)) visit(join(dirname(file), m[1]!));
    };
    visit('server.mjs');
    visit('engine/cache/redisPageCache.mjs');
    visit('engine/cache/boundedPageCache.mjs');
    // next.config.ts is loaded at start too (TypeScript, so only its own relative imports are
    // followed here; the folders they live in are copied whole).
    for (const m of text('next.config.ts').matchAll(/^import\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm)) reached.add(join(m[1]!));
    expect(reached.size).toBeGreaterThan(5);
    for (const file of reached)
      expect(
        copied.some((c) => file === c || file.startsWith(`${c}/`)),
        `${file} is not copied into the image`,
      ).toBe(true);
    // next.config.ts names the cache handler inside what is copied.
    expect(text('next.config.ts')).toContain("'engine/cache/redisPageCache.mjs'");
    // The front door server.mjs loads is built into .next, which is copied.
    expect(text('server.mjs')).toContain("'.next', 'front-door.mjs'");
    expect(text('package.json')).toContain('tsx scripts/build-front-door.ts');
    expect(existsSync(join(root, 'engine/cache/redisPageCache.mjs'))).toBe(true);
  });

  it('.dockerignore keeps local installs, builds and secrets out of the context', () => {
    const ignored = text('.dockerignore').split('\n');
    for (const p of ['node_modules', '.next', 'data/keys', '.git']) expect(ignored).toContain(p);
  });
});
