import { a11yWalk } from '../support/a11y-walk';
import { PHONE } from '../support/e2e-console';

a11yWalk(PHONE);
