/** 基础设置's time-of-day fields: stored as seconds after midnight (spec §5), typed as HH:mm. */
export const hhmmOf = (seconds: number) => `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;

/** `8:30`, `08:30`, `0830`, `08：30` to seconds; NaN for anything that is not a time of day. */
export function secondsOfHhmm(text: string): number {
  const m = /^(\d{1,2})[:：]?(\d{2})$/.exec(text.trim());
  if (!m) return Number.NaN;
  const [h, min] = [Number(m[1]), Number(m[2])];
  return h > 23 || min > 59 ? Number.NaN : h * 3600 + min * 60;
}
