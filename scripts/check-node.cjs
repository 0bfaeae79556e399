// Runs before `npm install` / `npm ci` (preinstall), on whatever Node the machine has, so it is
// plain CommonJS with nothing to import. better-sqlite3 13 and Kysely 0.29 need Node 22+, and the
// project is tested on 24 only: an older Node would install, then crash at the first query.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `\nloansites needs Node 24 (LTS); this is Node ${process.versions.node}.\n` +
      'Fix it in this shell (installs the official Node 24 binary from the npm registry when needed):\n\n' +
      '    . scripts/ensure-node.sh\n\n' +
      'then run the command again. (nvm users: `nvm use` reads .nvmrc.)\n',
  );
  process.exit(1);
}
