import { create } from 'zustand';
import type { EndpointSettings } from '../../src-shared/protocol';

/** The saved model endpoint as the engine reports it (never the key). */
export const useEndpoint = create<{ endpoint: EndpointSettings | null }>(() => ({ endpoint: null }));

export function endpointLabel(e: EndpointSettings | null): string | null {
  return e?.model ? `${e.model} @ ${e.baseUrl || 'api.openai.com'}` : null;
}
