/** Modal rules (SPEC §4, §9): widths and keyboard focus wrapping. */

/** 428 px (max 90% of the screen), default 542 px, 676 px on the payday brand, 720 px for the apply popup. */
export const MODAL_WIDTHS = { small: 428, default: 542, payday: 676, apply: 720 } as const;
export type ModalWidth = number | keyof typeof MODAL_WIDTHS;
/** The exit popup: 500 px on medium screens, 870 px on large ones (Tailwind md and lg). */
export const EXIT_POPUP_WIDTHS = { md: 500, lg: 870 } as const;

export const modalWidthPx = (width: ModalWidth = 'default'): number => (typeof width === 'number' ? width : MODAL_WIDTHS[width]);

/**
 * Tab inside a dialog: the index of the element to focus next among `count` focusable ones,
 * wrapping from the last to the first (and with Shift, from the first to the last). `current`
 * is -1 when focus is on none of them (e.g. on the dialog itself).
 */
export function wrapFocus(current: number, count: number, backwards: boolean): number {
  if (count <= 0) return -1;
  if (current < 0) return backwards ? count - 1 : 0;
  return backwards ? (current - 1 + count) % count : (current + 1) % count;
}
