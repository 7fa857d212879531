/**
 * The start-up probe's answer (host/guest/startup-probe.ts): to the one `GET /api/health` carrying
 * the probe token, the guest answers `{ status: 'ok', features: [...] }`, what its configuration
 * turns on and why anything is off, which the host puts in its start-up line as it is. The host
 * knows these only as names and words.
 */

/** `mail` is special to the host: `on` means the component sends mail, and the host names its transport. */
export interface StartupFeature {
  name: string;
  /** `on`, `on (detail)` or `off (why)`. */
  state: string;
}

export const STARTUP_FEATURES_FIELD = 'features';
