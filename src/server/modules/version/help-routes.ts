import { asc, eq } from 'drizzle-orm';
import * as help from '../../../shared/api/help';
import { richTextPlain } from '../../../shared/domain/rich-text';
import type { AppDeps } from '../../context';
import { DAY_MS, type SeedGenerator } from '../../db/seed/context';
import * as t from '../../db/schema';
import { enqueueExport } from '../../lib/export-definition';
import type { AnyExportKind } from '../../lib/export-tasks';
import type { Binder } from '../../plugins/contract';
import type { ModuleJob } from '../module';
import * as service from './help-service';
import { helpCatalogs, helpDocs } from './schema';

/** 帮助中心: binds its endpoints (api/help.ts). */
export function bindHelp(b: Binder, deps: AppDeps): void {
  b.bind(help.helpCatalogTree, ({ auth, query }) => service.catalogTree(deps, auth, query.audience));
  b.bind(help.helpCatalogSave, ({ auth, body }) => service.saveCatalog(deps, auth, body));
  b.bind(help.helpCatalogDelete, ({ auth, query }) => service.deleteCatalog(deps, auth, query.id));
  b.bind(help.helpDocPage, ({ auth, query }) => service.pageDocs(deps, auth, query));
  b.bind(help.helpDocTotal, ({ auth, query }) => service.docTotals(deps, auth, query));
  b.bind(help.helpDocExport, ({ auth, query }) => enqueueExport(deps, auth, service.docExport, query, service.docExportTitle(query)));
  b.bind(help.helpDocById, ({ auth, query }) => service.docById(deps, auth, query.id));
  b.bind(help.helpDocSave, ({ auth, body }) => service.saveDoc(deps, auth, body));
  b.bind(help.helpDocUpdateStatus, ({ auth, body }) => service.updateDocStatus(deps, auth, body));
  b.bind(help.helpDocDelete, ({ auth, query }) => service.deleteDoc(deps, auth, query.id));
  b.bind(help.helpDocByPage, ({ auth, query }) => service.docsByPage(deps, auth, query.pageKey));
  b.bind(help.helpDocRate, ({ auth, body }) => service.rateDoc(deps, auth, body));
  b.bind(help.helpDocView, ({ auth, body }) => service.viewDoc(deps, auth, body.id));
}

/** The 8 catalogues (second wave §11): riders' questions by topic, and the staff's console guides. */
const CATALOGS: readonly { key: string; name: string; audience: 1 | 2; parent?: string }[] = [
  { key: 'code', name: '乘车码', audience: 1 },
  { key: 'code-use', name: '开通与使用', audience: 1, parent: 'code' },
  { key: 'code-pay', name: '扣费与退款', audience: 1, parent: 'code' },
  { key: 'card', name: '公交卡与办卡', audience: 1 },
  { key: 'wallet', name: '充值与优惠', audience: 1 },
  { key: 'console', name: '控制台使用', audience: 2 },
  { key: 'desk', name: '审核与客服', audience: 2, parent: 'console' },
  { key: 'ops', name: '运营配置', audience: 2, parent: 'console' },
];

