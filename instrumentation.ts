/**
 * Runs once when the server starts (Next's instrumentation hook; `next start` calls it as the
 * server sets up for its first request): opens the store and runs its migrations, so
 * `npm start` on a fresh machine creates data/loansites.sqlite, and a bad DATABASE_URL shows
 * in the server log even when no visitor has posted a trace yet.
 * Not during `next build` (its workers have no use for a database).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { getStore, storeKindOf } = await import('./engine/store/db');
  try {
    await getStore();
    console.log(`[store] ${storeKindOf()} store ready`);
  } catch (err) {
    // The pages do not need the store; its API routes answer with an error and retry on the next request.
    console.error('[store] not ready:', err instanceof Error ? err.message : err);
  }
}
