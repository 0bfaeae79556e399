/**
 * What Next alone makes of our bytes: a stock pages-router app built with the same next in .bench/samebytes
 * whose one page sends one of our pages' HTML body and stylesheet, but none of our JavaScript — only Next's
 * own (its runtime hydrating an empty page). Lighthouse measures it beside Next's minimal `<p>Hello</p>`
 * page (lighthouseRows.ts): the gap between the two is what our page's size and styles cost on this
 * machine, and the gap between it and our page is what our JavaScript costs.
 *
 * The page is our HTML as served, taken apart (`sameBytesPage`): its <body> without scripts goes into a
 * container after Next's own root (the _document renders it on every request, read from a file once, so
 * the build never changes with our pages); our root's id becomes `__page` (Next's client looks for
 * `__next` and must find its own); the title, description, theme colour and stylesheet links go into the
 * head. The stylesheets and the files the body loads (the logo) are copied from our server into the app's
 * public/ folder (a stylesheet under /ours/, since /_next/ is Next's own).
 */
import { spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SameBytesPage {
  title: string;
  metas: { name: string; content: string }[];
  /** head links: stylesheets and preloads (hrefs as served by the same-bytes app) */
  links: { rel: string; href: string; as?: string }[];
  /** what our root element held, scripts out */
  body: string;
  /** files to copy: [path on our server, path in the app's public/] */
  assets: [from: string, to: string][];
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** Our own static files: a path on the same host (not //host, not data:). */
const local = (href: string | undefined): href is string => !!href && href.startsWith('/') && !href.startsWith('//');
/** Next serves /_next/ itself: our build's files go under /ours/ in the app. */
const moved = (href: string) => (href.startsWith('/_next/') ? `/ours/${href.split('/').pop()}` : href);

/** Our page's HTML as the same-bytes app serves it (pure: `html` is our server's answer). */
export function sameBytesPage(html: string): SameBytesPage {
  const headEnd = html.indexOf('</head>');
  const head = html.slice(0, headEnd).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
  const bodyStart = html.indexOf('>', html.indexOf('<body', headEnd)) + 1;
  let body = html.slice(bodyStart, html.lastIndexOf('</body>')).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
  const links: SameBytesPage['links'] = [];
  const assets = new Map<string, string>();
  const linkTag = (tag: string) => {
    const rel = attr(tag, 'rel');
    const href = attr(tag, 'href');
    if (!rel || !local(href) || !['stylesheet', 'preload'].includes(rel)) return false;
    // our chunks' preloads (the after-paint loader runs them) are our JavaScript, left out: the app sends only Next's
    if (attr(tag, 'as') === 'script') return true;
    links.push({ rel, href: moved(href), ...(attr(tag, 'as') ? { as: attr(tag, 'as') } : {}) });
    assets.set(href, moved(href));
    return true;
  };
  for (const [tag] of head.matchAll(/<link\b[^>]*>/g)) linkTag(tag);
  // a body link (React hoists a preload of the logo there) joins the head's
  body = body.replace(/<link\b[^>]*>/g, (tag) => (linkTag(tag) ? '' : tag));
  for (const [, src] of body.matchAll(/\ssrc="([^"]*)"/g)) if (local(src)) assets.set(src, moved(src));
  // our root: its content goes into the app's container (Next's client takes the first #__next for its own)
  const root = /^\s*<div id="__next">([\s\S]*)<\/div>\s*$/.exec(body);
  const meta = (name: string) => attr(new RegExp(`<meta\\b[^>]*name="${name}"[^>]*>`).exec(head)?.[0] ?? '', 'content');
  return {
    title: /<title>([^<]*)<\/title>/.exec(head)?.[1] ?? '',
    metas: ['description', 'theme-color'].flatMap((name) => (meta(name) !== undefined ? [{ name, content: meta(name)! }] : [])),
    links,
    body: root ? root[1]! : body,
    assets: [...assets].map(([from, to]): [string, string] => [from, to.replace(/^\//, '')]),
  };
}

const PAGE = `export async function getServerSideProps() {
  return { props: {} };
}

export default function Page() {
  return null;
}
`;

const DOCUMENT = `import { readFileSync } from 'node:fs';
import { Html, Head, Main, NextScript } from 'next/document';

let page;

// the build prerenders the 404 page with this document too: it has no page file then
const read = () => (process.env.SAME_BYTES_FILE ? JSON.parse(readFileSync(process.env.SAME_BYTES_FILE, 'utf8')) : { title: '', metas: [], links: [], body: '' });

export default function Document() {
  page ??= read();
  return (
    <Html lang="en">
      <Head>
        <title>{page.title}</title>
        {page.metas.map((m) => <meta key={m.name} name={m.name} content={m.content} />)}
        {page.links.map((l) => <link key={l.rel + l.href} rel={l.rel} href={l.href} as={l.as} />)}
      </Head>
      <body>
        <Main />
        <div id="__page" dangerouslySetInnerHTML={{ __html: page.body }} />
        <NextScript />
      </body>
    </Html>
  );
}
`;

let built: string | undefined;

/** Builds the same-bytes app once (a build left by an earlier run with the same pages is reused); returns its folder. */
export function buildSameBytesApp(root: string): string {
  if (built) return built;
  const dir = join(root, '.bench/samebytes');
  // a finished build of the same pages left by an earlier run is reused (a failed build leaves a BUILD_ID too: hence the mark)
  const mark = join(dir, '.next/built-from');
  if (existsSync(mark) && readFileSync(mark, 'utf8') === PAGE + DOCUMENT) return (built = dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'pages'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'next-same-bytes', private: true }));
  writeFileSync(join(dir, 'pages/index.js'), PAGE);
  writeFileSync(join(dir, 'pages/_document.js'), DOCUMENT);
  writeFileSync(join(dir, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  const r = spawnSync('npx', ['next', 'build'], { cwd: dir, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error('the same-bytes app did not build');
  writeFileSync(mark, PAGE + DOCUMENT);
  return (built = dir);
}

/** Writes the page and its files into the app (public/ is read by next start: call before starting it); returns the page file. */
export async function writeSameBytes(dir: string, page: SameBytesPage, fetchFile: (path: string) => Promise<Buffer>): Promise<string> {
  rmSync(join(dir, 'public'), { recursive: true, force: true });
  for (const [from, to] of page.assets) {
    const file = join(dir, 'public', to);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, await fetchFile(from));
  }
  const file = join(dir, 'page.json');
  writeFileSync(file, JSON.stringify(page));
  return file;
}

/** A file of our server's, as bytes (the Host header names the brand: Node does not resolve *.localhost). */
export function fetchFile(port: number, host: string, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // a fresh connection each time: a pooled one may have been closed by the server during a build (spawnSync blocks the loop)
    get({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${host}${path}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}
