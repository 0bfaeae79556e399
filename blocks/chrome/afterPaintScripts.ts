import { createElement, isValidElement, type JSX } from 'react';
import { AFTER_PAINT_ATTRIBUTE } from '../../engine/browser/afterPaintScript.mjs';

type ScriptProps = { src?: unknown; defer?: unknown; noModule?: unknown; crossOrigin?: string };

/**
 * Next's deferred chunk scripts as preloads the after-paint loader turns back into scripts, in
 * the same order (engine/browser/afterPaintScript.mjs says why). Anything else — the inline chunk-queue
 * bootstrap, a `nomodule` polyfill, an async script, a missing entry — is passed on as it is.
 */
export function scriptsAfterPaint<T extends JSX.Element | null>(elements: T[]): (T | JSX.Element)[] {
  return elements.map((element) => {
    if (!isValidElement<ScriptProps>(element) || element.type !== 'script') return element;
    const { src, defer, noModule, crossOrigin } = element.props;
    if (typeof src !== 'string' || !defer || noModule) return element;
    return createElement('link', {
      key: element.key ?? src,
      rel: 'preload',
      as: 'script',
      href: src,
      ...(crossOrigin !== undefined ? { crossOrigin } : {}),
      [AFTER_PAINT_ATTRIBUTE]: '',
    });
  });
}
