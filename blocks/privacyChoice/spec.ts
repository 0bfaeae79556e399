import type { BlockSpec } from '../../engine/blockSpec';

/** The page that holds this control is the brand's "Do Not Sell or Share" page (engine/privacyChoicePage.ts). */
export const privacyChoiceSpec: BlockSpec<'privacyChoice'> = {
  offersPrivacyChoices: true,
};
