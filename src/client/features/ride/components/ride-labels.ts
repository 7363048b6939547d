/** Paid is the normal state; refunded and unpaid stand out in a long list. */
export const PAY_TONE: Record<number, string> = { 0: 'bg-orange-50 text-orange-800', 1: 'bg-green-50 text-green-800', 2: 'bg-gray-100 text-gray-700' };

/** The ride's recharge status, labelled as spec §3 names it (the spec says no more of its meaning). */
export const RECHARGE_STATUS = { 0: '未充值', 1: '已充值' } as const;
export const rechargeStatusLabel = (n: number): string => RECHARGE_STATUS[n as keyof typeof RECHARGE_STATUS] ?? String(n);
