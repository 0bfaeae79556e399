/**
 * Focus, and the funnel's count of moves: on every step change the step's heading, scrolled to
 * just below the sticky header (its scroll-margin-top) — a shorter step, like the thank-you card,
 * would otherwise sit under it; after a refused Continue, the first wrong field.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { FieldKey } from '../../engine/browser/formRules';
import { formMoveEvent } from '../../engine/browser/visit';
import { funnel } from '../chrome/funnel';
import type { Screen } from './formState';

export function useStepFocus(
  screen: Screen,
  /** the state of the ZIP the visitor gave, for the funnel's count of refused states */
  placeState: string | undefined,
  headingRef: RefObject<HTMLHeadingElement | null>,
  /** the field to focus after this render (a refused Continue sets it) */
  pendingFocusRef: RefObject<FieldKey | null>,
  idOf: (field: FieldKey) => string,
) {
  const shownScreen = useRef<Screen>(screen);
  useEffect(() => {
    if (shownScreen.current === screen) return;
    const move = formMoveEvent(shownScreen.current, screen, placeState);
    if (move) funnel(move);
    shownScreen.current = screen;
    const heading = headingRef.current;
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    // placeState and the ref are read when the screen changes; a new place alone moves nothing (the check above)
  }, [screen, placeState, headingRef]);
  useEffect(() => {
    if (!pendingFocusRef.current) return;
    document.getElementById(idOf(pendingFocusRef.current))?.focus();
    pendingFocusRef.current = null;
  });
}
