/** npm run console:user — console accounts from a terminal (engine/console/userCli.ts says how). */
import './check-node.cjs';
import { closeStore, getStore } from '../engine/store/db';
import { runUserCli } from '../engine/console/userCli';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new Error('--password-stdin reads the password from a pipe: printf %s "$PASSWORD" | npm run console:user -- …');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let code = 1;
try {
  code = await runUserCli(process.argv.slice(2), await getStore(), { readStdin, out: (l) => console.log(l), err: (l) => console.error(l) });
} catch (err) {
  console.error(`console:user: ${(err as Error).message}`);
} finally {
  await closeStore();
}
process.exit(code);
