import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium (`apt-get install -y chromium`); no browser is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Flags for a closed network: without them chromium waits on Google's services (updates, sync,
 * QUIC probes) and a test hangs. Playwright starts each browser with a fresh `--user-data-dir`.
 */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A headless chromium; close it in `afterAll`. Fails when chromium is not installed. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 20_000 })
}
