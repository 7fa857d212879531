/** What the auth application needs from its caller: the platform ports and its configuration. */
import type { Platform } from '../../platform/ports.ts';
import type { AuthConfig } from '../config.ts';

/** An OAuth provider offered on /login and in capabilities (supplied by src/auth/oauth/). */
export interface OfferedProvider {
  /** `provider_a`, `provider_b`, `provider_c` */
  id: string;
  /** Human label for the sign-in button. */
  label: string;
  /** Path that starts the sign-in (it receives `?next=`). */
  startPath: string;
  /** Path the account page's "Link <label>" form posts to. */
  linkPath: string;
  /** Origin of the provider's authorization endpoint: that form's post redirects there. */
  authorizationOrigin: string;
}

export interface AuthDeps {
  platform: Platform;
  config: AuthConfig;
  /**
   * Extension point for OAuth: the providers currently enabled and credentialed. The password
   * core offers none; the OAuth wiring passes its own function.
   */
  offeredProviders?: () => OfferedProvider[];
}
