import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint';
import { api } from './api-client';
import { useScreenLocation } from './screen-context';
import { idOf } from './use-record-by-id';

/** A page endpoint that finds orders by `orderNo` (its body form: an order number is not put in a URL). */
type OrderPage = Endpoint & { response: z.ZodType<{ content: readonly { id: number }[] }> };

/**
 * An order detail page's address: `?id=`, or `?orderNo=` (a number pasted in the palette), which is
 * looked up once through `endpoint` and then replaced by the address `pathOf` gives for the id found,
 * so the address names the id from then on. `looking` while that lookup runs; after it (not found,
 * or failed) `id` stays null and `byNo` says which number was asked for.
 */
export function useOrderByNo<E extends OrderPage>(endpoint: E, pathOf: (id: number) => string) {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const { id } = idOf(search);
  const byNo = id ? null : (new URLSearchParams(search).get('orderNo')?.trim() ?? null);
  const [missing, setMissing] = useState<string | null>(null);
  // The latest path (it may read the address, e.g. `?action=refund`) without asking again each render.
  const path = useRef(pathOf);
  useEffect(() => {
    path.current = pathOf;
  });
  useEffect(() => {
    if (!byNo) return;
    let live = true;
    api
      .call(endpoint as OrderPage, { body: { page: 0, size: 1, orderNo: byNo } }, { silent: true })
      .then((p) => {
        if (!live) return;
        const found = p.content[0];
        if (found) navigate(path.current(found.id), { replace: true });
        else setMissing(byNo);
      })
      .catch(() => live && setMissing(byNo));
    return () => {
      live = false;
    };
  }, [byNo, endpoint, navigate]);
  return { id, byNo, looking: !id && !!byNo && missing !== byNo };
}
