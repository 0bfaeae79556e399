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
  const db = await getStore();
  const knownBrands = async () => {
    // the studio's list: the brand files (built with the block specs) and the studio's brands. Loaded
    // only for an editor's --brands: the studio's modules are ~40 % of this command's start-up
    const [{ studioBrandIds }, { setBlockSpecs }, { BLOCK_SPECS }] = await Promise.all([
      import('../engine/console/studioApi'),
      import('../engine/site/catalog'),
      import('../blocks/generated/specs'),
    ]);
    setBlockSpecs(BLOCK_SPECS);
    return studioBrandIds(db);
  };
  code = await runUserCli(process.argv.slice(2), db, { readStdin, out: (l) => console.log(l), err: (l) => console.error(l), knownBrands });
} catch (err) {
  console.error(`console:user: ${(err as Error).message}`);
} finally {
  await closeStore();
}
process.exit(code);
