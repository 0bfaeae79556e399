/**
 * The draft's page at a phone's width (390 px) and a laptop's (1,280 px), each in a frame of the
 * real preview page (pages/_console/studio-preview/), loaded afresh — with a new signed address —
 * whenever the draft is saved. The frames are mounted only when the preview is open.
 */
import { useEffect, useRef, useState } from 'react';
import type { StudioApi } from './studioApi';
import { smallButton } from './FieldView';

const WIDTHS = [390, 1280] as const;

export function PreviewFrames(props: { api: StudioApi; brand: string; path: string; version: number; readOnly: boolean }) {
  const { api, brand, path, version } = props;
  const [open, setOpen] = useState(true);
  // the signed address for this page, asked again only for another page or shortly before it expires
  const [signed, setSigned] = useState<{ path: string; url: string; expires: number } | undefined>(undefined);
  const [error, setError] = useState('');
  const known = useRef(signed);
  useEffect(() => {
    const had = known.current;
    if (!open || (had && had.path === path && had.expires - Date.now() > 60_000)) return;
    let live = true;
    void api.previewUrl(brand, path).then((a) => {
      if (!live) return;
      if (a.ok) {
        known.current = { path, url: a.value.url, expires: Date.parse(a.value.expiresAt) };
        setSigned(known.current);
        setError('');
      } else setError(a.error);
    });
    return () => {
      live = false;
    };
  }, [api, brand, path, open, version]);
  // a new draft version reloads the frames at once: the same address, another version
  const url = signed && signed.path === path ? `${signed.url}&v=${version}` : undefined;
  return (
    <section aria-labelledby="preview-heading" className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="preview-heading" className="text-lg font-bold">
          Preview of {path}
        </h2>
        <button type="button" className={smallButton} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide preview' : 'Show preview'}
        </button>
      </div>
      {error && <p className="text-red-800">{error}</p>}
      {open &&
        url &&
        WIDTHS.map((w) => (
          // a frame wider than the screen scrolls in its own box, which takes focus to be scrolled by keyboard
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus (axe scrollable-region-focusable)
          <div key={w} className="overflow-auto rounded border border-slate-400" tabIndex={0} role="region" aria-label={`Preview at ${w} px wide (scrolls)`}>
            <iframe title={`Preview of ${path} at ${w} px`} src={url} width={w} height={w === 390 ? 760 : 800} className="block bg-white" data-width={w} />
          </div>
        ))}
    </section>
  );
}
