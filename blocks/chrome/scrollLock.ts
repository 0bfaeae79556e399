/**
 * Page scroll lock for overlays (modal, mobile menu; SPEC §4). Counted, so two overlays can
 * hold it; the root element stops scrolling (the position stays where it was: sticky headers
 * keep working, unlike the position:fixed trick) and the position is put back on release.
 */
let holders = 0;
let savedY = 0;

export function lockScroll(): () => void {
  const root = document.documentElement;
  if (holders++ === 0) {
    savedY = window.scrollY;
    root.style.overflow = 'hidden';
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) {
      root.style.overflow = '';
      if (window.scrollY !== savedY) window.scrollTo(0, savedY);
    }
  };
}
