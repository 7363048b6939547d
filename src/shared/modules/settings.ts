import { defineModule } from './define';

/** 小程序设置: the mini-program's base settings (sidebar QR code, city centre), agreements and districts. */
export const settingsModule = defineModule({
  id: 'settings',
  menu: {
    id: 'settings',
    title: '小程序设置',
    icon: 'setting',
    jumpKey: 'z',
    pages: [
      { key: 'base-setting', title: '基础设置', component: 'BaseSetting' },
      { key: 'agreements', title: '协议管理', component: 'ListAgreement', actions: ['add'] },
      { key: 'districts', title: '区域管理', component: 'ListDistrict', roles: ['ROLE_APP_ADMIN'] },
    ],
  },
  operations: {
    AGREEMENT_SAVE: '保存协议',
    CONFIG_SAVE: '保存基础设置',
  },
});
