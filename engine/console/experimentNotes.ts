/** What the experiment page says after an action's post (engine/console/experimentActions.ts), by the key its address carries: no store, so the page's own code may import it. */
export type ExperimentOp = 'pause' | 'resume' | 'stop';

export const EXPERIMENT_NOTES = {
  paused: 'Paused: everyone sees the control now; assignments are kept for a resume.',
  resumed: 'Resumed: visitors are assigned and counted again.',
  stopped: 'Stopped: the winner is now the page itself, for every visitor.',
  stale:
    'Someone published this brand since this page was loaded, so nothing was changed. The page now shows where the experiment stands; try again if it still applies.',
  state: 'That action does not apply to the experiment as it stands now; nothing was changed.',
  winner: 'Choose one of the experiment’s variants as the winner.',
  invalid: 'The brand would not pass its checks with this change, so nothing was published. Open the brand in the studio to see why.',
  op: 'That is not an action this page offers (pause, resume or stop with a winner); nothing was changed.',
  limited: 'Too many changes to brands from here in the last minute, so nothing was changed. Wait a minute and try again.',
} as const;
export type ExperimentNote = keyof typeof EXPERIMENT_NOTES;
export const FAILED_NOTES: readonly ExperimentNote[] = ['stale', 'state', 'winner', 'invalid', 'op', 'limited'];
