import { lazy, Suspense, useEffect, useState } from 'react';
import type { BrandView } from '../../engine/site/model';
import { claimExitPopup, exitFlagKey, leftDocument } from '../../engine/browser/widgets/exitIntent';
import { localStore } from './visitTracking';

const ExitPopup = lazy(() => import('../parts/ExitPopup'));

/**
 * The exit-intent trigger (SPEC §4). Only a mouseout listener lives in every page's script, until
 * the pointer first leaves; then the brand's flag decides, and the popup's code loads if it was unset.
 */
export function ExitIntent({ brand }: { brand: BrandView }) {
  const [open, setOpen] = useState<boolean>();
  const popup = brand.exitPopup;
  const enabled = !!popup;
  useEffect(() => {
    if (!enabled) return;
    const key = exitFlagKey(brand.id);
    // The flag is read at the first exit, not at mount: a page load's first storage read waits on the browser process.
    const onOut = (event: MouseEvent) => {
      if (!leftDocument(event)) return;
      document.removeEventListener('mouseout', onOut);
      if (claimExitPopup(localStore(), key)) setOpen(true);
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
