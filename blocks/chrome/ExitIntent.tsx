import { lazy, Suspense, useEffect, useState } from 'react';
import type { BrandView } from '../../engine/model';
import { claimExitPopup, exitFlagKey, exitPopupSeen, leftDocument } from '../../engine/widgets/exitIntent';
import { localStore } from './visitTracking';

const ExitPopup = lazy(() => import('../parts/ExitPopup'));

/**
 * The exit-intent trigger (SPEC §4). Only a mouseout listener lives in every page's script, and
 * only while the brand's flag is unset; the popup's code loads when the pointer first leaves.
 */
export function ExitIntent({ brand }: { brand: BrandView }) {
  const [open, setOpen] = useState<boolean>();
  const popup = brand.exitPopup;
  const enabled = !!popup;
  useEffect(() => {
    const store = localStore();
    const key = exitFlagKey(brand.id);
    if (!enabled || exitPopupSeen(store, key)) return;
    const onOut = (event: MouseEvent) => {
      if (!leftDocument(event) || !claimExitPopup(store, key)) return;
      document.removeEventListener('mouseout', onOut);
      setOpen(true);
    };
    document.addEventListener('mouseout', onOut);
    return () => document.removeEventListener('mouseout', onOut);
  }, [brand.id, enabled]);
  if (open === undefined || !popup) return null;
  return (
    <Suspense fallback={null}>
      <ExitPopup brand={brand} popup={popup} visible={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
