/**
 * The answers the front door gives itself (engine/frontDoor/frontDoor.ts): refusals, the unknown host,
 * a broken brand's site, a path the console does not have. Pure; everything that came from the request is
 * escaped.
 */
import { escapeHtml, plainHtml } from '../site/errorPages';
import { ALLOWED_METHODS, type Decision } from './frontDoor';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const html = (status: number, title: string, bodyHtml: string): Answer => ({
  status,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  body: plainHtml(title, bodyHtml),
});

/** The answer of a decision the front door answers itself; undefined for one Next (or the replay) answers. */
export function answerOf(d: Decision): Answer | undefined {
  switch (d.kind) {
    case 'refuse':
      if (d.status === 404) return html(404, 'Not found', '<h1>Not found</h1>');
      return {
        status: d.status,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...(d.status === 405 ? { Allow: ALLOWED_METHODS } : {}) },
        body: `${d.reason}\n`,
      };
    case 'console':
      return d.url === undefined ? html(404, 'Not found', '<h1>Not found</h1><p><a href="/">The console’s overview</a></p>') : undefined;
    case 'unknownHost':
      return html(404, 'Host not found', `<h1>Server error: host ${escapeHtml(d.host.slice(0, 255))} not found</h1>`);
    case 'unavailable': {
      const details = d.problems.length ? `<pre>${escapeHtml(d.problems.join('\n'))}</pre>` : '';
      return html(
        503,
        'Site unavailable',
        `<h1>This site is temporarily unavailable.</h1><p>Its configuration has a problem; the other sites are not affected.</p>${details}`,
      );
    }
    default:
      return undefined;
  }
}
