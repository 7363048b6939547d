import { a11yWalk } from '../support/a11y-walk';
import { DESKTOP } from '../support/e2e-console';

a11yWalk(DESKTOP);
