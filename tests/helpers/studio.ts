import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { startEngineProcess, type RunningEngine } from './engine';

export interface OpenStudio {
  engine: RunningEngine;
  browser: Browser;
  page: Page;
  /** Uncaught errors of the page, in order: a test expects none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * An engine of its own (episodes and config in a fresh temp folder, so no test sees another's) and
 * the studio open in Chromium without the first-start demo, connected and with the task list loaded.
 */
export async function openStudio(name: string, viewport = { width: 1600, height: 1000 }): Promise<OpenStudio> {
  const dir = mkdtempSync(join(tmpdir(), `rc-e2e-${name}-`));
  const engine = await startEngineProcess({ env: { ROBOCELL_EPISODES_DIR: join(dir, 'episodes'), ROBOCELL_CONFIG: join(dir, 'config.json') } });
  const browser = await launchChromium();
  const pageErrors: string[] = [];
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${engine.url}&demo=0`);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  await page.getByTestId('run-task').locator('option').first().waitFor({ state: 'attached' });
  return {
    engine,
    browser,
    page,
    pageErrors,
    close: async () => {
      await browser.close();
      await engine.stop();
    },
  };
}
