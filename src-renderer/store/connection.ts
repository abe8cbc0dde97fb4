import { create } from 'zustand';
import type { ConnectionStatus } from '../transport/client';

/** Connection state as the UI shows it; fed by the one EngineClient. */
export const useConnection = create<ConnectionStatus>(() => ({
  state: 'connecting',
  hello: null,
  lastError: null,
  attempt: 0,
  nextRetryMs: null,
}));
