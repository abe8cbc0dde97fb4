import { create } from 'zustand';

export interface DuelPick {
  left: string;
  right: string;
  step?: number;
  /** Why it opened by itself (the first start's example pair), shown above it. */
  intro?: boolean;
}

/** The side-by-side view, when open; it replaces the studio's panels. */
export const useDuel = create<{ duel: DuelPick | null; open(d: DuelPick): void; close(): void }>((set) => ({
  duel: null,
  open: (duel) => set({ duel }),
  close: () => set({ duel: null }),
}));
