import type { EntityRecord } from '../../../src/client/commands/entity-source';
import type { Command, PaletteItem } from '../../../src/client/commands/types';
import { SESSION } from '../../../src/shared/api';

/**
 * The palette benchmark's data: ~200 commands, ~100 menu pages and the rest stations and lines
 * with Shanghai-like Chinese names (polyphones included: 长宁/长寿, 重庆, 行知, 乐山/长乐, 西藏,
 * 朝阳, 解放…). Deterministic: a seeded mulberry32, so every run indexes the same 50,000 titles.
 */

export interface BenchData {
  commands: Command[];
  pages: PaletteItem[];
  records: EntityRecord[];
}

/** The group the palette shows records of the bench's `load` source under. */
export const RECORD_GROUP = '站点与线路';

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROAD_STEMS = (
  '南京 北京 延安 淮海 长宁 长寿 重庆 行知 乐山 长乐 西藏 河南 江西 福建 浙江 四川 天目 虹桥 中山 漕溪 宜山 零陵 ' +
  '龙华 华山 衡山 武康 复兴 建国 肇嘉浜 曹杨 真北 金沙江 武宁 大渡河 古北 仙霞 天山 遵义 番禺 凯旋 宛平 岳阳 ' +
  '襄阳 常熟 乌鲁木齐 巨鹿 富民 茂名 瑞金 思南 陕西 石门 江宁 昌平 新闸 康定 余姚 海防 长安 天潼 曲阳 ' +
  '四平 大连 控江 长阳 平凉 杨树浦 黄兴 国权 政立 邯郸 场中 共和新 广中 汶水 灵石 沪太 祁连山 真华 ' +
  '水产 友谊 牡丹江 同济 宝杨 逸仙 江杨 蕰川 沪嘉 曹安 嘉松 博乐 城中 叶城 胜辛 塔城 墨玉 ' +
  '张杨 浦东 浦建 世纪 东方 源深 杨高 锦绣 龙阳 芳华 金桥 川桥 沪南 周康 秀沿 申江 罗山 高科 ' +
  '祖冲之 郭守敬 华夏 金科 川沙 航城 惠南 东大 人民 解放 朝阳 会文 传化 调兵 重阳 行南 乐都 长兴 ' +
  '都市 莘松 七莘 沪闵 虹梅 吴中 莲花 银都 春申 顾戴 莘建 沪青平 外青松 漕宝 华翔 盈港 城中 ' +
  '淀浦河 公园 园南 昌里 成山 上南 济阳 云莲 德州 杨思 三林 永泰 海阳 东明 高青 北艾 锦康'
)
  .split(/\s+/)
  .filter(Boolean);

const DIRECTIONS = ['', '', '', '东', '西', '南', '北', '中'];
const ROAD_KINDS = ['路', '路', '路', '路', '路', '街', '公路', '大道'];

const LANDMARKS = (
  '人民广场 陆家嘴 徐家汇 静安寺 中山公园 五角场 虹桥火车站 上海火车站 上海南站 世纪公园 张江高科 七宝 莘庄 外滩 ' +
  '豫园 新天地 长寿公园 重固 长兴岛 朱家角 淀山湖 金山卫 南汇 临港 周浦 高桥 吴淞 顾村 安亭 南翔 江桥 泗泾 九亭 ' +
  '南桥 堡镇 横沙 曹路 唐镇 合庆 北蔡 康桥 航头 新场 大团 书院 泥城 万祥 老港 宣桥 祝桥 龙华寺 田子坊 鲁迅公园 ' +
  '复旦大学 同济大学 交通大学 华东师大 人民公园 长风公园 共青森林公园 滨江大道 东方明珠 浦东机场 虹桥机场 ' +
  '国家会展中心 迪士尼 野生动物园 辰山植物园 欢乐谷 佘山 广富林 醉白池 方塔园 古猗园 南翔老街 曹杨新村 ' +
  '长白新村 控江新村 彭浦新村 田林新村 康健新村 梅陇 古美 春申 颛桥 北桥 马桥 吴泾 浦江 三林 杨思 上钢新村'
)
  .split(/\s+/)
  .filter(Boolean);

