import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * eslint.config.js keeps the console's imports flowing one way (DESIGN §2, issue 20): lib/ is the
 * bottom and imports no layer above it; the business layer (the desk's shared dialogs) is for
 * features and app/ only; a feature never imports another. Each sample is linted as if it were a
 * file in the folder named, importing a real file.
 */
const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

describe('import layers in the console', () => {
  it.each([
    ['lib → components (the toast view)', 'src/client/lib/sample.ts', "import { Toaster } from '../components/toast';"],
    ['lib → commands (a type only)', 'src/client/lib/sample.ts', "import type { Command } from '../commands/types';"],
    ['lib → app', 'src/client/lib/sample.ts', "import { useSession } from '../app/session';"],
    ['lib → business', 'src/client/lib/sample.ts', "import { CardNoLink } from '../business/desk/card-no-link';"],
    ['lib → a feature', 'src/client/lib/sample.ts', "import account from '../features/account';"],
    ['components → business', 'src/client/components/sample.tsx', "import { RevealDialog } from '../business/desk/desk-dialogs';"],
    ['commands → business', 'src/client/commands/sample.ts', "import { handOff } from '../business/desk/lookup-handoff';"],
    ['business → a feature', 'src/client/business/desk/sample.ts', "import rider from '../../features/rider';"],
    ['a feature → another feature', 'src/client/features/ride/sample.ts', "import { cardViewScreen } from '../rider/card-view-chunk';"],
  ])('refuses %s', async (_name, file, code) => {
    expect(await refusals(file, code)).toHaveLength(1);
  });

  it.each([
    ['lib → lib', 'src/client/lib/sample.ts', "import { toast } from './toast';"],
    ['components → lib (toast state)', 'src/client/components/sample.tsx', "import { toast } from '../lib/toast';"],
    ['a feature → business', 'src/client/features/rider/sample.ts', "import { CardNoLink } from '../../business/desk/card-no-link';"],
    ['app → business', 'src/client/app/sample.ts', "import { CARD_VIEW } from '../business/desk/card-no-link';"],
    ['business → components and lib', 'src/client/business/desk/sample.ts', "import { Modal } from '../../components/modal';\nimport { toast } from '../../lib/toast';"],
    ['a feature → its own folder', 'src/client/features/rider/sample.ts', "import { cardViewScreen } from './card-view-chunk';"],
  ])('allows %s', async (_name, file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
