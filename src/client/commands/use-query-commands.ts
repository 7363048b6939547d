import { useEffect, useMemo, useState } from 'react';
import { type Romanize, buildIndex, createSearcher } from '../../shared/domain/search';
import type { Mode } from './palette-rows';
import type { ArgOption, Command, PaletteItem } from './types';

/** Enough to choose from: the rest of the query names the record, the best few are offered. */
const QUERY_ROWS = 3;

interface Deps {
  open: boolean;
  mode: Mode;
  text: string;
  commands: readonly Command[];
  romanize: Romanize | null;
}

/**
 * A command typed whole as its data (`zjgk 下周一至五 07:30,08:00 45`): each command that reads the
 * query (`fromQuery`) takes the values it recognises, and what is left names the one choice it still
 * needs (the line), ranked over that choice's options as a step would rank them. Each row states the
 * whole change, so Enter on it is the command run with every argument; nothing is written before
 * the page it opens shows what will happen (the batch's dry run). `pending`: options on their way.
 */
export function useQueryCommands({ open, mode, text, commands, romanize }: Deps): { rows: PaletteItem[]; pending: boolean } {
  const parsed = useMemo(() => {
    if (mode !== 'all' || !text) return [];
    return commands.flatMap((command) => {
      const found = command.fromQuery?.(text);
      const arg = found && command.args?.find((a) => !(a.name in found.values));
      return found && arg?.kind === 'choice' && arg.options && found.rest ? [{ command, found, arg }] : [];
    });
  }, [mode, text, commands]);
  // Each command's options, once per opening of the palette.
  const [options, setOptions] = useState<Record<string, ArgOption[]>>({});
  useEffect(() => {
    if (!open) setOptions({});
  }, [open]);
  const wanted = parsed.filter((p) => !(p.command.id in options));
  const wantedKey = wanted.map((p) => p.command.id).join(',');
  useEffect(() => {
    let live = true;
    for (const p of wanted) {
      Promise.resolve(p.arg.options!())
        .catch(() => [] as ArgOption[])
        .then((opts) => live && setOptions((o) => (p.command.id in o ? o : { ...o, [p.command.id]: opts })));
    }
    return () => {
      live = false;
    };
    // Once per command whose options are missing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantedKey]);
  const rows = useMemo(
    () =>
      parsed.flatMap(({ command, found, arg }) => {
        const opts = options[command.id];
        if (!opts) return [];
        const search = createSearcher(buildIndex(opts.map((o) => ({ id: o.value, title: o.label, keywords: o.keywords })), romanize ?? undefined));
        return search(found.rest, { limit: QUERY_ROWS }).flatMap((m): PaletteItem[] => {
          const option = opts.find((o) => o.value === m.id);
          if (!option) return [];
          const values = { ...found.values, [arg.name]: option.value };
          return [
            {
              key: `query:${command.id}:${option.value}:${text}`,
              title: `${command.title}：${found.title(option)}`,
              subtitle: option.subtitle,
              group: '按输入执行',
              run: (ctx) => command.run(ctx, values),
            },
          ];
        });
      }),
    [parsed, options, romanize, text],
  );
  return { rows, pending: wanted.length > 0 };
}
