// @ts-check
/**
 * The browser's error reporter: an inline script in every page's <head> (≈1 KiB, before any
 * other script, so it sees errors from the first line of Next's code on). It turns browser
 * errors into Sentry-protocol envelopes and posts them straight to the DSN's envelope endpoint,
 * as Sentry's browser SDK does (`fetch` with `keepalive`, the key in the query, a string body so
 * the Content-Type is text/plain;charset=UTF-8 and no CORS preflight is needed). No SDK is shipped.
 *
 * - window `error` (not resource load errors: those do not reach window listeners) and
 *   `unhandledrejection`; window.__reportError(error, kind) for the block error boundaries;
 * - deduplicated (same message and stack top) and at most 5 per page view (a new path starts a
 *   new page view); a refused post stops it for the page view;
 * - where to post: pages are cached (ISR; the brands' home pages are rendered at build, before
 *   a deployment's SENTRY_DSN exists), so no page carries the DSN. On its first report in a page
 *   load the reporter asks this site (REPORTING_CONFIG_PATH, pages/api/error-reporting.ts), which
 *   answers from the running server's SENTRY_DSN — the same value server.mjs puts in the
 *   policy's connect-src — with the endpoint and the environment, or 404: then nothing is sent.
 *   Pages without errors make no request at all;
 * - release and brand come from the script element's data attributes, so the text — and with
 *   it the CSP hash in engine/site/csp.mjs — is the same on every page and brand.
 * Written by hand in ES2017 and kept small: every byte is in every page.
 *
 * Plain JavaScript typed with JSDoc, which TypeScript reads (tsconfig allowJs; no .d.mts to keep in step): engine/site/csp.mjs, which server.mjs loads on plain Node, hashes this script.
 */
export const REPORTING_CONFIG_PATH = '/api/error-reporting';
export const MAX_REPORTS_PER_PAGE_VIEW = 5;

export const REPORTER_SCRIPT = `(w=>{var d=(document.currentScript||{}).dataset||{},p,n,s,c,g=()=>c||(c=fetch("${REPORTING_CONFIG_PATH}").then(x=>x.ok?x.json():0).catch(()=>0)),r=(e,k)=>{try{if(p!==location.pathname){p=location.pathname;n=0;s={}}e=e||{};var m=String(e.message||e).slice(0,500),t=String(e.stack||"").slice(0,3000),f=m+t.slice(0,300);if(n>=${MAX_REPORTS_PER_PAGE_VIEW}||s[f])return;s[f]=1;n++;var i="",j=0;for(;j<32;j++)i+=(Math.random()*16|0).toString(16);var v={event_id:i,timestamp:Date.now()/1e3,platform:"javascript",level:"error",release:d.release,tags:{brand:d.brand,kind:k},request:{url:location.href,headers:{"User-Agent":navigator.userAgent}},exception:{values:[{type:String(e.name||"Error"),value:m}]},extra:{stack:t}};g().then(o=>{if(!o||!o.url)return;v.environment=o.environment;return fetch(o.url,{method:"POST",keepalive:!0,body:JSON.stringify({event_id:i,sent_at:new Date().toISOString()})+"\\n"+JSON.stringify({type:"event"})+"\\n"+JSON.stringify(v)}).then(x=>{x.ok||(n=${MAX_REPORTS_PER_PAGE_VIEW})})}).catch(()=>{})}catch(x){}};w.__reportError=r;w.addEventListener("error",e=>{if(e.error||e.message&&e.message!=="Script error.")r(e.error||e.message,"error")});w.addEventListener("unhandledrejection",e=>r(e.reason,"unhandledrejection"))})(window)`;
