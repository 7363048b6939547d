import { PACKAGE_AGREEMENT } from '../../../../shared/api/package-pay';
import { AgreementPage } from '../../../components/resource/agreement-page';

/** 套餐协议 (PackageAgreement): the text riders accept before buying a package, one per area; 上架 needs it. */
export function PackageAgreementPage() {
  return <AgreementPage code={PACKAGE_AGREEMENT} title="套餐协议" defaultTitle="套餐购买协议" />;
}