const LANDMARK_SUFFIXES = ['', '站', '（地铁站）', '枢纽站', '公交枢纽', '北广场', '南广场', '东门', '西门', '1号门', '2号门', '停车场', '首末站'];
const PLACE_SUFFIXES = ['医院', '中学', '小学', '新村', '小区', '镇政府', '街道', '派出所', '菜场', '商场', '客运站', '工业区', '大厦'];

const DISTRICTS = ['黄浦区', '徐汇区', '长宁区', '静安区', '普陀区', '虹口区', '杨浦区', '闵行区', '宝山区', '嘉定区', '浦东新区', '金山区', '松江区', '青浦区', '奉贤区', '崇明区'];
const LINE_PREFIXES = ['', '', '', '浦东', '松江', '嘉定', '青浦', '金山', '奉贤', '宝山', '闵行', '崇明', '南汇', '申川', '沪南', '川沙', '安亭', '南桥', '朱家角', '长兴'];
const LINE_KINDS = ['路', '路', '路', '路', '路', '路', '路夜宵', '路区间', '路高峰', '路定制', '路大站车'];
const CN_DIGITS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

const pick = <T,>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

function roadName(rand: () => number): string {
  return pick(rand, ROAD_STEMS) + pick(rand, DIRECTIONS) + pick(rand, ROAD_KINDS);
}

function stationName(rand: () => number): string {
  const r = rand();
  if (r < 0.6) {
    // Shanghai stops are named after the crossing: 南京东路河南中路.
    let a = roadName(rand);
    let b = roadName(rand);
    while (b === a) b = roadName(rand);
    return a + b;
  }
  if (r < 0.75) return pick(rand, LANDMARKS) + pick(rand, LANDMARK_SUFFIXES);
  if (r < 0.9) return `${roadName(rand)}${1 + Math.floor(rand() * 2999)}号`;
  return pick(rand, LANDMARKS) + pick(rand, PLACE_SUFFIXES);
}

function lineName(rand: () => number): string {
  const r = rand();
  if (r < 0.82) {
    const prefix = pick(rand, LINE_PREFIXES);
    const n = 1 + Math.floor(rand() * (prefix ? 399 : 1999));
    return `${prefix}${n}${pick(rand, LINE_KINDS)}`;
  }
  if (r < 0.86) return `地铁${1 + Math.floor(rand() * 20)}号线${pick(rand, ['', '支线', '（东段）', '（西段）'])}`;
  if (r < 0.9) return `隧道${pick(rand, CN_DIGITS)}线${pick(rand, ['', '区间', '夜宵'])}`;
  if (r < 0.95) return `${pick(rand, ['机场', '旅游', '大桥', '定制', '专线', '区间', '高峰'])}${1 + Math.floor(rand() * 99)}线`;
  return `${pick(rand, LANDMARKS)}${pick(rand, ['环线', '接驳线', '穿梭巴士', '专线'])}${1 + Math.floor(rand() * 9)}号`;
}

const VERBS: [string, string[]][] = [
  ['新增', ['add', 'new']],
  ['查询', ['find', 'search']],
  ['导出', ['export']],
  ['导入', ['import']],
  ['编辑', ['edit']],
  ['删除', ['delete']],
  ['审核', ['review']],
  ['停用', ['disable']],
  ['启用', ['enable']],
  ['打印', ['print']],
  ['复制', ['copy']],
  ['调整', ['adjust']],
  ['重置', ['reset']],
  ['批量更新', ['bulk']],
  ['发布', ['publish']],
];

const OBJECTS: [string, string][] = [
  ['站点', '站点管理'],
  ['线路', '线路管理'],
  ['班次', '运营调度'],
  ['车辆', '车辆管理'],
  ['司机', '人员管理'],
  ['排班', '运营调度'],
  ['票价', '票务管理'],
  ['卡片', '票务管理'],
  ['乘客', '乘客服务'],
  ['账号', '系统管理'],
  ['角色', '系统管理'],
  ['区域', '系统管理'],
  ['版本', '版本管理'],
  ['公告', '乘客服务'],
  ['行车计划', '运营调度'],
];

