// @ts-check
/**
 * A brand page's own scripts start once the browser has painted the page's largest text, not before.
 *
 * Next writes its chunks as `<script defer>` in the head. A deferred script runs as soon as the
 * document is parsed, and when the chunks are already at hand (a returning borrower's HTTP cache,
 * a fast connection) that is before the page is on screen: the text waits behind evaluating React
 * and hydrating, and those tasks run while the first layout still asks the browser process for
 * fonts, so both stretch. Lighthouse's throttled phone counts it twice: the largest paint placed
 * after the framework's download and evaluation, the stretched tasks as blocking time.
 *
 * So the document names each chunk with `<link rel="preload" as="script" data-ap>` (the
 * download starts where the script tag would have started it) and this inline script, last in the
 * body, adds the scripts in the same order (`async = false` keeps their order; each `src` exactly as
 * the preload wrote it: Turbopack's runtime finds its chunks' script tags by that attribute, and
 * with an absolute URL there it never starts the page) once the document
 * is parsed and the browser has reported its largest paint (a largest-contentful-paint entry; a
 * browser without them waits one frame). A hidden tab paints nothing: it runs them at once. If no
 * paint is reported within 3 s of the document being parsed (a stylesheet still on its way), they
 * run anyway. Scripts that must not run this way keep their tags: Next's inline chunk-queue
 * bootstrap (it only seeds a queue) and `nomodule` polyfills (a preload would fetch them in every
 * browser).
 *
 * The text is the same on every page, so the policy allows it by hash (engine/site/csp.mjs).
 * Plain JavaScript typed with JSDoc: engine/site/csp.mjs, loaded by server.mjs on plain Node, hashes it.
 */
/**
 * The marker on the preloads the loader runs, short because it is written once per chunk on every
 * page ("ap": after paint); the full-length attribute cost 9 bytes a chunk.
 */
export const AFTER_PAINT_ATTRIBUTE = 'data-ap';

/** How long after the document is parsed the scripts wait for a reported paint at most (ms). */
export const AFTER_PAINT_LONGEST_WAIT_MS = 3000;

/**
 * Written by hand in ES2017 (what Next's own chunks need) and kept small: every byte is in every
 * page. It is parser-inserted, last in the body, so it always runs while the document is still
 * loading: it waits for DOMContentLoaded without asking. `crossOrigin` is copied only when the
 * preload has one (null would not mean "none" to every browser, and a script fetched in another
 * mode than its preload would be fetched twice).
 */
export const AFTER_PAINT_SCRIPT = `(d=>{let n,r=()=>{n||(n=1,d.querySelectorAll("link[${AFTER_PAINT_ATTRIBUTE}]").forEach(l=>{let s=d.createElement("script"),c=l.crossOrigin;s.src=l.getAttribute("href");s.async=!1;c!=null&&(s.crossOrigin=c);d.body.append(s)}))};d.addEventListener("DOMContentLoaded",()=>{let P=self.PerformanceObserver,L="largest-contentful-paint";d.hidden?r():P&&(P.supportedEntryTypes||[]).includes(L)?(new P((_,o)=>{o.disconnect();setTimeout(r)}).observe({type:L,buffered:!0}),setTimeout(r,${AFTER_PAINT_LONGEST_WAIT_MS})):requestAnimationFrame(()=>setTimeout(r))})})(document)`;

/**
 * The scripts a page's HTML names for its first load, in order: script tags with a src, and the
 * chunks named by after-paint preloads (readers of served HTML: the bench's first-load row, tests).
 * @param {string} html
 * @returns {string[]}
 */
export function namedScripts(html) {
  /** @type {string[]} */
  const out = [];
  for (const m of html.matchAll(/<script\b[^>]*\ssrc="([^"]+)"|<link\b(?=[^>]*\sas="script")(?=[^>]*\sdata-ap\b)[^>]*\shref="([^"]+)"/g))
    out.push(m[1] ?? m[2] ?? '');
  return out;
}
