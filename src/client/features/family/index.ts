import { defineFeature } from '../../lib/feature';

/** 亲情卡 (module `callingCard`): family-card bindings, renewals and the card-centre check. */
export const familyFeature = defineFeature({
  screens: {},
  commands: [],
  sources: [],
});
