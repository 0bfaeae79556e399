// @ts-check
/**
 * The server runs with a bounded young generation. V8 sizes its semi-spaces from the machine's
 * memory (on a 24 GB machine Node 24 lets the new space grow to 128 MiB), and a burst of requests
 * (a sign-in flood, a crawler's cold renders) grows it and keeps it: after a 30 s sign-in flood
 * the bench measured +23 to +61 MiB resident with V8's sizing and +4 MiB with 16 MiB semi-spaces.
 * Smaller is not better: 2 MiB semi-spaces promote a cold render's short-lived objects and cost
 * it ~25% more CPU (0.50x Next's floor against 0.66x with 8, 16 MiB or V8's sizing, same run).
 * The flag only takes effect when the isolate is created, so a process started without it
 * replaces itself (process.execve: same pid, same signals, same environment and arguments)
 * before anything heavy loads, which costs one Node start (~40 ms).
 *
 * SERVER_SEMI_SPACE_MB sets the size (default 16); 0 leaves V8's own sizing. A flag given on the
 * command line or in NODE_OPTIONS is left alone.
 */
const FLAG = '--max-semi-space-size';

/** @param {Record<string, string | undefined>} env @param {string[]} execArgv @returns {number | undefined} the size to start with, or undefined to keep this process */
export function semiSpaceToApply(env, execArgv) {
  const raw = env.SERVER_SEMI_SPACE_MB ?? '16';
  const mb = Number(raw);
  if (!/^\d+$/.test(raw) || mb > 256) throw new Error(`SERVER_SEMI_SPACE_MB must be a whole number of MiB from 0 to 256, not "${raw}"`);
  if (mb === 0) return undefined;
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a === FLAG || a.startsWith(`${FLAG}=`));
  return given ? undefined : mb;
}
