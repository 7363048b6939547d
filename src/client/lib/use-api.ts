import useSWR, { type SWRConfiguration } from 'swr';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api';
import { api } from './api-client';
import type { CallInput, CallOptions } from './http';

/** The SWR key of a call: the endpoint's id and its input, so keys follow the contract. */
export const keyOf = (endpoint: Endpoint, input: CallInput = {}) => [endpoint.id, JSON.stringify(input)] as const;

/** Reads a GET endpoint with SWR; pass `null` as input to wait (e.g. until a dependency loads). */
export function useApi<E extends Endpoint>(endpoint: E, input: CallInput | null = {}, config?: SWRConfiguration, options?: CallOptions) {
  return useSWR<z.output<E['response']>>(input ? keyOf(endpoint, input) : null, () => api.call(endpoint, input ?? {}, options), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
    keepPreviousData: true,
    ...config,
  });
}
