// Debian's chromium driven by playwright-core (no browser download): `.ci/run` installs it.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';

export const CHROMIUM = process.env.LOGSVC_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (bash .ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/**
 * Where page screenshots go: docs/ui/ when LOGSVC_UI_SCREENSHOTS=1 (to refresh the committed
 * ones), else a temporary folder, so a test run leaves the work tree as it was.
 */
export function screenshotDir(): string {
  if (process.env.LOGSVC_UI_SCREENSHOTS === '1') {
    const dir = resolve(__dirname, '..', '..', 'docs', 'ui');
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  return mkdtempSync(join(tmpdir(), 'logsvc-ui-shots-'));
}

/** A screenshot of the page in the light and in the dark theme: `<name>-light.png`, `-dark.png`. */
export async function screenshots(page: Page, dir: string, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await nextFrames(page);
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await nextFrames(page);
}

/** Two frames: the charts draw themselves again in the new theme's colours. */
async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))',
  );
}

/** What a page logged as an error since the last take(), without those matching `except`. */
export interface ConsoleErrors {
  take(except?: RegExp): string[];
}

/** A chromium with one 1280×800 page, and the errors that page logs. */
export interface BrowserPage {
  readonly browser: Browser;
  readonly page: Page;
  readonly errors: ConsoleErrors;
}

export async function openPage(): Promise<BrowserPage> {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  return { browser, page, errors: consoleErrors(page) };
}

/**
 * Collects what the page logs as an error (console errors, failed loads, uncaught exceptions),
 * each with its URL. A LogQL check the test makes fail on purpose (`format_query`, 400) is
 * the page working, so it may be left out with `except`.
 */
export function consoleErrors(page: Page): ConsoleErrors {
  let errors: Array<{ text: string; url: string }> = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push({ text: m.text(), url: m.location().url });
  });
  page.on('pageerror', (err) => errors.push({ text: String(err), url: '' }));
  return {
    take(except?: RegExp) {
      const out = errors
        .filter((e) => !(except && except.test(e.url)))
        .map((e) => `${e.text} (${e.url})`);
      errors = [];
      return out;
    },
  };
}