const MODULES: [string, string[]][] = [
  ['站点管理', ['站点列表', '站点地图', '站牌维护', '候车亭', '站点审核', '站点变更记录', '站点合并', '站点导入', '站点照片', '站点统计', '无障碍设施', '站点别名']],
  ['线路管理', ['线路列表', '线路走向', '线路站序', '线路审核', '线路变更记录', '长线路拆分', '重复线路检查', '夜宵线', '定制公交', '线路统计', '线路票价', '线路调整公示']],
  ['运营调度', ['行车计划', '班次管理', '排班表', '实时调度', '车辆位置', '发车间隔', '首末班时间', '调度日志', '临时调度', '重大活动保障', '运营日报', '异常事件']],
  ['车辆管理', ['车辆列表', '车辆档案', '保养计划', '维修记录', '车载设备', '新能源车辆', '车辆调拨', '年检提醒', '车辆统计', '报废车辆', '充电桩', '停车场']],
  ['人员管理', ['司机列表', '乘务员', '调度员', '考勤记录', '培训记录', '资格证书', '安全行车', '奖惩记录', '人员排班', '人员统计', '请假审批', '体检记录']],
  ['票务管理', ['票价方案', '交通卡', '优惠政策', '换乘优惠', '乘车码', '退款订单', '异常订单', '对账报表', '票务统计', '长者卡', '学生卡', '售票点']],
  ['乘客服务', ['乘客列表', '投诉建议', '失物招领', '公告管理', '问卷调查', '热线工单', '乘客满意度', '出行提示', '客流统计', '乐享出行', '服务评价', '意见反馈']],
  ['系统管理', ['账号管理', '角色权限', '区域管理', '系统日志', '操作审计', '参数设置', '数据字典', '消息推送', '定时任务', '接口管理', '版本发布', '协议管理']],
  ['版本管理', ['应用版本', '固件版本', '发布记录', '灰度发布']],
];

/**
 * `total` entries: 200 commands, 100 pages, then stations and lines (about 5:1). Titles are unique,
 * so cmdk item values (the plain variant uses the title) never collide.
 */
export function benchData(total = 50_000, seed = 20261122): BenchData {
  const rand = mulberry32(seed);
  const noop = () => undefined;

  const commands: Command[] = [];
  outer: for (const [object, group] of OBJECTS) {
    for (const [verb, keywords] of VERBS) {
      if (commands.length >= 200) break outer;
      commands.push({
        id: `bench.${commands.length}`,
        title: `${verb}${object}`,
        group,
        keywords,
        permission: SESSION,
        page: null,
        hotkey: commands.length < 20 ? `alt+${String.fromCharCode(97 + commands.length)}` : undefined,
        run: noop,
      });
    }
  }

  const pages: PaletteItem[] = [];
  for (const [module, titles] of MODULES) {
    titles.forEach((title, i) => {
      if (pages.length >= 100) return;
      pages.push({ key: `page:/bench/${pages.length}`, title, subtitle: module, group: '页面', hotkey: i === 0 ? `g ${pages.length}` : undefined });
    });
  }

  const seen = new Set<string>([...commands.map((c) => c.title), ...pages.map((p) => p.title)]);
  const records: EntityRecord[] = [];
  const wanted = Math.max(0, total - commands.length - pages.length);
  const stations: string[] = [];
  while (records.length < wanted) {
    const isLine = records.length % 6 === 5;
    const title = isLine ? lineName(rand) : stationName(rand);
    if (seen.has(title)) continue;
    seen.add(title);
    const n = records.length;
    if (isLine) {
      const from = stations.length ? pick(rand, stations) : '人民广场';
      const to = stations.length ? pick(rand, stations) : '徐家汇';
      records.push({ key: `line:${n}`, title, subtitle: `线路 · ${from} — ${to}`, path: `/line/line-list?id=${n}` });
    } else {
      stations.push(title);
      records.push({ key: `station:${n}`, title, subtitle: `站点 · ${pick(rand, DISTRICTS)}`, path: `/station/station-list?id=${n}` });
    }
  }
  return { commands, pages, records };
}
