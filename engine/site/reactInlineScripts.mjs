// @ts-check
/**
 * The inline scripts React's server renderer writes for Suspense boundaries it "outlines" (a
 * boundary of more than 500 bytes past the first 12.8 KB of the page is sent as a hidden segment
 * plus a script that reveals it): a timing script, React's completeBoundary runtime with the
 * first call, then one call per further boundary. Our lazy (interactive) blocks sit in Suspense
 * boundaries, so pages carry these; the CSP allows them by hash (engine/site/csp.mjs).
 * The text is React's (react-dom 19.3.1); tests/unit/csp.test.ts renders with the installed
 * React and fails when it changes — then copy the new texts here.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): engine/site/csp.mjs, which server.mjs loads on plain Node, hashes these scripts.
 */
export const REACT_TIMING_SCRIPT = 'requestAnimationFrame(function(){$RT=performance.now()});';
export const REACT_BOUNDARY_RUNTIME =
  '$RB=[];$RV=function(a){$RT=performance.now();for(var b=0;b<a.length;b+=2){var c=a[b],e=a[b+1];null!==e.parentNode&&e.parentNode.removeChild(e);var f=c.parentNode;if(f){var g=c.previousSibling,h=0;do{if(c&&8===c.nodeType){var d=c.data;if("/$"===d||"/&"===d)if(0===h)break;else h--;else"$"!==d&&"$?"!==d&&"$~"!==d&&"$!"!==d&&"&"!==d||h++}d=c.nextSibling;f.removeChild(c);c=d}while(c);for(;e.firstChild;)f.insertBefore(e.firstChild,c);g.data="$";g._reactRetry&&requestAnimationFrame(g._reactRetry)}}a.length=0};\n$RC=function(a,b){if(b=document.getElementById(b))(a=document.getElementById(a))?(a.previousSibling.data="$~",$RB.push(a,b),2===$RB.length&&("number"!==typeof $RT?requestAnimationFrame($RV.bind(null,$RB)):(a=performance.now(),setTimeout($RV.bind(null,$RB),2300>a&&2E3<a?2300-a:$RT+300-a)))):b.parentNode.removeChild(b)};';

/** Boundaries per page the policy allows (a page has a few interactive blocks at most). */
export const MAX_OUTLINED_BOUNDARIES = 8;

const call = (/** @type {number} */ n) => `$RC("B:${n.toString(16)}","S:${n.toString(16)}")`;

/** Every inline script React may write for up to MAX_OUTLINED_BOUNDARIES outlined boundaries. */
export const reactBoundaryScripts = () => [
  REACT_TIMING_SCRIPT,
  REACT_BOUNDARY_RUNTIME + call(0),
  ...Array.from({ length: MAX_OUTLINED_BOUNDARIES - 1 }, (_, i) => call(i + 1)),
];
