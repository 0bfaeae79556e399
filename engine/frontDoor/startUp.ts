/**
 * What the server's start (instrumentation.ts) runs, in one module. instrumentation.ts imports it
 * once, dynamically (not at build): each dynamic import is a chunk group of its own in the server
 * build, and the bundler gave every group its own copy of the modules they share (four identical
 * 200 KB chunks, three of 94 KB), each copy's source held in memory for the life of the process.
 */
export { requireLeadKey } from '../keys/sealing';
export { configuredDestinations } from '../leads/destinations';
export { getBuyers, requireBuyerSecrets } from '../sale/buyers';
export { getStore, storeKindOf } from '../store/db';
export { checkNewestSealed } from '../leads/rotation';
export { ensureLeadWorker, leadWorkerEnabled } from '../outbox/leadWorker';
export { ensureSaleSweep, saleWorkerEnabled } from '../outbox/saleWorker';
export { ensureTrafficPruner } from '../traffic/pruneJob';
export { ensureBanditJob } from '../traffic/bandit';
export { ensureAlertWorker } from '../console/alerts';
export { liveBuyers } from '../sale/buyerRevisions';
