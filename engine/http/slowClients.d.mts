import type { Server } from 'node:net';
import type { ServerResponse } from 'node:http';

/** Default send timeout in milliseconds (15 s, as deploy/nginx.conf's send_timeout). */
export const DEFAULT_SEND_TIMEOUT_MS: number;
/** SEND_TIMEOUT_MS from the environment (positive milliseconds), else the default. */
export function sendTimeoutFromEnv(env?: Record<string, string | undefined>): number;
/** Closes connections whose client has read nothing of what waits for it for `sendTimeoutMs`. */
export function guardSlowReaders(
  server: Server,
  options?: { sendTimeoutMs?: number; checkEveryMs?: number; now?: () => number },
): { stats: { cutOff: number }; stop: () => void; watching: () => number };
/** Writes a shared Buffer in slices, each once the client has taken the previous ones, and ends the response. */
export function sendBuffer(res: ServerResponse, body: Buffer): void;