const p = (...lines: string[]) => lines.map((l) => `<p>${l}</p>`).join('');
const ul = (...items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
const ol = (...items: string[]) => `<ol>${items.map((i) => `<li>${i}</li>`).join('')}</ol>`;

/** 25 riders' questions, as the mini-program's 帮助 shows them. */
const RIDER_FAQ: readonly [catalog: string, title: string, html: string][] = [
  ['code-use', '如何开通乘车码？', p('打开小程序，点击首页「乘车码」，按提示完成实名认证并开通免密支付即可使用。') + ol('进入「乘车码」', '完成实名认证', '选择扣费方式并开通')],
  ['code-use', '乘车码可以离线使用吗？', p('可以。乘车码开通后，<strong>无网络时也能出示</strong>，联网后自动补扣车费。连续离线超过24小时需要联网刷新一次。')],
  ['code-use', '扫码时提示「二维码已失效」怎么办？', p('乘车码每分钟自动刷新。请下拉刷新页面后重新扫码；如仍失败，请检查手机时间是否准确。')],
  ['code-use', '一个手机号可以给家人开通乘车码吗？', p('每个实名账号只能为本人开通乘车码。家人可使用「亲情卡」功能绑定到您的账号，由您代付车费。')],
  ['code-use', '乘车码支持哪些线路？', p('本市所有常规公交线路和定制公交均支持乘车码。部分郊区线路以车内标识为准。')],
  ['code-use', '换手机后乘车码还能用吗？', p('在新手机上登录同一账号即可，原手机上的乘车码会自动失效。')],
  ['code-use', '如何关闭乘车码？', p('进入「我的」→「乘车码设置」→「关闭乘车码」。关闭前请确认没有未支付的行程。')],
  ['code-pay', '乘车后多久扣费？', p('一般在乘车后<strong>10分钟内</strong>扣费，高峰时段可能延迟，最迟不超过24小时。')],
  ['code-pay', '为什么被重复扣费？', p('极少数情况下网络重试会产生重复订单，系统会在<strong>3个工作日内自动退回</strong>多扣的车费。') + p('如超过3个工作日仍未退回，请在「意见反馈」中提交行程信息。')],
  ['code-pay', '扣费金额与票价不一致？', p('换乘优惠、老年卡、学生卡等优惠会在扣费时自动计算。请在「乘车记录」中查看每笔订单的优惠明细。')],
  ['code-pay', '如何申请退款？', p('在「乘车记录」中选择订单，点击「申请退款」，填写原因后提交。退款将原路退回。') + ul('乘车码订单：7天内可申请', '定制公交车票：发车前按退款规则退款')],
  ['code-pay', '退款多久到账？', p('微信支付一般1–3个工作日到账，银行卡最长7个工作日。')],
  ['code-pay', '欠费会影响乘车吗？', p('存在未支付订单时乘车码将暂停使用，补缴后立即恢复。')],
  ['card', '如何在线办理老年卡？', p('年满60周岁的本市户籍居民，可在小程序「线上办卡」提交申请。') + ol('上传身份证照片', '拍摄本人照片', '选择邮寄或自取', '支付工本费（如有）')],
  ['card', '学生卡办理需要什么材料？', p('需要学生证或在读证明、本人近照，以及监护人的同意（未满14周岁）。')],
  ['card', '办卡申请多久审核完成？', p('一般<strong>3个工作日</strong>内完成审核，审核结果会通过小程序消息通知您。')],
  ['card', '卡片丢失了怎么办？', p('请尽快在「卡片详情」中挂失，挂失后卡内余额可转入新卡。补卡需支付工本费。')],
  ['card', '老年卡需要年审吗？', p('需要，每年一次。到期前30天小程序会提醒您，可直接在线完成年审。')],
  ['card', '办卡被驳回怎么办？', p('驳回通知中会写明原因，按原因修改材料后可重新提交；已支付的工本费会原路退回。')],
  ['wallet', '如何给公交卡充值？', p('在「NFC充值」中将公交卡贴近手机背面，按提示完成支付和写卡。写卡过程中请勿移开卡片。')],
  ['wallet', '充值成功但卡内余额没变？', p('可能是写卡中断。请再次贴卡，系统会自动补写；24小时内未补写成功的订单将自动退款。')],
  ['wallet', '储值余额可以提现吗？', p('储值余额可申请退款，按<a href="https://www.example.gov.cn/bus/wallet-rules">储值协议</a>扣除已享受的优惠后原路退回。')],
  ['wallet', '套餐怎么购买和使用？', p('在「套餐购买」中选择套餐并支付，有效期内乘坐适用线路自动抵扣次数。') + ul('每日限乘次数以套餐说明为准', '未用完的次数到期作废')],
  ['wallet', '优惠活动为什么没有享受到？', p('每个活动有适用线路、时段和每日次数限制，活动预算用完后自动结束。具体规则见活动页面。')],
  ['wallet', '发票如何开具？', p('在「乘车记录」或「订单记录」中选择订单，点击「开具发票」，电子发票将发送到您的邮箱。')],
];

/** 15 staff guides, each bound to the console page it explains (★ 页内帮助). */
const STAFF_GUIDES: readonly [catalog: string, pageKey: string, title: string, html: string][] = [
  ['desk', 'busUser/bus-user', '乘客用户：查找乘客与查看实名信息', p('输入手机号、身份证号或卡号即可查找乘客；列表中的个人信息已脱敏。') + ol('选中乘客行，按 <strong>Enter</strong> 打开详情', '需要完整信息时点「查看实名信息」并填写原因', '查看记录会写入系统日志')],
  ['desk', 'busUser/yc-user', '异常用户：处理被限制的乘客', p('异常用户是因欠费、频繁退款等被暂停乘车码的乘客。核实后可解除限制，解除原因必填。')],
  ['desk', 'order/order-list', '乘车记录：按卡号或线路查询', p('不指定卡号时，查询范围最长31天。按线路和时间筛选后可导出，导出任务在下载中心查看。')],
  ['desk', 'cardVerify/card-verify-list', '验卡记录：审核学生卡与老年卡', p('按 <strong>j / k</strong> 选择申请，<strong>Enter</strong> 打开材料，对照照片与证件后通过或驳回。') + ul('自动检查全部通过的申请可以批量通过', '驳回请选择预设原因，乘客会收到通知')],
  ['desk', 'handleCard/handle-card-list', '办卡申请：审核、制卡与发货', p('申请依次经过审核、制卡、发货或自取、完成。驳回时工本费会自动原路退回，无需手工退款。')],
  ['desk', 'noticeReport/feedback', '意见反馈：认领、回复与超时', p('未处理的反馈按截止时间排序，超过3个工作日显示为超时。先认领再回复，避免两人同时处理同一条。')],
  ['desk', 'recharge/recharge', 'NFC充值记录：处理可疑订单', p('写卡结果未知的订单会进入可疑队列。核对卡片交易记录后选择「补写成功」或「退款」。')],
  ['ops', 'noticeReport/notice', '公告管理：编辑、定时发布与置顶', p('新建公告保存为草稿，可立即发布或定时发布。已发布的公告需先撤回才能修改。') + ul('每个区域最多置顶3条', '<strong>Ctrl+S</strong> 保存，<strong>Esc</strong> 离开前会提醒未保存的修改')],
  ['ops', 'version/version', '线网版本：提交审核与设置上线时间', p('新版本从当前线网复制而来，修改线路后提交审核；审核通过后设置上线时间，到点自动上线。')],
  ['ops', 'station/station', '站点：新增、停用与合并重复站点', p('按 <strong>Alt+M</strong> 查看疑似重复的站点，选择保留的一个后合并，线路中的引用会一并更新。')],
  ['ops', 'bus/list', '线路列表：编辑线路与站点顺序', p('线路属于线网版本，只能在未上线的版本中修改。修改站点顺序后请检查首末站。')],
  ['ops', 'packagePay/package-manage', '套餐管理：上架与下架', p('上架前需先设置套餐协议。在售套餐不能修改价格、次数和有效期，请先下架。')],
  ['ops', 'rechargeable/recharge-manage', '储值管理：档位、钱包与人工调账', p('人工调账需要两人完成：一人发起，另一人复核；超过500元由超级管理员复核。')],
  ['ops', 'customBus/classes', '班次管理：排班与取消班次', p('取消班次会给已购票乘客全额退款并发送通知，请确认后再操作。')],
  ['ops', 'user/user-list', '账号列表：新增账号与分配角色组', p('新账号的初始密码需在首次登录时修改。角色组决定可见菜单和按钮权限。')],
];

/** The small profile's catalogues and docs: a rider's question and a staff guide, one of them withdrawn, one a draft. */
const SMALL = { faq: [0, 8, 13], guides: [0, 7] };

export const helpSeed: readonly SeedGenerator[] = [
  {
    name: 'help-center',
    async run({ db, rng, now, profile }) {
      const [admin] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.login, 'admin'));
      const districts = await db.select({ id: t.districts.id }).from(t.districts).orderBy(asc(t.districts.sort), asc(t.districts.id));
      const ids = new Map<string, number>();
      for (const c of CATALOGS) {
        const parentId = c.parent ? ids.get(c.parent)! : null;
        const [row] = await db
          .insert(helpCatalogs)
          .values({ parentId, name: c.name, sort: ids.size, audience: c.audience, level: parentId ? 2 : 1, createdAt: now, updatedAt: now })
          .returning({ id: helpCatalogs.id });
        ids.set(c.key, row!.id);
      }
      const small = profile.name === 'small';
      const faq = small ? SMALL.faq.map((i) => RIDER_FAQ[i]!) : RIDER_FAQ;
      const guides = small ? SMALL.guides.map((i) => STAFF_GUIDES[i]!) : STAFF_GUIDES;
      const at = () => new Date(now.getTime() - rng.int(1, 120) * DAY_MS);
      const base = (title: string, html: string, catalog: string, i: number) => {
        const createdAt = at();
        return { catalogId: ids.get(catalog)!, title, content: html, contentText: richTextPlain(html), sort: i, createdBy: admin?.id ?? null, updatedBy: admin?.id ?? null, createdAt, updatedAt: createdAt };
      };
      // Riders' questions are the city's; most are published, a few drafts and one withdrawn.
      const riders = faq.map(([catalog, title, html], i) => ({
        ...base(title, html, catalog, i),
        districtId: null,
        audience: 1,
        pageKey: null,
        status: i === faq.length - 1 ? 2 : i % 9 === 4 ? 0 : 1,
        views: rng.int(50, 5000),
      }));
      // Staff guides: city-wide, one the first district's own wording; all published but the last (a draft).
      const staff = guides.map(([catalog, pageKey, title, html], i) => ({
        ...base(title, html, catalog, i),
        districtId: i === 1 && districts[0] ? districts[0].id : null,
        audience: 2,
        pageKey,
        status: i === guides.length - 1 && !small ? 0 : 1,
        views: rng.int(5, 300),
      }));
      await db.insert(helpDocs).values([...riders, ...staff]);
    },
  },
];
export const helpJobs: readonly ModuleJob[] = [];
export const helpExports: readonly AnyExportKind[] = [service.docExport];
