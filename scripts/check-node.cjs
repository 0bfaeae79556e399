// Every entry point runs this first: server.mjs and each script `npm run` starts import it before
// any other module (ES modules are evaluated in import order), `npm run test:unit` / `test:e2e`
// run it before their tools, and `npm install` as preinstall. On an older Node the native SQLite
// module, built for the Node 24 that installed it, kills the process with a bare "Segmentation
// fault" at its first import; this says instead, in one line, what to run. Plain CommonJS with
// nothing to import, so it works on any Node and costs the server's start well under a millisecond.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `loansites needs Node 24; this is Node ${process.versions.node}. Fix it in this shell with \`. scripts/ensure-node.sh\`, then run the command again.`,
  );
  process.exit(1);
}
