/**
 * Where the module's screens live (the routes are `/{menu.id}/{page.key}`): kept apart from the
 * screens' code so the palette's commands, in the shell's bundle, carry no screen with them.
 */
export const PATHS = {
  list: '/specialCode/special-code-list',
  count: '/specialCode/special-code-count',
  rules: '/specialCode/rule-setting',
  ruleEdit: '/specialCode/rule-edit',
  agreement: '/specialCode/special-code-agreement',
} as const;

/**
 * The 特殊码协议's code among the area's agreements (协议管理 lists it too): fixed, so the
 * mini-program finds the special-code service's text in every area under one name.
 */
export const SPECIAL_CODE_AGREEMENT = 'special-code';
