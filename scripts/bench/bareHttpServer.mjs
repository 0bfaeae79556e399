/**
 * The bench's reference server (scripts/bench/bareServer.ts): bare node:http answering every
 * request with one recorded response — the same status, headers and bytes as a replayed cached
 * page — and nothing else. The CPU it spends per request is the least a Node server can.
 * Usage: node scripts/bench/bareHttpServer.mjs <port> <response.json>
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file] = process.argv.slice(2);
const recorded = JSON.parse(readFileSync(String(file), 'utf8'));
const body = Buffer.from(recorded.body, 'base64');
/** @type {Record<string, string | string[]>} */
const headers = recorded.headers;
createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
