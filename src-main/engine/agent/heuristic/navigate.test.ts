/** The heuristic agent's reading of navigation instructions: which ones send the robot somewhere, and where. */
import { describe, expect, it } from 'vitest';
import { parseNavigation } from './navigate';

describe('heuristic navigation instructions', () => {
  it('reads the place from the phrasings of a navigation instruction', () => {
    expect(parseNavigation('Navigate to the toaster oven.')).toBe('toaster oven');
    expect(parseNavigation('Drive over to the sink.')).toBe('sink');
    expect(parseNavigation('Go to the coffee machine and face it.')).toBe('coffee machine');
    expect(parseNavigation('Move the robot to the dishwasher.')).toBe('dishwasher');
  });

  it('leaves instructions that move objects to the other procedures', () => {
    expect(parseNavigation('Move the red cube to the bowl.')).toBeNull();
    expect(parseNavigation('Put the apple in the sink, then go to the stove.')).toBeNull();
    expect(parseNavigation('Open the drawer.')).toBeNull();
  });
});
