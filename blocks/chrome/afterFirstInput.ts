/**
 * What a page loads on the visitor's first move, as one chunk: the mobile menu (first opening),
 * the router calls (first pointer over, focus on or click of a link) and the sticky apply watcher
 * (first scroll). Three separate dynamic imports cost the first-load chunk a loader each (~120 B
 * gzip apiece, each naming its chunk files), paid by every page view; these three are small and
 * a visitor who moves at all usually needs more than one of them (`npm run bench`:
 * first-load JS and "first scroll and link hover").
 */
export { installMobileMenu } from './mobileMenu';
export { prefetchPage, pushPage } from './navigate';
export { watchStickyApply } from './stickyApplyWatch';
