/**
 * The form's screens after step 1 (contact, income, the state gate, the thank-you and the sale's
 * progress), in their own chunk: a first load shows step 1 only, so their code is fetched when the
 * borrower first touches the form (a focus or a tap in it) — seconds before they can go on —
 * and the form waits for it before it shows a later screen (EmbeddedForm.tsx), so no screen is ever
 * drawn half. One request for the whole session, whichever caller asks first.
 */
import { useState } from 'react';

export type LaterScreens = typeof import('./LaterSteps');

let loaded: LaterScreens | undefined;
let loading: Promise<LaterScreens> | undefined;

/** The later screens' module once it has arrived; undefined until then (and on the server, which renders step 1 only). */
export const laterScreensNow = (): LaterScreens | undefined => loaded;

/** Fetches the later screens once; a failed fetch (offline) is tried again by the next caller. */
export function loadLaterScreens(): Promise<LaterScreens> {
  loading ??= import('./LaterSteps').then(
    (m) => (loaded = m),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The later screens for a component: undefined until they arrive, then kept in its state; `fetchLater` asks for them (once a session), `prefetchLater` too but does not wait. */
export function useLaterScreens() {
  const [later, setLater] = useState<LaterScreens | undefined>(laterScreensNow);
  const fetchLater = () =>
    loadLaterScreens().then((m) => {
      setLater(m);
      return m;
    });
  const prefetchLater = () => {
    if (!later) fetchLater().catch(() => undefined);
  };
  return { later, fetchLater, prefetchLater };
}
