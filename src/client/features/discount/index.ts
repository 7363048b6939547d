import { defineFeature } from '../../lib/feature';

/** 特殊码管理 (module `specialCode`): discount-card products, their orders, counts and refunds. */
export const discountFeature = defineFeature({
  screens: {},
  commands: [],
  sources: [],
});
