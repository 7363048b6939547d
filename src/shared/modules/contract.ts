import * as account from '../api/account';
import * as auth from '../api/auth';
import * as busLine from '../api/bus-line';
import * as activity from '../api/activity';
import * as card from '../api/card';
import * as cardVerify from '../api/card-verify';
import * as customBus from '../api/custom-bus/buttons';
import * as customClasses from '../api/custom-bus/classes';
import * as customDemand from '../api/custom-bus/demand';
import * as customFleet from '../api/custom-bus/fleet';
import * as customNetwork from '../api/custom-bus/network';
import * as customOrders from '../api/custom-bus/orders';
import * as customSetting from '../api/custom-setting';
import * as discount from '../api/discount';
import * as exportTask from '../api/export-task';
import * as family from '../api/family';
import * as feedback from '../api/feedback';
import * as handleApply from '../api/handle-card';
import * as help from '../api/help';
import * as lineVersion from '../api/line-version';
import * as notice from '../api/notice';
import * as pkg from '../api/package-pay';
import * as recharge from '../api/recharge';
import * as ridership from '../api/ridership';
import * as station from '../api/station';
import * as system from '../api/system';
import * as wallet from '../api/wallet';
import type { Endpoint } from '../api/endpoint';
import type { ModuleManifest } from './define';
import { type ModuleId, MODULES } from './index';

/**
 * What each module's contract file declares, joined to its manifest here and not in the manifest: its
 * endpoints and its button permissions (spec §6, which its contract's `grantIn` checks). The console's
 * shell reads the manifests (menus, pages, jump keys, operations) and must not load every endpoint's
 * zod schemas with the login page (README decision 162); this file imports every contract file, so
 * only the server, the tests and the console's lazy parts import it. The server binds exactly these
 * endpoints and seeds these buttons. A module missing here is a compile error.
 */
