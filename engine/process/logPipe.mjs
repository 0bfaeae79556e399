// @ts-check
// Imported by server.mjs before anything that logs. A log reader that goes away (a log
// collector's pipe, a `| head`, the test runner that started the server) makes every later write
// to stdout or stderr fail with EPIPE on the stream. Unheard, that error reaches the
// uncaught-exception handler, whose own log line fails the same way, and so on: a core at 100 %
// and SIGTERM never acted on. The server keeps serving without its log instead.
import process from 'node:process';

for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
