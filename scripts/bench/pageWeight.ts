/**
 * The HTML a phone downloads for a page (budget: ≤ 30 KB for the payday home and /payday-loans),
 * and the part of it that is page data for hydration (__NEXT_DATA__; blocks/hydrationModel.ts).
 * Bytes as served (uncompressed, as stored by the page cache), and gzip -9 for reference.
 */
import { get } from 'node:http';
import { gzipSync } from 'node:zlib';

export const HTML_BUDGET_BYTES = 30 * 1024;
export const HTML_PAGES: [brand: string, path: string][] = [
  ['ipaydayloans', '/'],
  ['ipaydayloans', '/payday-loans'],
  ['ipaydayloans', '/location/ca'],
  ['ipaydayloans', '/privacy'],
  ['usbadcreditloans', '/'],
  ['ustitleloans', '/'],
];

function html(port: number, host: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${host}${path}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

export interface PageWeight {
  page: string;
  htmlBytes: number;
  gzipBytes: number;
  dataBytes: number;
}

export async function pageWeights(port: number): Promise<PageWeight[]> {
  const rows: PageWeight[] = [];
  for (const [brand, path] of HTML_PAGES) {
    const body = await html(port, `${brand}.localhost:${port}`, path);
    const data = /<script id="__NEXT_DATA__"[^>]*>(.*?)<\/script>/s.exec(body)?.[1] ?? '';
    rows.push({
      page: `${brand}${path}`,
      htmlBytes: Buffer.byteLength(body),
      gzipBytes: gzipSync(body, { level: 9 }).length,
      dataBytes: Buffer.byteLength(data),
    });
  }
  return rows;
}
