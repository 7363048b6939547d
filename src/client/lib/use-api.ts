import useSWR, { type SWRConfiguration } from 'swr';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api';
import { api } from './api-client';
import type { CallArgs, CallInput, CallOptions } from './http';

type UseApiArgs<E extends Endpoint> = object extends CallInput<E>
  ? [input?: CallInput<E> | null, config?: SWRConfiguration, options?: CallOptions]
  : [input: CallInput<E> | null, config?: SWRConfiguration, options?: CallOptions];

/** The SWR key of a call: the endpoint's id and its input, so keys follow the contract. */
export const keyOf = (endpoint: Endpoint, input: object) => [endpoint.id, JSON.stringify(input)] as const;

/**
 * Reads a GET endpoint with SWR; pass `null` as input to wait (e.g. until a dependency loads). The
 * input may be left out when the endpoint needs none.
 */
export function useApi<E extends Endpoint>(endpoint: E, ...[given, config, options]: UseApiArgs<E>) {
  // Left out only where `{}` is this endpoint's input (UseApiArgs).
  const input = given === undefined ? ({} as CallInput<E>) : given;
  return useSWR<z.output<E['response']>>(input ? keyOf(endpoint, input) : null, () => api.call(endpoint, ...([input, options] as CallArgs<E>)), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
    ...config,
  });
}
