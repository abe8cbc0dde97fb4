/**
 * LIBERO-PRO libero_10 on development seeds whose failures were traced and fixed: a moka pot held by
 * its handle, going to a burner at the edge of the arm's reach, is turned about the fingers to hang
 * beyond them (the hand stops that much nearer the base; before, the approach was out of reach), and a
 * mug wider than the caddy's back slot is lowered onto the slot's walls a centimetre at a time (pressed
 * down in one move, it tilted and slid 2 cm off the slot); a frying pan is gripped by its wall under the
 * rim's top, not under its rising handle's (held by the rim's very edge, it fell out on the way).
 */
import { describe, expect, it } from 'vitest';
import { createTaskWorld, runSolution } from '../../src-main/engine/environments/robot/tasks/world';

async function solves(taskId: string, variant: string, seed: number): Promise<void> {
  const ep = await createTaskWorld({ taskId, variant, seed });
  try {
    const r = await runSolution(ep);
    expect(r.verdict.success, `${r.error ?? ''} ${r.verdict.reason}`).toBe(true);
  } finally {
    ep.dispose();
  }
}

describe('LIBERO-PRO libero_10 reach and slots, development seeds', () => {
  it('KITCHEN_SCENE8, position axis, seed 1: both moka pots on the far stove', async () => {
    await solves('libero-pro/10/KITCHEN_SCENE8_put_both_moka_pots_on_the_stove', 'position', 1);
  });

  it('KITCHEN_SCENE3, task axis, seed 1: the frying pan carried onto the stove', async () => {
    await solves('libero-pro/10/KITCHEN_SCENE3_turn_on_the_stove_and_put_the_moka_pot_on_it', 'task', 1);
  });

  it('STUDY_SCENE1, task axis, seed 6: the mug set on the back compartment of the caddy', async () => {
    await solves('libero-pro/10/STUDY_SCENE1_pick_up_the_book_and_place_it_in_the_back_compartment_of_the_caddy', 'task', 6);
  });
});
