import { AgreementPage } from '../../../components/resource/agreement-page';
import { RECHARGE_AGREEMENT } from '../paths';

/** 储值协议 (RechargeAgreement): the text riders accept before topping up their wallet, one per area. */
export function RechargeAgreementPage() {
  return <AgreementPage code={RECHARGE_AGREEMENT} title="储值协议" defaultTitle="储值服务协议" />;
}
