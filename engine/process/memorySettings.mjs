// @ts-check
/**
 * The server's memory at idle, with settings that only count when the process starts (applied by
 * the same re-execution as the young generation's bound, boundYoungGeneration.mjs):
 * - V8's gc exposed (--expose-gc), for one full collection that also shrinks the heap once the
 *   start-up work is done (releaseStartUpMemory, server.mjs). Starting (the catalog, the front
 *   door, Next, the store, the 404 rendered at start) commits the whole young generation (32 MiB
 *   with 16 MiB semi-spaces) and old-space pages full of start-up garbage, and V8 keeps them until
 *   its memory reducer runs on a quiet process many seconds later. Measured: RSS 5 s after start
 *   152 → 109 MiB, after one page of each brand 158 → 115 MiB (two interleaved runs each);
 *   nothing changes once the server renders (one collection at start, ~0.1 s);
 * - glibc's MALLOC_ARENA_MAX=2 unless the environment sets it: glibc gives each thread that
 *   allocates (V8's compiler and GC threads, libuv's pool) an arena of its own, up to 8 per core,
 *   and what one arena freed is kept for that arena alone. Measured: RSS 5 s after start −4 to
 *   −8 MiB; the sale bench's working set (scripts/bench/saleMemory.ts) −10 to −20 MB.
 * V8's --optimize-for-size would save as much at idle but keeps the young generation at 1 MiB for
 * good: the bench's cold render cost 4.55 ms of CPU a page against 1.85 without it (same machine,
 * one run after the other), so it is not used.
 */
const EXPOSE_GC = '--expose-gc';
export const ARENAS = '2';

/**
 * @param {Record<string, string | undefined>} env @param {string[]} execArgv
 * @returns {{ flags: string[], env: Record<string, string> }} what the process should start with that it has not
 */
export function memorySettingsToApply(env, execArgv) {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].includes(EXPOSE_GC);
  return {
    flags: given ? [] : [EXPOSE_GC],
    env: env.MALLOC_ARENA_MAX ? {} : { MALLOC_ARENA_MAX: ARENAS },
  };
}

/**
 * One full collection in V8's "last resort" flavour (the memory reducer's: it also shrinks the
 * young generation and releases empty pages), when gc is exposed; call once the start-up work is
 * done. Returns whether it ran.
 */
export function releaseStartUpMemory(g = /** @type {{ gc?: (options: object) => void }} */ (globalThis)) {
  if (typeof g.gc !== 'function') return false;
  g.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
