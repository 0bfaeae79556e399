/**
 * A raw HTTP request to 127.0.0.1 with any Host header (fetch cannot set one, and a browser will
 * not send a brand host to the console's paths on purpose), from `localAddress` when given:
 * another loopback address is another client. For the e2e specs and the scripts that drive servers.
 */
import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(port: number, method: string, path: string, host: string, body = '', headers: Record<string, string> = {}, localAddress?: string) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, agent: false, localAddress, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
