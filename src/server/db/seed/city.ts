/** The demo city: Shanghai, its centre (People's Square) and its 16 districts with GB/T 2260 codes. */
export const CITY = { name: '上海市', lat: 31.2304, lon: 121.4737 };

export const DISTRICTS: ReadonlyArray<{ name: string; code: string; lat: number; lon: number }> = [
  { name: '黄浦区', code: '310101', lat: 31.2317, lon: 121.4846 },
  { name: '徐汇区', code: '310104', lat: 31.1885, lon: 121.4365 },
  { name: '长宁区', code: '310105', lat: 31.2204, lon: 121.4244 },
  { name: '静安区', code: '310106', lat: 31.229, lon: 121.448 },
  { name: '普陀区', code: '310107', lat: 31.2495, lon: 121.397 },
  { name: '虹口区', code: '310109', lat: 31.2646, lon: 121.505 },
  { name: '杨浦区', code: '310110', lat: 31.2596, lon: 121.526 },
  { name: '闵行区', code: '310112', lat: 31.113, lon: 121.3817 },
  { name: '宝山区', code: '310113', lat: 31.405, lon: 121.489 },
  { name: '嘉定区', code: '310114', lat: 31.3747, lon: 121.2655 },
  { name: '浦东新区', code: '310115', lat: 31.2215, lon: 121.5447 },
  { name: '金山区', code: '310116', lat: 30.7417, lon: 121.342 },
  { name: '松江区', code: '310117', lat: 31.0322, lon: 121.2277 },
  { name: '青浦区', code: '310118', lat: 31.1497, lon: 121.1241 },
  { name: '奉贤区', code: '310120', lat: 30.9179, lon: 121.474 },
  { name: '崇明区', code: '310151', lat: 31.6229, lon: 121.3973 },
];

/**
 * The demo city's first `count` districts with the ids the seed gives them (1, 2, …), written
 * explicitly: plans made before the database exists (db/seed/ahead.ts) refer to them.
 */
export const demoDistricts = (count: number) => DISTRICTS.slice(0, count).map((d, i) => ({ ...d, id: i + 1, sort: i + 1 }));

export const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '罗', '高'];
export const GIVEN_NAMES = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平', '刚', '桂英', '建华', '晓东', '海燕'];
