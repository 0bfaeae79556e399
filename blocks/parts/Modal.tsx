'use client';
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { modalWidthPx, wrapFocus, type ModalWidth } from '../../engine/browser/widgets/modal';
import { lockScroll } from '../chrome/scrollLock';

export interface ModalProps {
  visible: boolean;
  onClose: () => void;
  /** extra classes on the dialog box (e.g. responsive widths) */
  className?: string;
  /** px or a SPEC §9 preset: small 428, default 542, payday 676, apply 720; never wider than 90% of the screen */
  width?: ModalWidth;
  /** a click on the backdrop closes (default true); the close button and Escape always do */
  maskClosable?: boolean;
  /** id of the element that names the dialog (its heading) */
  labelledBy: string;
  /** style of the backdrop, e.g. the brand's colour variables (the dialog is rendered at the end of <body>) */
  style?: CSSProperties;
  /** a full-screen overlay (the location search panel) with no close icon: the content has its own Cancel */
  fullScreen?: boolean;
  children: ReactNode;
}

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]):not([type=hidden]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * Makes `elements` inert until the returned release is called. Dialogs can stack (the exit popup
 * over the location search panel): each element counts its holders (on itself, so that a copy of
 * this module in another chunk counts with it), and closing the top dialog leaves inert what the
 * one below still covers.
 */
function holdInert(elements: HTMLElement[]): () => void {
  const holds = (el: HTMLElement) => Number(el.dataset.inertHolds ?? 0);
  for (const el of elements) {
    el.dataset.inertHolds = String(holds(el) + 1);
    el.setAttribute('inert', '');
  }
  return () => {
    for (const el of elements) {
      const left = holds(el) - 1;
      if (left > 0) el.dataset.inertHolds = String(left);
      else {
        delete el.dataset.inertHolds;
        el.removeAttribute('inert');
      }
    }
  };
}

const focusablesIn = (root: HTMLElement): HTMLElement[] => [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);

/**
 * A modal dialog (SPEC §4): role="dialog", aria-modal, named by its heading; focus moves in
 * (to [data-autofocus] or the dialog), Tab wraps, Escape closes, focus goes back to where it
 * was; the page behind (and a dialog open below this one) is inert, and the page does not scroll
 * and keeps its scroll position.
 */
export function Modal({ visible, onClose, className = '', width, maskClosable = true, labelledBy, style, fullScreen = false, children }: ModalProps) {
  const box = useRef<HTMLDivElement>(null);
  const downOnBackdrop = useRef(false);

  useEffect(() => {
    if (!visible) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = box.current;
    const own = dialog?.parentElement;
    // The page and any dialog already open below this one.
    const behind = [document.getElementById('__next'), ...document.querySelectorAll('[data-modal-backdrop]')].filter(
      (el): el is HTMLElement => !!el && el !== own,
    );
    const release = holdInert(behind);
    const unlock = lockScroll();
    (dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog)?.focus();
    return () => {
      release();
      unlock();
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
    };
  }, [visible]);

  if (!visible || typeof document === 'undefined') return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab' && box.current) {
      const items = focusablesIn(box.current);
      const next = wrapFocus(items.indexOf(document.activeElement as HTMLElement), items.length, event.shiftKey);
      event.preventDefault();
      items[next]?.focus();
    }
  };
  const onBackdrop = (event: MouseEvent<HTMLDivElement>) => {
    const onIt = event.target === event.currentTarget;
    if (event.type === 'mousedown') {
      downOnBackdrop.current = onIt;
      // Keep focus in the dialog when the backdrop is pressed.
      if (onIt) event.preventDefault();
    } else if (onIt && downOnBackdrop.current && maskClosable) onClose();
  };

  return createPortal(
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a press on the backdrop is the pointer's Escape (handled on the dialog)
    <div
      className={`fixed inset-0 z-50 flex items-center justify-center bg-slate-900/60 ${fullScreen ? '' : 'p-4'}`}
      onMouseDown={onBackdrop}
      onClick={onBackdrop}
      data-modal-backdrop=""
      style={style}
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the dialog's own keys: Escape closes, Tab stays inside */}
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        style={fullScreen ? undefined : { width: modalWidthPx(width) }}
        className={`relative overflow-y-auto bg-white text-slate-900 outline-none ${fullScreen ? 'h-full w-full' : 'max-h-[90vh] max-w-[90%] rounded-lg p-6 shadow-2xl sm:p-8'} ${className}`}
      >
        {!fullScreen && (
          // A zero-height sticky holder at the top of the scrolling box: on a short screen the content
          // scrolls under the close button instead of taking it away (the backdrop is not the only way out).
          <div className="sticky top-0 z-10 h-0">
            <button
              type="button"
              aria-label="Close"
              onClick={onClose}
              className="absolute -right-4 -top-4 flex h-11 w-11 items-center justify-center rounded-full bg-white text-slate-700 shadow-sm hover:bg-slate-100 sm:-right-6 sm:-top-6"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <path d="M5 5l10 10M15 5L5 15" />
              </svg>
            </button>
          </div>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
