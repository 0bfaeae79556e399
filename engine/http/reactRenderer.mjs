// @ts-check
/**
 * Which React server build renders the pages (it decides how fast a page renders the first time).
 *
 * Next's pages router asks for `react-dom/server.edge` even on Node (next/dist/server/
 * ReactDOMServerPages.js, with Next's own "TODO: Use Node.js build unless we're in an Edge
 * runtime"). The edge build turns every piece of markup it writes — each tag, attribute name
 * and value — into a new Uint8Array with TextEncoder.encode as it renders: measured with
 * --cpu-prof over 1,500 never-rendered city pages, that was ~15% of the server's CPU. The Node
 * build has the same `renderToReadableStream` (same React, same options, same stream of bytes
 * out) but keeps markup as strings and encodes them straight into its 4 KB output buffer.
 *
 * So server.mjs points Next's request for the edge build at the Node build of the same
 * react-dom package (./reactPagesServer.cjs, which also answers a cold brand page's renders from
 * renderToString), through Next's own alias table (next/dist/server/require-hook.js, the
 * table Next uses for its own module aliases). The HTML is byte for byte the same
 * (tests/e2e/page-replay.spec.ts compares a server rendering each way).
 * REACT_SERVER_BUILD=edge keeps Next's choice.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EDGE = 'react-dom/server.edge';
/** React's Node build as Next's pages router is given it (./reactPagesServer.cjs). */
const PAGES_SERVER = fileURLToPath(new URL('./reactPagesServer.cjs', import.meta.url));

/**
 * Call after Next is imported (its alias table then exists) and before the first page renders.
 * Returns the build pages will render with: 'node', or 'edge' when asked for or when this Next
 * has no alias table any more (then it says so once on the console; pages still render).
 */
export function choosePagesRenderer(root = process.cwd(), env = process.env) {
  if (env.REACT_SERVER_BUILD === 'edge') return 'edge';
  const require = createRequire(join(root, 'package.json'));
  try {
    const { addHookAliases } = require('next/dist/server/require-hook');
    // the Node build in the same react-dom package the edge build would have come from
    const nodeBuild = join(require.resolve(EDGE).replace(/server\.edge\.js$/, ''), 'server.node.js');
    require(nodeBuild);
    // the Node build, with the string renders of ./reactPagesServer.cjs for the renders that ask for them
    if (require(PAGES_SERVER).renderToString !== require(nodeBuild).renderToString) throw new Error(`${PAGES_SERVER} does not load ${nodeBuild}`);
    addHookAliases([[EDGE, PAGES_SERVER]]);
    return 'node';
  } catch (err) {
    console.warn(`[server] pages render with React's edge build: ${/** @type {Error} */ (err).message}`);
    return 'edge';
  }
}

/** The build a page render in this process actually used (from Node's module cache): 'node', 'edge' or 'none yet'. */
export function renderedWith(require = createRequire(join(process.cwd(), 'package.json'))) {
  const loaded = Object.keys(require.cache);
  // the edge build is loaded by nothing but a page render; the Node build also by react-dom/server
  if (loaded.some((f) => /react-dom-server\.edge\.(production|development)\.js$/.test(f))) return 'edge';
  if (loaded.some((f) => /react-dom-server\.node\.(production|development)\.js$/.test(f))) return 'node';
  return 'none yet';
}