export const MODULE_CONTRACTS = {
  shell: { buttons: {}, endpoints: [auth.authenticate, auth.currentUser, auth.logout, auth.authItems, auth.changePassword] },
  download: { buttons: {}, endpoints: [exportTask.taskList, exportTask.taskDownload, exportTask.taskCancel, exportTask.taskDelete, exportTask.taskEvents] },
  user: {
    buttons: account.buttons,
    endpoints: [
      account.userPage,
      account.userById,
      account.userUpdate,
      account.userAdd,
      account.groupList,
      account.groupUpdate,
      system.sysLogPage,
      system.sysLogOperationTypes,
      // The body form of the account list, whose keyword may be a phone: what the console sends.
      account.userPageByBody,
    ],
  },
  settings: { buttons: {}, endpoints: [system.districtPage, system.agreementList, system.agreementSave, system.qrCode, system.cityLocation, system.configSave, system.payInfoList] },
  version: {
    buttons: { ...lineVersion.buttons, ...help.buttons },
    endpoints: [lineVersion.versionPage, lineVersion.versionInfo, lineVersion.versionAdd, lineVersion.versionUpdateStatus, lineVersion.versionSetOnlineTime, lineVersion.versionDelete, lineVersion.versionDiff, ...help.endpoints],
  },
  noticeReport: {
    buttons: { ...notice.buttons, ...feedback.buttons },
    endpoints: [notice.noticePage, notice.noticeTotal, notice.noticeExport, notice.noticeById, notice.noticeUpdateStatus, notice.noticeTop, notice.noticeDelete, notice.noticeSave, ...feedback.endpoints],
  },
  order: { buttons: ridership.buttons, endpoints: [ridership.recordList, ridership.recordSummary, ridership.recordOrder, ridership.ridershipLineCodes, ridership.ridershipBusNames, ridership.ridershipTotal, ridership.ridershipPage, ridership.recordExport, ridership.employeeRecordExport, ridership.ridershipExport] },
  busUser: {
    buttons: card.buttons,
    endpoints: [
      card.riderPage,
      card.riderSummary,
      card.riderReveal,
      card.cardLookup,
      card.cardView,
      card.riderAdd,
      card.riderExport,
      card.riderResolve,
      // The body forms of the calls whose query may hold a phone, a citizen id or a typed reason: what the console sends.
      card.riderPageByBody,
      card.riderRevealByBody,
    ],
  },
  recharge: { buttons: recharge.buttons, endpoints: [recharge.rechargePage, recharge.rechargePageByBody, recharge.rechargeTotal, recharge.rechargeTotalByBody, recharge.rechargeMsg, recharge.rechargeRequery, recharge.rechargeResolve, recharge.rechargeRefund, recharge.rechargeExport, recharge.rechargeReconcilePage, recharge.rechargeReconcileTotal, recharge.rechargeReconcileExport] },
  station: { buttons: {}, endpoints: [station.stationList, station.stationSave, station.stationUpdateState, station.stationQrByStation, station.stationQrInit, station.stationQrSurplus, station.stationQrPage, station.stationMergePreview, station.stationMerge, station.stationListExcludeLine, station.stationListIncludeLine, station.stationQrExport] },
  bus: {
    buttons: busLine.buttons,
    endpoints: [
      busLine.busLineList,
      busLine.busLineSave,
      busLine.busLineDisable,
      busLine.busLineInfoCall,
      busLine.busLineDelete,
      busLine.busLineRouteList,
      busLine.busLineRouteSave,
      busLine.busLineRouteDeleteBatch,
      busLine.busLineStationInfo,
      busLine.busLineStationSave,
      busLine.busLineStationDelete,
      busLine.busLineDetailList,
      busLine.busLineDetailSave,
      busLine.busLineDetailInfo,
      busLine.busLineDetailDelete,
      busLine.busLineDetailAllOn,
      busLine.busLineDetailStationSave,
      busLine.busLineDetailStationInfo,
      busLine.busLineDetailStationDelete,
    ],
  },
  packagePay: {
    buttons: pkg.buttons,
    endpoints: [
      pkg.packagePage,
      pkg.packageTotal,
      pkg.packageExport,
      pkg.packageById,
      pkg.packageSave,
      pkg.packageUpdateStatus,
      pkg.packageDelete,
      pkg.packageOrderPage,
      pkg.packageOrderPageByBody,
      pkg.packageOrderTotal,
      pkg.packageOrderTotalByBody,
      pkg.packageOrderMsg,
      pkg.packageOrderRefundPreview,
      pkg.packageOrderRefund,
      pkg.packageOrderExport,
      pkg.packageSummaryPage,
      pkg.packageSummaryTotal,
      pkg.packageSummaryHealth,
      pkg.packageSummaryExport,
    ],
  },
  rechargeable: {
    buttons: wallet.buttons,
    endpoints: [
      wallet.planPage,
      wallet.planTotal,
      wallet.planExport,
      wallet.planById,
      wallet.planSave,
      wallet.planStatus,
      wallet.planDelete,
      wallet.orderPage,
      wallet.orderMsg,
      wallet.orderTotal,
      wallet.orderRefund,
      wallet.orderExport,
      wallet.walletPage,
      wallet.walletPageByBody,
      wallet.walletTotal,
      wallet.walletTotalByBody,
      wallet.walletExport,
      wallet.walletMsg,
      wallet.ledgerPage,
      wallet.ledgerExport,
      wallet.walletStatus,
      wallet.adjust,
      wallet.adjustPage,
      wallet.adjustTotal,
      wallet.adjustExport,
      wallet.adjustCheck,
      wallet.reconcile,
      wallet.settingQuery,
      wallet.settingSave,
    ],
  },
  callingCard: {
    buttons: family.buttons,
    endpoints: [
      family.bindPage,
      family.bindSummary,
      family.renewLogPage,
      family.renewLogSummary,
      family.unBind,
      family.updateBind,
      family.cardTypeDict,
      family.checkCard,
      family.bindExport,
      family.renewLogExport,
      // The body forms of the calls whose query may hold a citizen id or the password: what the console sends.
      family.bindPageByBody,
      family.bindSummaryByBody,
      family.bindExportByBody,
      family.unBindByBody,
      family.updateBindByBody,
    ],
  },
  specialCode: {
    buttons: {},
    endpoints: [
      discount.discountOrderPage,
      discount.discountOrderTotal,
      discount.discountOrderMsg,
      discount.discountOrderRefund,
      discount.discountOrderRefundRule,
      discount.productPage,
      discount.productById,
      discount.productTotal,
      discount.productStatus,
      discount.productSave,
      discount.productDelete,
      discount.countPage,
      discount.countTotal,
      discount.downloadTotal,
      discount.downloadOrder,
    ],
  },
  handleCard: { buttons: handleApply.buttons, endpoints: [card.cardPage, card.cardStateCounts, ...handleApply.endpoints] },
  cardVerify: { buttons: cardVerify.buttons, endpoints: cardVerify.endpoints },
  customBus: {
    buttons: customBus.buttons,
    endpoints: [...customNetwork.endpoints, ...customFleet.endpoints, ...customClasses.endpoints, ...customOrders.endpoints, ...customDemand.endpoints],
  },
  customSetting: { buttons: customSetting.buttons, endpoints: customSetting.endpoints },
  acitivity: { buttons: activity.buttons, endpoints: activity.endpoints },
} as const satisfies Record<ModuleId, { buttons: Readonly<Record<string, string>>; endpoints: readonly Endpoint[] }>;

type Contracts = typeof MODULE_CONTRACTS;
/** Button permission keys (spec §6): what the modules' contracts declare, nothing else. */
export type ButtonKey = { [M in keyof Contracts]: keyof Contracts[M]['buttons'] & string }[keyof Contracts];

/** A module's manifest with its contract: what the server binds and seeds and the tests check. */
export type ModuleContract = ModuleManifest & {
  buttons: Readonly<Record<string, string>>;
  endpoints: readonly Endpoint[];
};

export const CONTRACT_MODULES: readonly ModuleContract[] = MODULES.map((m) => ({ ...m, ...MODULE_CONTRACTS[m.id] }));

/** Every endpoint of the contract; the server binds exactly these and the tests check it. */
export const endpoints: readonly Endpoint[] = CONTRACT_MODULES.flatMap((m) => m.endpoints);
export const BUTTON_LABELS = Object.assign({}, ...CONTRACT_MODULES.map((m) => m.buttons)) as Record<ButtonKey, string>;
export const BUTTON_KEYS = Object.keys(BUTTON_LABELS) as ButtonKey[];

export { readTags, staleAfter, writeTags } from './tags';
