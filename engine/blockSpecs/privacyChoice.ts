import type { BlockSpec } from './types';

/** The page that holds this control is the brand's "Do Not Sell or Share" page (engine/site/privacyChoicePage.ts). */
export const privacyChoiceSpec: BlockSpec<'privacyChoice'> = {
  offersPrivacyChoices: true,
};
