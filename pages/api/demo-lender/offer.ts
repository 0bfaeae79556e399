/**
 * GET /api/demo-lender/offer — the demo lender's "offer" page, where a borrower matched with the
 * demo lender lands. It says plainly that it is a demo and that no loan exists. Served on the
 * brand's own host, so the borrower never leaves the site; absent (404) where the demo lender is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { demoLenderAvailable } from '../../../engine/sale/demoRoutes';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Demo lender — this is a demo</title>
<style>body{font:17px/1.5 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:1.5rem;color:#1a1a1a}
.tag{display:inline-block;background:#fde68a;color:#1a1a1a;padding:.2rem .6rem;border-radius:.3rem;font-weight:700}
a{display:inline-block;min-height:44px;line-height:44px;color:#0b57d0}</style></head>
<body><main><p class="tag">Demo — not a real lender</p>
<h1>Demo Lender: your offer would appear here</h1>
<p>This page stands in for a lender's website. On a real site you would now see the lender's offer and terms.
This is a demonstration of the sale: no loan exists, nobody will contact you, and nothing was charged.</p>
<p>The demo lender accepts requests of $3,000 or less and refuses larger amounts and requests from New York.</p>
<p><a href="/">Back to the site</a></p></main></body></html>`;

export default function handler(req: IncomingMessage, res: ServerResponse) {
  if (!demoLenderAvailable()) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Not found');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET');
    return;
  }
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' })
    .end(req.method === 'HEAD' ? undefined : PAGE);
}
