/**
 * POST /api/revalidate reaches one instance. Pages are shared through the Redis page cache,
 * but each instance's proxy also remembers for a minute whether a content path exists
 * (engine/content/exists.ts); this channel tells every instance to forget a brand's answers,
 * so a newly published article is not a 404 on the instances that did not get the webhook.
 * Redis pub/sub, only when REDIS_URL is set; one connection pair per process (globalThis).
 */
import { createClient } from 'redis';

const CHANNEL = 'loansites:revalidated';
const HOLDER = Symbol.for('loansites.revalidationChannel');
type Client = ReturnType<typeof createClient>;
type Holder = { [HOLDER]?: { publisher: Client; subscriber?: Client } };

function clients(url: string): NonNullable<Holder[typeof HOLDER]> {
  const g = globalThis as Holder;
  if (!g[HOLDER]) {
    const publisher: Client = createClient({ url, disableOfflineQueue: true });
    publisher.on('error', (err: Error) => console.error('[revalidate] Redis:', err.message));
    publisher.connect().catch(() => undefined);
    g[HOLDER] = { publisher };
  }
  return g[HOLDER];
}

/** Tells the other instances (and this one) that `brand` was revalidated. Never throws. */
export async function announceRevalidation(brand: string, url = process.env.REDIS_URL): Promise<void> {
  if (!url) return;
  try {
    await clients(url).publisher.publish(CHANNEL, brand);
  } catch (err) {
    console.error('[revalidate] could not tell the other instances:', (err as Error).message);
  }
}

/** Calls `onBrand` for every revalidation announced by any instance. */
export async function listenForRevalidations(onBrand: (brand: string) => void, url = process.env.REDIS_URL): Promise<void> {
  if (!url) return;
  const held = clients(url);
  if (held.subscriber) return;
  const subscriber: Client = held.publisher.duplicate();
  held.subscriber = subscriber;
  subscriber.on('error', (err: Error) => console.error('[revalidate] Redis subscription:', err.message));
  await subscriber.connect();
  await subscriber.subscribe(CHANNEL, (brand) => onBrand(brand));
}
