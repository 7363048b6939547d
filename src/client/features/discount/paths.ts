/**
 * The 特殊码协议's code among the area's agreements (协议管理 lists it too): fixed, so the
 * mini-program finds the special-code service's text in every area under one name.
 */
export const SPECIAL_CODE_AGREEMENT = 'special-code';
